#!/bin/sh
# The end-to-end test on a real kernel, from a clean clone: installs what it needs, builds
# touchline on the host, boots the VM once and runs scripts/vm/e2e.sh in it.
#   scripts/vm/test.sh            (debug build; TOUCHLINE_CONFIG=release for a release build)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
scripts/vm/setup.sh
config=${TOUCHLINE_CONFIG:-debug}
if [ "$config" = debug ]; then
    # The test bundle holds the TouchlineInput tests that need /dev/uinput; e2e.sh runs them.
    swift build --build-tests 2>&1 | tail -n 3
else
    swift build -c "$config" --product touchline 2>&1 | tail -n 3
fi
bin=$(swift build -c "$config" --show-bin-path)/touchline
exec scripts/vm/run.sh scripts/vm/e2e.sh "$bin"
