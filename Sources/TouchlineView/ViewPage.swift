// The page of `touchline view` (docs/view.md): one self-contained HTML document, its style
// and script inline (allowed by the nonce each response puts in place of {{nonce}}, which the
// Content-Security-Policy names), no CDN, no build step: it works offline on a kiosk. Every
// name from the data (targets, recognizers, fields) reaches the document through textContent
// or a canvas's fillText, never as markup.
//
// The page reads lines (ViewLines.swift in TouchlineLive says their shapes): from /timeline
// when view plays a recording (then it plays, pauses, scrubs and steps over them itself), or
// else from /stream, the daemon's lines as Server-Sent Events.

public enum ViewPage {
    public static var html: [UInt8] { Array(text.utf8) }

    static let text = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>touchline view</title>
<style nonce="{{nonce}}">
:root { color-scheme: dark; --bg: #14161a; --panel: #1d2026; --line: #333844; --text: #e6e8ec; --dim: #9aa1ad; --accent: #5cc8ff; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.4 system-ui, sans-serif; }
header { position: sticky; top: 0; z-index: 2; background: var(--panel); border-bottom: 1px solid var(--line); padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; }
header h1 { font-size: 16px; margin: 0; font-weight: 600; }
#status { color: var(--dim); }
.counters { display: flex; gap: 12px; flex-wrap: wrap; font-variant-numeric: tabular-nums; }
.counters b { color: var(--accent); font-weight: 600; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 10px; background: var(--panel); border-bottom: 1px solid var(--line); }
button, select { min-height: 44px; min-width: 44px; padding: 0 12px; font-size: 16px; color: var(--text); background: #2a2f38; border: 1px solid #454c59; border-radius: 8px; }
button:active { background: #3a414d; }
#scrub { flex: 1 1 220px; min-height: 44px; }
#time { font-variant-numeric: tabular-nums; min-width: 8.5em; }
main { display: flex; flex-wrap: wrap; gap: 10px; padding: 10px; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 8px; min-width: 0; }
section h2 { font-size: 14px; margin: 0 0 6px; color: var(--dim); font-weight: 600; text-transform: uppercase; letter-spacing: .04em; }
#devices { flex: 2 1 480px; display: flex; flex-direction: column; gap: 10px; min-width: 0; }
#side { flex: 1 1 320px; display: flex; flex-direction: column; gap: 10px; min-width: 0; }
.device canvas { width: 100%; display: block; touch-action: pan-y; background: #0d0f12; border-radius: 6px; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
td, th { padding: 3px 6px; text-align: left; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { color: var(--dim); font-weight: 500; }
.swatch { display: inline-block; width: .9em; height: .9em; border-radius: 50%; vertical-align: -1px; margin-right: 4px; }
.targets { display: flex; flex-wrap: wrap; gap: 4px 10px; margin-top: 6px; color: var(--dim); }
.targets span { white-space: pre-wrap; word-break: break-all; }
.lane { display: flex; align-items: center; gap: 6px; padding: 4px 0; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.lane .name { min-width: 7em; font-weight: 600; word-break: break-all; }
.lane .kind { color: var(--dim); font-size: 13px; }
.chips { display: flex; gap: 4px; flex-wrap: wrap; }
.chip { min-height: 32px; min-width: 32px; padding: 2px 8px; font-size: 13px; border-radius: 14px; border: 1px solid transparent; }
.chip.current { border-color: var(--text); }
.s-possible { background: #3b4250; } .s-began, .s-changed { background: #1f5f8b; } .s-recognized, .s-won, .s-ended { background: #23703f; }
.s-held, .s-waiting { background: #7a5b12; } .s-failed, .s-cancelled { background: #7b2630; } .s-bug { background: #9a1fa0; }
#explain { min-height: 2.8em; color: var(--text); background: #111317; border-radius: 6px; padding: 6px; margin-top: 6px; white-space: pre-wrap; word-break: break-word; }
#log { max-height: 45vh; overflow: auto; }
#log td.fields { white-space: normal; color: var(--dim); word-break: break-word; }
.note { color: var(--dim); font-size: 13px; }
.hold { color: var(--text); font-size: 14px; padding: 2px 0; }
.hold.h-dropped { color: #f08a7e; }
.hold.h-released, .hold.h-bound { color: #e8c36a; }
@media (max-width: 600px) { section.device table { display: block; overflow-x: auto; } body { font-size: 14px; } td, th { padding: 2px 4px; } .lane .name { min-width: 5em; } }
</style>
</head>
<body>
<header>
  <h1>touchline view</h1>
  <span id="status">loading…</span>
  <div class="counters">
    <span>frames/s <b id="fps">0</b></span>
    <span>events/s <b id="eps">0</b></span>
    <span>drawn/s <b id="dps">0</b></span>
    <span>drops <b id="drops">0</b></span>
  </div>
</header>
<div id="controls">
  <button id="play" type="button" aria-label="play or pause">▶ play</button>
  <button id="back" type="button" aria-label="one frame back">◀ frame</button>
  <button id="forward" type="button" aria-label="one frame forward">frame ▶</button>
  <select id="speed" aria-label="speed">
    <option value="0.1">0.1×</option><option value="0.25">0.25×</option><option value="0.5">0.5×</option>
    <option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option>
  </select>
  <input id="scrub" type="range" min="0" max="0" step="0.000001" value="0" aria-label="time">
  <span id="time" data-time="0">0.000000 s</span>
</div>
<main>
  <div id="devices"><section id="nodevice"><h2>Surface</h2><p class="note">Waiting for a device…</p></section></div>
  <div id="side">
    <section><h2>Recognizers</h2><div id="lanes"></div>
      <div id="explain" aria-live="polite">Tap a state to read the decision that made it.</div></section>
    <section><h2>Gestures</h2><div id="log"><table><thead><tr><th>time</th><th>gesture</th><th>target</th><th>fields</th></tr></thead><tbody id="logrows"></tbody></table></div></section>
    <section><h2>Pass-through</h2><div id="passthrough" class="note">No pass-through decision yet: a daemon tells them for a device it passes through ([[device]] passthrough = true).</div></section>
  </div>
</main>
<script nonce="{{nonce}}">
"use strict";
(() => {
  const token = new URLSearchParams(location.search).get("token");
  const withToken = (path) => token ? path + "?token=" + encodeURIComponent(token) : path;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };

  // State: devices, frames per device (time order), events (gestures, decisions), lanes.
  const devices = new Map();        // index -> {w, h, targets, recognizers, frames: [], ui}
  const events = [];                // gesture events and pass-through lines, time order
  const lanes = new Map();          // "device/recognizer" -> {device, name, gesture, target, changes: [{t, state, reason}]}
  let live = false, playing = false, speed = 1, now = 0, start = Infinity, end = 0;
  let drops = 0, received = 0, eventsReceived = 0, drawn = 0, dirty = true;
  // framesReceived: frame lines read; framesTaken: frames a drawing took in (its picture, the
  // trails, the table at or after them); framesDrawn: pictures drawn (at most one per
  // animation frame); animationFrames: the browser's animation frames. lagMs: how much later
  // than the earliest, relative to the frames' own clock, the latest frame was read (a page
  // falling behind grows it); lagMaxMs its largest.
  const stats = { framesReceived: 0, framesTaken: 0, framesDrawn: 0, animationFrames: 0, eventsReceived: 0, lagMs: 0, lagMaxMs: 0 };
  let lagMin = Infinity;
  const holds = new Map();          // "device/contact" -> the pass-through line that decided it
  window.touchlineView = { stats, seek: (t) => seek(t), now: () => now, pause: () => setPlaying(false), devices, lanes, events };

  const KEEP_LIVE = 10;             // seconds of frames kept when following a daemon
  const TRAIL = 1;                  // seconds of trail behind each contact

  function hue(id) { return (id * 67) % 360; }
  function fmt(t) { return t.toFixed(6) + " s"; }

  function topTarget(dev, x, y) {
    let best = null;
    for (const t of dev.targets) {
      if (x >= t.x && x <= t.x + t.w && y >= t.y && y <= t.y + t.h && (best === null || t.z >= best.z)) best = t;
    }
    return best;
  }

  function lane(device, name) {
    const key = device + "/" + name;
    let l = lanes.get(key);
    if (!l) {
      const dev = devices.get(device);
      const spec = dev ? dev.recognizers.find((r) => r.name === name) : null;
      l = { device, name, gesture: spec ? spec.gesture : "", target: spec ? spec.target : "", changes: [], ui: null };
      lanes.set(key, l);
      buildLanes();
    }
    return l;
  }

  // MARK: input lines
  function take(line) {
    let o;
    try { o = JSON.parse(line); } catch (e) { return; }
    if (o === null || typeof o !== "object") return;
    if (o.view === "device") return addDevice(o);
    if (o.view === "closed") { $("status").textContent = "the daemon closed the connection"; return; }
    if (typeof o.dropped === "number") { drops += o.dropped; return; }
    if (Array.isArray(o.contacts) && o.v === undefined) return addFrame(o);
    if (o.v === 1 || typeof o.passthrough === "string") return addEvent(o);
  }

  function addDevice(o) {
    const old = devices.get(o.device);
    const dev = { index: o.device, w: o.width, h: o.height, targets: o.targets || [], recognizers: o.recognizers || [], frames: old ? old.frames : [], ui: old ? old.ui : null };
    devices.set(o.device, dev);
    for (const r of dev.recognizers) lane(o.device, r.name);
    buildDevice(dev);
    buildLanes();
    dirty = true;
  }

  function addFrame(o) {
    const dev = devices.get(o.device);
    if (!dev) return;
    const f = { t: o.time, contacts: o.contacts, raw: o.raw || null };
    dev.frames.push(f);
    stats.framesReceived++; received++;
    if (live) {
      const lag = performance.now() / 1000 - f.t;
      if (lag < lagMin) lagMin = lag;
      stats.lagMs = (lag - lagMin) * 1000;
      if (stats.lagMs > stats.lagMaxMs) stats.lagMaxMs = stats.lagMs;
    }
    if (f.t < start) start = f.t;
    if (f.t > end) end = f.t;
    // A contact that lands makes its target's recognizers possible.
    for (const c of o.contacts) {
      if (c.phase !== "began") continue;
      const target = topTarget(dev, c.x, c.y);
      if (!target) continue;
      for (const r of dev.recognizers) {
        if (r.target !== target.name) continue;
        // Fingers landing together make one "possible", not one each.
        const changes = lane(o.device, r.name).changes;
        const last = changes[changes.length - 1];
        if (last && last.state === "possible" && last.t === f.t) { last.reason += ", contact " + c.id; continue; }
        changes.push({ t: f.t, state: "possible", reason: "contact " + c.id + " landed on " + target.name });
      }
    }
    if (live) {
      // Trimmed in batches: a shift per frame would move the whole array 240 times a second.
      if (dev.frames[0].t < f.t - KEEP_LIVE - 2) {
        let k = 0;
        while (k < dev.frames.length && dev.frames[k].t < f.t - KEEP_LIVE) k++;
        dev.frames.splice(0, k);
      }
      if (playing && f.t > now) now = f.t;
    }
    dirty = true;
  }

  function addEvent(o) {
    const t = typeof o.time === "number" ? o.time : 0;
    if (typeof o.passthrough === "string") {
      holds.set(o.device + "/" + o.contact, o);
      if (live && holds.size > 500) holds.delete(holds.keys().next().value);
    }
    if (o.gesture === "explain" || (o.v === 1 && o.recognizer)) {
      const state = o.phase;
      const l = lane(o.device, o.recognizer);
      l.changes.push({ t, state, reason: o.gesture === "explain" ? o.reason : (o.gesture + " " + o.phase) });
      if (live && l.changes.length > 200) l.changes.splice(0, l.changes.length - 200);
    }
    if (o.gesture !== "explain") {
      events.push({ t, o });
      stats.eventsReceived++; eventsReceived++;
      if (live && events.length > 2000) events.splice(0, events.length - 2000);
    }
    if (t > end) end = t;
    // Following: an event after the last frame (a deadline's) moves the picture's time too.
    if (live && playing && t > now) now = t;
    dirty = true;
  }

  // MARK: layout
  function buildDevice(dev) {
    const none = $("nodevice");
    if (none) none.remove();
    if (!dev.ui) {
      const s = el("section", "device");
      const h = el("h2");
      const canvas = el("canvas");
      const targets = el("div", "targets");
      const table = el("table");
      const head = el("thead");
      const hr = el("tr");
      for (const name of ["contact", "tool", "x mm", "y mm", "size", "phase", "pass"]) hr.appendChild(el("th", null, name));
      head.appendChild(hr);
      const body = el("tbody");
      body.id = "contacts-" + dev.index;
      table.append(head, body);
      s.append(h, canvas, targets, table);
      $("devices").appendChild(s);
      dev.ui = { section: s, title: h, canvas, targets, body };
      new ResizeObserver(() => { dirty = true; }).observe(canvas);
    }
    dev.ui.title.textContent = "Device " + dev.index + " — " + dev.w.toFixed(1) + " × " + dev.h.toFixed(1) + " mm";
    dev.ui.targets.replaceChildren();
    for (const t of dev.targets) {
      // Names are data: text, never markup.
      const span = el("span", "target", "▭ " + t.name + " (z " + t.z + ")");
      span.dataset.name = t.name;
      dev.ui.targets.appendChild(span);
    }
  }

  function buildLanes() {
    const box = $("lanes");
    box.replaceChildren();
    const sorted = [...lanes.values()].sort((a, b) => a.device - b.device || a.name.localeCompare(b.name));
    for (const l of sorted) {
      const row = el("div", "lane");
      const name = el("span", "name", l.name);
      const kind = el("span", "kind", (devices.size > 1 ? "device " + l.device + " · " : "") + l.gesture + (l.target ? " on " + l.target : ""));
      const chips = el("div", "chips");
      row.append(name, kind, chips);
      box.appendChild(row);
      l.ui = { chips, shown: "" };
    }
    dirty = true;
  }

  // MARK: drawing
  function frameAt(dev, t) {
    // The last frame at or before t (binary search; frames are in time order).
    const f = dev.frames;
    let lo = 0, hi = f.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (f[mid].t <= t) { found = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return found;
  }

  function drawDevice(dev) {
    const ui = dev.ui;
    const canvas = ui.canvas;
    const ratio = window.devicePixelRatio || 1;
    const cssWidth = canvas.clientWidth || 300;
    const maxHeight = Math.max(200, window.innerHeight * 0.62);
    let scale = cssWidth / dev.w;
    if (dev.h * scale > maxHeight) scale = maxHeight / dev.h;
    const cssHeight = Math.ceil(dev.h * scale) + 2;
    if (canvas.width !== Math.round(cssWidth * ratio) || canvas.height !== Math.round(cssHeight * ratio)) {
      canvas.width = Math.round(cssWidth * ratio);
      canvas.height = Math.round(cssHeight * ratio);
      canvas.style.height = cssHeight + "px";
    }
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, cssWidth, cssHeight);
    const ox = Math.max(1, (cssWidth - dev.w * scale) / 2), oy = 1;
    const X = (x) => ox + x * scale, Y = (y) => oy + y * scale;
    // The surface, a 10 mm grid, every 50 mm labelled.
    g.fillStyle = "#101318"; g.fillRect(X(0), Y(0), dev.w * scale, dev.h * scale);
    g.lineWidth = 1;
    for (let mm = 10; mm < Math.max(dev.w, dev.h); mm += 10) {
      g.strokeStyle = mm % 50 === 0 ? "#2c3340" : "#1c2129";
      if (mm < dev.w) { g.beginPath(); g.moveTo(X(mm), Y(0)); g.lineTo(X(mm), Y(dev.h)); g.stroke(); }
      if (mm < dev.h) { g.beginPath(); g.moveTo(X(0), Y(mm)); g.lineTo(X(dev.w), Y(mm)); g.stroke(); }
    }
    g.fillStyle = "#5d6575"; g.font = "11px system-ui, sans-serif";
    for (let mm = 50; mm < dev.w; mm += 50) g.fillText(mm + "", X(mm) + 2, Y(dev.h) - 3);
    g.strokeStyle = "#56607a"; g.strokeRect(X(0), Y(0), dev.w * scale, dev.h * scale);
    // Targets, lowest z first, each named (canvas text: drawn, not parsed).
    const targets = [...dev.targets].sort((a, b) => a.z - b.z);
    for (const t of targets) {
      g.strokeStyle = "hsl(" + (200 + t.z * 40) % 360 + ", 60%, 60%)";
      g.setLineDash([6, 4]);
      g.strokeRect(X(t.x) + 0.5, Y(t.y) + 0.5, t.w * scale - 1, t.h * scale - 1);
      g.setLineDash([]);
      g.fillStyle = g.strokeStyle;
      g.font = "13px system-ui, sans-serif";
      g.fillText(t.name + " · z " + t.z, X(t.x) + 5, Y(t.y) + 16, Math.max(40, t.w * scale - 10));
    }
    const k = frameAt(dev, now);
    const rows = [];
    if (k >= 0) {
      const frame = dev.frames[k];
      // The frames this picture takes in since the last one (all of them, at 240 Hz as at 60).
      if (dev.takenT === undefined || frame.t < dev.takenT) dev.takenT = -Infinity;
      for (let i = k; i >= 0 && dev.frames[i].t > dev.takenT; i--) stats.framesTaken++;
      dev.takenT = frame.t;
      // Trails: each contact's positions over the last second.
      const trails = new Map();
      for (let i = k; i >= 0 && dev.frames[i].t >= frame.t - TRAIL; i--) {
        for (const c of dev.frames[i].contacts) {
          let p = trails.get(c.id);
          if (!p) { p = []; trails.set(c.id, p); }
          p.push(c);
        }
      }
      g.lineWidth = 2;
      for (const [id, p] of trails) {
        if (p.length < 2) continue;
        g.strokeStyle = "hsla(" + hue(id) + ", 80%, 60%, 0.55)";
        g.beginPath();
        g.moveTo(X(p[0].x), Y(p[0].y));
        for (let i = 1; i < p.length; i++) g.lineTo(X(p[i].x), Y(p[i].y));
        g.stroke();
      }
      const stale = now - frame.t > 0.5 && live;
      for (const c of frame.contacts) {
        const lifted = c.phase === "ended" || c.phase === "cancelled";
        // Size: the touch's major axis when the device reports it, else its pressure.
        const mm = c.major !== undefined ? Math.max(3, c.major / 2) : c.pressure !== undefined ? 3 + 5 * c.pressure : 4.5;
        const r = Math.max(6, mm * scale);
        const x = X(c.x), y = Y(c.y);
        const color = c.tool === "palm" ? "#8c8f96" : "hsl(" + hue(c.id) + ", 80%, 60%)";
        g.lineWidth = 2.5;
        g.strokeStyle = color;
        g.fillStyle = lifted || stale ? "rgba(0,0,0,0)" : (c.tool === "palm" ? "rgba(140,143,150,0.35)" : "hsla(" + hue(c.id) + ", 80%, 60%, 0.35)");
        g.beginPath();
        if (c.tool === "pen") { g.moveTo(x, y - r); g.lineTo(x + r, y); g.lineTo(x, y + r); g.lineTo(x - r, y); g.closePath(); }
        else { g.arc(x, y, r, 0, Math.PI * 2); }
        if (lifted) g.setLineDash([4, 3]);
        g.fill(); g.stroke(); g.setLineDash([]);
        if (c.tool === "palm") { g.beginPath(); g.moveTo(x - r * 0.7, y - r * 0.7); g.lineTo(x + r * 0.7, y + r * 0.7); g.stroke(); }
        g.fillStyle = "#fff"; g.font = "bold 14px system-ui, sans-serif";
        g.fillText((c.tool && c.tool !== "finger" ? c.tool + " " : "") + c.id, x + r + 3, y - 3);
        rows.push(c);
      }
      if (frame.raw) {
        // Where the device reported it, before its rotation or calibration.
        g.strokeStyle = "#cfd3da"; g.lineWidth = 1;
        for (const c of frame.raw) { const x = X(c.x), y = Y(c.y); g.beginPath(); g.moveTo(x - 4, y); g.lineTo(x + 4, y); g.moveTo(x, y - 4); g.lineTo(x, y + 4); g.stroke(); }
      }
    }
    const body = ui.body;
    body.replaceChildren();
    for (const c of rows) {
      const tr = el("tr");
      tr.dataset.id = c.id; tr.dataset.x = c.x; tr.dataset.y = c.y; tr.dataset.tool = c.tool || "finger";
      const sw = el("span", "swatch"); sw.style.background = "hsl(" + hue(c.id) + ", 80%, 60%)";
      const id = el("td"); id.append(sw, document.createTextNode(String(c.id)));
      const size = c.major !== undefined ? c.major.toFixed(1) + " mm" : c.pressure !== undefined ? "p " + c.pressure.toFixed(2) : "–";
      const hold = holds.get(dev.index + "/" + c.id);
      tr.append(id, el("td", null, c.tool || "finger"), el("td", null, c.x.toFixed(2)), el("td", null, c.y.toFixed(2)), el("td", null, size), el("td", null, c.phase),
        el("td", null, hold && hold.time <= now + 1e-9 ? holdText(hold, true) : "–"));
      body.appendChild(tr);
    }
  }

  function drawLanes() {
    for (const l of lanes.values()) {
      if (!l.ui) continue;
      // The changes up to now; the last six shown, the current one outlined.
      let n = 0;
      while (n < l.changes.length && l.changes[n].t <= now) n++;
      const shown = l.changes.slice(Math.max(0, n - 6), n);
      const key = n + ":" + (shown.length ? shown[shown.length - 1].t : "");
      if (key === l.ui.shown) continue;
      l.ui.shown = key;
      l.ui.chips.replaceChildren();
      shown.forEach((c, i) => {
        const b = el("button", "chip s-" + c.state + (i === shown.length - 1 ? " current" : ""), c.state + " " + c.t.toFixed(3));
        b.type = "button";
        b.addEventListener("click", () => { $("explain").textContent = l.name + " · " + c.state + " at " + fmt(c.t) + "\n" + c.reason; });
        b.addEventListener("mouseenter", () => { $("explain").textContent = l.name + " · " + c.state + " at " + fmt(c.t) + "\n" + c.reason; });
        l.ui.chips.appendChild(b);
      });
      if (shown.length === 0) l.ui.chips.appendChild(el("span", "note", "idle"));
    }
  }

  const SKIP = new Set(["v", "seq", "time", "device", "gesture", "phase", "target", "recognizer", "contacts", "passthrough"]);
  let logShown = "";
  function drawLog() {
    let n = 0;
    while (n < events.length && events[n].t <= now) n++;
    const key = n + "/" + events.length;
    if (key === logShown) return;
    logShown = key;
    const body = $("logrows");
    body.replaceChildren();
    const pass = [];
    for (let i = n - 1; i >= 0 && body.childElementCount < 60; i--) {
      const o = events[i].o;
      if (typeof o.passthrough === "string") { if (pass.length < 30) pass.push(o); continue; }
      const tr = el("tr");
      tr.dataset.gesture = o.gesture;
      const fields = Object.keys(o).filter((k) => !SKIP.has(k)).map((k) => k + "=" + (typeof o[k] === "object" ? JSON.stringify(o[k]) : o[k])).join("  ");
      tr.append(el("td", null, o.time.toFixed(3)), el("td", null, o.gesture + " " + o.phase), el("td", null, o.target), el("td", "fields", fields));
      body.appendChild(tr);
    }
    if (pass.length) {
      const box = $("passthrough");
      box.replaceChildren();
      for (const o of pass) box.appendChild(el("div", "hold h-" + o.passthrough, o.time.toFixed(3) + " device " + o.device + " contact " + o.contact + ": " + holdText(o)));
    }
  }

  // A hold as a person reads it: forwarded at once, held then forwarded (and why), consumed.
  // Short: the contacts' table, beside five other columns on a phone.
  function holdText(o, short) {
    const ms = typeof o.held === "number" ? (o.held * 1000).toFixed(1) + " ms" : "";
    const mm = typeof o.distance === "number" ? ", " + o.distance.toFixed(1) + " mm" : "";
    if (short) return o.passthrough === "forwarded" ? "forwarded" : o.passthrough === "dropped" ? "consumed, " + ms : "held " + ms + ", forwarded";
    switch (o.passthrough) {
      case "forwarded": return "forwarded at once";
      case "released": return "held " + ms + mm + ", then forwarded (no recognizer took it)";
      case "bound": return "held " + ms + mm + ", then forwarded (the hold bound)";
      case "dropped": return "consumed after " + ms + mm + " (a recognizer took it)";
      default: return String(o.passthrough);
    }
  }

  function draw() {
    for (const dev of devices.values()) if (dev.ui) drawDevice(dev);
    drawLanes();
    drawLog();
    $("time").textContent = fmt(now);
    $("time").dataset.time = now;
    const scrub = $("scrub");
    if (!live) { scrub.min = start === Infinity ? 0 : start; scrub.max = end; if (document.activeElement !== scrub) scrub.value = now; }
    stats.framesDrawn++; drawn++;
  }

  // MARK: time
  function setPlaying(on) {
    playing = on;
    $("play").textContent = on ? "❚❚ pause" : "▶ play";
    if (on && !live && now >= end) now = start === Infinity ? 0 : start;
    dirty = true;
  }

  function seek(t) { now = Math.max(start === Infinity ? 0 : start, Math.min(end, t)); dirty = true; }

  function allFrameTimes() {
    const times = [];
    for (const dev of devices.values()) for (const f of dev.frames) times.push(f.t);
    return times.sort((a, b) => a - b);
  }
  function step(direction) {
    setPlaying(false);
    const times = allFrameTimes();
    if (direction > 0) { const t = times.find((x) => x > now + 1e-7); if (t !== undefined) now = t; }
    else { for (let i = times.length - 1; i >= 0; i--) if (times[i] < now - 1e-7) { now = times[i]; break; } }
    dirty = true;
  }

  let last = performance.now();
  function tick(clock) {
    stats.animationFrames++;
    const dt = (clock - last) / 1000;
    last = clock;
    if (playing && !live) {
      now += dt * speed;
      if (now >= end) { now = end; setPlaying(false); }
      dirty = true;
    }
    if (dirty) { dirty = false; draw(); }
    requestAnimationFrame(tick);
  }

  setInterval(() => {
    $("fps").textContent = received; $("eps").textContent = eventsReceived; $("dps").textContent = drawn; $("drops").textContent = drops;
    received = 0; eventsReceived = 0; drawn = 0;
  }, 1000);

  $("play").addEventListener("click", () => setPlaying(!playing));
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  $("speed").addEventListener("change", (e) => { speed = Number(e.target.value) || 1; });
  $("scrub").addEventListener("input", (e) => { setPlaying(false); seek(Number(e.target.value)); });
  window.addEventListener("resize", () => { dirty = true; });

  // MARK: sources
  function followStream() {
    live = true;
    $("scrub").hidden = true; $("back").hidden = true; $("forward").hidden = true; $("speed").hidden = true;
    setPlaying(true);
    $("status").textContent = "following the daemon";
    const source = new EventSource(withToken("/stream"));
    source.onmessage = (m) => take(m.data);
    source.onerror = () => { $("status").textContent = "connection lost; retrying…"; };
    source.onopen = () => { $("status").textContent = "following the daemon"; };
  }

  fetch(withToken("/timeline")).then((r) => {
    if (r.status === 404) return followStream();
    if (!r.ok) { $("status").textContent = "cannot load the recording: HTTP " + r.status; return; }
    return r.text().then((text) => {
      for (const line of text.split("\n")) if (line) take(line);
      // Events sort by time (a deadline's event comes at its own time, between frames).
      events.sort((a, b) => a.t - b.t);
      for (const l of lanes.values()) l.changes.sort((a, b) => a.t - b.t);
      now = start === Infinity ? 0 : start;
      $("status").textContent = "recording: " + allFrameTimes().length + " frames, " + events.length + " events";
      $("scrub").step = "any";
      dirty = true;
    });
  }).catch((e) => { $("status").textContent = "cannot load: " + e; });
  requestAnimationFrame(tick);
})();
</script>
</body>
</html>
"""#
}
