#!/usr/bin/python3
"""Stands in for `touchline calibrate`'s page where there is no browser (the VM): reads the
page's lines from /stream and answers each new crosshair with `shown=N`, as the page does once
it has painted it; creates READY after the first answer (so that the taps start then); prints
the last line's state ("done" or "failed") and answers the result as shown.

    scripts/vm/calibrate-page-client.py URL READY
"""
import http.client
import json
import re
import sys
import urllib.request

url, ready = sys.argv[1], sys.argv[2]
match = re.match(r"http://([^/:]+):(\d+)/", url)
host, port = match.group(1), int(match.group(2))
page = urllib.request.urlopen(url, timeout=10).read().decode()
secret = re.search(r'const secret = "([0-9a-f]{32})"', page).group(1)


def answer(query):
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.request("POST", "/answer?%s&secret=%s" % (query, secret), headers={"Content-Length": "0"})
    status = connection.getresponse().status
    connection.close()
    if status != 200:
        sys.exit("answer %s: HTTP %d" % (query, status))


stream = http.client.HTTPConnection(host, port, timeout=120)
stream.request("GET", "/stream")
response = stream.getresponse()
prompt = None
while True:
    raw = response.readline()
    if not raw:
        sys.exit("the stream ended before done")
    text = raw.decode().strip()
    if not text.startswith("data: "):
        continue
    line = json.loads(text[len("data: "):])
    if line.get("calibrate") == "point" and line["prompt"] != prompt:
        prompt = line["prompt"]
        answer("shown=%d" % line["index"])
        open(ready, "a").close()
    elif line.get("calibrate") in ("done", "failed"):
        answer("shown=%d" % len(line.get("residuals", [])))
        print(line["calibrate"], line.get("found", line.get("reason", "")), flush=True)
        break
