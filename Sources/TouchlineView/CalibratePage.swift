// The page of `touchline calibrate` (docs/calibrate.md#the-page), served by view's server: full
// screen on the touchscreen, one crosshair at a time, drawn to scale (a finger-sized ring), the
// person touches it; the touch itself is read by Touchline from the device, raw, never from
// the browser (whose touches the current mapping may send anywhere). The page reads the
// calibration's lines from /stream (CalibrationRun.line says their shapes; `calibrate --check
// --page`'s are CheckRun's: one point, then "checked" with the error) and says only two
// things back, as `POST /answer?shown=N` (point N is on the screen now: touches from now on are
// its) and `POST /answer?redo=N` (the person wants the point before N again), with the answer
// secret it was served with.
//
// The answers are the one way in: bounded (a short query, checked by the page's parser before
// it is handed on), behind view's token and Host rules, and
// each carries a random secret that only the page's own bytes hold (a page elsewhere can send a
// request to 127.0.0.1 but cannot read this page, so it cannot answer). The Origin a browser
// sends must be the page's own.
import NIOHTTP1

/// The page's answers, each handed on as it is accepted: `touchline-view calibrate` writes it
/// on its standard output as `answer QUERY` for the command that started it (ViewHost.swift).
public final class PageAnswers: Sendable {
    /// Random, in the page's bytes: every answer must carry it (`?secret=`).
    public let secret: String
    /// Whether a query is an answer (the page's parser); anything else gets 400.
    let accepts: @Sendable (Substring) -> Bool
    /// Where an accepted answer goes.
    let forward: @Sendable (String) -> Void

    public init(forward: @escaping @Sendable (String) -> Void, accepts: @escaping @Sendable (Substring) -> Bool) {
        secret = ViewServer.makeToken()
        self.forward = forward
        self.accepts = accepts
    }

    /// A request's answer: handed on, or the status that refuses it.
    func post(_ head: HTTPRequestHead, query: Substring) -> (HTTPResponseStatus, String) {
        if let length = head.headers.first(name: "content-length"), length != "0" {
            return (.payloadTooLarge, "an answer has no body\n")
        }
        // A browser says where a request comes from: only the page itself answers.
        if let origin = head.headers.first(name: "origin"), let host = head.headers.first(name: "host"), origin != "http://" + host {
            return (.forbidden, "forbidden: the answer comes from another origin\n")
        }
        if let site = head.headers.first(name: "sec-fetch-site"), site != "same-origin" {
            return (.forbidden, "forbidden: the answer comes from another site\n")
        }
        guard query.utf8.count <= 256, let given = RequestRouter.parameter("secret", in: query),
              RequestRouter.constantTimeEqual(Array(given.utf8), Array(secret.utf8)) else {
            return (.forbidden, "forbidden: an answer carries the page's secret\n")
        }
        guard accepts(query) else { return (.badRequest, "an answer is shown=N or redo=N\n") }
        forward(String(query))
        return (.ok, "ok\n")
    }
}

public enum CalibratePage {
    /// The page, with the answers' secret in place (`{{nonce}}` is left for the server).
    public static func html(secret: String) -> [UInt8] {
        Array(text.replacing("{{secret}}", with: secret).utf8)
    }

    static let text = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no">
<title>touchline calibrate</title>
<style nonce="{{nonce}}">
:root { color-scheme: dark; --text: #f2f4f7; --dim: #a4abb6; --accent: #ffcc33; }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; overflow: hidden; background: #000; color: var(--text);
  font: 20px/1.4 system-ui, sans-serif; touch-action: none; user-select: none; -webkit-user-select: none; }
#cross { position: fixed; display: none; pointer-events: none; }
#cross .h, #cross .v { position: absolute; background: #fff; }
#cross .ring { position: absolute; border: 3px solid var(--accent); border-radius: 50%; }
#cross .dot { position: absolute; background: #ff3355; border-radius: 50%; }
#say { position: fixed; left: 20%; top: 50%; width: 60%; text-align: center; transform: translateY(-50%); }
#say h1 { font-size: 28px; margin: 0 0 8px; font-weight: 600; }
#say p { margin: 6px 0; }
#note { color: var(--accent); }
.dim { color: var(--dim); font-size: 17px; }
button { min-height: 56px; min-width: 56px; padding: 0 22px; font-size: 20px; color: var(--text); background: #2a2f38;
  border: 1px solid #5a6270; border-radius: 10px; margin: 8px; }
#result { position: fixed; inset: 0; overflow: auto; padding: 24px 5%; display: none; touch-action: pan-y; user-select: text; -webkit-user-select: text; }
#result h1 { font-size: 30px; margin: 0 0 6px; }
#result pre { background: #15181d; border: 1px solid #333844; border-radius: 8px; padding: 10px; white-space: pre-wrap; word-break: break-all; font-size: 15px; }
#result table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
#result td, #result th { padding: 4px 12px; border-bottom: 1px solid #333844; text-align: right; }
.bad { color: #ff6b6b; }
</style>
</head>
<body>
<div id="cross"><div class="h"></div><div class="v"></div><div class="ring"></div><div class="dot"></div></div>
<div id="say" data-state="start">
  <h1 id="title">touchline calibrate</h1>
  <p id="device" class="dim"></p>
  <p id="line">Open this page on the touchscreen, then touch Start: it goes full screen and shows a cross at a time. Touch the centre of each cross with one finger and lift it.</p>
  <p id="note"></p>
  <p><button id="start" type="button">Start</button><button id="redo" type="button" hidden>Redo the previous point</button></p>
</div>
<div id="result" data-state="">
  <h1 id="verdict"></h1>
  <p id="found"></p>
  <div id="fit"><table><thead><tr><th>point</th><th>aimed at (x, y of the screen)</th><th>off by</th></tr></thead><tbody id="residuals"></tbody></table>
  <p id="written"></p>
  <h2>udev rule (libinput, compositors, Touchline's evdev source)</h2><pre id="rule"></pre>
  <h2>Touchline's [[device]] section</h2><pre id="section"></pre>
  <h2>X11</h2><pre id="xinput"></pre></div>
  <h2>Report</h2><pre id="report"></pre>
</div>
<script nonce="{{nonce}}">
"use strict";
(() => {
  const secret = "{{secret}}";
  const token = new URLSearchParams(location.search).get("token");
  const withQuery = (path, query) => path + "?" + (token ? "token=" + encodeURIComponent(token) + "&" : "") + query;
  const $ = (id) => document.getElementById(id);
  const say = $("say"), cross = $("cross");
  let last = null;          // the last line from touchline
  let started = false;      // Start touched (or the page opened in a test with ?start)
  let shownPrompt = -1;     // the prompt (CalibrationRun.prompt) whose crosshair is on screen and answered
  let points = [];          // the targets seen, by index, for the result's table

  // The browser's own touches never calibrate (touchline reads the device): they only must
  // not scroll, zoom or open menus while the person aims.
  document.addEventListener("touchmove", (e) => { if (!e.target.closest || !e.target.closest("#result")) e.preventDefault(); }, { passive: false });
  document.addEventListener("contextmenu", (e) => e.preventDefault());

  function answer(query) {
    return fetch(withQuery("/answer", query + "&secret=" + secret), { method: "POST", cache: "no-store", credentials: "same-origin" })
      .catch(() => { $("note").textContent = "touchline does not answer: is it still running?"; });
  }

  // A finger-sized crosshair, to scale: px per mm from the window and the panel's size in mm
  // (the geometric mean, the same whichever way the panel is turned on the screen).
  function pxPerMm(line) {
    const area = line.panelWidth * line.panelHeight;
    const k = area > 0 ? Math.sqrt(window.innerWidth * window.innerHeight / area) : 4;
    return Math.min(Math.max(k, 2), 12);
  }

  function place(line) {
    const k = pxPerMm(line), x = line.x * window.innerWidth, y = line.y * window.innerHeight;
    const arm = 30 * k, ring = 10 * k, dot = Math.max(6, 1.5 * k), width = 2;
    cross.style.left = (x - arm / 2) + "px"; cross.style.top = (y - arm / 2) + "px";
    cross.style.width = arm + "px"; cross.style.height = arm + "px";
    const h = cross.querySelector(".h"), v = cross.querySelector(".v"), r = cross.querySelector(".ring"), d = cross.querySelector(".dot");
    h.style.cssText = "left:0;top:" + (arm / 2 - width / 2) + "px;width:" + arm + "px;height:" + width + "px";
    v.style.cssText = "top:0;left:" + (arm / 2 - width / 2) + "px;height:" + arm + "px;width:" + width + "px";
    r.style.cssText = "left:" + (arm / 2 - ring / 2) + "px;top:" + (arm / 2 - ring / 2) + "px;width:" + ring + "px;height:" + ring + "px";
    d.style.cssText = "left:" + (arm / 2 - dot / 2) + "px;top:" + (arm / 2 - dot / 2) + "px;width:" + dot + "px;height:" + dot + "px";
    cross.style.display = "block";
    cross.dataset.x = x.toFixed(1); cross.dataset.y = y.toFixed(1); cross.dataset.ring = ring.toFixed(1);
    // The words away from the crosshair: above the middle when it is low, below when high.
    say.style.top = (line.y >= 0.5 ? 30 : 70) + "%";
  }

  function show(line) {
    $("device").textContent = line.device;
    const checking = typeof line.check === "number";
    if (line.calibrate === "point" && checking && !started) {
      $("title").textContent = "touchline calibrate --check";
      $("line").textContent = "Open this page on the touchscreen, then touch Start: it goes full screen and shows one cross at a point of its own. Touch its centre with one finger and lift it: how far off the touch lands is measured.";
    }
    if (line.calibrate === "point") {
      points[line.index] = [line.x, line.y];
      if (!started) return;
      say.dataset.state = "point";
      $("title").textContent = checking ? "Check (seed " + line.check + ")" : "Point " + (line.index + 1) + " of " + line.of;
      $("line").textContent = "Touch the centre of the cross and lift the finger.";
      $("note").textContent = line.note ? "Point " + (line.index + 1) + " again: " + line.note : "";
      $("start").hidden = true;
      $("redo").hidden = line.taken === 0;
      place(line);
      if (shownPrompt !== line.prompt) {
        shownPrompt = line.prompt;
        // Answered once the crosshair is painted: two animation frames after it is placed.
        requestAnimationFrame(() => requestAnimationFrame(() => answer("shown=" + line.index)));
      }
    } else if (line.calibrate === "checked") {
      cross.style.display = "none";
      say.style.display = "none";
      const result = $("result");
      result.style.display = "block";
      result.dataset.state = "checked";
      $("fit").hidden = true;
      const off = line.error === null ? "the calibration folds the screen: no touch lands on the point" : "off by " + line.error.toFixed(1) + " mm";
      $("verdict").textContent = "Check: " + off;
      $("verdict").className = line.within ? "" : "bad";
      $("found").textContent = "Aimed at " + line.x.toFixed(3) + ", " + line.y.toFixed(3) + " of the screen (seed " + line.seed + "), measured under "
        + line.calibration + ": " + (line.within ? "within" : "more than") + " the tolerance of " + line.tolerance.toFixed(1) + " mm"
        + (line.within ? "." : ": calibrate again.");
      $("report").textContent = line.report;
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
      answer("shown=1");
      source.close();
    } else if (line.calibrate === "done" || line.calibrate === "failed") {
      cross.style.display = "none";
      say.style.display = "none";
      const result = $("result");
      result.style.display = "block";
      result.dataset.state = line.calibrate;
      if (line.calibrate === "failed") {
        $("verdict").textContent = "No calibration";
        $("found").textContent = line.reason;
      } else {
        $("verdict").textContent = line.agrees ? "Done" : "Done, but the points disagree";
        $("verdict").className = line.agrees ? "" : "bad";
        $("found").textContent = "Found: " + line.found + ". Worst point off by " + line.worst.toFixed(1) + " mm.";
        const body = $("residuals");
        body.replaceChildren();
        line.residuals.forEach((r, i) => {
          const row = document.createElement("tr");
          const p = points[i];
          for (const text of [String(i + 1), p ? p[0].toFixed(2) + ", " + p[1].toFixed(2) : "", r.toFixed(1) + " mm" + (line.outlier === i ? " (left out)" : "")]) {
            const cell = document.createElement("td");
            cell.textContent = text;
            row.appendChild(cell);
          }
          body.appendChild(row);
        });
        $("written").textContent = line.written ? "The rule was written to " + line.written + "." : (line.agrees ? "" : "The rule was not written: touch the points again.");
        for (const key of ["rule", "section", "xinput", "report"]) $(key).textContent = line[key] || "";
      }
      if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
      // The result is on screen: touchline may stop.
      answer("shown=" + (line.residuals ? line.residuals.length : 0));
      source.close();
    }
  }

  $("start").addEventListener("click", () => {
    started = true;
    const full = document.documentElement.requestFullscreen;
    if (full) document.documentElement.requestFullscreen().catch(() => {});
    if (last) show(last);
  });
  // On the finger's landing, not its lift: the tap also reaches touchline as a touch, and the
  // answer should come first (touchline drops that touch either way).
  $("redo").addEventListener("pointerdown", (e) => {
    e.preventDefault();
    if (last && last.calibrate === "point") answer("redo=" + last.index);
  });
  window.addEventListener("resize", () => { if (last && last.calibrate === "point" && started) place(last); });

  const source = new EventSource(withQuery("/stream", ""));
  source.onmessage = (e) => {
    let line;
    try { line = JSON.parse(e.data); } catch (_) { return; }
    if (!line || typeof line.calibrate !== "string") return;
    last = line;
    show(line);
  };
  source.onerror = () => { if (!last || last.calibrate === "point") $("note").textContent = "waiting for touchline…"; };
})();
</script>
</body>
</html>
"""#
}
