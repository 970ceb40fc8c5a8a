#!/bin/sh
# The packaged units under a real systemd (issue 26), in ONE boot. Run by scripts/vm/systemd.sh
# through run.sh with VM_INIT=systemd: systemd is PID 1 (scripts/vm/systemd-boot.sh) and runs
# this script as a unit, as root, from the repository root, over the host's root with a tmpfs
# overlay, so installing is harmless. Argument: the touchline binary built on the host.
# Every check logs "PASS name" or "FAIL name: why"; the exit code is the number of failures.
B=${1:-.build/debug/touchline}
T=/usr/local/bin/touchline
SOCK=/run/touchline/touchline.sock
W=/tmp/systemd-checks
R=/vmresults
mkdir -p $W
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
check() { if [ "$2" = 0 ]; then pass "$1"; else fail "$1" "$3"; fi; }
up() { cut -d' ' -f1 /proc/uptime; }
# Polls the shell condition $1 every 50 ms until it holds (0) or $2 seconds of uptime have
# passed (1, default 30): timed by the clock, since a condition that reads the journal takes
# a good part of a second under emulation.
wait_until() {
    end=$(awk -v t="${2:-30}" '{ print $1 + t }' /proc/uptime)
    while ! eval "$1"; do
        awk -v e="$end" '{ exit !($1 < e) }' /proc/uptime || return 1
        sleep 0.05
    done
}
node_of() { wait_until "[ -s $1 ]" 30; head -n1 "$1"; }
status() { systemctl show -p StatusText --value touchline; }
journal() { journalctl -u touchline -o cat --no-pager; }
# Sockets accepted by the daemon at path $1 (listen's connection shows as a second entry).
connected() { [ "$(grep -c " $1\$" /proc/net/unix)" -ge 2 ]; }
# Runs `touchline listen` through the command after the first three arguments (a runuser…),
# its output in $1.jsonl, waits for its connection to the socket $2, lets the player $PP
# (waiting on the file $3) touch, and succeeds once listen got the tap.
listen_to_tap() {
    out=$1 sock=$2 go=$3
    shift 3
    "$@" $T listen > $out.jsonl 2>$out.err &
    PL=$!
    wait_until "connected $sock" 30
    touch $go
    wait $PP
    wait_until "grep -q '\"gesture\":\"tap\"' $out.jsonl" 20
    grep -q '"gesture":"tap","phase":"recognized"' $out.jsonl
}
finish() {
    journalctl -b -o short-monotonic --no-pager > $R/journal.txt 2>&1
    cp -r $W $R/work 2>/dev/null
    echo "== systemd checks: $fails failure(s) at $(up) s of uptime"
    exit $fails
}

echo "== systemd checks: $(systemctl --version | head -n1), PID 1 is $(cat /proc/1/comm), at $(up) s of uptime"
[ "$(cat /proc/1/comm)" = systemd ]; check "systemd is PID 1" $? "PID 1 is $(cat /proc/1/comm)"
[ -x "$B" ] || { fail build "no $B (scripts/vm/systemd.sh builds it)"; finish; }

# ---- install, as a user would: the user, the unit, the rule (a live install into the overlay)
sh scripts/install.sh --binary "$B" > $W/install.log 2>&1; s=$?
check "scripts/install.sh --binary $B (the touchline user, units, rule)" $s "$(tail -3 $W/install.log)"
getent passwd touchline >/dev/null && [ -f /usr/local/lib/systemd/system/touchline.service ] && [ -f /etc/udev/rules.d/70-touchline.rules ]
check "install made the user touchline, touchline.service and 70-touchline.rules" $? "$(cat $W/install.log)"

# The system service's config: the socket's group, and an action that probes its own sandbox
# on each tap: a write to a world-writable directory outside the unit's allowed paths, and a
# write to a world-writable non-input device node (a copy of /dev/kmsg: not a path the unit
# masks, so only DevicePolicy can refuse it). Its output reaches the journal (the daemon's stderr).
mkdir -m 1777 /srv/touchline-probe
mknod -m 0666 /dev/touchline-probe c 1 11
cat > /etc/touchline/probe.sh <<'EOF'
#!/bin/sh
echo "PROBE id $(id -un):$(id -gn)"
if out=$(touch /srv/touchline-probe/x 2>&1); then echo "PROBE write allowed"; else echo "PROBE write refused: $out"; fi
if out=$( (echo touchline-probe > /dev/touchline-probe) 2>&1); then echo "PROBE device allowed"; else echo "PROBE device refused: $out"; fi
EOF
chmod 0755 /etc/touchline/probe.sh
cat > /etc/touchline/daemon.toml <<'EOF'
version = 1

[socket]
group = "touchline"

[[action]]
gesture = "tap"
argv = ["/bin/sh", "/etc/touchline/probe.sh"]
EOF
# The control: outside the unit, as the same user, both writes succeed.
setpriv --reuid=touchline --regid=touchline --init-groups /bin/sh /etc/touchline/probe.sh > $W/probe-control.txt 2>&1
rm -f /srv/touchline-probe/x
grep -q "PROBE write allowed" $W/probe-control.txt && grep -q "PROBE device allowed" $W/probe-control.txt
check "control: outside the unit, touchline may write /srv/touchline-probe and /dev/touchline-probe" $? "$(cat $W/probe-control.txt)"

# ---- 1. start: READY (Type=notify) and the STATUS line
t0=$(up)
systemctl start touchline; s=$?
t1=$(up)
st=$(status)
[ $s = 0 ] && [ "$(systemctl is-active touchline)" = active ] && [ "$st" = "0 devices; events on $SOCK" ]
check "1. systemctl start touchline reaches READY in $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s; StatusText \"$st\"" $? \
    "exit $s, $(systemctl is-active touchline); $(systemctl status --no-pager touchline 2>&1 | tail -n 8)"
journal | grep "listening on" | sed 's/^/  journal: /'

# ---- 2. the process: user touchline, no capabilities
pid=$(systemctl show -p MainPID --value touchline)
tu=$(id -u touchline)
grep -E '^(Uid|Gid|CapEff|CapPrm|CapInh|CapAmb)' /proc/$pid/status > $W/status.txt
sed 's/^/  /' $W/status.txt
grep -q "^Uid:	$tu	$tu	$tu	$tu$" $W/status.txt && grep -q "^CapEff:	0000000000000000$" $W/status.txt && grep -q "^CapPrm:	0000000000000000$" $W/status.txt
check "2. the daemon (pid $pid) runs as touchline (uid $tu) with no capabilities" $? "$(cat $W/status.txt)"

# ---- 3/4/2b. a touchscreen plugged in afterwards; a user of the group listens; the action probes
useradd -m -G touchline kiosk
$T play --start-delay 0.3 --hold 0.5 --wait-for $W/go1 Recordings/tap.yml > $W/play1.node 2>$W/play1.err &
PP=$!
node=$(node_of $W/play1.node)
udevadm settle
grp=$(stat -c '%G %a' "$node")
[ "$grp" = "touchline 660" ]; check "3. the plugged-in touchscreen $node gets the rule's group and mode (touchline 660)" $? "got $grp"
wait_until '[ "$(status)" = "1 device; events on $SOCK" ]' 30
st=$(status)
[ "$st" = "1 device; events on $SOCK" ]; check "3. the daemon opens it: StatusText \"$st\"" $? "$(journal | tail -n 5)"
listen_to_tap $W/listen1 $SOCK $W/go1 runuser -u kiosk --
check "4. kiosk (group touchline) gets the tap with touchline listen ($(wc -l < $W/listen1.jsonl) lines)" $? "$(cat $W/listen1.err) $(head -3 $W/listen1.jsonl)"
wait_until "journal | grep -q 'PROBE device'" 20
# The journal read once: each journalctl takes most of a second under emulation.
journal | grep PROBE > $W/probe.txt
sed 's/^/  journal: /' $W/probe.txt
grep -q "PROBE id touchline:touchline" $W/probe.txt; check "2. the daemon's action runs as touchline:touchline" $? "$(journal | tail -n 5)"
grep "PROBE write refused" $W/probe.txt | grep -q "Read-only file system"
check "2. sandbox: the action's write to /srv/touchline-probe fails (ProtectSystem=strict)" $? "$(cat $W/probe.txt)"
[ ! -e /srv/touchline-probe/x ]; check "2. sandbox: no file was written" $? "/srv/touchline-probe/x exists"
grep "PROBE device refused" $W/probe.txt | grep -q "Operation not permitted"
check "2. sandbox: the action cannot open a non-input device (DevicePolicy=closed)" $? "$(cat $W/probe.txt)"

# ---- 5. reload with a broken config keeps the old one and names file:line
probes=$(grep -c "PROBE id" $W/probe.txt)
cp /etc/touchline/daemon.toml $W/good.toml
printf '\n[[action]]\ngesture = "tap"\nargv = [\n' >> /etc/touchline/daemon.toml
systemctl reload touchline; s=$?
wait_until "journal | grep -q 'reload: .*keeping the running configuration'" 30
line=$(journal | grep 'reload: .*keeping the running configuration' | tail -n1)
echo "  journal: $line"
echo "$line" | grep -q "/etc/touchline/daemon.toml:[0-9][0-9]*" && [ $s = 0 ] && [ "$(systemctl is-active touchline)" = active ]
check "5. systemctl reload with a broken config: exit $s, still active, the journal names file:line" $? "$(journal | tail -n 5)"
# The old configuration still acts: one more tap runs the probe again.
# As in 3, the touch waits until the daemon has the device (udev's group first: under emulation
# that can take longer than any fixed delay).
wait_until '[ "$(status)" = "0 devices; events on $SOCK" ]' 30
$T play --start-delay 0.3 --hold 0.5 --wait-for $W/go2 Recordings/tap.yml > $W/play2.node 2>$W/play2.err &
PP=$!
node_of $W/play2.node >/dev/null
wait_until '[ "$(status)" = "1 device; events on $SOCK" ]' 30
touch $W/go2
wait $PP
wait_until '[ "$(journal | grep -c "PROBE id")" -gt $probes ]' 20
[ "$(journal | grep -c "PROBE id")" -gt $probes ]; check "5. after the refused reload the old config's action still runs on a tap" $? "$(journal | tail -n 5)"
kill $PL 2>/dev/null; wait $PL 2>/dev/null
cp $W/good.toml /etc/touchline/daemon.toml

# ---- 6. stop: exit 0, the socket gone
systemctl stop touchline; s=$?
res=$(systemctl show -p Result --value touchline); code=$(systemctl show -p ExecMainStatus --value touchline)
[ $s = 0 ] && [ "$res" = success ] && [ "$code" = 0 ] && [ ! -e $SOCK ]
check "6. systemctl stop touchline exits 0 (Result=$res, status $code) and the socket is gone" $? "$(ls -la /run/touchline 2>&1) $(journal | tail -n 4)"

# ---- 7. the user unit for a seat user
useradd -m seat
su=$(id -u seat)
UR=/run/user/$su
# A login on the first virtual console: PAM's pam_systemd registers the session with logind
# on seat0, the active one, so udev's uaccess gives its user the touchscreens (an ACL).
systemctl start dbus.socket systemd-logind.service 2>$W/logind.err
setsid sh -c "exec su -l seat -c 'exec sleep 3600' < /dev/tty1 > /dev/tty1 2>&1" &
wait_until '[ "$(loginctl show-seat seat0 -p ActiveSession --value 2>/dev/null)" != "" ]' 30
active=$(loginctl show-seat seat0 -p ActiveSession --value 2>/dev/null)
loginctl list-sessions --no-pager 2>&1 | sed 's/^/  /'
how="uaccess: the active session $active on seat0"
if [ -z "$active" ]; then
    # No seat to be had: the user manager by lingering, the devices through the rule's group.
    how="no seat session ($(cat $W/logind.err | head -n1)); access through the group touchline instead"
    loginctl enable-linger seat 2>>$W/logind.err || systemctl start user@$su.service
    usermod -aG touchline seat
fi
wait_until "systemctl is-active -q user@$su.service" 30
systemctl is-active -q user@$su.service; check "7. the seat user's manager user@$su.service runs ($how)" $? "$(systemctl status --no-pager user@$su.service 2>&1 | tail -n 6)"
U="runuser -u seat -- env XDG_RUNTIME_DIR=$UR"
install -d -o seat -g seat /home/seat/.config /home/seat/.config/touchline
printf 'version = 1\n' > /home/seat/.config/touchline/daemon.toml
chown seat:seat /home/seat/.config/touchline/daemon.toml
t0=$(up)
$U systemctl --user start touchline-session; s=$?
t1=$(up)
st=$($U systemctl --user show -p StatusText --value touchline-session)
[ $s = 0 ] && [ "$($U systemctl --user is-active touchline-session)" = active ] && [ "$st" = "0 devices; events on $UR/touchline.sock" ]
check "7. systemctl --user start touchline-session reaches READY in $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s; StatusText \"$st\"" $? \
    "exit $s; $($U systemctl --user status --no-pager touchline-session 2>&1 | tail -n 8)"
$T play --start-delay 0.3 --hold 0.5 --wait-for $W/go3 Recordings/tap.yml > $W/play3.node 2>$W/play3.err &
PP=$!
node=$(node_of $W/play3.node)
udevadm settle
runuser -u seat -- test -r "$node"; check "7. seat may read the new touchscreen $node ($how)" $? "$(ls -l $node)"
wait_until '[ "$($U systemctl --user show -p StatusText --value touchline-session)" = "1 device; events on $UR/touchline.sock" ]' 30
st=$($U systemctl --user show -p StatusText --value touchline-session)
[ "$st" = "1 device; events on $UR/touchline.sock" ]; check "7. the user daemon opens it: StatusText \"$st\"" $? "$($U journalctl --user -u touchline-session -o cat --no-pager 2>&1 | tail -n 5)"
listen_to_tap $W/listen3 $UR/touchline.sock $W/go3 $U
check "7. seat gets the tap with touchline listen on \$XDG_RUNTIME_DIR/touchline.sock ($(wc -l < $W/listen3.jsonl) lines)" $? "$(cat $W/listen3.err) $(head -3 $W/listen3.jsonl)"
$U systemctl --user stop touchline-session; s=$?
res=$($U systemctl --user show -p Result --value touchline-session)
wait $PL; sl=$?
[ $s = 0 ] && [ "$res" = success ] && [ ! -e $UR/touchline.sock ]
check "7. systemctl --user stop touchline-session exits 0 (Result=$res), the socket is gone, listen ends ($sl)" $? "$(ls -la $UR 2>&1 | head -5)"
finish
