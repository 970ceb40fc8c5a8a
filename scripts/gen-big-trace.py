#!/usr/bin/env python3
"""Generates a large, realistic touchscreen trace for the benchmarks in Bench/.

The motion is real or scripted touch input, not noise: every touchscreen recording in
Recordings/*.yml (Touchline's synthetic gestures) and in ../shared/traces/libinput-record/
(real devices re-recorded by `libinput record`) is mapped onto one device, Touchline's
synthetic 10.1" panel (217.0 x 135.6 mm, 10 units/mm, 10 slots, pressure, touch major), and the
recordings are concatenated with a seeded pause between them until the file reaches the size
asked for. Each repetition places the recording somewhere else on the panel (seeded scale,
offset and mirror), so the file does not repeat itself byte for byte.

Left out on purpose: the Cypress trackpad (a touchpad), the Dell Canvas pen (a pen) and
N-Trig (MT protocol A, which cannot share a protocol B device).

The stream stays what the kernel would deliver: protocol B, ABS_MT_SLOT only on a change,
fresh tracking ids, every recording ends with all fingers lifted, BTN_TOUCH follows, and
a frame that has nothing left but SYN_REPORT after the mapping is dropped.

Three files, the same events in each, for the reader benchmarks:
    NAME.yml       libinput record (the size target applies to this one)
    NAME.evemu     evemu-record 1.3, self-contained (N:/I:/P:/B:/A: header, E: lines)
    NAME.getevent  Android `getevent -lt` text (no header, 32-bit hex values)

Usage:
    python3 scripts/gen-big-trace.py [--size MB] [--out DIR] [--name NAME] [--seed N]
Default: 100 MB into .build-bench/ (gitignored), named big-<size>MB. Deterministic: the
same arguments give the same bytes.
"""
import argparse
import glob
import os
import random
import re
import sys

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
BTN_TOUCH = 330
ABS_X, ABS_Y, ABS_PRESSURE = 0, 1, 24
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR = 47, 48
ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 53, 54
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 57, 58

NAMES = {
    (EV_SYN, SYN_REPORT): "SYN_REPORT", (EV_KEY, BTN_TOUCH): "BTN_TOUCH",
    (EV_ABS, ABS_X): "ABS_X", (EV_ABS, ABS_Y): "ABS_Y", (EV_ABS, ABS_MT_SLOT): "ABS_MT_SLOT",
    (EV_ABS, ABS_MT_TOUCH_MAJOR): "ABS_MT_TOUCH_MAJOR",
    (EV_ABS, ABS_MT_POSITION_X): "ABS_MT_POSITION_X", (EV_ABS, ABS_MT_POSITION_Y): "ABS_MT_POSITION_Y",
    (EV_ABS, ABS_MT_TRACKING_ID): "ABS_MT_TRACKING_ID", (EV_ABS, ABS_MT_PRESSURE): "ABS_MT_PRESSURE",
}
TYPE_NAMES = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}

# The same panel as scripts/gen-recordings.py, so Recordings/ map onto it one to one.
RES = 10
WIDTH_MM, HEIGHT_MM = 217.0, 135.6
X_MAX, Y_MAX = int(WIDTH_MM * RES), int(HEIGHT_MM * RES)
SLOTS = 10
PRESSURE_MAX = 255
MAJOR_MAX, MAJOR_RES = 255, 4
ABSINFO = [
    (ABS_X, 0, X_MAX, 0, 0, RES), (ABS_Y, 0, Y_MAX, 0, 0, RES),
    (ABS_MT_SLOT, 0, SLOTS - 1, 0, 0, 0), (ABS_MT_TOUCH_MAJOR, 0, MAJOR_MAX, 0, 0, MAJOR_RES),
    (ABS_MT_POSITION_X, 0, X_MAX, 0, 0, RES), (ABS_MT_POSITION_Y, 0, Y_MAX, 0, 0, RES),
    (ABS_MT_TRACKING_ID, 0, 65535, 0, 0, 0), (ABS_MT_PRESSURE, 0, PRESSURE_MAX, 0, 0, 0),
]
DEVICE_NAME = "Touchline Synthetic Touchscreen"

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "traces", "libinput-record"))
if not os.path.isdir(SHARED):
    # A worktree lives one level deeper than main (/work/wt/NAME); the traces are at /work/shared.
    SHARED = os.path.normpath(os.path.join(ROOT, "..", "..", "shared", "traces", "libinput-record"))
EXCLUDED = ("CyPS2 Cypress Trackpad", "dell_canvas_pen", "N-Trig MultiTouch")

EVENT_RE = re.compile(r"^\s*- \[\s*(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+)\]")
ABSINFO_RE = re.compile(r"^\s+(\d+): \[(-?\d+), (-?\d+), (-?\d+), (-?\d+), (-?\d+)\]")


def read_recording(path):
    """(absinfo {code: (min, max)}, [(t_us, [(type, code, value)])]) of a libinput record file."""
    absinfo, frames = {}, []
    in_absinfo = False
    current = None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            m = EVENT_RE.match(raw)
            if m:
                sec, usec, typ, code, value = map(int, m.groups())
                if current is None:
                    current = (sec * 1_000_000 + usec, [])
                current[1].append((typ, code, value))
                if typ == EV_SYN and code == SYN_REPORT:
                    frames.append(current)
                    current = None
                continue
            stripped = raw.strip()
            if stripped == "absinfo:":
                in_absinfo = True
                continue
            if in_absinfo:
                a = ABSINFO_RE.match(raw)
                if a:
                    absinfo[int(a.group(1))] = (int(a.group(2)), int(a.group(3)))
                    continue
                in_absinfo = False
    return absinfo, frames


def sources():
    paths = sorted(glob.glob(os.path.join(ROOT, "Recordings", "*.yml")))
    shared = sorted(glob.glob(os.path.join(SHARED, "*.yml")))
    if not shared:
        print(f"warning: no shared traces in {SHARED}; using Recordings/ only", file=sys.stderr)
    paths += [p for p in shared if not os.path.basename(p).startswith(EXCLUDED)]
    out = []
    for p in paths:
        absinfo, frames = read_recording(p)
        if (ABS_MT_POSITION_X not in absinfo and ABS_X not in absinfo) or not frames:
            continue
        out.append((os.path.basename(p), absinfo, frames))
    return out


class Writer:
    """Emits the same kernel-style stream as libinput-record YAML, evemu and getevent text."""

    def __init__(self, yml, evemu, getevent):
        self.yml, self.evemu, self.getevent = yml, evemu, getevent
        self.yml_bytes = 0
        self.events = 0
        self.frames = 0
        self.prev_ms = 0
        # getevent's clock is the kernel's uptime, not 0 at the start.
        self.getevent_base_us = 1807_354_865

    def header(self):
        y = ["# libinput record",
             "# Touchline benchmark trace, generated by scripts/gen-big-trace.py; do not edit.",
             "version: 1", "ndevices: 1", "libinput:", '  version: "1.22.1"', '  git: "unknown"',
             "system:", '  os: "touchline:synthetic"', '  kernel: "synthetic"', '  dmi: "dmi:synthetic"',
             "devices:", "- node: /dev/input/event0", "  evdev:",
             f"    # Name: {DEVICE_NAME}", f"    # Size in mm: {WIDTH_MM:.0f}x{HEIGHT_MM:.0f}",
             f'    name: "{DEVICE_NAME}"', "    id: [3, 4660, 22136, 1]", "    codes:",
             "      0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN",
             "      1: [330] # EV_KEY",
             "      3: [" + ", ".join(str(a[0]) for a in ABSINFO) + "] # EV_ABS",
             "    absinfo:"]
        for code, mn, mx, fuzz, flat, res in ABSINFO:
            y.append(f"      {code}: [{mn}, {mx}, {fuzz}, {flat}, {res}]")
        y += ["    properties: [1]", "  udev:", "    properties:", "    - ID_INPUT=1",
              "    - ID_INPUT_TOUCHSCREEN=1", "  quirks:", "  events:"]
        text = "\n".join(y) + "\n"
        self.yml.write(text)
        self.yml_bytes += len(text)

        e = ["# EVEMU 1.3", "# Touchline benchmark trace, generated by scripts/gen-big-trace.py; do not edit.",
             f"N: {DEVICE_NAME}", "I: 0003 1234 5678 0001", "P: 02 00 00 00 00 00 00 00"]
        bits = {EV_SYN: [0, 1, 2, 3], EV_KEY: [BTN_TOUCH], EV_ABS: [a[0] for a in ABSINFO]}
        e.append("B: 00 " + " ".join(f"{b:02x}" for b in mask_bytes([EV_SYN, EV_KEY, EV_ABS], 8)))
        for typ, nbytes in ((EV_KEY, 96), (EV_ABS, 8)):
            mask = mask_bytes(bits[typ], nbytes)
            for i in range(0, nbytes, 8):
                e.append(f"B: {typ:02x} " + " ".join(f"{b:02x}" for b in mask[i:i + 8]))
        for code, mn, mx, fuzz, flat, res in ABSINFO:
            e.append(f"A: {code:02x} {mn} {mx} {fuzz} {flat} {res}")
        self.evemu.write("\n".join(e) + "\n")

    def frame(self, t_us, events):
        sec, usec = divmod(t_us, 1_000_000)
        ms = t_us // 1000
        y = ["  - evdev:\n"]
        e = []
        g = []
        gsec, gusec = divmod(t_us + self.getevent_base_us, 1_000_000)
        for typ, code, value in events:
            label = NAMES[(typ, code)]
            if typ == EV_SYN:
                comment = f"------------ {label} (0) ---------- +{ms - self.prev_ms}ms"
            else:
                comment = f"{TYPE_NAMES[typ]} / {label:<20} {value:5d}"
            y.append(f"    - [{sec:3d}, {usec:6d}, {typ:3d}, {code:3d}, {value:7d}] # {comment}\n")
            if typ == EV_SYN:
                e.append(f"E: {sec}.{usec:06d} {typ:04x} {code:04x} {value:04d}\t# {'-' * 12} {label} (0) {'-' * 10} +{ms - self.prev_ms}ms\n")
            else:
                e.append(f"E: {sec}.{usec:06d} {typ:04x} {code:04x} {value:04d}\t# {TYPE_NAMES[typ]} / {label:<20} {value}\n")
            g.append(f"[{gsec:8d}.{gusec:06d}] {TYPE_NAMES[typ]:<12} {label:<20} {value & 0xffffffff:08x}            \n")
        self.prev_ms = ms
        text = "".join(y)
        self.yml.write(text)
        self.yml_bytes += len(text)
        self.evemu.write("".join(e))
        self.getevent.write("".join(g))
        self.events += len(events)
        self.frames += 1


def mask_bytes(bits, nbytes):
    out = [0] * nbytes
    for b in bits:
        out[b // 8] |= 1 << (b % 8)
    return out


class Mapper:
    """Maps one source recording onto the synthetic panel, keeping the output's kernel state."""

    def __init__(self):
        self.out_slot = 0
        self.active = {}          # output slot -> tracking id
        self.touching = False
        self.next_tid = 1000

    def segment(self, absinfo, frames, t0_us, rng):
        """Yields (t_us, events) for one placement of a recording, starting at t0_us."""
        xr = absinfo.get(ABS_MT_POSITION_X, absinfo.get(ABS_X))
        yr = absinfo.get(ABS_MT_POSITION_Y, absinfo.get(ABS_Y))
        sx = max(1, xr[1] - xr[0])
        sy = max(1, yr[1] - yr[0])
        pr = absinfo.get(ABS_MT_PRESSURE)
        # Each placement shrinks the recording to 60-100 % of the panel, moves it, maybe mirrors it.
        scale = rng.uniform(0.6, 1.0)
        ox = rng.uniform(0, (1 - scale) * X_MAX)
        oy = rng.uniform(0, (1 - scale) * Y_MAX)
        mirror = rng.random() < 0.5

        def mx(v):
            n = (v - xr[0]) / sx
            if mirror:
                n = 1 - n
            return max(0, min(X_MAX, round(ox + scale * n * X_MAX)))

        def my(v):
            return max(0, min(Y_MAX, round(oy + scale * (v - yr[0]) / sy * Y_MAX)))

        major_scale = scale * X_MAX / sx * MAJOR_RES / RES
        src_slot = 0
        tids = {}                  # source slot -> output tracking id
        base = frames[0][0]
        t_us = t0_us
        for ft, evs in frames:
            t_us = t0_us + max(0, ft - base)
            out = []
            for typ, code, value in evs:
                if typ == EV_SYN:
                    continue
                if typ == EV_KEY:
                    if code == BTN_TOUCH:
                        out.append((EV_KEY, BTN_TOUCH, value))
                        self.touching = bool(value)
                    continue
                if typ != EV_ABS:
                    continue
                if code == ABS_MT_SLOT:
                    src_slot = value
                    continue
                if code == ABS_X:
                    out.append((EV_ABS, ABS_X, mx(value)))
                    continue
                if code == ABS_Y:
                    out.append((EV_ABS, ABS_Y, my(value)))
                    continue
                if code not in (ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y,
                                ABS_MT_PRESSURE, ABS_MT_TOUCH_MAJOR):
                    continue
                if not 0 <= src_slot < SLOTS:
                    continue
                if code == ABS_MT_TRACKING_ID:
                    if value < 0:
                        if src_slot not in self.active:
                            continue
                        mapped = -1
                        tids.pop(src_slot, None)
                        del self.active[src_slot]
                    else:
                        mapped = self.next_tid
                        self.next_tid = (self.next_tid + 1) % 65536
                        tids[src_slot] = mapped
                        self.active[src_slot] = mapped
                elif src_slot not in self.active:
                    # Axis updates for a slot with no contact (a recording that starts mid-touch).
                    continue
                elif code == ABS_MT_POSITION_X:
                    mapped = mx(value)
                elif code == ABS_MT_POSITION_Y:
                    mapped = my(value)
                elif code == ABS_MT_PRESSURE:
                    if not pr:
                        continue
                    mapped = max(0, min(PRESSURE_MAX, round((value - pr[0]) / max(1, pr[1] - pr[0]) * PRESSURE_MAX)))
                else:
                    mapped = max(0, min(MAJOR_MAX, round(value * major_scale)))
                if self.out_slot != src_slot:
                    out.append((EV_ABS, ABS_MT_SLOT, src_slot))
                    self.out_slot = src_slot
                out.append((EV_ABS, code, mapped))
            if out:
                out.append((EV_SYN, SYN_REPORT, 0))
                yield t_us, out
        # Leave the panel in its neutral state for the next recording.
        if self.active or self.touching:
            out = []
            for slot in sorted(self.active):
                if self.out_slot != slot:
                    out.append((EV_ABS, ABS_MT_SLOT, slot))
                    self.out_slot = slot
                out.append((EV_ABS, ABS_MT_TRACKING_ID, -1))
            self.active.clear()
            if self.touching:
                out.append((EV_KEY, BTN_TOUCH, 0))
                self.touching = False
            out.append((EV_SYN, SYN_REPORT, 0))
            t_us += 8000
            yield t_us, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=float, default=100, help="size of the libinput-record file in MB (10^6 bytes)")
    ap.add_argument("--out", default=os.path.join(ROOT, ".build-bench"), help="output directory")
    ap.add_argument("--name", help="base name (default big-<size>MB)")
    ap.add_argument("--seed", type=int, default=5, help="random seed")
    args = ap.parse_args()
    name = args.name or f"big-{args.size:g}MB"
    os.makedirs(args.out, exist_ok=True)
    target = int(args.size * 1_000_000)
    recs = sources()
    rng = random.Random(args.seed)
    base = os.path.join(args.out, name)
    with open(base + ".yml", "w", encoding="utf-8") as yml, \
            open(base + ".evemu", "w", encoding="utf-8") as evemu, \
            open(base + ".getevent", "w", encoding="utf-8") as getevent:
        w = Writer(yml, evemu, getevent)
        w.header()
        mapper = Mapper()
        t = 0
        while w.yml_bytes < target:
            order = list(range(len(recs)))
            rng.shuffle(order)
            for i in order:
                _, absinfo, frames = recs[i]
                for t, evs in mapper.segment(absinfo, frames, t, rng):
                    w.frame(t, evs)
                    # Stop at the first frame past the size with every finger up.
                    if w.yml_bytes >= target and not mapper.active and not mapper.touching:
                        break
                # A pause between recordings, as between a user's gestures.
                if w.yml_bytes >= target:
                    break
                t += rng.randint(300_000, 1_500_000)
    sizes = {ext: os.path.getsize(base + ext) for ext in (".yml", ".evemu", ".getevent")}
    print(f"{base}.{{yml,evemu,getevent}}: {w.events} events, {w.frames} frames, {t / 1e6:.0f} s of input; "
          + ", ".join(f"{ext[1:]} {n / 1e6:.1f} MB" for ext, n in sizes.items()))


if __name__ == "__main__":
    main()
