#!/usr/bin/env python3
"""Generates Touchline's own synthetic recordings in Recordings/ as libinput-record YAML.

Each recording scripts one gesture family from the design (tap, double tap, two-finger tap,
long press, pan, swipe, edge swipe, pinch, rotate, peek/pop, drag, spring-loading) on one
synthetic 10.1" touchscreen, written the way the kernel would deliver it: MT protocol B with
slots and tracking ids, only changed values per frame (the input core drops repeats), pointer
emulation (BTN_TOUCH, ABS_X/Y for the oldest contact) and a SYN_REPORT per frame. The output is
deterministic: the same script gives the same bytes, so the golden event files beside each
recording stay meaningful. Rerun with:

    python3 scripts/gen-recordings.py            # writes Recordings/*.yml
    python3 scripts/gen-recordings.py --check    # exits 1 if a file would change

Frames are 8 ms apart (125 Hz, a common touchscreen report rate), with a small seeded
jitter of the positions (±0.05 mm) so that stationary fingers look like real ones.
"""
import math
import os
import random
import sys

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT = 0
BTN_TOUCH = 330
ABS_X, ABS_Y, ABS_MT_SLOT = 0, 1, 47
ABS_MT_TOUCH_MAJOR, ABS_MT_POSITION_X, ABS_MT_POSITION_Y = 48, 53, 54
ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 57, 58

NAMES = {
    (EV_SYN, SYN_REPORT): "SYN_REPORT", (EV_KEY, BTN_TOUCH): "BTN_TOUCH",
    (EV_ABS, ABS_X): "ABS_X", (EV_ABS, ABS_Y): "ABS_Y", (EV_ABS, ABS_MT_SLOT): "ABS_MT_SLOT",
    (EV_ABS, ABS_MT_TOUCH_MAJOR): "ABS_MT_TOUCH_MAJOR",
    (EV_ABS, ABS_MT_POSITION_X): "ABS_MT_POSITION_X", (EV_ABS, ABS_MT_POSITION_Y): "ABS_MT_POSITION_Y",
    (EV_ABS, ABS_MT_TRACKING_ID): "ABS_MT_TRACKING_ID", (EV_ABS, ABS_MT_PRESSURE): "ABS_MT_PRESSURE",
}
TYPE_NAMES = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}

# The synthetic panel: 217.0 × 135.6 mm (a 10.1" 16:10 tablet), 10 units per mm, 10 slots,
# pressure 0..255, touch major 0..255 in surface units (the kernel's multi-touch protocol gives
# ABS_MT_TOUCH_MAJOR in the units of the position axes).
RES = 10
WIDTH_MM, HEIGHT_MM = 217.0, 135.6
X_MAX, Y_MAX = int(WIDTH_MM * RES), int(HEIGHT_MM * RES)
SLOTS = 10
PRESSURE_MAX = 255
MAJOR_MAX, MAJOR_RES = 255, RES
FRAME_US = 8000
ABSINFO = [
    (ABS_X, 0, X_MAX, 0, 0, RES), (ABS_Y, 0, Y_MAX, 0, 0, RES),
    (ABS_MT_SLOT, 0, SLOTS - 1, 0, 0, 0), (ABS_MT_TOUCH_MAJOR, 0, MAJOR_MAX, 0, 0, MAJOR_RES),
    (ABS_MT_POSITION_X, 0, X_MAX, 0, 0, RES), (ABS_MT_POSITION_Y, 0, Y_MAX, 0, 0, RES),
    (ABS_MT_TRACKING_ID, 0, 65535, 0, 0, 0), (ABS_MT_PRESSURE, 0, PRESSURE_MAX, 0, 0, 0),
]


class Script:
    """Scripted fingers in mm and ms, sampled into kernel-style frames."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.t_us = 0
        self.fingers = {}      # finger name -> dict(slot, x, y, pressure)
        self.frames = []       # list of (time_us, [(slot, tracking id or None, x, y, p) | lifted])
        self.next_tracking = 100

    def _snapshot(self):
        state = {}
        for f in self.fingers.values():
            jx = self.rng.uniform(-0.05, 0.05)
            jy = self.rng.uniform(-0.05, 0.05)
            state[f["slot"]] = (f["tid"], f["x"] + jx, f["y"] + jy, f["p"])
        self.frames.append((self.t_us, state))

    def wait(self, ms):
        """Holds still for ms, reporting a frame every 8 ms (fingers down) or skipping time."""
        end = self.t_us + int(ms * 1000)
        while self.t_us + FRAME_US <= end:
            self.t_us += FRAME_US
            if self.fingers:
                self._snapshot()
        self.t_us = end

    def down(self, **where):
        for name, (x, y) in where.items():
            used = {f["slot"] for f in self.fingers.values()}
            slot = min(s for s in range(SLOTS) if s not in used)
            self.fingers[name] = dict(slot=slot, tid=self.next_tracking, x=x, y=y, p=0.3)
            self.next_tracking += 1
        self._snapshot()

    def up(self, *names):
        for n in names:
            del self.fingers[n]
        self._snapshot()

    def move(self, ms, **paths):
        """Moves fingers over ms; each path is a function of progress 0..1 → (x, y)."""
        steps = max(1, round(ms * 1000 / FRAME_US))
        for i in range(1, steps + 1):
            self.t_us += FRAME_US
            k = i / steps
            for name, path in paths.items():
                x, y = path(k)
                self.fingers[name]["x"], self.fingers[name]["y"] = x, y
            self._snapshot()

    def press(self, ms, **ramps):
        """Changes pressure over ms; each ramp is a function of progress 0..1 → 0..1."""
        steps = max(1, round(ms * 1000 / FRAME_US))
        for i in range(1, steps + 1):
            self.t_us += FRAME_US
            for name, ramp in ramps.items():
                self.fingers[name]["p"] = ramp(i / steps)
            self._snapshot()


def line(a, b):
    return lambda k: (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)


def arc(center, radius, a0, a1):
    return lambda k: (center[0] + radius * math.cos(a0 + (a1 - a0) * k),
                      center[1] + radius * math.sin(a0 + (a1 - a0) * k))


def ease(k):
    return 0.5 - 0.5 * math.cos(math.pi * k)


def gestures():
    """name -> (description, Script)."""
    out = {}

    s = Script(1)
    s.wait(40); s.down(a=(100.0, 70.0)); s.wait(80); s.up("a"); s.wait(400)
    out["tap"] = ("one finger taps once in the middle (80 ms down)", s)

    s = Script(2)
    s.wait(40); s.down(a=(60.0, 50.0)); s.wait(72); s.up("a"); s.wait(120)
    s.down(a=(61.5, 50.8)); s.wait(72); s.up("a"); s.wait(400)
    out["double-tap"] = ("two taps 200 ms apart and 1.7 mm apart: a double tap", s)

    s = Script(3)
    s.wait(40); s.down(a=(90.0, 60.0), b=(120.0, 62.0)); s.wait(96); s.up("a", "b"); s.wait(400)
    out["two-finger-tap"] = ("two fingers 30 mm apart tap together (96 ms)", s)

    s = Script(4)
    s.wait(40); s.down(a=(150.0, 90.0)); s.wait(800); s.up("a"); s.wait(100)
    out["long-press"] = ("one finger held still for 800 ms, then lifted", s)

    s = Script(5)
    s.wait(40); s.down(a=(50.0, 100.0)); s.wait(60)
    s.move(900, a=lambda k: (50.0 + 80.0 * ease(k), 100.0 - 30.0 * ease(k))); s.wait(150); s.up("a"); s.wait(100)
    out["pan"] = ("one finger drags slowly 85 mm right and up over 0.9 s, rests, lifts", s)

    s = Script(6)
    s.wait(40); s.down(a=(160.0, 70.0)); s.move(120, a=line((160.0, 70.0), (100.0, 72.0))); s.up("a"); s.wait(300)
    out["swipe-left"] = ("a quick 60 mm stroke to the left in 120 ms (500 mm/s)", s)

    s = Script(7)
    s.wait(40); s.down(a=(108.0, 40.0), b=(128.0, 40.0)); s.move(150, a=line((108.0, 40.0), (108.0, 90.0)), b=line((128.0, 40.0), (128.0, 90.0)))
    s.up("a", "b"); s.wait(300)
    out["two-finger-swipe-down"] = ("two fingers 20 mm apart stroke 50 mm down in 150 ms", s)

    s = Script(15)
    s.wait(40); s.down(a=(80.0, 110.0), b=(100.0, 110.0), c=(120.0, 110.0))
    s.move(150, a=line((80.0, 110.0), (80.0, 60.0)), b=line((100.0, 110.0), (100.0, 60.0)), c=line((120.0, 110.0), (120.0, 60.0)))
    s.up("a", "b", "c"); s.wait(300)
    out["three-finger-swipe-up"] = ("three fingers 20 mm apart stroke 50 mm up in 150 ms", s)

    s = Script(16)
    s.wait(40); s.down(a=(70.0, 110.0), b=(90.0, 110.0), c=(110.0, 110.0), d=(130.0, 110.0))
    s.move(150, a=line((70.0, 110.0), (70.0, 60.0)), b=line((90.0, 110.0), (90.0, 60.0)), c=line((110.0, 110.0), (110.0, 60.0)),
           d=line((130.0, 110.0), (130.0, 60.0)))
    s.up("a", "b", "c", "d"); s.wait(300)
    out["four-finger-swipe-up"] = ("four fingers 20 mm apart stroke 50 mm up in 150 ms", s)

    s = Script(8)
    s.wait(40); s.down(a=(1.5, 60.0)); s.move(300, a=lambda k: (1.5 + 60.0 * ease(k), 60.0 + 4.0 * k)); s.up("a"); s.wait(200)
    out["edge-swipe-left"] = ("one finger starts 1.5 mm from the left edge and moves 60 mm inward", s)

    s = Script(9)
    c = (110.0, 70.0)
    s.wait(40); s.down(a=(c[0] - 40.0, c[1]), b=(c[0] + 40.0, c[1]))
    s.move(400, a=lambda k: (c[0] - 40.0 + 28.0 * ease(k), c[1]), b=lambda k: (c[0] + 40.0 - 28.0 * ease(k), c[1]))
    s.wait(50)
    s.move(400, a=lambda k: (c[0] - 12.0 - 38.0 * ease(k), c[1]), b=lambda k: (c[0] + 12.0 + 38.0 * ease(k), c[1]))
    s.up("a", "b"); s.wait(200)
    out["pinch"] = ("two fingers pinch in from 80 mm to 24 mm apart, then out to 100 mm", s)

    s = Script(10)
    c, r = (110.0, 70.0), 25.0
    s.wait(40); s.down(a=(c[0] - r, c[1]), b=(c[0] + r, c[1]))
    s.move(500, a=arc(c, r, math.pi, math.pi + math.pi / 2), b=arc(c, r, 0.0, math.pi / 2))
    s.up("a", "b"); s.wait(200)
    out["rotate"] = ("two fingers 50 mm apart turn 90° clockwise (y down) about their centre", s)

    s = Script(11)
    s.wait(40); s.down(a=(80.0, 80.0)); s.press(300, a=lambda k: 0.3 + 0.3 * k); s.wait(200)
    s.press(250, a=lambda k: 0.6 + 0.35 * k); s.wait(150); s.press(200, a=lambda k: 0.95 - 0.75 * k); s.up("a"); s.wait(200)
    out["peek-pop"] = ("one finger presses harder: pressure 0.3 → 0.6 (peek), → 0.95 (pop), then eases off", s)

    s = Script(12)
    s.wait(40); s.down(a=(40.0, 40.0)); s.wait(600)
    s.move(700, a=lambda k: (40.0 + 120.0 * ease(k), 40.0 + 50.0 * ease(k))); s.wait(100); s.up("a"); s.wait(200)
    out["drag"] = ("long press (600 ms) lifts an item at (40, 40), carries it 130 mm, drops it", s)

    s = Script(14)
    s.wait(40); s.down(a=(40.0, 40.0)); s.wait(600)
    s.move(350, a=lambda k: (40.0 + 60.0 * ease(k), 40.0 + 25.0 * ease(k)))
    s.down(b=(40.0, 100.0)); s.wait(80); s.up("b")
    s.move(350, a=lambda k: (100.0 + 60.0 * ease(k), 65.0 + 25.0 * ease(k))); s.wait(100); s.up("a"); s.wait(200)
    out["drag-two-items"] = ("a drag lifts an item at (40, 40); on the way, a second finger taps another item at (40, 100) (80 ms), which joins the drag; both are dropped at (160, 90)", s)

    s = Script(13)
    s.wait(40); s.down(a=(30.0, 100.0)); s.wait(600)
    s.move(400, a=lambda k: (30.0 + 140.0 * ease(k), 100.0 - 60.0 * ease(k))); s.wait(900)
    s.move(300, a=lambda k: (170.0 - 20.0 * ease(k), 40.0 + 10.0 * ease(k))); s.up("a"); s.wait(200)
    out["spring-loading"] = ("drag lifts an item, then hovers 900 ms over (170, 40) before moving on and dropping", s)
    return out


def events_of(script):
    """Kernel-style event frames from a script: only changes, pointer emulation, SYN_REPORT."""
    last = {}          # slot -> (tid, xu, yu, pu, mu)
    cur_slot = 0
    touching = False
    ptr = (None, None)
    frames = []
    for t_us, state in script.frames:
        ev = []
        for slot in sorted(set(last) | set(state)):
            before = last.get(slot)
            after = state.get(slot)
            if after is None:
                if slot != cur_slot:
                    ev.append((EV_ABS, ABS_MT_SLOT, slot)); cur_slot = slot
                ev.append((EV_ABS, ABS_MT_TRACKING_ID, -1))
                continue
            tid, x, y, p = after
            xu = max(0, min(X_MAX, round(x * RES)))
            yu = max(0, min(Y_MAX, round(y * RES)))
            pu = round(p * PRESSURE_MAX)
            mu = round((6.0 + 4.0 * p) * MAJOR_RES)   # a firmer press flattens the fingertip
            changes = []
            if before is None or before[0] != tid:
                changes.append((ABS_MT_TRACKING_ID, tid))
                before = (tid, None, None, None, None)
            if before[1] != xu: changes.append((ABS_MT_POSITION_X, xu))
            if before[2] != yu: changes.append((ABS_MT_POSITION_Y, yu))
            if before[3] != pu: changes.append((ABS_MT_PRESSURE, pu))
            if before[4] != mu: changes.append((ABS_MT_TOUCH_MAJOR, mu))
            if changes and slot != cur_slot:
                ev.append((EV_ABS, ABS_MT_SLOT, slot)); cur_slot = slot
            ev.extend((EV_ABS, c, v) for c, v in changes)
        last = {s: (v[0], max(0, min(X_MAX, round(v[1] * RES))), max(0, min(Y_MAX, round(v[2] * RES))),
                    round(v[3] * PRESSURE_MAX), round((6.0 + 4.0 * v[3]) * MAJOR_RES)) for s, v in state.items()}
        now_touching = bool(state)
        if now_touching != touching:
            ev.append((EV_KEY, BTN_TOUCH, 1 if now_touching else 0)); touching = now_touching
        if state:
            oldest = min(state, key=lambda s: state[s][0])
            px, py = last[oldest][1], last[oldest][2]
            if px != ptr[0]: ev.append((EV_ABS, ABS_X, px))
            if py != ptr[1]: ev.append((EV_ABS, ABS_Y, py))
            ptr = (px, py)
        if ev:
            ev.append((EV_SYN, SYN_REPORT, 0))
            frames.append((t_us, ev))
    return frames


def yaml_of(name, description, frames):
    out = ["# libinput record", "# Touchline synthetic recording, generated by scripts/gen-recordings.py; do not edit.",
           f"# {name}: {description}",
           "version: 1", "ndevices: 1", "libinput:", '  version: "1.22.1"', '  git: "unknown"',
           "system:", '  os: "touchline:synthetic"', '  kernel: "synthetic"', '  dmi: "dmi:synthetic"',
           "devices:", "- node: /dev/input/event0", "  evdev:",
           "    # Name: Touchline Synthetic Touchscreen",
           f"    # Size in mm: {WIDTH_MM:.0f}x{HEIGHT_MM:.0f}",
           '    name: "Touchline Synthetic Touchscreen"', "    id: [3, 4660, 22136, 1]", "    codes:",
           "      0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN",
           "      1: [330] # EV_KEY",
           "      3: [" + ", ".join(str(a[0]) for a in ABSINFO) + "] # EV_ABS",
           "    absinfo:"]
    for code, mn, mx, fuzz, flat, res in ABSINFO:
        out.append(f"      {code}: [{mn}, {mx}, {fuzz}, {flat}, {res}]")
    out += ["    properties: [1]", "  udev:", "    properties:", "    - ID_INPUT=1", "    - ID_INPUT_TOUCHSCREEN=1",
            "  quirks:", "  events:"]
    prev_ms = 0
    for t_us, ev in frames:
        out.append("  - evdev:")
        sec, usec = divmod(t_us, 1_000_000)
        for typ, code, value in ev:
            label = NAMES[(typ, code)]
            if typ == EV_SYN:
                comment = f"------------ {label} (0) ---------- +{t_us // 1000 - prev_ms}ms"
            else:
                comment = f"{TYPE_NAMES[typ]} / {label:<20} {value:5d}"
            out.append(f"    - [{sec:3d}, {usec:6d}, {typ:3d}, {code:3d}, {value:7d}] # {comment}")
        prev_ms = t_us // 1000
    return "\n".join(out) + "\n"


def main():
    check = "--check" in sys.argv
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Recordings")
    os.makedirs(root, exist_ok=True)
    stale = []
    for name, (description, script) in gestures().items():
        text = yaml_of(name, description, events_of(script))
        path = os.path.join(root, name + ".yml")
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(name)
            if not check:
                with open(path, "w") as f:
                    f.write(text)
    if check and stale:
        print("out of date:", ", ".join(stale)); sys.exit(1)
    print(("checked " if check else "wrote ") + f"{len(gestures())} recordings" + (f" ({len(stale)} changed)" if stale else ""))


if __name__ == "__main__":
    main()
