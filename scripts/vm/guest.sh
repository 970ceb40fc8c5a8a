#!/bin/sh
# Runs as PID 1 inside the VM after switch_root (see initramfs.sh): host binaries, a tmpfs
# overlay, /dev/uinput. Starts udevd (libinput ignores devices udev has not initialised), runs
# the test script named by vmtest= on the kernel command line from the repository root, and
# reports its exit code as a marker line on the serial console for run.sh.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
# vminit=systemd (scripts/vm/systemd.sh): systemd becomes PID 1 instead, and runs the test as a unit.
[ "${vminit:-}" = systemd ] && exec /bin/sh "$vmroot/scripts/vm/systemd-boot.sh"
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm 2>/dev/null
/lib/systemd/systemd-udevd --daemon >/dev/null 2>&1 || echo "guest: systemd-udevd did not start"
cd "$vmroot" || { echo "TOUCHLINE-VM-EXIT=125"; busybox poweroff -f; }
echo "guest: kernel $(uname -r), running $vmtest"
sh "$vmtest" $vmargs
code=$?
sync
echo "TOUCHLINE-VM-EXIT=$code"
busybox poweroff -f
