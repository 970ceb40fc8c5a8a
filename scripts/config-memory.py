#!/usr/bin/env python3
"""Measures what the largest configurations the caps allow cost (docs/config.md#size-limits).

Issue 24 item 5: a 15 MiB file of short values took 7.7 s and 2 GB to check, and SIGHUP with
it took the daemon to 1.3 GB and stopped events for seconds. The caps (256 KiB, 16,384 keys
and array elements, 128 levels) bound that; this script writes the worst files under them, one
per shape that costs most per byte, and measures:

  1. `touchline daemon --check-config FILE`: seconds and peak RSS (/usr/bin/time -f "%e %M"),
     against a one-line file, so the difference is what the file costs;
  2. the daemon on a looping recording (a tap every ~11 ms at --speed 100) with a client
     subscribed: for SIGHUP with each file, the time from the signal to the daemon's
     `reload:` line and the longest gap between two events around it, against the longest
     gap without a reload; then the daemon's peak RSS (VmHWM).

Nothing here is a test: timings depend on the machine. The tests assert the caps themselves
(TOMLTests.sizeCapsAreRefusedWhereTheyFall, ConfigSizeTests) and the size of a value.

Usage (from the repository root, after `swift build -c release`):
    python3 scripts/config-memory.py [--binary .build/release/touchline]
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

CAP_BYTES = 256 * 1024
CAP_VALUES = 16384


def worst_files():
    """Name -> text: each shape as large as the caps allow."""
    n = CAP_VALUES
    files = {
        # One value per element, two bytes each.
        "array": "a = [" + ",".join(["1"] * (n - 1)) + "]\n",
        "keys": "".join(f"k{i} = 1\n" for i in range(n)),
        "tables": "".join(f"[t{i}]\n" for i in range(n)),
        "array-of-tables": "[[a]]\n" * (n - 1),
        "inline-tables": "a = [" + ",".join(["{}"] * (n - 1)) + "]\n",
        "strings": "a = [" + ",".join(['"xxxxxxxxxxxxxxxx"'] * ((CAP_BYTES - 10) // 19)) + "]\n",
        "one-string": 'a = "' + "x" * (CAP_BYTES - 10) + '"\n',
        "dates": "a = [" + ",".join(["1979-05-27T07:32:00Z"] * ((CAP_BYTES - 10) // 21)) + "]\n",
    }
    # A valid graph: one target over the whole surface (where the recording taps), then as
    # many small ones as the caps allow (eight values each: the element, name, rect and its
    # four numbers, z), built into a graph per device.
    targets = ['[[target]]\nname = "all"\nrect = [0, 0, 3000, 3000]\n']
    count = 1
    while (count + 1) * 8 + 1 <= n:
        text = f'[[target]]\nname = "t{count}"\nrect = [0, 0, 10, 10]\nz = -1\n'
        if sum(map(len, targets)) + len(text) > CAP_BYTES:
            break
        targets.append(text)
        count += 1
    files["valid-targets"] = "".join(targets)
    for name, text in files.items():
        assert len(text.encode()) <= CAP_BYTES, name
    return files


def check_config(binary, path):
    result = subprocess.run(["/usr/bin/time", "-f", "%e %M", binary, "daemon", "--check-config", path],
                            capture_output=True, text=True)
    seconds, kb = result.stderr.strip().split("\n")[-1].split()
    return result.returncode, float(seconds), int(kb)


def vm(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/touchline")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    tap = os.path.abspath("Recordings/tap.yml")
    files = worst_files()
    with tempfile.TemporaryDirectory(prefix="tl-config-") as dir:
        paths = {}
        for name, text in files.items():
            paths[name] = os.path.join(dir, name + ".toml")
            with open(paths[name], "w") as f:
                f.write(text)
        small = os.path.join(dir, "small.toml")
        with open(small, "w") as f:
            f.write('[[recognizer]]\nkind = "tap"\n')

        print("--check-config (status, seconds, peak RSS):")
        _, base_s, base_kb = check_config(binary, small)
        print(f"  {'one line':16} {0:>7} B  status 0   {base_s:.2f} s  {base_kb} kB")
        for name, path in paths.items():
            status, seconds, kb = check_config(binary, path)
            print(f"  {name:16} {os.path.getsize(path):>7} B  status {status:<3} {seconds:.2f} s  {kb} kB (+{kb - base_kb} kB)")

        config = os.path.join(dir, "daemon.toml")
        with open(config, "w") as f:
            f.write('[[recognizer]]\nkind = "tap"\n')
        sock = os.path.join(dir, "s")
        daemon = subprocess.Popen([binary, "daemon", "--config", config, "--source", "trace:" + tap,
                                   "--speed", "100", "--loop", "1000000", "--socket", sock],
                                  stderr=subprocess.PIPE, text=True)
        stderr_lines = []

        def read_stderr():
            for line in daemon.stderr:
                stderr_lines.append((time.monotonic(), line.rstrip("\n")))
        threading.Thread(target=read_stderr, daemon=True).start()
        while not os.path.exists(sock):
            time.sleep(0.01)
        client = socket.socket(socket.AF_UNIX)
        client.connect(sock)
        client.sendall(b'{"subscribe": []}\n')
        arrivals = []

        def read_events():
            buffer = b""
            while True:
                data = client.recv(65536)
                if not data:
                    return
                now = time.monotonic()
                buffer += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    if b'"gesture"' in line:
                        arrivals.append(now)
        threading.Thread(target=read_events, daemon=True).start()

        def longest_gap(start, end):
            times = [t for t in arrivals if start <= t <= end]
            return max((b - a for a, b in zip(times, times[1:])), default=float("nan"))

        time.sleep(2)
        quiet_end = time.monotonic()
        print(f"\nSIGHUP (daemon on a looping tap, a tap every ~11 ms; longest gap between events without a reload: "
              f"{longest_gap(quiet_end - 1.5, quiet_end) * 1000:.1f} ms):")
        for name in paths:
            with open(paths[name]) as source, open(config, "w") as target:
                target.write(source.read())
            seen = len(stderr_lines)
            sent = time.monotonic()
            daemon.send_signal(signal.SIGHUP)
            while not any("reload:" in line for _, line in stderr_lines[seen:]):
                time.sleep(0.001)
            answered, line = next((t, l) for t, l in stderr_lines[seen:] if "reload:" in l)
            time.sleep(0.5)
            print(f"  {name:16} reload line after {(answered - sent) * 1000:6.1f} ms, longest gap "
                  f"{longest_gap(sent - 0.2, sent + 0.5) * 1000:6.1f} ms: {line[line.index('reload:'):][:90]}")
        print(f"\ndaemon: peak RSS {vm(daemon.pid, 'VmHWM')} kB, now {vm(daemon.pid, 'VmRSS')} kB")
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
