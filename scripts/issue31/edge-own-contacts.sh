#!/usr/bin/env bash
# Issue 31 item 2: "a won edge swipe follows only the contacts that started it (a later finger is
# not adopted, on the clone or in the events)". The scenario of EdgeSwipeOwnContactsTests (a
# left-edge finger c0 still undecided when c1 lands mid-screen; 4 waits x 2 edge moves x 3
# places x lifting before or after c0 = 48 recordings, 100 Hz, default configuration) written as
# libinput-record files and replayed by the binary given; prints how many scenarios have an
# edgeSwipe event that names another contact than c0 or more than one finger.
# Usage: scripts/issue31/edge-own-contacts.sh TOUCHLINE_BINARY
# On 9b4ee5b (before the fix): 48 of 48 (the edge swipe adopts c1 and reports it after c0
# lifted); on main: 0 of 48.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$here/edge-own-contacts-gen.py" "$here/../../Recordings/tap.yml" "$dir"
python3 "$here/edge-own-contacts-check.py" "$1" "$dir"
