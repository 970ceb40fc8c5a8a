#!/bin/sh
# Pass-through on a real kernel (issue 25, docs/live.md#pass-through): the daemon grabs each
# uinput touchscreen and gives the system a clone; a recorder on each clone sees what an
# application would. Run inside the VM by scripts/vm/e2e.sh (or alone:
# scripts/vm/run.sh scripts/vm/e2e-passthrough.sh .build/debug/touchline).
# Every check logs "PASS name" or "FAIL name: why"; the exit code is the number of failures.
T=${1:-${TOUCHLINE:-.build/debug/touchline}}
R=${R:-/vmresults}
P=/tmp/e2e/passthrough
mkdir -p $P
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
check() { if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
node_of() { i=0; while [ ! -s "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done; head -n1 "$1"; }
wait_sock() { i=0; while [ ! -e "$1" ] && kill -0 "$2" 2>/dev/null && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done; [ -e "$1" ]; }
# The clone of node $1: the input device whose Phys is touchline-passthrough/$1 (at most 20 s).
clone_of() {
    i=0
    while [ $i -lt 400 ]; do
        c=$(awk -v phys="P: Phys=touchline-passthrough/$1" '$0 == phys {f = 1} f && /^H: / {for (i = 2; i <= NF; i++) if ($i ~ /^event[0-9]+$/) print "/dev/input/" $i; f = 0}' /proc/bus/input/devices | head -n1)
        [ -n "$c" ] && { echo "$c"; return 0; }
        sleep 0.05; i=$((i + 1))
    done
    return 1
}
# Frames where a contact landed, moved or lifted, without times, ids and slots (the clone has
# its own ids; the kernel stamps times; a frame where nothing moved writes nothing to a clone).
frames() { $T replay --frames "$1" | grep -E '"phase":"(began|moved|ended)"' | sed -E -e 's/"time":[0-9.]*,//' -e 's/"id":[0-9]+,//g' -e 's/"slot":[0-9]+,//g'; }
# A device as evemu-describe reads it from the kernel (name, ids, properties, every code, each
# axis's range, fuzz, flat and resolution), without comments.
describe() { evemu-describe "$1" 2>&1 | grep -v '^#'; }
tracking() { grep -c 'EV_ABS / ABS_MT_TRACKING_ID' "$1" 2>/dev/null; }

echo "== e2e pass-through: touchline $T"
cat > $P/kiosk.toml <<'TOML'
[[recognizer]]
kind = "edgeSwipe"
consume = true

[[recognizer]]
name = "threeFingerSwipe"
kind = "swipe"
fingers = 3
consume = true
hold = "500ms"
holdDistance = "80mm"

[[recognizer]]
kind = "tap"

[[recognizer]]
kind = "pan"
maximumFingers = 2

[[device]]
match.name = "Touchline Synthetic Touchscreen"
passthrough = true
TOML
nice -n -10 $T daemon --config $P/kiosk.toml --stdout --socket $P/s.sock > $P/daemon.jsonl 2>$P/daemon.err &
PD=$!
wait_sock $P/s.sock $PD || fail "pass-through daemon starts" "no socket: $(cat $P/daemon.err)"
# One device per gesture, each plugged in while the daemon runs (hotplug): grabbed, cloned; a
# recorder on the clone is ready before the gesture is played.
k=0
for f in edge-swipe-left.yml tap.yml pan.yml three-finger-swipe-up.yml; do
    $T play --start-delay 0.5 --hold 0.5 --wait-for $P/ready$k Recordings/$f > $P/play$k.node 2>$P/play$k.err &
    PP=$!
    n=$(node_of $P/play$k.node)
    if c=$(clone_of "$n"); then
        udevadm settle -t 10
        # libinput's own reader on the clone too, as an application's stack would read it.
        libinput debug-events --device "$c" > $P/li$k.txt 2>&1 &
        PL=$!
        # Its device is open once it says DEVICE_ADDED (at most 10 s); the gesture is played
        # only after the recorder below is ready too.
        i=0; while ! grep -q DEVICE_ADDED $P/li$k.txt 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
        $T record --ready-file $P/ready$k -o $P/clone$k.yml "$c" 2>$P/rec$k.err &
        PR=$!
        describe "$n" > $P/dev$k.desc; describe "$c" > $P/clone$k.desc
        grep -q "^N: " $P/dev$k.desc && cmp -s $P/dev$k.desc $P/clone$k.desc
        check "pass-through: the clone of $f's device has its name, ids, properties, codes and absinfo (evemu-describe)" $? "$(diff $P/dev$k.desc $P/clone$k.desc | head -6 | tr '\n' ' ')"
        echo "  $f: $n cloned as $c"
    else
        fail "pass-through: $n ($f) is cloned" "no clone in /proc/bus/input/devices; $(tail -3 $P/daemon.err)"
        touch $P/ready$k; PR=; PL=
    fi
    wait $PP
    sleep 0.5
    [ -n "$PR" ] && { kill -TERM $PR; wait $PR; }
    [ -n "$PL" ] && { kill -TERM $PL; wait $PL 2>/dev/null; }
    k=$((k + 1))
done
# The edge swipe was recognized (and kept from the clone); the tap and the pan too.
grep -q '"gesture":"edgeSwipe","phase":"began"' $P/daemon.jsonl
check "pass-through: the consumed edge swipe is still recognized" $? "$(head -c 400 $P/daemon.jsonl)"
[ -s $P/clone0.yml ] && [ "$(tracking $P/clone0.yml)" = 0 ]
check "pass-through: the consumed edge swipe never reaches the clone" $? "$(grep -c SYN_REPORT $P/clone0.yml) frames: $(grep -m3 'EV_ABS / ABS_MT' $P/clone0.yml | tr '\n' ' ')"
# The consuming three-finger swipe (its own hold, 500 ms / 80 mm, covers its stroke): recognized,
# and none of its three touches reaches the clone.
grep -q '"gesture":"swipe","phase":"recognized".*"fingers":3' $P/daemon.jsonl
check "pass-through: the consumed three-finger swipe is still recognized" $? "$(grep '"swipe"' $P/daemon.jsonl | head -c 300)"
[ -s $P/clone3.yml ] && [ "$(tracking $P/clone3.yml)" = 0 ]
check "pass-through: the consumed three-finger swipe never reaches the clone" $? "$(grep -c SYN_REPORT $P/clone3.yml) frames: $(grep -m3 'EV_ABS / ABS_MT' $P/clone3.yml | tr '\n' ' ')"
# What libinput reads from the clones: the tap at its place (Recordings/tap.yml: 100.00/70.00
# mm), the pan's touch, and nothing of the consumed gestures.
grep -q "TOUCH_DOWN.*(100.00/70.00mm)" $P/li1.txt && grep -q "TOUCH_UP" $P/li1.txt
check "pass-through: libinput debug-events on the clone reads the tap down at 100.00/70.00 mm and up" $? "$(grep -m2 TOUCH $P/li1.txt | tr '\n' ' ') $(head -c 300 $P/li1.txt)"
grep -q "TOUCH_MOTION" $P/li2.txt && grep -q "TOUCH_UP" $P/li2.txt
check "pass-through: libinput debug-events on the clone reads the pan" $? "$(head -c 300 $P/li2.txt)"
! grep -q "TOUCH_DOWN" $P/li0.txt && ! grep -q "TOUCH_DOWN" $P/li3.txt
check "pass-through: libinput debug-events reads nothing of the consumed edge swipe and three-finger swipe" $? "$(grep -m2 TOUCH_DOWN $P/li0.txt $P/li3.txt | tr '\n' ' ')"
for pair in 1:tap.yml 2:pan.yml; do
    i=${pair%%:*}; f=${pair#*:}
    frames $P/clone$i.yml > $P/got$i; frames Recordings/$f > $P/want$i
    [ -s $P/want$i ] && cmp -s $P/got$i $P/want$i
    check "pass-through: the $f touch reaches the clone with the original coordinates, pressure and size, frame by frame" $? "$(diff $P/got$i $P/want$i | head -4 | tr '\n' ' ') $(tail -2 $P/rec$i.err)"
done
# SIGKILL: the kernel drops the grab and the clone with the daemon's descriptors; the device
# delivers to other readers again.
$T play --start-delay 0.5 --hold 0.5 --wait-for $P/killed Recordings/tap.yml > $P/playk.node 2>$P/playk.err &
PP=$!
n=$(node_of $P/playk.node)
c=$(clone_of "$n")
# While the clone exists (the players' devices, and so their clones, are gone by now).
$T devices --json > $P/devices.jsonl 2>&1
grep -q "\"path\":\"$c\".*\"verdict\":\"clone\"" $P/devices.jsonl
check "pass-through: touchline devices says 'clone' for the clone $c (discovery never opens it)" $? "$(grep "$c" $P/devices.jsonl | head -c 400)"
kill -KILL $PD; wait $PD 2>/dev/null
i=0; while grep -q "Phys=touchline-passthrough/$n" /proc/bus/input/devices && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
! grep -q "Phys=touchline-passthrough/$n" /proc/bus/input/devices
check "pass-through: SIGKILL of the daemon removes the clone ($c)" $? "$(grep -A3 "touchline-passthrough" /proc/bus/input/devices | head -5)"
$T record --ready-file $P/killed -o $P/after-kill.yml "$n" 2>$P/reck.err &
PR=$!
wait $PP
sleep 0.3
kill -TERM $PR; wait $PR
[ "$(tracking $P/after-kill.yml)" -gt 0 ]
check "pass-through: after SIGKILL the original device delivers events again" $? "$(tail -2 $P/reck.err)"
# In-process latency of forwarded frames (docs/live.md#pass-through, "Measured"): a daemon with
# --measure and no consuming recognizer (every frame forwarded in its own step: the cost of
# the planner, the encoder and the write), stopped by SIGTERM so that it prints its
# histograms: a frame read to the frame written to the clone.
cat > $P/measure.toml <<'TOML'
[[recognizer]]
kind = "tap"

[[recognizer]]
kind = "pan"

[[device]]
match.name = "Touchline Synthetic Touchscreen"
passthrough = true
TOML
nice -n -10 $T daemon --measure --config $P/measure.toml --socket $P/m.sock > /dev/null 2>$P/measure.err &
PM=$!
if wait_sock $P/m.sock $PM; then
    for f in pan.yml pinch.yml; do $T play --start-delay 1 --hold 0.3 Recordings/$f > /dev/null 2>>$P/measure-play.err; done
    kill -TERM $PM; wait $PM
    grep -q "latency frame read → frame written to the pass-through clone" $P/measure.err
    check "pass-through: frame-in to clone-write latency measured" $? "$(tail -3 $P/measure.err)"
    grep "latency" $P/measure.err | sed 's/^/  /'
else
    fail "pass-through: the measuring daemon starts" "$(cat $P/measure.err)"
fi
cp -r $P $R/passthrough 2>/dev/null
echo "== e2e pass-through: $fails failure(s)"
exit $fails
