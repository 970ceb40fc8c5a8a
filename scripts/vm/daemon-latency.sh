#!/bin/sh
# The daemon's kernel-to-socket latency on a real kernel (docs/performance.md, "The daemon"):
# run inside the VM by
#   swift build -c release --product touchline &&
#   scripts/vm/run.sh scripts/vm/daemon-latency.sh "$(swift build -c release --show-bin-path)/touchline"
# `touchline daemon` on the evdev source (it waits for touchscreens and picks them up by
# inotify), a uinput touchscreen made by `touchline play` for each recording, and
# Bench/kernel-latency subscribed on the socket, comparing each event's kernel time
# (CLOCK_MONOTONIC) with its receive time. Under software emulation (TCG) the figures are
# emulation's, several times a real machine's. Results in .build-vm/results/kernel-latency.txt.
T=${1:-.build/release/touchline}
R=/vmresults
W=/tmp/latency
mkdir -p "$W"
echo "== daemon latency: kernel $(uname -r), $(nproc) cpus, touchline $T"
"$T" daemon --socket "$W/s" > /dev/null 2> "$W/daemon.err" &
daemon=$!
python3 Bench/kernel-latency --socket "$W/s" --seconds 240 --ready "$W/ready" --out "$R/kernel-latency.txt" &
client=$!
i=0; while [ ! -e "$W/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
for round in 1 2 3; do
    for rec in pan pinch rotate drag two-finger-swipe-down; do
        # --start-delay: the daemon opens the new node (inotify) before the first frame.
        "$T" play --start-delay 1 --hold 0.3 "Recordings/$rec.yml" > /dev/null 2>> "$W/play.err"
    done
done
sleep 1
kill -TERM "$client" 2>/dev/null; wait "$client"
kill -TERM "$daemon"; wait "$daemon"; status=$?
cat "$W/daemon.err" "$W/play.err" > "$R/daemon-latency.log"
grep "ms after its time" "$W/play.err" | sort | tail -n 1 | sed 's/^/  play, worst: /'
[ -s "$R/kernel-latency.txt" ] || { echo "FAIL no latency figures"; exit 1; }
exit $status
