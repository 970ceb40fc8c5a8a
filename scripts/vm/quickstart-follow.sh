#!/bin/sh
# Follows the two quick starts (docs/quickstart-kiosk.md, then docs/quickstart-desktop.md) as
# a new user would, in order, every line of their ```sh blocks as written, and times each line
# by the guest's clock (issue 35). Where the page asks the reader to do something that is not a
# command (have a touchscreen, be the kiosk's or the desktop's user, touch the screen, write
# the menu program), a stand-in does it: a played recording for the touchscreen, the users
# `kiosk` and `seat` (logged in on the console, as systemd-checks.sh does), a kiosk-menu that
# logs its arguments. A measurement, not a test of CI: scripts/vm/systemd.sh checks the same
# commands with their expected effects.
#
#   VM_INIT=systemd scripts/vm/run.sh scripts/vm/quickstart-follow.sh
#
# Run from a clone of the repository whose scripts/package-deb.sh has run on the host (the
# pages' first two lines, scripts/setup.sh and scripts/package-deb.sh, are timed there, since a
# Swift build under software emulation would say nothing of real hardware): the pages' lines
# run in it, its .build-deb/ package installed as written (the guest sees the host's /tmp only
# at the clone run.sh runs from: systemd mounts its own). Lines run as root (`sudo` being the
# command itself) except the desktop page's lines without sudo, run as the desktop's user.
# Prints "STEP page section: exit, seconds: line" for each and the sum per page.
CLONE=${1:-$(pwd)}
cd "$CLONE" || exit 2
W=/tmp/quickstart-follow
R=/vmresults
mkdir -p $W
T=/usr/bin/touchline
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk -v t="$1" '{ printf "%.1f", $1 - t }' /proc/uptime; }
wait_until() {
    end=$(awk -v t="${2:-30}" '{ print $1 + t }' /proc/uptime)
    while ! eval "$1"; do
        awk -v e="$end" '{ exit !($1 < e) }' /proc/uptime || return 1
        sleep 0.05
    done
}
node_of() { wait_until "[ -s $1 ]" 30; head -n1 "$1"; }
# As on a machine (systemd-checks.sh says why): no container policy forbidding service starts,
# and no man-db index rebuild of the host's whole manual over 9p at each dpkg run.
rm -f /usr/sbin/policy-rc.d /var/lib/man-db/auto-update
total=0
# step PAGE SECTION AS LINE: runs LINE as root or as the user AS, shows its output, times it.
step() {
    page=$1 sec=$2 as=$3 line=$4
    echo "  $as\$ $line"
    t0=$(up)
    if [ "$as" = root ]; then
        sh -c "sudo() { \"\$@\"; }; $line" < /dev/null > $W/out 2>&1
    else
        runuser -u "$as" -- env HOME=/home/$as XDG_RUNTIME_DIR=/run/user/$(id -u "$as") sh -c "cd $CLONE && $line" < /dev/null > $W/out 2>&1
    fi
    rc=$?
    dt=$(since "$t0")
    sed -e 's/^/      /' $W/out | head -n 25
    [ "$(wc -l < $W/out)" -le 25 ] || echo "      … ($(wc -l < $W/out) lines)"
    echo "STEP $page §$sec: exit $rc, $dt s: $line"
    total=$(awk -v a="$total" -v b="$dt" 'BEGIN { print a + b }')
}
lines() { awk '/^## [0-9]/ { s = $2; sub(/\.$/, "", s) } /^```sh$/ { f = 1; next } /^```/ { f = 0; next } f && NF && !/^#/ { print s "\t" $0 }' "$1"; }
# The user at the seat: a login on the first virtual console (pam_systemd, logind, uaccess).
login_seat() {
    useradd -m seat
    systemctl start dbus.socket systemd-logind.service 2>$W/logind.err
    setsid sh -c "exec su -l seat -c 'exec sleep 3600' < /dev/tty1 > /dev/tty1 2>&1" &
    wait_until '[ "$(loginctl show-seat seat0 -p ActiveSession --value 2>/dev/null)" != "" ]' 30
    wait_until "systemctl is-active -q user@$(id -u seat).service" 30
    echo "  (seat logged in on tty1: session $(loginctl show-seat seat0 -p ActiveSession --value 2>/dev/null), user@$(id -u seat) $(systemctl is-active user@$(id -u seat).service))"
}

echo "== following docs/quickstart-kiosk.md at $(up) s of uptime"
useradd -m kiosk
lines docs/quickstart-kiosk.md | while IFS="$(printf '\t')" read -r sec line; do
    case $line in
        scripts/setup.sh*|scripts/package-deb.sh*) echo "  (on the host: $line)"; continue ;;
    esac
    if [ "$sec" = 3 ] && [ ! -e $W/panel.node ]; then
        # The kiosk's touchscreen, there before the service starts, kept until the purge.
        $T play --start-delay 0.3 --hold 900 --wait-for $W/go-tap Recordings/tap.yml > $W/panel.node 2>$W/panel.err &
        echo $! > $W/panel.pid
        echo "  (a touchscreen: $(node_of $W/panel.node))"
        udevadm settle
    fi
    case $line in
        *kiosk-menu.sh*)
            # Your menu program: here one that logs each call.
            printf '#!/bin/sh\necho "kiosk-menu $*" >> /tmp/kiosk-menu.calls\n' > /usr/local/bin/kiosk-menu
            chmod 0755 /usr/local/bin/kiosk-menu
            : > /tmp/kiosk-menu.calls; chmod 0666 /tmp/kiosk-menu.calls
            # A session's autostart: it runs until the session ends, so in the background.
            echo "  kiosk\$ $line   (in the session's autostart, so in the background)"
            t0=$(up)
            setsid runuser -u kiosk -- sh -c "$line" > $W/menu.out 2>&1 &
            MENU=$!
            wait_until "[ \$(grep -c ' /run/touchline/touchline.sock\$' /proc/net/unix) -ge 2 ]" 30
            # A swipe in from the left edge, once the service has opened this touchscreen too.
            $T play --start-delay 0.3 --hold 0.5 --wait-for $W/go-edge Recordings/edge-swipe-left.yml > $W/swipe.node 2>$W/swipe.err &
            P=$!
            node_of $W/swipe.node > /dev/null
            wait_until '[ "$(systemctl show -p StatusText --value touchline)" = "2 devices; events on /run/touchline/touchline.sock" ]' 60
            touch $W/go-edge
            wait $P
            wait_until '[ -s /tmp/kiosk-menu.calls ]' 20
            echo "STEP kiosk §$sec: the left-edge swipe ran the menu $(grep -c . /tmp/kiosk-menu.calls) time(s) ($(cat /tmp/kiosk-menu.calls)), $(since "$t0") s from the client's start: $line"
            kill -- -$MENU 2>/dev/null
            continue ;;
    esac
    step kiosk "$sec" root "$line"
    echo "$total" > $W/kiosk.total
done
echo "== kiosk: $(cat $W/kiosk.total) s of guest time in the lines run here"
# The kiosk's panel unplugged: the laptop has one touchscreen.
kill "$(cat $W/panel.pid)" 2>/dev/null

echo "== following docs/quickstart-desktop.md at $(up) s of uptime"
login_seat
lines docs/quickstart-desktop.md | while IFS="$(printf '\t')" read -r sec line; do
    case $line in
        scripts/setup.sh*|scripts/package-deb.sh*) echo "  (on the host: $line)"; continue ;;
    esac
    if [ "$sec" = 4 ] && [ ! -e $W/laptop.node ]; then
        # The laptop's touchscreen, kept until the purge; touched after the daemon starts.
        $T play --start-delay 0.3 --hold 900 --wait-for $W/go-swipe Recordings/four-finger-swipe-up.yml > $W/laptop.node 2>$W/laptop.err &
        echo "  (a touchscreen: $(node_of $W/laptop.node))"
        udevadm settle
    fi
    case $line in
        sudo*) step desktop "$sec" root "$line" ;;
        *) step desktop "$sec" seat "$line" ;;
    esac
    if [ "$sec" = 4 ] && [ "${line#systemctl --user status}" != "$line" ]; then
        # "Swipe four fingers up", watched as the page says: touchline listen --format text.
        UR=/run/user/$(id -u seat)
        wait_until "[ \"\$(runuser -u seat -- env XDG_RUNTIME_DIR=$UR systemctl --user show -p StatusText --value touchline-session)\" = '1 device; events on $UR/touchline.sock' ]" 30
        runuser -u seat -- env XDG_RUNTIME_DIR=$UR $T listen --format text > $W/listen.txt 2>&1 &
        L=$!
        wait_until "[ \$(grep -c ' $UR/touchline.sock\$' /proc/net/unix) -ge 2 ]" 30
        touch $W/go-swipe
        wait_until "grep -q swipe $W/listen.txt" 30
        echo "  (four fingers up; touchline listen --format text printed $(grep -c . $W/listen.txt) lines, the swipe's:)"
        grep swipe $W/listen.txt | sed 's/^/      /' | head -n 4
        kill $L 2>/dev/null
    fi
    echo "$total" > $W/desktop.total
done
echo "== desktop: $(cat $W/desktop.total) s of guest time in the lines run here"
cp -r $W $R/ 2>/dev/null
exit 0
