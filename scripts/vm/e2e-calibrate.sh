#!/bin/sh
# `touchline calibrate` against libinput on a real kernel (issue 34, docs/calibrate.md): a uinput
# panel turned 90° and scaled 0.9 on its screen is recorded while nine crosshairs are tapped;
# `calibrate --from` of that recording gives the matrix and the udev rule; the rule installed,
# `udevadm trigger`, four new taps are reported by `libinput debug-events` at the places they
# aimed at (within 1 mm), and Touchline's evdev source, which reads the same property, agrees.
# Then --corners on the live panel, and the page (`calibrate DEVICE`) answered by a stand-in
# client, its crosshairs by the panel's raw taps.
# Run inside the VM by scripts/vm/e2e.sh (or alone:
# scripts/vm/run.sh scripts/vm/e2e-calibrate.sh .build/debug/touchline).
# Every check logs "PASS name" or "FAIL name: why"; the exit code is the number of failures.
T=${1:-${TOUCHLINE:-.build/debug/touchline}}
R=${R:-/vmresults}
C=/tmp/e2e/calibrate
mkdir -p $C
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
check() { if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
node_of() { i=0; while [ ! -s "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done; head -n1 "$1"; }
# The panel (scripts/vm/fixtures/calibration-*.yml): 2160 × 1350 units at 10 units/mm.
POINTS="0.1,0.1 0.5,0.1 0.9,0.1 0.1,0.5 0.5,0.5 0.9,0.5 0.1,0.9 0.5,0.9 0.9,0.9"
CHECK="0.3,0.3 0.7,0.2 0.6,0.8 0.2,0.7"
MATRIX="0.000000 -0.900667 0.950000 0.900417 0.000000 0.050000"

echo "== e2e calibrate: touchline $T"
start=$(date +%s)
# 1. The nine taps, recorded live from the uinput panel (record ends when play removes it).
$T play --start-delay 0.5 --wait-for $C/record.ready scripts/vm/fixtures/calibration-taps.yml > $C/taps.node 2>$C/taps.play.err &
PP=$!
node=$(node_of $C/taps.node)
$T record --ready-file $C/record.ready "$node" -o $C/taps.yml 2>$C/record.err &
PR=$!
wait $PP
wait $PR
$T calibrate --from $C/taps.yml --points "$POINTS" --udev-rule $C/99-touchline-calibration.rules > $C/cal.out 2>$C/cal.err
s=$?
[ $s = 0 ] && grep -q "found: rotated 90° clockwise, scaled 0.900 × 0.900" $C/cal.out \
    && grep -q "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"$MATRIX\"" $C/99-touchline-calibration.rules
check "calibrate --from a live recording: rotated 90°, scaled 0.9, the rule's matrix" $? "exit $s; $(grep -E 'found|worst' $C/cal.out | tr '\n' ' ') $(cat $C/cal.err $C/record.err | head -3)"

# 2. The rule installed; new taps, aimed at $CHECK through the same panel.
mkdir -p /etc/udev/rules.d
cp $C/99-touchline-calibration.rules /etc/udev/rules.d/
udevadm control --reload
$T play --start-delay 0.5 --hold 0.5 --wait-for $C/run.ready scripts/vm/fixtures/calibration-check.yml > $C/check.node 2>$C/check.play.err &
PP=$!
node=$(node_of $C/check.node)
udevadm trigger --action=change --subsystem-match=input --sysname-match="${node#/dev/input/}"
udevadm settle -t 10
udevadm info --query=property --name="$node" > $C/udev.txt 2>&1
grep -q "^LIBINPUT_CALIBRATION_MATRIX=$MATRIX\$" $C/udev.txt
check "the rule sets LIBINPUT_CALIBRATION_MATRIX on the panel's event node" $? "$(grep -i -E 'calib|NAME' $C/udev.txt | head -3)"
libinput debug-events --device "$node" > $C/libinput.txt 2>&1 &
PL=$!
# libinput's device is open once it says DEVICE_ADDED (at most 10 s); then Touchline's reader,
# whose readiness starts the taps.
i=0; while ! grep -q DEVICE_ADDED $C/libinput.txt 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
$T run --ready-file $C/run.ready "$node" > $C/touchline.jsonl 2>$C/touchline.err &
PT=$!
wait $PP
sleep 1
kill $PL $PT 2>/dev/null; wait $PL $PT 2>/dev/null

# Where each tap should be, mm on the 216 × 135 mm panel: the point aimed at times its size.
# libinput puts them there exactly; Touchline applies the rule's numbers (on libinput's
# normalization) to its own, one device unit apart: 0.1 mm here.
expected() { for p in $CHECK; do echo "$p" | awk -F, '{ printf "%.2f %.2f\n", $1 * 216, $2 * 135 }'; done; }
within() { # files of "x y" lines: same count, each pair within $3 mm
    [ "$(wc -l < "$1")" = "$(wc -l < "$2")" ] && [ -s "$1" ] &&
        paste -d' ' "$1" "$2" | awk -v mm="$3" '{ dx = $1 - $3; dy = $2 - $4; if (dx < 0) dx = -dx; if (dy < 0) dy = -dy; if (dx > mm || dy > mm) bad = 1 } END { exit bad }'
}
expected > $C/want.txt
# libinput debug-events: "event5  TOUCH_DOWN  +1.234s  0 (0) 27.78/72.22 (60.01/97.51mm)"
grep TOUCH_DOWN $C/libinput.txt | sed -n 's/.*( *\([-0-9.]*\)\/ *\([-0-9.]*\)mm).*/\1 \2/p' > $C/libinput-down.txt
within $C/libinput-down.txt $C/want.txt 1
check "libinput debug-events reports the new taps where they aimed (within 1 mm)" $? "got $(tr '\n' ';' < $C/libinput-down.txt) want $(tr '\n' ';' < $C/want.txt) $(head -3 $C/libinput.txt)"
grep '"gesture":"tap"' $C/touchline.jsonl | sed -n 's/.*"fingers":[0-9]*,"x":\([-0-9.]*\),"y":\([-0-9.]*\).*/\1 \2/p' > $C/touchline-taps.txt
echo "  aimed at (mm): $(tr '\n' ';' < $C/want.txt) libinput: $(tr '\n' ';' < $C/libinput-down.txt) touchline: $(tr '\n' ';' < $C/touchline-taps.txt)"
within $C/touchline-taps.txt $C/want.txt 1 && within $C/touchline-taps.txt $C/libinput-down.txt 1
check "Touchline's evdev source, reading the same property, agrees with libinput (within 1 mm)" $? "got $(tr '\n' ';' < $C/touchline-taps.txt) $(head -3 $C/touchline.err)"
rm -f /etc/udev/rules.d/99-touchline-calibration.rules
udevadm control --reload

# 3. --corners on the live panel: four corners played while it asks for them.
# The corners are played once calibrate has opened the panel and asked for the first.
$T play --start-delay 0.5 --wait-for $C/corners.go scripts/vm/fixtures/calibration-corners.yml > $C/corners.node 2>$C/corners.play.err &
PP=$!
node=$(node_of $C/corners.node)
$T calibrate --corners "$node" > $C/corners.out 2>$C/corners.err &
PC=$!
i=0; while ! grep -q '^touch the' $C/corners.err 2>/dev/null && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
touch $C/corners.go
wait $PC
s=$?
wait $PP
[ $s = 0 ] && grep -q "^orientation: rotated 90° clockwise$" $C/corners.out && [ "$(grep -c '^touch the ' $C/corners.err)" = 4 ]
check "calibrate --corners on a live panel: rotated 90°, four prompts" $? "exit $s; $(grep -E 'orientation|extent' $C/corners.out | tr '\n' ' ') $(tail -3 $C/corners.err | tr '\n' ' ')"

# 4. The page on the live panel: `calibrate DEVICE` serves it; scripts/vm/calibrate-page-client.py
# stands in for the browser (answers each crosshair as shown, as the page does once painted); the
# nine taps, played once the first crosshair is shown, are read raw from the panel. The page is
# served on loopback, which the guest's init leaves down.
ip link set lo up 2>/dev/null
$T play --start-delay 0.5 --wait-for $C/page.ready scripts/vm/fixtures/calibration-page-taps.yml > $C/page.node 2>$C/page.play.err &
PP=$!
node=$(node_of $C/page.node)
$T calibrate "$node" --udev-rule $C/page.rules > $C/page.out 2>$C/page.err &
PC=$!
i=0; while ! grep -q '^touchline calibrate: http' $C/page.out 2>/dev/null && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
url=$(sed -n 's/^touchline calibrate: \(http[^ ]*\)$/\1/p' $C/page.out | head -n1)
timeout 60 python3 scripts/vm/calibrate-page-client.py "$url" $C/page.ready > $C/page.client 2>&1
sc=$?
# A client that failed leaves calibrate waiting for touches and play for the ready file.
[ $sc = 0 ] || { touch $C/page.ready; sleep 1; kill $PC 2>/dev/null; }
wait $PC
s=$?
wait $PP
[ $sc = 0 ] && [ $s = 0 ] && grep -q "^done rotated 90° clockwise, scaled 0.900 × 0.900" $C/page.client \
    && grep -q "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"$MATRIX\"" $C/page.rules
check "calibrate DEVICE: the page's crosshairs answered by the live panel's raw taps give --from's matrix" $? "client $sc, calibrate $s; $(cat $C/page.client | tr '\n' ' ') $(tail -3 $C/page.err | tr '\n' ' ')"

echo "== e2e calibrate: $fails failure(s) in $(( $(date +%s) - start )) s"
exit $fails
