# Issue 31 item 2's scenario (EdgeSwipeOwnContactsTests) as libinput-record files: a left-edge
# finger c0 still undecided when c1 lands mid-screen; 100 Hz frames; 10 units per mm.
import itertools, os, sys
HEADER = open(sys.argv[1]).read().split('  events:\n')[0] + '  events:\n'
def scenario(wait, edgeMove, c1x, c1Lifts):
    frames = []  # list of (t_ms, {finger: (x,y) or None for up})
    t = 0.0; pos = {}
    def frame(changes):
        nonlocal t
        t += 10.0; frames.append((t, dict(changes)))
    def move(targets, over):
        start = {f: pos[f] for f, _ in targets}
        n = max(1, round(over / 10))
        for k in range(1, n + 1):
            ch = {}
            for f, (x, y) in targets:
                sx, sy = start[f]; p = (sx + (x - sx) * k / n, sy + (y - sy) * k / n)
                pos[f] = p; ch[f] = p
            frame(ch)
    pos[0] = (1, 60); frame({0: (1, 60)})
    move([(0, (1 + edgeMove, 60))], wait)
    pos[1] = (c1x, 40); frame({1: (c1x, 40)})
    move([(0, (27, 60)), (1, (c1x, 45))], 100)
    if c1Lifts: del pos[1]; frame({1: None})
    move([(0, (40, 60))], 50)
    del pos[0]; frame({0: None})
    if not c1Lifts:
        move([(1, (c1x, 90))], 100)
        del pos[1]; frame({1: None})
    out = [HEADER]
    down = set()
    for tm, ch in frames:
        us = int(tm * 1000); s, u = divmod(us, 1000000)
        ev = []
        for f, p in sorted(ch.items()):
            ev.append((3, 47, f))
            if p is None:
                ev.append((3, 57, -1)); down.discard(f)
            else:
                if f not in down: ev.append((3, 57, 100 + f)); down.add(f)
                ev.append((3, 53, round(p[0] * 10))); ev.append((3, 54, round(p[1] * 10)))
        ev.append((1, 330, 1 if down else 0))
        ev.append((0, 0, 0))
        out.append('  - evdev:\n')
        for ty, code, val in ev:
            out.append(f'    - [{s:3d}, {u:6d}, {ty:3d}, {code:3d}, {val:7d}]\n')
    return ''.join(out)
for wait, edgeMove, c1x, c1Lifts in itertools.product([10, 20, 40, 100], [0, 2], [15, 50, 100], [False, True]):
    name = f'w{wait}-e{edgeMove}-x{c1x}-{"lift" if c1Lifts else "stay"}.yml'
    open(os.path.join(sys.argv[2], name), 'w').write(scenario(wait, edgeMove, c1x, c1Lifts))
