#!/bin/sh
# Prepares what the end-to-end VM needs (see ../shared/recipes/kernel-vm.md and docs/live.md):
# host tools, and a Debian 6.1 kernel with its modules extracted into .build-vm/ (gitignored).
# Idempotent: a second run only checks and exits.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/.build-vm"
mkdir -p "$OUT"

need=""
# systemd, dbus and libpam-systemd: the guest of scripts/vm/systemd.sh boots the host's systemd as PID 1,
# with logind for a seat session.
for pkg in qemu-system-x86 busybox-static cpio kmod udev libinput-tools evemu-tools libevdev-dev libinput-dev systemd dbus libpam-systemd; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need="$need $pkg"
done
if [ -n "$need" ]; then
    echo "setup: installing$need"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need
fi

if [ -f "$OUT/kernel/version" ] && [ -f "$OUT/kernel/vmlinuz" ]; then
    echo "setup: kernel $(cat "$OUT/kernel/version") ready in $OUT/kernel"
    exit 0
fi

# The versioned package that the linux-image-amd64 metapackage points at (6.1.0-NN-amd64).
pkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)
if [ -z "$pkg" ]; then
    apt-get update -qq
    pkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n1)
fi
[ -n "$pkg" ] || { echo "setup: cannot find the kernel package linux-image-amd64 depends on" >&2; exit 1; }
version=${pkg#linux-image-}
echo "setup: fetching $pkg"
rm -rf "$OUT/deb" "$OUT/kernel.tmp"
mkdir -p "$OUT/deb" "$OUT/kernel.tmp"
(cd "$OUT/deb" && apt-get download "$pkg" >/dev/null)
deb=$(ls "$OUT"/deb/*.deb | head -n1)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$OUT/kernel.tmp" "./boot/vmlinuz-$version" "./lib/modules/$version"
# The .deb has no modules.dep: depmod builds it so modprobe-style order lookups work.
depmod -b "$OUT/kernel.tmp" "$version"
mv "$OUT/kernel.tmp/boot/vmlinuz-$version" "$OUT/kernel.tmp/vmlinuz"
echo "$version" > "$OUT/kernel.tmp/version"
rm -rf "$OUT/kernel" "$OUT/deb"
mv "$OUT/kernel.tmp" "$OUT/kernel"
echo "setup: kernel $version ready in $OUT/kernel"
