#!/bin/sh
# The Debian package under systemd as PID 1 (issues 26, 35): builds touchline on the host
# (debug, or TOUCHLINE_CONFIG=release; or the binary given), packages it with
# scripts/package-deb.sh --binary (its manual pages and completions generated from it), boots
# the VM once with systemd as init over the host's root (run.sh with VM_INIT=systemd), and
# runs scripts/vm/systemd-checks.sh in it: dpkg -i, the system service (start to READY, its
# user and sandbox, a hotplugged touchscreen, a listening group member, reload, stop), the user
# unit with desktop-shortcuts.toml and the opt-in uinput rule (a key chord read back), the
# kiosk quick start (enable --now, pass-through, a tap reaching listen), then dpkg --purge (no
# daemon, no grab, no user left).
#   scripts/vm/systemd.sh [TOUCHLINE-BINARY]
# Exits 0 only when every check passes (the number of failures otherwise; 124 on timeout).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
if [ $# -ge 1 ]; then
    bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
else
    config=${TOUCHLINE_CONFIG:-debug}
    swift build -c "$config" --product touchline 2>&1 | tail -n 3
    bin=$(swift build -c "$config" --show-bin-path)/touchline
fi
[ -x "$bin" ] || { echo "systemd.sh: $bin is not an executable" >&2; exit 2; }
# The package of that binary, in .build-vm/ (a debug build's package is for this machine only).
start=$(date +%s)
deb=$(sh scripts/package-deb.sh --binary "$bin" --output .build-vm/package | tail -n 1)
echo "systemd.sh: packaged $deb in $(($(date +%s) - start)) s"
VM_INIT=systemd VM_TIMEOUT=${VM_TIMEOUT:-900} exec scripts/vm/run.sh scripts/vm/systemd-checks.sh "$deb"
