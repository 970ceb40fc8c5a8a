#!/usr/bin/env python3
"""Seeds the libFuzzer corpora of Fuzz/ (called by scripts/fuzz.sh).

    python3 scripts/fuzz-seeds.py TRACES CORPUS [TOML_TEST]

TRACES is the shared traces folder (../shared/traces), CORPUS the corpus folder (one folder
per target, created as needed; files already there, seeds or inputs the fuzzer found, are
kept), TOML_TEST the toml-test suite's `tests` folder (optional).

libFuzzer reads at most -max_len bytes of a seed, and a real trace's first 4 KiB are mostly its
header and comments. So besides each file as it is, a condensed copy is written: comments
dropped, and cut at a line boundary within the target's limit, so that events, frames and
gestures fall inside what the fuzzer sees.
"""
import os
import re
import sys

# The -max_len of each target (scripts/fuzz.sh passes the same).
MAX_LEN = {"FuzzReplay": 8192, "FuzzSocketMessage": 5000, "FuzzJSONReader": 5000}
DEFAULT_MAX_LEN = 4096
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def condensed(data, limit, comment=b"#"):
    """The lines that are not comments, trailing comments cut, up to `limit` bytes."""
    out = bytearray()
    for line in data.splitlines(keepends=True):
        stripped = line.lstrip()
        if stripped.startswith(comment):
            continue
        if comment == b"#":
            line = re.sub(rb" +# [^\"]*$", b"", line.rstrip(b"\n")) + b"\n"
        if len(out) + len(line) > limit:
            break
        out += line
    return bytes(out)


class Corpus:
    def __init__(self, root):
        self.root = root

    def add(self, target, name, data):
        folder = os.path.join(self.root, target)
        os.makedirs(folder, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", name)
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)

    def add_trace(self, targets, name, data):
        for target in targets:
            self.add(target, name, data)
            self.add(target, "condensed-" + name, condensed(data, MAX_LEN.get(target, DEFAULT_MAX_LEN)))


def read(path):
    with open(path, "rb") as f:
        return f.read()


def files(folder, *suffixes):
    for directory, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if name.endswith(suffixes):
                yield os.path.join(directory, name)


def device_block(yml):
    """The `- node:` item of the devices list and everything after it (one device)."""
    start = yml.find(b"\n- node:")
    return yml[start + 1:] if start >= 0 else b""


def main():
    traces, root = sys.argv[1], sys.argv[2]
    toml_test = sys.argv[3] if len(sys.argv) > 3 else None
    corpus = Corpus(root)

    # evemu: self-contained files, and for FuzzReplay each header-less .events with its .desc
    # before a NUL byte (how FuzzReplay gives a .desc).
    for path in files(traces, ".evemu", ".events", ".desc"):
        corpus.add_trace(["FuzzEvemu", "FuzzReplay"], os.path.basename(path), read(path))
    for path in files(traces, ".events"):
        data = read(path)
        if data.lstrip().startswith(b"E:"):
            base = os.path.basename(path)
            desc = os.path.join(os.path.dirname(path), base.split(".")[0] + ".desc")
            if os.path.exists(desc):
                d = condensed(read(desc), 4096)
                corpus.add("FuzzReplay", "with-desc-" + base, d + b"\0" + condensed(data, MAX_LEN["FuzzReplay"] - len(d) - 1))

    # getevent -lt
    for path in files(os.path.join(traces, "MonkeyHelper"), ".txt"):
        corpus.add_trace(["FuzzGetevent", "FuzzReplay"], os.path.basename(path), read(path))

    # libinput record: the shared traces and Touchline's own recordings, and files of two
    # devices (what `libinput record --all` writes) made of two one-device files.
    ymls = list(files(traces, ".yml")) + list(files(os.path.join(REPO, "Recordings"), ".yml"))
    for path in ymls:
        corpus.add_trace(["FuzzLibinputRecord", "FuzzReplay"], os.path.basename(path), read(path))
    pairs = [("Recordings/tap.yml", "Recordings/pinch.yml"),
             ("Recordings/two-finger-tap.yml", "Recordings/long-press.yml"),
             (os.path.join(traces, "libinput-record/Wacom ISDv4 E6 Finger.2fg-tap.yml"),
              os.path.join(REPO, "Recordings/double-tap.yml"))]
    for first, second in pairs:
        a, b = (read(os.path.join(REPO, p)) for p in (first, second))
        for target in ["FuzzLibinputRecord", "FuzzReplay"]:
            half = MAX_LEN.get(target, DEFAULT_MAX_LEN) // 2
            two = condensed(a, half).replace(b"ndevices: 1", b"ndevices: 2") + device_block(condensed(b, half))
            corpus.add(target, "two-devices-" + os.path.basename(first) + "+" + os.path.basename(second), two)

    # Configurations: the example, the TOML blocks of the docs and the configs the tests hold.
    configs = [("example-config.toml", read(os.path.join(REPO, "docs/example-config.toml")))]
    for path in files(os.path.join(REPO, "docs"), ".md"):
        for k, block in enumerate(re.findall(rb"```toml\n(.*?)```", read(path), re.S)):
            configs.append((f"{os.path.basename(path)}-{k}.toml", block))
    for path in files(os.path.join(REPO, "Tests"), ".swift"):
        for k, block in enumerate(re.findall(rb'"""\n(.*?)"""', read(path), re.S)):
            if b"[[recognizer]]" in block or b"[[target]]" in block or b"[defaults]" in block:
                configs.append((f"{os.path.basename(path)}-{k}.toml", re.sub(rb"(?m)^ +", b"", block)))
        # One-line literals such as "[[recognizer]]\nkind = \"tap\"\n", escapes undone.
        for k, literal in enumerate(re.findall(rb'"((?:[^"\\\n]|\\.)*?(?:\[\[recognizer\]\]|\[\[target\]\]|\[defaults)(?:[^"\\\n]|\\.)*)"', read(path))):
            text = re.sub(rb"\\(.)", lambda m: {b"n": b"\n", b"t": b"\t"}.get(m.group(1), m.group(1)), literal)
            configs.append((f"{os.path.basename(path)}-line{k}.toml", text))
    for name, data in configs:
        corpus.add("FuzzConfig", name, data)
        corpus.add("FuzzGraphConfig", name, data)
        corpus.add("FuzzDaemonConfig", name, data)
    # The daemon's own: the packaged example (every key) and the TOML blocks of docs/live.md
    # (already among the docs' blocks above).
    corpus.add("FuzzDaemonConfig", "packaging-daemon.toml", read(os.path.join(REPO, "packaging/daemon.toml")))
    # Every TOML file of toml-test (valid and invalid, 1.0 and 1.1) for the parser, under a
    # name made from its path, as the suite repeats file names.
    if toml_test and os.path.isdir(toml_test):
        for path in files(toml_test, ".toml"):
            corpus.add("FuzzConfig", os.path.relpath(path, toml_test).replace("/", "_"), read(path))
    else:
        print(f"fuzz-seeds.py: no toml-test suite at {toml_test}; FuzzConfig starts from the docs' configs",
              file=sys.stderr)

    # The event socket's client messages (docs/live.md#the-event-socket): valid ones of each
    # form, and the malformed kinds the tests send.
    messages = [
        b'{"subscribe": []}', b'{"subscribe": ["tap", "pinch"]}',
        b'{"subscribe": {"gestures": ["pinch"], "targets": ["zone"], "devices": [0, 1]}}',
        b'{"subscribe": {"devices": [true, 1.5, -1, 1e400]}}', b'{"subscribe": {"targets": ["\\u00e9\\ud800"]}}',
        b'{"register": {"name": "zone", "rect": [0, 0, 0.5, 0.5], "units": "normalized", "z": 10, '
        b'"recognizers": [{"kind": "tap"}, {"kind": "spring"}]}}',
        b'{"register": {"name": "b", "rect": [10, 20, 30.5, 40], "units": "mm", "z": -3, "devices": [0, 2], '
        b'"recognizers": [{"kind": "tap", "name": "double", "taps": 2, "maxDuration": "250ms", "slop": "0.5cm", '
        b'"eager": true}, {"kind": "longPress", "minimumDuration": 0.8e3, "requiresFailureOf": "double"}, '
        b'{"kind": "pan", "simultaneousWith": ["double"]}, {"kind": "pinch", "fingers": 2}]}}',
        b'{"register": {"name": "zone", "rect": [0, 0, 2, 1], "units": "normalized", "recognizers": [{"kind": "tap", '
        b'"taps": 99, "maxDuration": "fast", "target": "surface", "eager": null, "x": [[[[[[[[[1]]]]]]]]]}]}}',
        b'{"register": {"name": "surface", "rect": [0, 0, 1], "recognizers": []}}', b'{"register": "zone"}',
        b'{"unregister": "zone"}', b'{"unregister": 3}',
        b'{"subscribe": ["tap"], "x": 1}', b'{"listen": null}', b'[1, 2]', b'"subscribe"', b'{"subscribe": "tap"',
        b'[' * 600 + b']' * 600, b'{"subscribe": [' + b'"tap", ' * 300 + b'"tap"]}', b'\xff\x00{}',
    ]
    for k, message in enumerate(messages):
        corpus.add("FuzzSocketMessage", f"message-{k}", message)
        corpus.add("FuzzJSONReader", f"message-{k}", message)

    # `calibrate`: a udev property's value, a newline, then --points (docs/calibrate.md).
    calibrations = [
        b"0 -1 1 1 0 0\n0.1,0.1 0.9,0.1 0.9,0.9 0.1,0.9 0.5,0.5",
        b"1.05 0 -0.02 0 0.95 0.03 extra\n192,108 1728,108 1728,972 192,972",
        b"1 0 0 0 1 nan\n0.5,0.5 0.5,0.5 0.5,0.5", b"1 0 0x1p-3 0 1 1e300\n0,0 1,1 0.5,0.5",
        b"\n0.1,0.1,0.1 x,y 1e-320,0 -0,1", b"1 2 3\n" + b"0.1,0.2 " * 70,
        # The daemon's view lines, as `calibrate --daemon` reads them: a device, a tap's frames
        # (with raw positions and without), an event, a drop report, wrong lines.
        b'{"view":"device","device":0,"width":135.00,"height":216.00,"native":{"name":"Panel \\"x\\"","vendor":3823,"product":1,'
        b'"xMin":0,"xMax":2160,"yMin":0,"yMax":1350,"width":216.0000,"height":135.0000},"targets":[],"recognizers":[]}\n'
        b'{"time":0.500000,"device":0,"contacts":[{"id":0,"phase":"began","slot":0,"x":13.50,"y":21.60,"nx":0.1,"ny":0.1}],"raw":[{"id":0,"x":21.60,"y":13.50}]}\n'
        b'{"time":0.580000,"device":0,"contacts":[{"id":0,"phase":"ended","slot":0,"x":21.60,"y":13.50,"nx":0.1,"ny":0.1}]}\n'
        b'{"v":1,"seq":1,"time":0.58,"device":0,"gesture":"tap"}\n{"dropped":3,"total":9}\n'
        b'{"time":1e300,"device":0,"contacts":[{"id":0,"phase":"moved","x":1e5,"y":-0}]}\n{"view":"device","device":-1}',
    ]
    for k, data in enumerate(calibrations):
        corpus.add("FuzzCalibration", f"calibration-{k}", data)


if __name__ == "__main__":
    main()
