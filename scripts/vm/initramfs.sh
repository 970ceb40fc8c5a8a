#!/bin/sh
# Builds .build-vm/initramfs.cpio.gz: busybox-static, the few modules the guest needs (9p over
# virtio, overlay, evdev, uinput) and an /init that mounts the host's / read-only over 9p under
# a tmpfs overlay and switch_root's into it (udevadm refuses to run in a chroot), then runs
# scripts/vm/guest.sh from the host tree. See docs/live.md.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/.build-vm"
KDIR="$OUT/kernel"
[ -f "$KDIR/version" ] || "$ROOT/scripts/vm/setup.sh"
version=$(cat "$KDIR/version")
MODDIR="$KDIR/lib/modules/$version/kernel"
# insmod order: each module after the ones it depends on (the .deb's modules.dep agrees).
MODULES="net/9p/9pnet.ko fs/netfs/netfs.ko fs/fscache/fscache.ko fs/9p/9p.ko fs/overlayfs/overlay.ko
drivers/virtio/virtio_ring.ko drivers/virtio/virtio.ko net/9p/9pnet_virtio.ko
drivers/virtio/virtio_pci_legacy_dev.ko drivers/virtio/virtio_pci_modern_dev.ko drivers/virtio/virtio_pci.ko
drivers/input/evdev.ko drivers/input/misc/uinput.ko"

BUSYBOX=$(command -v busybox || true)
[ -n "$BUSYBOX" ] && file -L "$BUSYBOX" 2>/dev/null | grep -q "statically linked" || BUSYBOX=/bin/busybox
[ -x "$BUSYBOX" ] || { echo "initramfs: busybox-static is missing (scripts/vm/setup.sh installs it)" >&2; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/modules" "$stage/proc" "$stage/sys" "$stage/dev" "$stage/lower" "$stage/ovl" "$stage/newroot"
cp "$BUSYBOX" "$stage/bin/busybox"
for applet in sh mount mkdir insmod switch_root poweroff cat echo sleep mknod ls; do ln -s busybox "$stage/bin/$applet"; done
list=""
for m in $MODULES; do
    cp "$MODDIR/$m" "$stage/modules/"
    list="$list $(basename "$m")"
done

cat > "$stage/init" <<INIT
#!/bin/sh
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
fail() { echo "vm-init: \$*"; echo "TOUCHLINE-VM-EXIT=125"; poweroff -f; }
for m in$list; do insmod /modules/\$m || fail "insmod \$m"; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /lower || fail "mount hostroot"
mount -t tmpfs -o size=512m tmpfs /ovl
mkdir -p /ovl/upper /ovl/work
mount -t overlay -o lowerdir=/lower,upperdir=/ovl/upper,workdir=/ovl/work overlay /newroot || fail "mount overlay"
mkdir -p /newroot/vmresults
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /newroot/vmresults || fail "mount results"
# The guest's own /tmp and /run would hide a checkout (or ../shared) that lives under them on the
# host (a clone in /tmp): such paths are bind-mounted aside first and moved back on top.
keep=""
for d in \$vmroot \$vmshared; do
    case "\$d" in /tmp/*|/run/*)
        mkdir -p "/newroot/.vmkeep\$d"
        mount --bind "/newroot\$d" "/newroot/.vmkeep\$d" || fail "bind \$d"
        keep="\$keep \$d" ;;
    esac
done
mount -t tmpfs tmpfs /newroot/run
mount -t tmpfs tmpfs /newroot/tmp
for d in \$keep; do
    mkdir -p "/newroot\$d"
    mount --move "/newroot/.vmkeep\$d" "/newroot\$d" || fail "move \$d back"
done
mount --move /dev /newroot/dev
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
exec switch_root /newroot /bin/sh "\$vmroot/scripts/vm/guest.sh"
INIT
chmod +x "$stage/init"
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT/initramfs.cpio.gz.tmp"
mv "$OUT/initramfs.cpio.gz.tmp" "$OUT/initramfs.cpio.gz"
echo "initramfs: $(du -h "$OUT/initramfs.cpio.gz" | cut -f1) in $OUT/initramfs.cpio.gz (kernel $version)"
