#!/bin/sh
# End-to-end checks of issue 4 on a real kernel, in ONE boot. Run by scripts/vm/test.sh (which
# builds on the host, then boots the VM through scripts/vm/run.sh); this script runs inside the
# guest as PID 1's child, from the repository root, with /dev/uinput and udevd.
# Every check logs "PASS name" or "FAIL name: why"; the exit code is the number of failures.
T=${1:-${TOUCHLINE:-.build/debug/touchline}}
R=/vmresults
# Work files on the guest's tmpfs: writing them to the 9p share under emulation is slow
# enough to make readers fall behind (SYN_DROPPED). They are copied to $R/work at the end.
W=/tmp/e2e
mkdir -p "$W"
for TR in "${vmshared:-/nonexistent}/traces" ../shared/traces ../../shared/traces /work/shared/traces; do [ -d "$TR" ] && break; done
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
check() { if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
node_of() { # waits for play's first output line (the node) in file $1
    i=0; while [ ! -s "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done; head -n1 "$1"
}
decisions() { grep -v '"phase":"changed"' "$1" | sed 's/.*"gesture":"\([^"]*\)","phase":"\([^"]*\)".*"fingers":\([0-9]*\).*/\1 \2 \3/'; }
strip_time() { sed 's/"time":[0-9.]*,//g' "$1"; }
# libinput's touch API has no pressure nor contact size: compare without them.
strip_li() { sed -e 's/"time":[0-9.]*,//g' -e 's/,"pressure":[0-9.]*//g' -e 's/,"major":[0-9.]*//g' -e 's/,"minor":[0-9.]*//g' "$1"; }

echo "== e2e: kernel $(uname -r), $(nproc) cpus, touchline $T"
[ -x "$T" ] || { fail build "no $T (run scripts/vm/test.sh, which builds it)"; exit 1; }

# ---- 0. the Swift tests that need a kernel with uinput (skipped with a reason on the host)
TESTS=$(dirname "$T")/TouchlinePackageTests.xctest
if [ -x "$TESTS" ]; then
    "$TESTS" --testing-library swift-testing --filter TouchlineInputTests > $R/swift-tests.log 2>&1
    s=$?
    sed 's/\x1b\[[0-9;]*m//g' $R/swift-tests.log | grep -E "UInputTests|Test run" | sed 's/^/  /'
    if grep -q "skipped" $R/swift-tests.log; then s=1; fi
    check "swift tests TouchlineInputTests with /dev/uinput, none skipped" $s "$(tail -5 $R/swift-tests.log)"
else
    echo "  (no $TESTS: scripts/vm/test.sh builds it; skipping the Swift tests)"
fi

# ---- 1. touchline devices: a touchscreen, a pen, a keyboard-like device, a touchpad
$T play --start-delay 60 "$TR/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" > $W/d-ts.node 2>$W/d.err &
P1=$!
$T play --start-delay 60 "$TR/evemu-devices/dell_canvas_pen.evemu" > $W/d-pen.node 2>>$W/d.err &
P2=$!
$T play --start-delay 60 scripts/vm/fixtures/keyboard.evemu > $W/d-kbd.node 2>>$W/d.err &
P3=$!
$T play --start-delay 60 "$TR/evemu-devices/CyPS2 Cypress Trackpad.two_finger_press.events" > $W/d-pad.node 2>>$W/d.err &
P4=$!
ts=$(node_of $W/d-ts.node); pen=$(node_of $W/d-pen.node); kbd=$(node_of $W/d-kbd.node); pad=$(node_of $W/d-pad.node)
$T devices --json > $R/devices.jsonl 2>&1
$T devices > $R/devices.txt 2>&1
cat $R/devices.txt
verdict() { grep "\"path\":\"$1\"" $R/devices.jsonl | sed 's/.*"verdict":"\([a-z-]*\)".*/\1/'; }
for pair in "$ts:used:touchscreen" "$pen:pen:pen" "$kbd:no-touch-axes:keyboard" "$pad:not-direct:touchpad"; do
    n=${pair%%:*}; rest=${pair#*:}; want=${rest%%:*}; what=${rest#*:}
    got=$(verdict "$n")
    [ "$got" = "$want" ]; check "devices: $what $n is $want" $? "got '$got'"
done
chmod 000 "$ts"
$T devices --json "$ts" > $W/perm.jsonl 2>&1
chmod 660 "$ts"
# root ignores mode bits; the EACCES verdict is checked as a non-root user when one exists.
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups $T devices --json "$ts" > $W/perm.jsonl 2>&1
    grep -q '"verdict":"no-permission"' $W/perm.jsonl; check "devices: unreadable node is no-permission" $? "$(cat $W/perm.jsonl)"
fi
kill $P1 $P2 $P3 $P4 2>/dev/null; wait $P1 $P2 $P3 $P4 2>/dev/null

# ---- 2/3. play each trace; run (evdev), run (libinput) and record read it at once
TRACES="Recordings/tap.yml
Recordings/pinch.yml
Recordings/two-finger-swipe-down.yml
$TR/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events
$TR/evemu-devices/EP0430M09.2-finger-scroll-down.events
$TR/evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events
$TR/evemu-devices/N-Trig MultiTouch.2-fingers-touch-release.events
$TR/xorg-integration-tests/n4.events"
i=0
echo "$TRACES" | while IFS= read -r f; do
    i=$((i + 1)); name=$(basename "$f"); out=$W/t$i
    rm -f $out.*
    $T play --start-delay 0.3 --hold 1 --wait-for $out.ready-evdev --wait-for $out.ready-li --wait-for $out.ready-rec "$f" > $out.node 2>$out.play.err &
    PP=$!
    n=$(node_of $out.node)
    [ -n "$n" ] || { fail "play $name" "no device: $(cat $out.play.err)"; kill $PP; continue; }
    udevadm settle -t 10
    # Readers before the player and the replays: a reader that the emulated CPU leaves behind
    # overflows the kernel's per-reader buffer (SYN_DROPPED), as on a starved real machine.
    nice -n -10 $T run --relative-time --ready-file $out.ready-evdev "$n" > $out.evdev.jsonl 2>$out.evdev.err &
    PE=$!
    nice -n -10 $T run --backend libinput --relative-time --ready-file $out.ready-li "$n" > $out.li.jsonl 2>$out.li.err &
    PL=$!
    nice -n -10 $T record --ready-file $out.ready-rec --frames-output $out.rec-frames.jsonl --gestures-output $out.rec-gestures.jsonl -o $out.yml "$n" 2>$out.rec.err &
    PR=$!
    wait $PP; wait $PE; se=$?; wait $PL; sl=$?; wait $PR; sr=$?
    events=$(wc -l < $out.evdev.jsonl)
    [ $se = 0 ] && [ "$events" -gt 0 ]; check "run evdev on $name ($events gesture events)" $? "exit $se: $(cat $out.evdev.err)"
    [ $sr = 0 ] && [ -s $out.yml ]; check "record $name" $? "exit $sr: $(cat $out.rec.err)"
    # The replays and libinput's analysis are independent: run them at once (process start-up
    # is the cost under emulation).
    $T replay $out.yml > $out.rec-replay.jsonl 2>$out.rec-replay.err &
    $T replay --frames $out.yml > $out.rec-replay-frames.jsonl 2>$out.rec-replay-frames.err &
    $T replay "$f" > $out.src-replay.jsonl 2>$out.src-replay.err &
    (libinput analyze per-slot-delta $out.yml > $out.analyze 2>&1; echo $? > $out.analyze.rc) &
    wait
    if cmp -s $out.rec-replay.jsonl $out.evdev.jsonl; then
        pass "replay of the recording equals live evdev gestures, byte for byte ($name)"
    elif grep -q "SYN_DROPPED" $out.evdev.err $out.rec.err; then
        # The kernel dropped a different stretch of events for one of the two readers (the
        # emulated CPU starved it); each resynced, but they no longer saw the same events.
        # The forced-drop check below tests the resync itself deterministically.
        echo "WARN replay of the recording vs live evdev gestures ($name): a reader fell behind and the kernel dropped events for it: $(grep -h SYN_DROPPED $out.evdev.err $out.rec.err | head -1)"
    else
        fail "replay of the recording equals live evdev gestures, byte for byte ($name)" "$(diff $out.rec-replay.jsonl $out.evdev.jsonl | head -5)"
    fi
    cmp -s $out.rec-replay-frames.jsonl $out.rec-frames.jsonl; check "replay --frames of the recording equals the frames seen live ($name)" $? "$(diff $out.rec-replay-frames.jsonl $out.rec-frames.jsonl | head -5)"
    cmp -s $out.rec-replay.jsonl $out.rec-gestures.jsonl; check "record --gestures-output equals replay of the recording ($name)" $? "$(diff $out.rec-replay.jsonl $out.rec-gestures.jsonl | head -3)"
    check "libinput analyze per-slot-delta accepts the recording of $name" "$(cat $out.analyze.rc)" "$(tail -3 $out.analyze)"
    # Real-time playback under emulation shifts frame times by milliseconds, which moves
    # velocities and, near a threshold, a decision: compare which gestures began, ended or
    # were recognized, with how many fingers (the exact check is the recording's, above).
    decisions $out.src-replay.jsonl > $out.a; decisions $out.evdev.jsonl > $out.b
    late=$(sed -n 's/.*the latest \([0-9]*\)\.[0-9] ms after its time.*/\1/p' $out.play.err)
    if cmp -s $out.a $out.b; then
        pass "live evdev gestures equal replay of the source trace: same decisions ($name)"
    elif [ "${late:-0}" -gt 20 ]; then
        # Not a failure of Touchline: the input itself was not the file's (the emulated CPU
        # played frames up to $late ms late); the byte-for-byte check against the recording
        # of what the kernel delivered stands.
        echo "WARN live evdev gestures vs replay of the source trace ($name): playback was up to $late ms late, decisions differ: $(diff $out.a $out.b | head -2 | tr '\n' ' ')"
    else
        fail "live evdev gestures equal replay of the source trace: same decisions ($name)" "$(diff $out.a $out.b | head -4)"
    fi
    strip_time $out.evdev.jsonl > $out.b
    strip_time $out.li.jsonl > $out.c
    case "$name" in
    N-Trig*)
        # libinput supports MT protocol B only; a protocol-A device (SYN_MT_REPORT) reaches
        # it as single touch (ABS_X/Y), so its gestures differ by design.
        [ $sl = 0 ] && [ -s $out.li.jsonl ]; check "live libinput runs on protocol-A $name (single touch in libinput)" $? "exit $sl"
        continue ;;
    esac
    # Velocities are derived from frame times; when the two readers' frames differ only there
    # (seen once in a loaded CI run: vy 11.0 vs 10.9 on one n4 frame), it is a WARN, not a FAIL.
    strip_velocity() { sed -E 's/,"(vx|vy|scaleVelocity|rotationVelocity)":-?[0-9.]+//g' "$1"; }
    strip_velocity $out.b > $out.bv; strip_velocity $out.c > $out.cv
    if [ $sl = 0 ] && ! cmp -s $out.b $out.c && cmp -s $out.bv $out.cv; then
        echo "WARN live libinput vs live evdev gestures ($name): equal but for velocities: $(diff $out.b $out.c | head -4 | tr '\n' ' ')"
    else
        [ $sl = 0 ] && cmp -s $out.b $out.c; check "live libinput gestures equal live evdev gestures, times aside ($name)" $? "exit $sl; $(diff $out.b $out.c | head -4)"
    fi
    cp $out.yml "$R/recorded-$i.yml" 2>/dev/null
done > $W/traces.log
cat $W/traces.log
fails=$((fails + $(grep -c '^FAIL' $W/traces.log)))

# ---- removal mid-gesture: frames (two fingers held 0.8 s) and gestures (a 4-finger pan of
# 0.6 s), the device unplugged at 0.3 s
for spec in "frames:Atmel maXTouch Touchscreen.2-fingers-touch-release.events" "gestures:Atmel maXTouch Touchscreen.4-finger-drag-down.events"; do
    mode=${spec%%:*}; f="$TR/evemu-devices/${spec#*:}"
    for backend in evdev libinput; do
        out=$W/unplug-$mode-$backend; rm -f $out.*
        $T play --start-delay 0.3 --unplug-at 0.3 --wait-for $out.ready "$f" > $out.node 2>$out.play.err &
        PP=$!
        n=$(node_of $out.node); udevadm settle -t 10
        $T run --backend $backend --output $mode --ready-file $out.ready "$n" > $out.jsonl 2>$out.err &
        PE=$!
        wait $PP; wait $PE; s=$?
        if [ $mode = frames ]; then
            tail -n1 $out.jsonl | grep -q '"phase":"cancelled"'
        else
            grep -q '"gesture":"pan","phase":"cancelled"' $out.jsonl
        fi
        check "unplug mid-gesture ends the $mode as cancelled ($backend)" $? "exit $s; last: $(tail -n1 $out.jsonl) $(cat $out.err)"
    done
done

# ---- SYN_DROPPED on purpose: the recorder is stopped (SIGSTOP) for 0.6 s mid-trace, so the
# kernel overflows its buffer; libevdev resyncs. The frames it saw live must equal replay
# --frames of the file it wrote, and libinput must still accept the file.
f="$TR/evemu-devices/Wacom ISDv4 E6 Finger.double-center-circle.events"
out=$W/dropped; rm -f $out.*
$T play --start-delay 0.3 --hold 1 --wait-for $out.ready "$f" > $out.node 2>$out.play.err &
PP=$!
n=$(node_of $out.node)
$T record --ready-file $out.ready --frames-output $out.frames.jsonl -o $out.yml "$n" 2>$out.err &
PR=$!
i=0; while [ ! -e $out.ready ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.6; kill -STOP $PR; sleep 0.6; kill -CONT $PR
wait $PP; wait $PR; s=$?
grep -q "SYN_DROPPED" $out.yml; check "a stopped recorder sees SYN_DROPPED" $? "exit $s; no SYN_DROPPED in the file: $(cat $out.err)"
$T replay --frames $out.yml > $out.replay.jsonl 2>$out.replay.err
cmp -s $out.replay.jsonl $out.frames.jsonl; check "after SYN_DROPPED, replay --frames of the recording equals the frames seen live" $? "$(diff $out.replay.jsonl $out.frames.jsonl | head -4)"
libinput analyze per-slot-delta $out.yml > $out.analyze 2>&1; check "libinput analyze per-slot-delta accepts a recording with SYN_DROPPED" $? "$(tail -3 $out.analyze)"

# ---- record --guided (issue 27): play stands in for the person; the plan asks for the trace's 9
# taps, each attempt's window becomes a label, the recording ends at the 9th lift, and score
# accepts the labels it wrote (every one holds).
f="$TR/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
out=$W/guided; rm -f $out.*
$T play --start-delay 0.3 --hold 1 --wait-for $out.ready "$f" > $out.node 2>$out.play.err &
PP=$!
n=$(node_of $out.node)
$T record --ready-file $out.ready --guided tap:9 -o $out.yml "$n" 2>$out.err
s=$?
wait $PP
[ $s = 0 ] && [ -s $out.yml ] && [ "$(grep -c '"has": "tap"' $out.yml.labels.json)" = 9 ]; check "record --guided writes the recording and a label per attempt" $? "exit $s: $(cat $out.err)"
grep -q "tap with one finger (9 of 9)" $out.err; check "record --guided prompts for each attempt" $? "$(cat $out.err)"
$T score $out.yml.labels.json > $out.score 2>&1; check "score accepts the guided recording's labels (every one holds)" $? "$(tail -3 $out.score)"

# ---- hotplug: no device named, a touchscreen plugged in after the start is used (evdev: an
# inotify watch on /dev/input; libinput: the udev seat), and its removal is followed
for backend in evdev libinput; do
    out=$W/hotplug-$backend; rm -f $out.*
    $T run --backend $backend --output frames --ready-file $out.ready > $out.jsonl 2>$out.err &
    PE=$!
    i=0; while [ ! -e $out.ready ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
    $T play --start-delay 2 --hold 1 "$TR/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" > $out.node 2>$out.play.err
    sleep 1
    kill -TERM $PE; wait $PE; s=$?
    frames=$(wc -l < $out.jsonl)
    [ $s = 0 ] && [ "$frames" -gt 0 ] && grep -q "removed" $out.err; check "hotplug $backend: a touchscreen plugged in later is used ($frames frames), then its removal seen" $? "exit $s; $(cat $out.err)"
done

# ---- idle: a device open, no touches for 5 s: count the reader's context switches
for backend in evdev libinput; do
    out=$W/idle-$backend; rm -f $out.*
    $T play --start-delay 30 "$TR/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" > $out.node 2>/dev/null &
    PP=$!
    n=$(node_of $out.node); udevadm settle -t 10
    $T run --backend $backend --ready-file $out.ready "$n" > $out.jsonl 2>$out.err &
    PE=$!
    i=0; while [ ! -e $out.ready ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
    sleep 1
    sw() { awk '/^voluntary_ctxt_switches|^nonvoluntary_ctxt_switches/ {s += $2} END {print s}' /proc/$PE/status; }
    a=$(sw); sleep 5; b=$(sw)
    d=$((b - a))
    echo "idle $backend: context switches over 5 s: $d (before $a, after $b)" | tee -a $R/idle.txt
    [ "$d" = 0 ]; check "idle $backend: no wake-ups in 5 s" $? "$d context switches"
    kill -TERM $PE; wait $PE; kill $PP 2>/dev/null; wait $PP 2>/dev/null
done

# ---- latency: kernel SYN_REPORT time to its gesture events written (or to the end of its
# processing when it produced none), one reader alone, output to tmpfs
f="$TR/xorg-integration-tests/n4.events"
out=$W/latency; rm -f $out.*
$T play --start-delay 0.3 --hold 1 --wait-for $out.ready "$f" > $out.node 2>$out.play.err &
PP=$!
n=$(node_of $out.node)
$T run --latency $out.lat --ready-file $out.ready "$n" > $out.jsonl 2>$out.err &
PE=$!
wait $PP; wait $PE
if [ -s $out.lat ]; then
    sort -n $out.lat > $W/lat.sorted
    cp $out.lat $R/latency.txt
    k=$(wc -l < $W/lat.sorted)
    p50=$(sed -n "$(( (k * 50 + 99) / 100 ))p" $W/lat.sorted)
    p99=$(sed -n "$(( (k * 99 + 99) / 100 ))p" $W/lat.sorted)
    echo "latency: $k frames of n4.events, p50 $p50 us, p99 $p99 us (qemu tcg, $(basename $(dirname $T)) build)" | tee $R/latency-summary.txt
    pass "latency measured"
else
    fail "latency measured" "no latency samples: $(cat $out.err)"
fi
cat $R/latency-summary.txt 2>/dev/null | sed 's/^/  /'

# ---- the daemon (issue 15): evdev source, every touchscreen, events on --stdout and the socket
D=$W/daemon; mkdir -p $D
# Waits for the socket $1 of the daemon $2 (at most 20 s; not at all once the daemon is gone).
wait_sock() { i=0; while [ ! -e "$1" ] && kill -0 "$2" 2>/dev/null && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done; [ -e "$1" ]; }
# Lines without times, device numbers and what is derived from times (velocities, durations):
# the kernel stamps a live frame when the emulated CPU writes it, milliseconds off the file's.
untimed() { sed -E -e 's/"time":[0-9.]*,"device":[0-9]*,//' -e 's/,"(vx|vy|velocity|scaleVelocity|rotationVelocity|duration)":-?[0-9.]+//g'; }
# The K-th device the daemon opened (0, 1, …).
of_device() { grep "\"device\":$2," "$1" | untimed; }
# One device present before the daemon starts (tap.yml, waiting for the daemon's socket), the
# others plugged in one after the other while it runs (hotplug through inotify on /dev/input).
$T play --start-delay 0.3 --hold 0.3 --wait-for $D/go Recordings/tap.yml > $D/play0.node 2>$D/play0.err &
PP=$!
n0=$(node_of $D/play0.node)
nice -n -10 $T daemon --stdout --socket $D/s.sock > $D/pub.jsonl 2>$D/pub.err &
PD=$!
wait_sock $D/s.sock $PD || { fail "daemon starts" "no socket: $(cat $D/pub.err)"; kill $PP; }
nice -n -10 $T listen --socket $D/s.sock > $D/listen.jsonl 2>$D/listen.err &
PC=$!
# The first touch waits for listen's connection (accepted sockets carry the path in /proc/net/unix).
i=0; while [ "$(grep -c "$D/s.sock" /proc/net/unix)" -lt 2 ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
sleep 0.3; touch $D/go
wait $PP
k=1
for f in pinch.yml two-finger-swipe-down.yml swipe-left.yml; do
    $T play --start-delay 0.5 --hold 0.3 Recordings/$f > $D/play$k.node 2>$D/play$k.err
    k=$((k + 1))
done
# Unplug mid-gesture: long-press.yml's finger is down from 0.04 s to 0.84 s and its long press
# began at 0.54 s; the device goes at 0.7 s after the first event.
$T play --start-delay 0.5 --unplug-at 0.7 Recordings/long-press.yml > $D/play$k.node 2>$D/play$k.err
unplugged=$k
sleep 0.5
kill -0 $PD 2>/dev/null; alive=$?
# It carries on: one more device after the unplug is still used.
k=$((k + 1))
$T play --start-delay 0.5 --hold 0.3 Recordings/double-tap.yml > $D/play$k.node 2>$D/play$k.err
after=$k
sleep 0.5
kill -TERM $PD; wait $PD; sd=$?
wait $PC; sc=$?
check "daemon: SIGTERM exits 0" $sd "exit $sd: $(tail -3 $D/pub.err)"
k=0
for f in tap.yml pinch.yml two-finger-swipe-down.yml swipe-left.yml; do
    $T replay Recordings/$f > $D/replay$k.jsonl 2>&1
    of_device $D/pub.jsonl $k > $D/live$k; untimed < $D/replay$k.jsonl > $D/want$k
    what="daemon on a uinput touchscreen ($( [ $k = 0 ] && echo "present at start" || echo "hotplugged" )) publishes replay's lines, times and velocities aside ($f)"
    if [ -s $D/want$k ] && cmp -s $D/live$k $D/want$k; then
        pass "$what"
    else
        # Playback under emulation can be late by milliseconds (velocities, and near a threshold a
        # decision): an equal list of decisions is a WARN, not a FAIL, as for `run` above.
        grep "\"device\":$k," $D/pub.jsonl > $D/live$k.jsonl
        decisions $D/live$k.jsonl > $D/a$k; decisions $D/replay$k.jsonl > $D/b$k
        if [ -s $D/b$k ] && cmp -s $D/a$k $D/b$k; then
            echo "WARN $what: same decisions, values differ: $(diff $D/live$k $D/want$k | head -2 | tr '\n' ' ')"
            pass "$what: same decisions"
        else
            fail "$what" "$(diff $D/live$k $D/want$k | head -4 | tr '\n' ' ')"
        fi
    fi
    k=$((k + 1))
done
cmp -s $D/listen.jsonl $D/pub.jsonl && [ -s $D/listen.jsonl ]; check "daemon: touchline listen gets the same lines as --stdout ($(wc -l < $D/listen.jsonl) lines, listen exit $sc)" $? "$(diff $D/listen.jsonl $D/pub.jsonl | head -4 | tr '\n' ' ')"
grep "\"device\":$unplugged," $D/pub.jsonl > $D/unplug.jsonl
grep -q '"gesture":"longPress","phase":"began"' $D/unplug.jsonl && grep -q '"gesture":"longPress","phase":"cancelled"' $D/unplug.jsonl \
    && ! grep -q '"gesture":"longPress","phase":"ended"' $D/unplug.jsonl
check "daemon: unplug mid-long-press gives cancelled" $? "$(decisions $D/unplug.jsonl | tr '\n' ';') $(cat $D/play$unplugged.err)"
[ $alive = 0 ] && grep -q "\"device\":$after,\"gesture\":\"tap\"" $D/pub.jsonl
check "daemon: after the unplug it keeps running and uses the next device" $? "alive $alive; $(grep -c "\"device\":$after," $D/pub.jsonl) events of device $after"

# ---- the daemon's input actions: a long press as a right click on its uinput device
cat > $D/click.toml <<'TOML'
[[action]]
gesture = "longPress"
phase = "began"
button = "right"
TOML
$T play --start-delay 0.3 --hold 0.3 --wait-for $D/click.ready Recordings/long-press.yml > $D/click.node 2>$D/click.play.err &
PP=$!
node_of $D/click.node > /dev/null
nice -n -10 $T daemon --config $D/click.toml --socket $D/c.sock > $D/click.jsonl 2>$D/click.err &
PD=$!
wait_sock $D/c.sock $PD || { fail "daemon with button action starts" "no socket: $(cat $D/click.err)"; kill $PP; }
# The daemon's device, found by its name in /proc/bus/input/devices.
vnode=$(awk '/^N: Name="Touchline virtual input"/ {f = 1} f && /^H: / {sub("Handlers=", ""); for (i = 2; i <= NF; i++) if ($i ~ /^event[0-9]+$/) print "/dev/input/" $i; f = 0}' /proc/bus/input/devices | head -n1)
udevadm settle -t 10
udevadm info --query=property --name="$vnode" > $D/vnode.udev 2>&1
$T record --ready-file $D/click.ready -o $D/click.yml "$vnode" 2>$D/click.rec.err &
PR=$!
wait $PP
sleep 0.5
kill -TERM $PR; wait $PR
kill -TERM $PD; wait $PD; sd=$?
grep -E 'ABS_X|ABS_Y|BTN_RIGHT' $D/click.yml | sed 's/.*# //' > $D/click.events
echo "  virtual device $vnode: $(grep -E 'ID_INPUT_MOUSE|ID_INPUT_TOUCHSCREEN|ID_INPUT_KEY=' $D/vnode.udev | tr '\n' ' ')"
sed 's/^/  /' $D/click.events
# Expected: the pointer moved, then BTN_RIGHT pressed and released, nothing else.
sed -E 's/ +/ /g' $D/click.events | awk '{print $3, ($3 ~ /BTN/ ? $4 : "v")}' | tr '\n' ' ' > $D/click.seq
[ $sd = 0 ] && [ "$(cat $D/click.seq)" = "ABS_X v ABS_Y v BTN_RIGHT 1 BTN_RIGHT 0 " ]
check "daemon: a long press with button = \"right\" clicks BTN_RIGHT on $vnode, after moving its pointer" $? "daemon exit $sd; seen: $(cat $D/click.seq); $(tail -3 $D/click.err) $(tail -2 $D/click.rec.err)"
# Where: long-press.yml holds its finger at (150, 90) mm on a 217 × 135.6 mm surface.
x=$(sed -E -n 's/.*ABS_X +([0-9]+).*/\1/p' $D/click.events | head -n1); y=$(sed -E -n 's/.*ABS_Y +([0-9]+).*/\1/p' $D/click.events | head -n1)
awk -v x="${x:-0}" -v y="${y:-0}" 'BEGIN { ex = 150 / 217 * 32767; ey = 90 / 135.6 * 32767; exit !((x - ex) ^ 2 < 2500 && (y - ey) ^ 2 < 2500) }'
check "daemon: the click is at the gesture's position ($x, $y of 32767)" $? "expected about $(awk 'BEGIN { printf "%d, %d", 150 / 217 * 32767, 90 / 135.6 * 32767 }')"

# ---- rotation 90 (the [[device]] section: branch `devices`): swipe-left.yml reported as up
# (native (x, y) -> (H - y, x): x decreasing becomes y decreasing).
cat > $D/rot.toml <<'TOML'
[[device]]
match.name = "Touchline Synthetic Touchscreen"
rotation = 90
TOML
$T play --start-delay 0.5 --hold 0.3 --wait-for $D/r.sock Recordings/swipe-left.yml > $D/rot.node 2>$D/rot.play.err &
PP=$!
node_of $D/rot.node > /dev/null
nice -n -10 $T daemon --config $D/rot.toml --stdout --socket $D/r.sock > $D/rot.jsonl 2>$D/rot.err &
PD=$!
# On a branch without [[device]] the daemon refuses the file: its player must not wait forever.
wait_sock $D/r.sock $PD || kill $PP
wait $PP
sleep 0.5
kill -TERM $PD 2>/dev/null; wait $PD
grep -q '"gesture":"swipe".*"direction":"up"' $D/rot.jsonl
check "daemon: rotation = 90 turns a swipe left into a swipe up" $? "$(grep '"swipe"' $D/rot.jsonl | head -2) $(head -3 $D/rot.err)"

# ---- the daemon on the libinput source (the udev seat): a tap played after it started
# (hotplug through udev) is published as replay prints it, times and velocities aside.
nice -n -10 $T daemon --source libinput --stdout --socket $D/l.sock > $D/li.jsonl 2>$D/li.err &
PD=$!
wait_sock $D/l.sock $PD
# 2 s before the first frame: libinput adds a device only once udev has initialised it, which
# under emulation on a busy host took more than the 0.5 s this waited before (the device was
# "used" after the tap had been played, and no tap came).
$T play --start-delay 2 --hold 0.3 Recordings/tap.yml > $D/li.node 2>$D/li.play.err
# Until the tap is out (at most 10 s), not a fixed 0.5 s: under a loaded host the emulated
# guest once took longer, and SIGTERM came before the daemon had read the device.
n=0; while [ $n -lt 100 ] && ! grep -q '"gesture":"tap"' $D/li.jsonl 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
kill -TERM $PD 2>/dev/null; wait $PD; sd=$?
$T replay Recordings/tap.yml | untimed > $D/li.want
untimed < $D/li.jsonl > $D/li.got
[ $sd = 0 ] && [ -s $D/li.want ] && cmp -s $D/li.got $D/li.want
check "daemon --source libinput publishes replay's lines for a hotplugged device (tap.yml)" $? "exit $sd; $(diff $D/li.got $D/li.want | head -4 | tr '\n' ' ') $(tail -3 $D/li.err)"

# ---- pass-through (issue 25): its own script (runnable alone), its failures counted here
R=$R sh scripts/vm/e2e-passthrough.sh "$T"; fails=$((fails + $?))
# ---- SIGHUP and pass-through (issue 31): its own script too
R=$R sh scripts/vm/e2e-reload.sh "$T"; fails=$((fails + $?))

# ---- calibrate (issue 34): its own script (runnable alone), its failures counted here
R=$R sh scripts/vm/e2e-calibrate.sh "$T"; fails=$((fails + $?))

rm -rf $R/work; cp -r $W $R/work
echo "== e2e: $fails failure(s)"
exit $fails
