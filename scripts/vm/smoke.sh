#!/bin/sh
# The smallest VM check: the guest has a kernel with uinput and evdev, and udevd runs.
set -e
ls -l /dev/uinput
pgrep -x systemd-udevd >/dev/null && echo "udevd running"
echo ok > /vmresults/smoke.txt
