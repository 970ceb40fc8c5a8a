#!/bin/sh
# Developer probe: one touchscreen, one pen, one keyboard, one touchpad; devices + run events.
T=.build/debug/touchline
for TR in ../shared/traces ../../shared/traces; do [ -d "$TR" ] && break; done
R=/vmresults
$T play --start-delay 3 --hold 1 "$TR/evemu-devices/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" > $R/ts.node &
$T play --start-delay 3 --hold 1 "$TR/evemu-devices/dell_canvas_pen.evemu" > $R/pen.node &
$T play --start-delay 3 --hold 1 scripts/vm/fixtures/keyboard.evemu > $R/kbd.node &
$T play --start-delay 3 --hold 1 "$TR/evemu-devices/CyPS2 Cypress Trackpad.two_finger_press.events" > $R/pad.node &
sleep 1.5
cat $R/*.node
$T devices
$T devices --json > $R/devices.jsonl; cat $R/devices.jsonl
$T run --latency $R/lat.txt $(cat $R/ts.node) > $R/run-events.jsonl
echo "run exit $?"
wc -l $R/run-events.jsonl
head -3 $R/run-events.jsonl
wait
