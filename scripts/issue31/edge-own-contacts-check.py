import json, os, subprocess, sys, glob
binary = os.path.abspath(sys.argv[1]); os.chdir(sys.argv[2])
bad_files = 0; total = 0; examples = []
for f in sorted(glob.glob('w*.yml')):
    out = subprocess.run([binary, 'replay', f], capture_output=True, text=True)
    if out.returncode != 0: print(f, 'rc', out.returncode, out.stderr[:200]); continue
    stray = []; seen = 0; last_c0_lift = None
    for line in out.stdout.splitlines():
        e = json.loads(line)
        if e.get('recognizer') != 'edgeSwipe': continue
        seen += 1
        if e.get('contacts') != [0] or e.get('fingers') != 1: stray.append(e)
    total += 1
    if stray or not seen:
        bad_files += 1
        if len(examples) < 4: examples.append((f, seen, len(stray), stray[:1], stray[-1:] if stray else None))
print(f'{binary}: {bad_files} of {total} scenarios have no edgeSwipe event, or one naming another contact than c0 or more than one finger')
for ex in examples: print('  ', ex[0], 'edgeSwipe events', ex[1], 'stray', ex[2]); [print('     ', json.dumps(s)) for s in (ex[3] or []) + (ex[4] or [])]
