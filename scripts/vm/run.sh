#!/bin/sh
# Boots the end-to-end VM and runs one test script inside it:
#   scripts/vm/run.sh TESTSCRIPT [ARG]
#   VM_INIT=systemd scripts/vm/run.sh TESTSCRIPT [ARG]   (systemd as PID 1: scripts/vm/systemd.sh)
# TESTSCRIPT is a path in this repository (run from the repository root inside the guest, as
# root, with /dev/uinput, udevd and the host's own binaries). Its output is printed; files it
# writes to /vmresults land in .build-vm/results/. Exits with the script's exit code, 124 on
# timeout (VM_TIMEOUT seconds, default 900), 125 when the guest could not start it.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT="$ROOT/.build-vm"
[ $# -ge 1 ] || { echo "usage: scripts/vm/run.sh TESTSCRIPT [ARG]" >&2; exit 2; }
script=$1
arg=${2:-}
case "$script" in /*) ;; *) script="$(pwd)/$script" ;; esac
[ -f "$script" ] || { echo "run.sh: no such test script: $script" >&2; exit 2; }
# The third-party traces: TOUCHLINE_SHARED, else ../shared beside the checkout, else
# /work/shared (where the project keeps them); e2e.sh reads $vmshared/traces in the guest.
SHARED=${TOUCHLINE_SHARED:-}
if [ -z "$SHARED" ]; then
    for d in "$ROOT/../shared" /work/shared; do [ -d "$d/traces" ] && { SHARED=$(cd "$d" && pwd); break; }; done
fi
case "$script$ROOT$arg$SHARED" in *" "*) echo "run.sh: paths and the argument must not contain spaces (kernel command line)" >&2; exit 2 ;; esac

"$ROOT/scripts/vm/setup.sh" >/dev/null
if [ ! -f "$OUT/initramfs.cpio.gz" ] || [ "$ROOT/scripts/vm/initramfs.sh" -nt "$OUT/initramfs.cpio.gz" ]; then
    "$ROOT/scripts/vm/initramfs.sh"
fi
rm -rf "$OUT/results"
mkdir -p "$OUT/results"
log="$OUT/console.log"
start=$(date +%s.%N)
# KVM cannot boot a stock kernel on this kind of host (PVM): software emulation, see the recipe.
set +e
timeout --foreground "${VM_TIMEOUT:-900}" qemu-system-x86_64 \
    -accel tcg,thread=multi -cpu max -m "${VM_MEMORY:-1024}" -smp 2 \
    -nographic -no-reboot -nodefaults -serial stdio \
    -kernel "$OUT/kernel/vmlinuz" -initrd "$OUT/initramfs.cpio.gz" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs local,path="$OUT/results",mount_tag=results,security_model=none,multidevs=remap \
    -append "console=ttyS0 quiet panic=-1 vmroot=$ROOT vmshared=$SHARED vmtest=$script vmargs=$arg vminit=${VM_INIT:-test}" \
    </dev/null 2>&1 | sed -u 's/\r$//' | tee "$log"
qemu=$?
set -e
end=$(date +%s.%N)
secs=$(echo "$end - $start" | bc 2>/dev/null || echo "?")
code=$(sed -n 's/^TOUCHLINE-VM-EXIT=\([0-9]*\)$/\1/p' "$log" | tail -n1)
if [ -z "$code" ]; then
    if grep -q "Terminated\|timeout" "$log" 2>/dev/null || [ "$qemu" -ne 0 ]; then code=124; else code=125; fi
    echo "run.sh: the guest gave no exit marker (qemu status $qemu)" >&2
fi
echo "run.sh: boot to power-off ${secs} s, test exit code $code; results in $OUT/results" >&2
exit "$code"
