#!/bin/sh
# The packaged units under systemd as PID 1 (issue 26): builds touchline on the host (debug,
# or TOUCHLINE_CONFIG=release; or the binary given), boots the VM once with systemd as init
# over the host's root (run.sh with VM_INIT=systemd), and runs scripts/vm/systemd-checks.sh in
# it: scripts/install.sh, then the system service (start to READY, its user and sandbox, a
# hotplugged touchscreen, a listening group member, reload, stop) and the user unit.
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
VM_INIT=systemd VM_TIMEOUT=${VM_TIMEOUT:-600} exec scripts/vm/run.sh scripts/vm/systemd-checks.sh "$bin"
