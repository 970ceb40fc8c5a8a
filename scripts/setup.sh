#!/usr/bin/env bash
# Installs what Touchline needs on Debian 12 (idempotent: quick when everything is there).
#   libevdev-dev, libinput-dev, pkg-config: the live input module links them.
#   libinput-tools, python3-libevdev: `libinput analyze` checks our recordings in tests.
#   evemu-tools: end-to-end tests create devices from evemu descriptions.
#   librsvg2-bin: the plot tests convert `touchline plot`'s SVGs to PNG with rsvg-convert.
#   dpkg-dev: scripts/package-deb.sh's dpkg-shlibdeps (the quick starts' first step).
#   chromium, chromium-driver, python3-selenium: scripts/view-test.py drives `touchline view`'s
#   page in a real headless browser (docs/view.md).
# --package: only what building and packaging the release binary needs (the quick starts'
# first step): a new user building the package does not need a browser and the test tools.
set -euo pipefail
packages=(libevdev-dev libinput-dev pkg-config dpkg-dev libinput-tools python3-libevdev evemu-tools librsvg2-bin chromium chromium-driver python3-selenium)
case "${1:-}" in
    --package) packages=(libevdev-dev libinput-dev pkg-config dpkg-dev) ;;
    "") ;;
    *) echo "usage: $0 [--package]" >&2; exit 64 ;;
esac
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH; install Swift 6.1 or later from swift.org" >&2; exit 1; }
