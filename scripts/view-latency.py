#!/usr/bin/python3
"""Whether `touchline view` adds latency to the daemon's other clients (issue 33, docs/view.md,
Performance): a client subscribed as `touchline listen` is, timed three ways.

    scripts/view-latency.py BINARY [--copies N] [--no-browser] [--no-pin]

BINARY: touchline (release for the figures the docs state; touchline-view beside it); this
script builds nothing. The daemon plays Recordings/pinch.yml --copies times (`--source trace:`,
at its own rate, `--measure`), and for each setting:

  none     the measured client alone;
  reader   `touchline view` following the daemon, and a client of view's /stream (Server-Sent
           Events) that only reads (Python, no rendering): what the daemon does for a viewer
           (frames and decision lines made and sent) and view's own work, without a browser;
  browser  view followed by Debian's headless Chromium drawing the page (selenium);
  pinned   the same with the daemon, the measured client and view on CPU 0 and Chromium on CPU 1
           (taskset / sched_setaffinity), with `none` pinned the same way as its baseline
           (`none, pinned`): what is left when the browser cannot take the daemon's core.

Per setting, three figures:
  - client: each event's arrival at the measured client (CLOCK_MONOTONIC at recv) minus its
    time in the recording, less the smallest such difference of the run (the trace clock maps
    recording time to CLOCK_MONOTONIC by a constant the client cannot see): latency above the
    run's fastest event, timer wake-up, daemon, socket and client wake-up included;
  - daemon: the daemon's own `--measure` (a frame's first event read → each gesture event
    written to the clients' sockets, send(2) returned);
  - CPU: the daemon's user + system time over the run (getrusage of the child), which shows
    the work a viewer adds to the daemon itself, apart from the contention.
With --cost, instead: the daemon's CPU time per frame without and with view and a /stream
reader (pinch.yml 200 times at 20 times its speed, twice each): the work a viewer adds to the
daemon, which contention cannot hide. The load average is printed with each: the host is shared. With --nice -10 (root) the daemon
and the measured client run before the host's other work (view and Chromium stay at 0), as a
daemon given priority would (systemd's Nice=); without it they compete with everything. Run with /usr/bin/python3 (Debian's
selenium); about 4 minutes with the defaults (2 rounds of 5 runs of 8 copies).
"""
import argparse
import importlib.util
import http.client
import json
import math
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINCH = os.path.join(ROOT, "Recordings", "pinch.yml")
_spec = importlib.util.spec_from_file_location("view_test", os.path.join(ROOT, "scripts", "view-test.py"))
view_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(view_test)


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class Client(threading.Thread):
    """A socket client as `touchline listen` is (subscribes to every gesture), recording when
    each chunk arrived; the lines are parsed after the run."""

    def __init__(self, path, nice=0):
        super().__init__(daemon=True)
        self.nice = nice
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.sendall(b'{"subscribe": []}\n')
        self.chunks = []

    def run(self):
        if self.nice:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)   # this thread's
        while True:
            try:
                data = self.sock.recv(65536)
            except OSError:
                break
            if not data:
                break
            self.chunks.append((time.monotonic_ns(), data))

    def latencies(self):
        """Per gesture event, arrival minus its recording time (ns)."""
        out, rest = [], b""
        for at, data in self.chunks:
            lines = (rest + data).split(b"\n")
            rest = lines.pop()
            for line in lines:
                event = json.loads(line)
                if "gesture" in event and "time" in event:
                    out.append(at - round(event["time"] * 1e9))
        return out


class StreamReader(threading.Thread):
    """A client of view's /stream that reads and discards (no rendering)."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url
        self.bytes = 0

    def run(self):
        try:
            with urllib.request.urlopen(self.url, timeout=600) as response:
                while True:
                    data = response.read1(65536)
                    if not data:
                        break
                    self.bytes += len(data)
        except (OSError, http.client.HTTPException):
            pass           # view went away at the run's end


BUCKETS = "latency buckets (events):"


def bucket_pct(buckets, fraction):
    """As LatencyProbe.percentile (a bucket's upper bound, within 1.6 % of the value)."""
    samples = sum(buckets.values())
    if not samples:
        return None
    rank, seen = max(1, math.ceil(fraction * samples)), 0
    for upper in sorted(buckets):
        seen += buckets[upper]
        if seen >= rank:
            return upper


def pct(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def run(binary, copies, setting, pin, out, nice=0, speed=1):
    work = tempfile.mkdtemp(prefix="touchline-view-latency-")
    sock = os.path.join(work, "touchline.sock")
    own = (["taskset", "-c", "0"] if pin else []) + (["nice", "-n", str(nice)] if nice else [])
    daemon = subprocess.Popen(own + [binary, "daemon", "--measure", "--source", "trace:" + PINCH, "--loop", str(copies),
                                     "--speed", str(speed), "--start-delay", "4", "--socket", sock], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    client = view = driver = reader = None
    mask = os.sched_getaffinity(0)
    try:
        view_test.wait("the daemon's socket", lambda: os.path.exists(sock), 20)
        if pin:
            os.sched_setaffinity(0, {0})           # the client's thread, and view (inherited)
        client = Client(sock, nice)
        client.start()
        if setting != "none":
            view = view_test.View(binary, "--socket", sock)
        if setting == "reader":
            reader = StreamReader(view.url + ("stream" if view.url.endswith("/") else "/stream"))
            reader.start()
        elif setting == "browser":
            if pin:
                os.sched_setaffinity(0, {1})       # chromedriver and Chromium inherit CPU 1
            driver = view_test.browser(out)
            if pin:
                os.sched_setaffinity(0, {0})
            # view has printed its address; on a loaded host its server may take a moment more.
            for attempt in range(20):
                try:
                    driver.get(view.url)
                    break
                except Exception:
                    if attempt == 19:
                        raise
                    time.sleep(0.5)
        load_start = load()
        # The daemon exits at the trace's end; its rusage is its own CPU time.
        _, status, usage = os.wait4(daemon.pid, 0)
        daemon.returncode = os.waitstatus_to_exitcode(status)
        err = daemon.stderr.read()
        client.join(timeout=5)
        buckets = {}
        for line in err.splitlines():
            if line.startswith(BUCKETS):
                for pair in line[len(BUCKETS):].split():
                    upper, count = pair.split(":")
                    buckets[int(upper)] = buckets.get(int(upper), 0) + int(count)
        lat = client.latencies()
        base = min(lat) if lat else 0
        return {"client": [v - base for v in lat], "buckets": buckets, "cpu": usage.ru_utime + usage.ru_stime,
                "load": load_start, "stream": reader.bytes if reader else 0, "status": daemon.returncode}
    finally:
        os.sched_setaffinity(0, mask)
        if driver:
            driver.quit()
        if view:
            view.stop()
        if daemon.poll() is None and daemon.returncode is None:
            daemon.kill()
            daemon.wait()
        shutil.rmtree(work, ignore_errors=True)


def us(ns):
    return "-" if ns is None else "%.1f" % (ns / 1000)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--copies", type=int, default=8, help="times pinch.yml is played per run (99 frames, 90 events each)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every setting")
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "touchline-view-latency"))
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-pin", action="store_true")
    parser.add_argument("--cost", action="store_true", help="instead: the daemon's CPU time per frame without and with a viewer (200 copies at --speed 20, about 1 minute)")
    parser.add_argument("--nice", type=int, default=0, help="the daemon's and the measured client's niceness (e.g. -10, as root: on a host other work loads, so that what is compared is view's and the browser's effect; they stay at 0)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    settings = [("none", False), ("reader", False)]
    if not args.no_browser:
        settings.append(("browser", False))
    if not args.no_pin and os.cpu_count() >= 2:
        settings.append(("none", True))
        if not args.no_browser:
            settings.append(("browser", True))
    if args.cost:
        # The daemon's own work for a viewer, apart from any contention: CPU time (getrusage)
        # over 200 copies at 20 times their speed, without and with view and a /stream reader.
        for round in range(2):
            for setting in ("none", "reader"):
                r = run(args.binary, 200, setting, False, args.out, speed=20)
                print("cost, round %d, %-7s daemon CPU %.3f s for %d frames: %.1f µs per frame; load %s" % (
                    round + 1, setting, r["cpu"], 200 * 99, r["cpu"] / (200 * 99) * 1e6, r["load"]), flush=True)
        return
    print("binary %s; pinch.yml × %d per run; %d rounds; %d CPUs; daemon and client at nice %d; load average %s" % (
        args.binary, args.copies, args.rounds, os.cpu_count(), args.nice, load()), flush=True)
    results = {}
    # Rounds, each setting once per round: the host's load drifts, and each setting sees it alike.
    for round in range(args.rounds):
        for setting, pin in settings:
            try:
                r = run(args.binary, args.copies, setting, pin, args.out, args.nice)
            except Exception as error:           # one setting's failure (a browser that did not start) is said, not fatal
                print("  round %d, %s: failed: %s" % (round + 1, setting, str(error).splitlines()[0] if str(error) else repr(error)), flush=True)
                continue
            key = setting + (", pinned" if pin else "")
            total = results.setdefault(key, {"client": [], "buckets": {}, "cpu": 0.0, "loads": [], "runs": 0, "stream": 0})
            total["client"] += r["client"]
            for upper, count in r["buckets"].items():
                total["buckets"][upper] = total["buckets"].get(upper, 0) + count
            total["cpu"] += r["cpu"]
            total["loads"].append(r["load"].split()[0])
            total["runs"] += 1
            total["stream"] += r["stream"]
            print("  round %d, %-16s client p50 %s µs, p99 %s µs; daemon p50 %s µs, p99 %s µs; daemon CPU %.2f s; load %s%s" % (
                round + 1, key, us(pct(r["client"], 0.5)), us(pct(r["client"], 0.99)), us(bucket_pct(r["buckets"], 0.5)),
                us(bucket_pct(r["buckets"], 0.99)), r["cpu"], r["load"], "" if r["status"] == 0 else "; the daemon exited %d" % r["status"]), flush=True)
    frames = args.copies * 99
    print("%-16s %7s %9s %9s %9s | %9s %9s %9s | %s" % ("setting", "events", "client p50", "p99", "p99.9", "daemon p50", "p99", "p99.9", "daemon CPU per frame; load (1 min) per run"))
    for key, t in results.items():
        print("%-16s %7d %9s %9s %9s | %9s %9s %9s | %.1f µs; %s%s" % (
            key, len(t["client"]), us(pct(t["client"], 0.5)), us(pct(t["client"], 0.99)), us(pct(t["client"], 0.999)),
            us(bucket_pct(t["buckets"], 0.5)), us(bucket_pct(t["buckets"], 0.99)), us(bucket_pct(t["buckets"], 0.999)),
            t["cpu"] / (t["runs"] * frames) * 1e6, " ".join(t["loads"]), "; /stream read %d bytes" % t["stream"] if t["stream"] else ""))
    print("client: arrival at a subscribed socket client minus the event's recording time, above each run's fastest (µs); "
          "daemon: its --measure, frame read → event written to the clients' sockets (µs)")


if __name__ == "__main__":
    main()
