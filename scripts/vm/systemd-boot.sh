#!/bin/sh
# PID 1 in the VM for a boot with systemd as init (scripts/vm/systemd.sh; run.sh passes
# vminit=systemd and guest.sh execs this). The root is the host's own over 9p under a tmpfs
# overlay (initramfs.sh), so everything written here lands in the guest's overlay only: a boot
# target that runs the test script named by vmtest= as a unit, and masks for what a guest
# without disks, network or terminals does not need (each costs seconds under emulation).
# Then systemd replaces this shell as PID 1.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# As the units' command: `test` runs the test script and reports its exit code as run.sh's
# marker line, `failed` reports a boot that could not get there; both power off.
case "${1:-}" in
    test)
        /bin/sh "$vmtest" $vmargs
        code=$?
        sync
        echo "TOUCHLINE-VM-EXIT=$code"
        exec systemctl poweroff --force --force ;;
    failed)
        systemctl --failed --no-pager
        echo "TOUCHLINE-VM-EXIT=125"
        exec systemctl poweroff --force --force ;;
esac
fail() { echo "systemd-boot: $*"; echo "TOUCHLINE-VM-EXIT=125"; busybox poweroff -f; }
[ -x /lib/systemd/systemd ] || fail "no /lib/systemd/systemd on the host"
S=/etc/systemd/system
mkdir -p $S || fail "cannot write $S in the overlay"

# The host's units that would start here: terminals, timers, the network, services of the host
# (postgresql…), and sysinit steps for a real disk. udev-trigger replays every device (≈7 s
# under emulation; the test's devices are created after udevd runs, and udevd sees those).
# One perl process makes every link: an `ln` each costs a fork and an exec read over 9p,
# seconds in all under emulation.
perl -e 'for (@ARGV[1..$#ARGV]) { unlink "$ARGV[0]/$_"; symlink "/dev/null", "$ARGV[0]/$_" or die "$_: $!\n" }' $S \
    getty.target getty@tty1.service serial-getty@ttyS0.service console-getty.service \
    timers.target apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer e2scrub_all.timer \
    fstrim.timer man-db.timer e2scrub_reap.service postgresql.service cron.service ssh.service \
    rsyslog.service remote-fs.target network.target systemd-networkd.service \
    systemd-networkd.socket systemd-network-generator.service systemd-resolved.service \
    systemd-timesyncd.service systemd-pstore.service systemd-udev-trigger.service \
    systemd-udev-settle.service systemd-binfmt.service proc-sys-fs-binfmt_misc.automount \
    systemd-firstboot.service systemd-machine-id-commit.service systemd-modules-load.service \
    kmod-static-nodes.service modprobe@.service systemd-random-seed.service \
    systemd-repart.service systemd-pcrphase.service systemd-pcrphase-sysinit.service \
    sys-kernel-debug.mount sys-kernel-tracing.mount sys-kernel-config.mount \
    sys-fs-fuse-connections.mount dev-hugepages.mount systemd-journal-flush.service \
    systemd-update-utmp.service systemd-remount-fs.service systemd-hwdb-update.service \
    ldconfig.service systemd-sysusers.service systemd-boot-system-token.service \
    systemd-ask-password-console.path systemd-ask-password-wall.path \
    cryptsetup.target integritysetup.target veritysetup.target swap.target \
    || fail "cannot mask units"
# The host's fstab is not this guest's; the root is already mounted.
: > /etc/fstab
# Generators (fstab, getty, gpt-auto, sysv's scan of /etc/init.d…) find nothing to do here,
# each an executable read over 9p: masked the documented way, by /dev/null in /etc.
# The user manager's too (xdg-autostart), for the user unit's check.
mkdir -p /etc/systemd/system-generators /etc/systemd/user-generators
perl -e 'for my $k ("system", "user") { for (glob "/usr/lib/systemd/$k-generators/*") { s#.*/##;
    unlink "/etc/systemd/$k-generators/$_"; symlink "/dev/null", "/etc/systemd/$k-generators/$_" or die "$_: $!\n" } }' \
    || fail "cannot mask the generators"
# The host may be a container: its /.dockerenv would make this guest's systemd believe it runs
# in one (and skip what containers skip). The guest is a VM.
rm -f /.dockerenv /run/.containerenv
# The user manager's PAM stack (Debian ships it with systemd; this host's /etc lacks it).
[ -f /etc/pam.d/systemd-user ] || cat > /etc/pam.d/systemd-user <<'PAM'
@include common-account
session required pam_limits.so
@include common-session-noninteractive
session optional pam_systemd.so
PAM

# The test as a unit: its output raw on the serial console (the exit marker for run.sh), the
# marker and the power-off also when it fails or cannot start.
cat > $S/touchline-vmtest.service <<UNIT
[Unit]
Description=touchline VM test $vmtest
OnFailure=touchline-vmfail.service

[Service]
Type=oneshot
Environment=vmroot=$vmroot vmshared=$vmshared vmtest=$vmtest vmargs=$vmargs PATH=$PATH HOME=/root
WorkingDirectory=$vmroot
ExecStart=/bin/sh $vmroot/scripts/vm/systemd-boot.sh test
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
TimeoutStartSec=infinity
UNIT
cat > $S/touchline-vmfail.service <<UNIT
[Unit]
Description=touchline VM test could not run
DefaultDependencies=no

[Service]
Type=oneshot
ExecStart=/bin/sh $vmroot/scripts/vm/systemd-boot.sh failed
StandardOutput=tty
TTYPath=/dev/ttyS0
UNIT
cat > $S/touchline-vm.target <<UNIT
[Unit]
Description=touchline VM test boot
Requires=basic.target
Wants=touchline-vmtest.service
After=basic.target
AllowIsolate=yes
UNIT
ln -sf touchline-vm.target $S/default.target
# Boot failures end the run instead of waiting on a console nobody reads.
for u in emergency.service rescue.service; do
    mkdir -p "$S/$u.d"
    printf '[Service]\nExecStartPre=\nExecStart=\nExecStart=/bin/sh %s failed\nStandardInput=null\nStandardOutput=tty\nTTYPath=/dev/ttyS0\n' \
        "$vmroot/scripts/vm/systemd-boot.sh" > "$S/$u.d/vm.conf"
done
echo "systemd-boot: kernel $(uname -r); exec /lib/systemd/systemd at $(cut -d' ' -f1 /proc/uptime) s of uptime"
exec /lib/systemd/systemd
