#!/bin/sh
# Developer probe: one trace through run evdev and run libinput; outputs in /vmresults.
T=$1
R=/vmresults
f=${TRACE:-.build-vm/n4.events}
$T play --start-delay 0.3 --hold 1 --wait-for $R/r1 --wait-for $R/r2 "$f" > $R/node &
sleep 0.5; while [ ! -s $R/node ]; do sleep 0.1; done
udevadm settle
n=$(cat $R/node)
$T run --relative-time --ready-file $R/r1 $n > $R/evdev.jsonl 2>$R/evdev.err &
$T run --backend libinput --relative-time --ready-file $R/r2 $n > $R/li.jsonl 2>$R/li.err &
$T run --backend libinput --output events --relative-time $n > $R/li-events.jsonl 2>&1 &
$T run --output events --relative-time $n > $R/ev-events.jsonl 2>&1 &
wait
