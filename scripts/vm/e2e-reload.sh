#!/bin/sh
# SIGHUP and pass-through on a real kernel (issue 31, item 1; docs/live.md#pass-through): a
# reload applies `passthrough` on and off to every device, open and plugged in later, and
# `ignore = true` gives the device back; a device is never left grabbed without its clone.
# Run inside the VM by scripts/vm/e2e.sh (or alone:
# scripts/vm/run.sh scripts/vm/e2e-reload.sh .build/debug/touchline).
# Every check logs "PASS name" or "FAIL name: why"; the exit code is the number of failures.
T=${1:-${TOUCHLINE:-.build/debug/touchline}}
R=${R:-/vmresults}
P=/tmp/e2e/reload
mkdir -p $P
fails=0
start=$(date +%s)
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
check() { if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
# (The helpers' variables start with _: a shell function shares the script's.)
node_of() { _i=0; while [ ! -s "$1" ] && [ $_i -lt 600 ]; do sleep 0.05; _i=$((_i + 1)); done; head -n1 "$1"; }
wait_sock() { _i=0; while [ ! -e "$1" ] && kill -0 "$2" 2>/dev/null && [ $_i -lt 400 ]; do sleep 0.05; _i=$((_i + 1)); done; [ -e "$1" ]; }
# The clone of node $1 now (the input device whose Phys is touchline-passthrough/$1), or nothing.
clone_now() {
    awk -v phys="P: Phys=touchline-passthrough/$1" '$0 == phys {f = 1} f && /^H: / {for (i = 2; i <= NF; i++) if ($i ~ /^event[0-9]+$/) print "/dev/input/" $i; f = 0}' /proc/bus/input/devices | head -n1
}
# The clone of node $1, waiting at most $2 tenths of a second for it.
clone_of() { _i=0; while [ $_i -lt "$2" ]; do _c=$(clone_now "$1"); [ -n "$_c" ] && { echo "$_c"; return 0; }; sleep 0.1; _i=$((_i + 1)); done; return 1; }
# Until node $1 has no clone (at most $2 tenths of a second).
no_clone() { _i=0; while [ -n "$(clone_now "$1")" ] && [ $_i -lt "$2" ]; do sleep 0.1; _i=$((_i + 1)); done; [ -z "$(clone_now "$1")" ]; }
tracking() { if [ -f "$1" ]; then grep -c 'EV_ABS / ABS_MT_TRACKING_ID' "$1"; else echo 0; fi; }
# Another reader of node $1 for 1 s (`touchline record`, no grab): the number of contacts
# it saw land or lift.
reader() {
    rm -f $P/ready.r
    $T record --ready-file $P/ready.r -o $P/reader.yml "$1" 2>$P/reader.err &
    _r=$!
    _i=0; while [ ! -e $P/ready.r ] && [ $_i -lt 200 ]; do sleep 0.05; _i=$((_i + 1)); done
    sleep 1
    kill -TERM $_r; wait $_r
    tracking $P/reader.yml
}
# SIGHUP with the sections of $1; $line: the daemon's `reloaded` line (at most 10 s).
reloads=0
reload() {
    cp "$1" $P/daemon.toml
    kill -HUP $PD
    reloads=$((reloads + 1))
    _i=0; while [ "$(grep -c 'reload: .*reloaded' $P/daemon.err)" -lt $reloads ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
    line=$(grep 'reload: .*reloaded' $P/daemon.err | sed -n "${reloads}p")
    echo "  $line"
}

echo "== e2e reload: touchline $T"
# Taps every 0.4 s for 400 s (Recordings/tap.yml, again and again; each player is stopped at
# the end): a device that always has touches coming, so each reader sees whether it gets them,
# and releases wait for a lift.
awk -v n=1000 -v period=400000 '
    !ev { print; if ($0 ~ /^  events:/) ev = 1; next }
    { lines[++m] = $0 }
    END {
        for (k = 0; k < n; k++) for (i = 1; i <= m; i++) {
            l = lines[i]
            if (match(l, /\[ *[0-9]+, *[0-9]+,/)) {
                split(substr(l, RSTART + 1, RLENGTH - 2), a, ",")
                t = a[1] * 1000000 + a[2] + k * period
                l = substr(l, 1, RSTART) sprintf("%3d, %6d,", int(t / 1000000), t % 1000000) substr(l, RSTART + RLENGTH)
            }
            print l
        }
    }' Recordings/tap.yml > $P/taps.yml
section() { printf '[[recognizer]]\nkind = "tap"\n\n[[device]]\nmatch.name = "Touchline Synthetic Touchscreen"\n%s\n' "$1"; }
section 'passthrough = true' > $P/on.toml
section 'passthrough = false' > $P/off.toml
section 'ignore = true' > $P/ignore.toml
plug() { $T play --start-delay 0.5 --hold 0 $P/taps.yml > $P/$1.node 2>$P/$1.play.err & }

cp $P/on.toml $P/daemon.toml
nice -n -10 $T daemon --config $P/daemon.toml --socket $P/s.sock > /dev/null 2>$P/daemon.err &
PD=$!
wait_sock $P/s.sock $PD || fail "reload daemon starts" "no socket: $(cat $P/daemon.err)"

# 1. passthrough = true, then SIGHUP to ignore = true: the device is given back.
plug a; PA=$!
a=$(node_of $P/a.node)
ca=$(clone_of "$a" 200)
check "reload: a device plugged in with passthrough = true is cloned ($a → $ca)" $? "$(tail -3 $P/daemon.err)"
n=$(reader "$a")
[ "$n" = 0 ]
check "reload: while $a is passed through, another reader of it gets nothing (the grab)" $? "$n contacts seen"
reload $P/ignore.toml
echo "$line" | grep -q "$a (Touchline Synthetic Touchscreen): ignored from now on (released)"
check "reload: the reloaded line says $a is ignored and released" $? "$line"
no_clone "$a" 50
check "reload: SIGHUP to ignore = true removes $a's clone" $? "$(grep -A3 "touchline-passthrough/$a" /proc/bus/input/devices | head -4)"
n=$(reader "$a")
[ "$n" -gt 0 ]
check "reload: after SIGHUP to ignore = true another reader of $a gets events again" $? "$n contacts seen; $(tail -2 $P/reader.err)"
kill -TERM $PA 2>/dev/null; wait $PA 2>/dev/null

# 2. on → off → on, with a device plugged in before the reloads and one after each.
echo "  [$(($(date +%s) - start)) s]"
reload $P/on.toml
plug b; PB=$!
b=$(node_of $P/b.node)
cb=$(clone_of "$b" 200)
check "reload: a device plugged in after SIGHUP back to passthrough = true is cloned ($b → $cb)" $? "$(tail -3 $P/daemon.err)"
reload $P/off.toml
echo "$line" | grep -q "$b (Touchline Synthetic Touchscreen): pass-through off (released"
check "reload: the reloaded line says $b's pass-through is off" $? "$line"
no_clone "$b" 50
check "reload: SIGHUP to passthrough = false removes $b's clone once its tap lifts" $? "$(tail -3 $P/daemon.err)"
n=$(reader "$b")
[ "$n" -gt 0 ]
check "reload: after SIGHUP to passthrough = false another reader of $b gets events again" $? "$n contacts seen"
plug c; PC=$!
c=$(node_of $P/c.node)
! clone_of "$c" 30 > /dev/null
check "reload: a device plugged in after SIGHUP to passthrough = false is not cloned ($c)" $? "$(clone_now "$c"); $(tail -3 $P/daemon.err)"
reload $P/on.toml
# (Both players still run: a node number is not reused for another device.)
kill -0 $PB && kill -0 $PC && cb=$(clone_of "$b" 50) && cc=$(clone_of "$c" 50)
check "reload: SIGHUP back to passthrough = true clones the open devices ($b → $cb, $c → $cc)" $? "$line; $(tail -3 $P/daemon.err)"
echo "$line" | grep -q "$b (Touchline Synthetic Touchscreen): pass-through on (grab" && echo "$line" | grep -q "$c (Touchline Synthetic Touchscreen): pass-through on (grab"
check "reload: the reloaded line says pass-through is on for $b and $c" $? "$line"
# libinput reads the taps on a clone made by a reload, at their place (tap.yml: 100.00/70.00 mm).
if [ -n "$cc" ]; then
    udevadm settle -t 10
    libinput debug-events --device "$cc" > $P/li.txt 2>&1 &
    PL=$!
    i=0; while ! grep -q "TOUCH_UP" $P/li.txt 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -TERM $PL; wait $PL 2>/dev/null
    grep -q "TOUCH_DOWN.*(100.00/70.00mm)" $P/li.txt && grep -q "TOUCH_UP" $P/li.txt
    check "reload: libinput debug-events on the clone a reload made reads the taps at 100.00/70.00 mm" $? "$(head -c 300 $P/li.txt)"
fi
plug d; PD2=$!
d=$(node_of $P/d.node)
cdn=$(clone_of "$d" 200)
check "reload: a device plugged in after that reload is cloned ($d → $cdn)" $? "$(tail -3 $P/daemon.err)"

# 3. The exit: SIGTERM removes every clone and gives every device back.
echo "  [$(($(date +%s) - start)) s]"
kill -TERM $PD; wait $PD; sd=$?
no_clone "$b" 20 && no_clone "$c" 20 && no_clone "$d" 20
check "reload: SIGTERM exits 0 and removes every clone" $? "exit $sd; $(grep -c touchline-passthrough /proc/bus/input/devices) left"
n=$(reader "$d")
[ "$sd" = 0 ] && [ "$n" -gt 0 ]
check "reload: after SIGTERM another reader of $d gets events again" $? "exit $sd, $n contacts seen"
kill -TERM $PB $PC $PD2 2>/dev/null; wait $PB $PC $PD2 2>/dev/null
cp -r $P $R/reload 2>/dev/null
echo "== e2e reload: $fails failure(s) in $(($(date +%s) - start)) s"
exit $fails
