#!/usr/bin/env python3
"""Pass-through's added latency in the daemon (issue 31; docs/live.md#pass-through): from a
frame's first event reaching the session to the return of the write(2) that hands its frame to
the clone, on every recording of ../shared/traces and Recordings/, each played at its own rate.

    scripts/passthrough-latency.py BINARY [--traces DIR] [--recordings DIR] [--only SUBSTRING]

BINARY is a release build (`swift build -c release --product touchline`: .build/release/touchline,
or the installed one); this script builds nothing. Per file it runs

    BINARY daemon --source trace:FILE --config kiosk.toml --measure --passthrough-to /dev/fd/N

where kiosk.toml is a consuming left edge swipe, tap and pan, and `[[device]] match.name = "*"`,
`passthrough = true` (written to a temporary directory), and /dev/fd/N the write end of a pipe
read by `nice -n 19 cat` into a file: the clone is that pipe (`--passthrough-to`, hidden:
PassThroughFile), which receives the same binary input_event records, one write(2) per frame,
as a uinput clone. The script checks them (24-byte records, each frame ending with SYN_REPORT)
and counts the frames. The reader runs at nice 19 so that its wake-up does not preempt the
daemon inside the measured write(2) (a reader at the daemon's priority may, and its own work
would then be counted as the daemon's).
`--measure` prints the histogram of each run (frame read → frame written to the pass-through
clone); the runs are pooled from their buckets (the probe's log-linear buckets, so a percentile
is within 1.6 % of the value, and a percentile is the bucket's upper bound, never above the
largest sample). A frame the planner holds and a deadline releases later belongs to no input
frame and is not counted (it is written, and the pipe's count includes it).

The host's load average is printed before and after: the figures depend on it. Takes about
3.5 minutes (the recordings' own length, about 210 s, one after another).
"""
import argparse
import fcntl
import glob
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIOSK = """\
[[recognizer]]
name = "edge"
kind = "edgeSwipe"
edges = ["left"]
consume = true

[[recognizer]]
name = "tap"
kind = "tap"

[[recognizer]]
name = "pan"
kind = "pan"

[[device]]
match.name = "*"
passthrough = true
"""
EVENT = struct.Struct("qqHHi")   # struct input_event on 64-bit Linux: timeval, type, code, value
FRAMES = re.compile(r"latency frame read → event written to the socket: \d+ events of (\d+) frames")
SUMMARY = re.compile(r"latency frame read → frame written to the pass-through clone: (\d+) clone frames of (\d+) frames; .* max ([\d.]+) µs")
BUCKETS = "latency buckets (clone frames):"
EVENT_BUCKETS = "latency buckets (events):"


def recordings(traces, own):
    """Every recording: the shared traces in each of their formats, then Recordings/."""
    files = []
    for pattern in ("libinput-record/*.yml", "evemu-devices/*.events", "evemu-devices/*.evemu",
                    "xorg-integration-tests/*.events", "MonkeyHelper/*.txt"):
        files += sorted(glob.glob(os.path.join(traces, pattern)))
    files += sorted(glob.glob(os.path.join(own, "*.yml")))
    return files


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def check_records(path):
    """The clone's output: its records, its frames, and whether every record and frame is whole."""
    with open(path, "rb") as f:
        data = f.read()
    events = frames = 0
    open_frame = False
    for _, _, kind, code, _ in EVENT.iter_unpack(data[:len(data) - len(data) % EVENT.size]):
        events += 1
        open_frame = not (kind == 0 and code == 0)
        frames += 0 if open_frame else 1
    return events, frames, len(data) % EVENT.size == 0 and not open_frame


def measure(binary, path, config, work, speed):
    # The pipe's reader: `cat` at nice 19 into a file, checked after the run. At the daemon's
    # priority its wake-up by the clone's write(2) may preempt the daemon before the write
    # returns, and the reader's own work would be counted as the daemon's; a 1 MiB pipe lets
    # it lag. (A uinput clone's readers are the compositor's: not the daemon's time either.)
    r, w = os.pipe()
    fcntl.fcntl(w, 1031, 1 << 20)                  # F_SETPIPE_SZ
    records = os.path.join(work, "clone.bin")
    with open(records, "wb") as out:
        reader = subprocess.Popen(["nice", "-n", "19", "cat"], stdin=r, stdout=out)
    os.close(r)
    sock = os.path.join(work, "touchline.sock")
    started = time.monotonic()
    daemon = subprocess.Popen([binary, "daemon", "--source", "trace:" + path, "--config", config, "--socket", sock,
                               "--speed", str(speed), "--measure", "--passthrough-to", "/dev/fd/%d" % w],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, pass_fds=(w,))
    os.close(w)
    try:
        _, err = daemon.communicate(timeout=600)
        reader.wait(timeout=60)
    finally:
        # A run that timed out leaves neither the daemon nor its reader behind.
        for p in (daemon, reader):
            if p.poll() is None:
                p.kill()
                p.wait()
    events, frames, whole = check_records(records)
    result = {"wall": time.monotonic() - started, "status": daemon.returncode, "pipe_frames": frames,
              "pipe_events": events, "whole": whole,
              "buckets": {}, "event_buckets": {}, "samples": 0, "frames": 0, "max": 0.0, "err": err}
    for line in err.splitlines():
        # The frames read, from the socket's histogram (printed even when no clone frame was).
        m = FRAMES.search(line)
        if m:
            result["frames"] = int(m.group(1))
        m = SUMMARY.search(line)
        if m:
            result["samples"], result["max"] = int(m.group(1)), float(m.group(3)) * 1000
        for prefix, key in ((BUCKETS, "buckets"), (EVENT_BUCKETS, "event_buckets")):
            if line.startswith(prefix):
                for pair in line[len(prefix):].split():
                    upper, count = pair.split(":")
                    result[key][int(upper)] = result[key].get(int(upper), 0) + int(count)
    return result


def percentile(buckets, maximum, fraction):
    """As LatencyProbe.percentile: the upper bound of the bucket holding the sample of that rank."""
    samples = sum(buckets.values())
    if samples == 0:
        return None
    rank = max(1, math.ceil(fraction * samples))
    seen = 0
    for upper in sorted(buckets):
        seen += buckets[upper]
        if seen >= rank:
            return min(upper, maximum)
    return maximum


def us(ns):
    return "-" if ns is None else "%.1f" % (ns / 1000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", help="a release touchline (this script builds nothing)")
    parser.add_argument("--traces", default=os.path.join(os.path.dirname(ROOT), "shared", "traces"))
    parser.add_argument("--recordings", default=os.path.join(ROOT, "Recordings"))
    parser.add_argument("--only", help="only the files whose path contains this")
    parser.add_argument("--speed", type=float, default=1, help="play faster than recorded (1: their own rate; 1000: frames back to back, the code warm)")
    args = parser.parse_args()
    files = [f for f in recordings(args.traces, args.recordings) if not args.only or args.only in f]
    if not files:
        sys.exit("no recordings found under %s and %s" % (args.traces, args.recordings))
    work = tempfile.mkdtemp(prefix="touchline-passthrough-latency-")
    config = os.path.join(work, "kiosk.toml")
    with open(config, "w") as f:
        f.write(KIOSK)
    print("binary %s; %d recordings; %d CPUs; load average %s at the start" % (args.binary, len(files), os.cpu_count(), load()))
    print("%-70s %7s %7s %7s %8s %8s %8s %8s" % ("recording", "frames", "written", "counted", "p50 µs", "p99 µs", "p99.9 µs", "max µs"))
    pooled, pooled_max, total, problems = {}, 0.0, 0, []
    groups, group_max, events = {}, {}, {}
    started = time.monotonic()
    try:
        for path in files:
            r = measure(args.binary, path, config, work, args.speed)
            name = os.path.relpath(path, ROOT)
            if r["status"] != 0:
                problems.append("%s: the daemon exited %d: %s" % (name, r["status"], r["err"].strip()[-300:]))
            if not r["whole"]:
                problems.append("%s: the pipe ended inside a record or a frame" % name)
            if r["samples"] > r["pipe_frames"]:
                problems.append("%s: %d frames counted but %d written to the pipe" % (name, r["samples"], r["pipe_frames"]))
            group = name.split(os.sep)[-2]
            for into in (pooled, groups.setdefault(group, {})):
                for upper, count in r["buckets"].items():
                    into[upper] = into.get(upper, 0) + count
            for upper, count in r["event_buckets"].items():
                events[upper] = events.get(upper, 0) + count
            pooled_max = max(pooled_max, r["max"])
            group_max[group] = max(group_max.get(group, 0.0), r["max"])
            total += r["frames"]
            b, m = r["buckets"], r["max"]
            print("%-70s %7d %7d %7d %8s %8s %8s %8s" % (name[-70:], r["frames"], r["pipe_frames"], r["samples"],
                  us(percentile(b, m, 0.5)), us(percentile(b, m, 0.99)), us(percentile(b, m, 0.999)), us(m if b else None)), flush=True)
        for group, b in groups.items():
            m = group_max[group]
            print("%-70s %7s %7s %7d %8s %8s %8s %8s" % ("pooled: " + group + "/", "", "", sum(b.values()), us(percentile(b, m, 0.5)),
                  us(percentile(b, m, 0.99)), us(percentile(b, m, 0.999)), us(m if b else None)))
        counted = sum(pooled.values())
        print("%-70s %7d %7s %7d %8s %8s %8s %8s" % ("pooled", total, "", counted, us(percentile(pooled, pooled_max, 0.5)),
              us(percentile(pooled, pooled_max, 0.99)), us(percentile(pooled, pooled_max, 0.999)), us(pooled_max if pooled else None)))
        # The same runs' gesture events to the socket (no client connected: the frame's
        # recognition and its events made), for comparison: the clone's frame is written after them.
        print("%-70s %7s %7s %7d %8s %8s %8s" % ("pooled, the same frames' gesture events made (socket)", "", "", sum(events.values()),
              us(percentile(events, pooled_max, 0.5)), us(percentile(events, pooled_max, 0.99)), us(percentile(events, pooled_max, 0.999))))
        print("frames: the input frames read; written: clone frames in the pipe; counted: those written within their own "
              "input frame (the latency samples). %.0f s; load average %s at the end" % (time.monotonic() - started, load()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for p in problems:
        print("problem: " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
