#!/bin/sh
# Developer probe: libinput backend, path and seat.
T=.build/debug/touchline
for TR in ../shared/traces ../../shared/traces; do [ -d "$TR" ] && break; done
R=/vmresults
F="$TR/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
$T play --start-delay 3 --hold 1 "$F" > $R/ts.node &
sleep 1; udevadm settle
$T run --backend libinput $(cat $R/ts.node) > $R/li-path.jsonl
echo "path exit $?"; wc -l < $R/li-path.jsonl; head -5 $R/li-path.jsonl
wait
$T run --backend libinput > $R/li-seat.jsonl 2>$R/li-seat.err &
RUN=$!
sleep 2
$T play --start-delay 2 --hold 1 "$F" > $R/ts2.node
sleep 1
kill -TERM $RUN; wait $RUN; echo "seat exit $?"
cat $R/li-seat.err; wc -l < $R/li-seat.jsonl; head -3 $R/li-seat.jsonl
