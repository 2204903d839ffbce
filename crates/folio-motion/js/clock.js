// folio-motion clock: the FIRST init script of every scene page (registered with
// Page.addScriptToEvaluateOnNewDocument before the navigation, so it runs before any page code).
//
// It replaces time instead of measuring it. Nothing in the page sees the real clock:
// requestAnimationFrame is a queue that only `clock.advance` drains; performance.now,
// Date.now, `new Date()` and Reanimated's animation timestamp read one virtual `now`; timers and
// idle callbacks fire when the virtual clock passes them; Math.random and crypto are seeded; CSS
// animations, transitions and the Web Animations API are paused and seeked from the clock after
// every drive. So frame f is exactly t = f/fps, and two renders are byte-identical.
//
// Epoch: the virtual clock starts at 0 ms; wall-clock readings (Date.now, new Date()) are
// EPOCH_MS + now with EPOCH_MS = 2025-01-01T00:00:00.000Z, not 1970 (the reference's quirk).
// The calendar date therefore depends on the page's time zone; the host should pin it
// (Emulation.setTimezoneOverride "UTC") for renders that are identical across hosts.
//
// MessageChannel (React's scheduler) is delivered inside each drive, so work that effects
// schedule lands in the frame that caused it; see below.
//
// Not virtualised, by decision: Promise/microtask ordering (already deterministic), <video> and
// <audio> playback, event.timeStamp, document.timeline.currentTime, ResizeObserver and
// IntersectionObserver delivery, workers.
//
// The contract is window.__folio; crates/folio-motion/js/README.md describes it.
(() => {
  'use strict';
  if (window.__folio) return;

  const EPOCH_MS = 1735689600000; // 2025-01-01T00:00:00.000Z
  const TREE_ORIGIN = 'http://folio.scene';
  const MAX_ERRORS = 20;
  const MAX_TIMER_FIRINGS = 10000; // per advance; beyond it a timer loop is reported
  const IMAGE_WAIT_MS = 2000; // real time a drive waits for images and fonts at most

  const realSetTimeout = window.setTimeout.bind(window);
  const RealDate = window.Date;
  const RealMessageChannel = window.MessageChannel;

  let now = 0; // virtual milliseconds since the page started

  // ---- errors -----------------------------------------------------------------------------
  const errors = [];
  const consoleErrors = [];

  // A URL of the page's origin turned back into the tree path it was served from.
  function treePath(url) {
    if (typeof url !== 'string') return url;
    if (url.startsWith(TREE_ORIGIN + '/')) {
      const rest = url.slice(TREE_ORIGIN.length);
      try { return decodeURI(rest); } catch (_) { return rest; }
    }
    return url;
  }
  function treeText(text) {
    return String(text).replace(/http:\/\/folio\.scene(\/[^\s)'"]*)/g, (_, p) => treePath(TREE_ORIGIN + p));
  }
  // First stack frame that is the scene's own code (a tree path, not /__folio/ runtime).
  function locationOf(stack, fallback) {
    const re = /(http:\/\/folio\.scene\/[^\s)'"]*?):(\d+):(\d+)/g;
    let m;
    let runtime = null;
    while ((m = re.exec(String(stack || ''))) !== null) {
      const loc = `${treePath(m[1])}:${m[2]}:${m[3]}`;
      if (!m[1].startsWith(TREE_ORIGIN + '/__folio/')) return loc;
      if (runtime === null) runtime = loc;
    }
    return fallback || runtime;
  }
  function describe(value) {
    if (value instanceof Error) return `${value.name || 'Error'}: ${value.message}`;
    if (value && typeof value === 'object' && typeof value.message === 'string') return value.message;
    try { return typeof value === 'string' ? value : JSON.stringify(value); } catch (_) { return String(value); }
  }
  // kind: error | rejection | render | import | raf | timer | idle | listener | scene | runtime
  function recordError(value, kind, extra) {
    if (errors.length >= MAX_ERRORS) return;
    const stack = value && value.stack ? treeText(value.stack) : '';
    const fallback = extra && extra.location ? extra.location : null;
    const message = treeText(describe(value));
    const location = locationOf(value && value.stack, fallback);
    const entry = { kind: kind || 'error', message, location, stack };
    if (extra && extra.componentStack) entry.componentStack = treeText(extra.componentStack);
    entry.text = location ? `${message} (at ${location})` : message;
    errors.push(entry);
  }
  window.addEventListener('error', (e) => {
    // Resource load failures (img, script) arrive here too when captured; only script errors count.
    if (!(e instanceof ErrorEvent)) return;
    const loc = e.filename ? `${treePath(e.filename)}:${e.lineno}:${e.colno}` : null;
    recordError(e.error !== undefined && e.error !== null ? e.error : e.message, 'error', { location: loc });
  });
  window.addEventListener('unhandledrejection', (e) => recordError(e.reason, 'rejection'));

  const realConsoleError = console.error.bind(console);
  console.error = function folioConsoleError(...args) {
    if (consoleErrors.length < 50) {
      let text;
      if (typeof args[0] === 'string' && args[0].includes('%')) {
        let i = 1;
        text = args[0].replace(/%[sdifoOc]/g, (t) => (t === '%c' ? (i++, '') : i < args.length ? describe(args[i++]) : t));
        text = [text, ...args.slice(i).map(describe)].join(' ');
      } else {
        text = args.map(describe).join(' ');
      }
      consoleErrors.push(treeText(text));
    }
    return realConsoleError(...args);
  };

  // ---- seeded randomness (mulberry32) -------------------------------------------------------
  function mulberry32(seed) {
    let s = seed | 0;
    return () => {
      s = (s + 0x6d2b79f5) | 0;
      let t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  let random = mulberry32(42);
  let cryptoRandom = mulberry32(0x5eed);
  Math.random = function random_() { return random(); };
  if (window.crypto) {
    const fill = (arr) => {
      const bytes = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(cryptoRandom() * 256);
      return arr;
    };
    try { Object.defineProperty(Crypto.prototype, 'getRandomValues', { value: fill, configurable: true, writable: true }); } catch (_) { /* keep */ }
    try {
      Object.defineProperty(Crypto.prototype, 'randomUUID', {
        configurable: true, writable: true,
        value: () => {
          const b = fill(new Uint8Array(16));
          b[6] = (b[6] & 0x0f) | 0x40;
          b[8] = (b[8] & 0x3f) | 0x80;
          const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
          return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
        },
      });
    } catch (_) { /* keep */ }
  }

  // ---- time --------------------------------------------------------------------------------
  const wallNow = () => Math.floor(EPOCH_MS + now);
  performance.now = function now_() { return now; };
  function FolioDate(...args) {
    if (!new.target) return new RealDate(wallNow()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [wallNow()] : args, new.target);
  }
  Object.setPrototypeOf(FolioDate, RealDate);
  FolioDate.prototype = RealDate.prototype;
  FolioDate.now = function now_() { return wallNow(); };
  FolioDate.parse = RealDate.parse;
  FolioDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: FolioDate, writable: true, configurable: true });
  window.Date = FolioDate;
  // Reanimated (web) reads globalThis._getAnimationTimestamp() for every animation frame, and
  // global.__frameTimestamp first when a native frame set it (never on web).
  globalThis._getAnimationTimestamp = () => now;

  // requestAnimationFrame: a queue drained by advance().
  let nextId = 1;
  const rafQueue = new Map();
  window.requestAnimationFrame = function requestAnimationFrame(cb) {
    const id = nextId++;
    rafQueue.set(id, cb);
    return id;
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(id) { rafQueue.delete(id); };

  // Timers: ordered by due time, then by creation.
  let seq = 0;
  const timers = new Map(); // id -> {due, seq, cb, args, interval}
  function addTimer(cb, delay, args, repeat) {
    const id = nextId++;
    const fn = typeof cb === 'function' ? cb : () => (0, eval)(String(cb));
    const d = Math.max(0, Number(delay) || 0);
    timers.set(id, { due: now + d, seq: seq++, cb: fn, args, interval: repeat ? Math.max(1, d) : 0 });
    return id;
  }
  window.setTimeout = function setTimeout(cb, delay, ...args) { return addTimer(cb, delay, args, false); };
  window.setInterval = function setInterval(cb, delay, ...args) { return addTimer(cb, delay, args, true); };
  window.clearTimeout = function clearTimeout(id) { timers.delete(id); };
  window.clearInterval = function clearInterval(id) { timers.delete(id); };
  const idleQueue = new Map();
  window.requestIdleCallback = function requestIdleCallback(cb) {
    const id = nextId++;
    idleQueue.set(id, cb);
    return id;
  };
  window.cancelIdleCallback = function cancelIdleCallback(id) { idleQueue.delete(id); };

  function nextDueTimer(limit) {
    let best = null;
    let bestId = 0;
    for (const [id, t] of timers) {
      if (t.due > limit) continue;
      if (best === null || t.due < best.due || (t.due === best.due && t.seq < best.seq)) { best = t; bestId = id; }
    }
    return best === null ? null : [bestId, best];
  }

  // Advance the virtual clock by ms: timers due on the way fire in order (the clock reads each
  // timer's due time while it runs), then idle callbacks, then one batch of rAF callbacks with
  // the new time. A callback that re-registers lands in the next batch. Returns the rAF count.
  function advance(ms) {
    const step = Number(ms);
    const target = now + (Number.isFinite(step) && step > 0 ? step : 0);
    let fired = 0;
    for (;;) {
      const next = nextDueTimer(target);
      if (next === null) break;
      const [id, t] = next;
      if (++fired > MAX_TIMER_FIRINGS) {
        recordError(new Error(`more than ${MAX_TIMER_FIRINGS} timers fired within one frame — a setTimeout/setInterval loop with no delay never lets the frame end; give it a delay or drive the animation with useFrame()`), 'timer');
        timers.clear();
        break;
      }
      now = Math.max(now, t.due);
      if (t.interval) { t.due += t.interval; t.seq = seq++; } else timers.delete(id);
      try { t.cb(...t.args); } catch (err) { recordError(err, 'timer'); }
    }
    now = target;
    if (idleQueue.size) {
      const idle = [...idleQueue.values()];
      idleQueue.clear();
      const deadline = { didTimeout: false, timeRemaining: () => 50 };
      for (const cb of idle) { try { cb(deadline); } catch (err) { recordError(err, 'idle'); } }
    }
    const batch = [...rafQueue.values()];
    rafQueue.clear();
    for (const cb of batch) { try { cb(now); } catch (err) { recordError(err, 'raf'); } }
    return batch.length;
  }

  // ---- MessageChannel: delivered inside the frame ---------------------------------------------
  // React's scheduler posts its work (renders after effects, passive effects of non-sync lanes)
  // through a MessageChannel. Ports made here queue their messages: a drive delivers the queue
  // synchronously, so that work lands in the frame that caused it, and a real MessageChannel
  // task delivers whatever no drive picked up (work outside a drive still happens, just later).
  // Ports are local to the page: they cannot be transferred to a worker or another window.
  const messageQueue = [];
  const realChannel = new RealMessageChannel();
  let realDrainPosted = false;
  function drainMessages() {
    let n = 0;
    while (messageQueue.length && n < MAX_TIMER_FIRINGS) {
      const [port, data] = messageQueue.shift();
      n++;
      if (!port.closed) port.dispatchEvent(new MessageEvent('message', { data }));
    }
    if (messageQueue.length) postRealDrain();
    return n;
  }
  function postRealDrain() {
    if (realDrainPosted) return;
    realDrainPosted = true;
    realChannel.port2.postMessage(0);
  }
  realChannel.port1.onmessage = () => { realDrainPosted = false; drainMessages(); };
  class FolioMessagePort extends EventTarget {
    constructor() {
      super();
      this.other = null;
      this.closed = false;
      this.handler = null;
    }
    get onmessage() { return this.handler; }
    set onmessage(fn) {
      if (this.handler) this.removeEventListener('message', this.handler);
      this.handler = typeof fn === 'function' ? fn : null;
      if (this.handler) this.addEventListener('message', this.handler);
    }
    postMessage(data) {
      if (this.closed || !this.other || this.other.closed) return;
      messageQueue.push([this.other, structuredClone(data)]);
      postRealDrain();
    }
    start() {}
    close() { this.closed = true; }
  }
  window.MessageChannel = function MessageChannel() {
    if (!new.target) throw new TypeError("Failed to construct 'MessageChannel': Please use the 'new' operator");
    this.port1 = new FolioMessagePort();
    this.port2 = new FolioMessagePort();
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  };

  // ---- CSS animations, transitions, Web Animations: pinned to the clock ----------------------
  const animStart = new WeakMap();
  function pinAnimations() {
    if (!document.getAnimations) return 0;
    let n = 0;
    for (const a of document.getAnimations()) {
      if (!animStart.has(a)) animStart.set(a, now);
      try {
        if (a.playState !== 'paused') a.pause();
        a.currentTime = (now - animStart.get(a)) * (a.playbackRate || 1);
        n++;
      } catch (err) { recordError(err, 'runtime'); }
    }
    return n;
  }

  // ---- frame signal --------------------------------------------------------------------------
  const frame = { frame: 0, fps: 30, durationInFrames: 0, width: 0, height: 0 };
  const listeners = new Set();
  function setFrame(f) {
    frame.frame = Number(f) || 0;
    for (const l of [...listeners]) { try { l(frame.frame); } catch (err) { recordError(err, 'listener'); } }
  }
  function onFrame(listener) {
    listeners.add(listener);
    return () => { listeners.delete(listener); };
  }

  // ---- waiting for images, fonts and delayRender handles ------------------------------------
  const decoded = new WeakMap(); // img -> src that finished decoding
  const delays = new Map();
  let nextDelay = 1;
  function realDelay(ms) { return new Promise((resolve) => realSetTimeout(resolve, ms)); }
  function macrotask() {
    return new Promise((resolve) => {
      const ch = new RealMessageChannel();
      ch.port1.onmessage = () => { ch.port1.close(); resolve(); };
      ch.port2.postMessage(0);
    });
  }
  function pendingLoads() {
    const waits = [];
    for (const img of document.images) {
      const src = img.currentSrc || img.src;
      if (!src || decoded.get(img) === src) continue;
      const done = () => { decoded.set(img, src); };
      waits.push({ done, promise: img.decode().then(done, done) });
    }
    if (document.fonts && document.fonts.status === 'loading') waits.push({ done() {}, promise: document.fonts.ready });
    for (const [id, d] of delays) {
      waits.push({
        promise: d.promise,
        done() {
          if (!delays.has(id)) return;
          delays.delete(id);
          recordError(new Error(`delayRender(${JSON.stringify(d.label)}) was not released by continueRender() within ${IMAGE_WAIT_MS} ms of a frame — call continueRender(handle) once the data is ready`), 'runtime');
        },
      });
    }
    return waits;
  }
  // React schedules follow-up work from a microtask (its root scheduler), which then posts to
  // the MessageChannel: alternate microtask turns and queue drains, all inside the current task
  // (no rendering step can happen in between), until nothing more is queued; then pin the
  // animations that work started.
  async function settleWork() {
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 4; i++) await null;
      let n = 0;
      try {
        n = drainMessages();
        folio.flush(() => {});
      } catch (err) { recordError(err, 'render'); }
      if (n === 0) break;
    }
    return pinAnimations();
  }
  function settle(result) {
    // Then one real task round trip lets any remaining asynchronous work run before the capture.
    return settleWork().then(macrotask).then(() => {
      pinAnimations(); // animations that React work after the commit created
      const waits = pendingLoads();
      if (!waits.length) return result;
      return Promise.race([Promise.all(waits.map((w) => w.promise)), realDelay(IMAGE_WAIT_MS)]).then(() => {
        // Whatever is still pending is given up on, so a stuck image costs one wait, not one per frame.
        for (const w of waits) w.done();
        return result;
      });
    });
  }

  // ---- page checks ---------------------------------------------------------------------------
  function brokenImages() {
    const out = [];
    const add = (src) => { if (out.length < 5 && !out.includes(src)) out.push(src); };
    for (const img of document.images) {
      const src = img.getAttribute('src');
      if (src && (!img.complete || img.naturalWidth === 0)) add(treePath(img.currentSrc || img.src));
    }
    if (out.length < 5 && performance.getEntriesByType) {
      const failed = new Set();
      for (const e of performance.getEntriesByType('resource')) {
        if (e.responseStatus >= 400) failed.add(e.name);
      }
      if (failed.size) {
        const all = document.body ? document.body.getElementsByTagName('*') : [];
        for (let i = 0; i < all.length && i < 5000 && out.length < 5; i++) {
          const bg = getComputedStyle(all[i]).backgroundImage;
          if (!bg || bg === 'none') continue;
          for (const m of bg.matchAll(/url\("?([^")]*)"?\)/g)) {
            const abs = new URL(m[1], document.baseURI).href;
            if (failed.has(abs)) add(treePath(abs));
          }
        }
      }
    }
    return out;
  }

  const ALWAYS_FINE = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-serif',
    'ui-sans-serif', 'ui-monospace', 'ui-rounded', 'math', 'emoji', 'fangsong', '-apple-system',
    'blinkmacsystemfont', 'system', 'inherit', 'initial', 'unset', 'revert']);
  const GENERIC = new Set(['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'ui-serif',
    'ui-sans-serif', 'ui-monospace', 'ui-rounded', 'math', 'emoji', 'fangsong']);
  const fontCache = new Map();
  let measureCtx = null;
  function fontAvailable(family) {
    const key = family.toLowerCase();
    if (fontCache.has(key)) return fontCache.get(key);
    let ok = null;
    if (document.fonts) {
      for (const face of document.fonts) {
        if (face.family.replace(/^["']|["']$/g, '').toLowerCase() !== key) continue;
        if (face.status === 'loaded' || face.status === 'loading') ok = true;
        else if (face.status === 'error' && ok === null) ok = false;
      }
    }
    if (ok === null) {
      if (!measureCtx) measureCtx = document.createElement('canvas').getContext('2d');
      const sample = 'mmmmmmmmmmlli1WQ@#&ÅÉ日本';
      const quoted = `"${family.replace(/"/g, '\\"')}"`;
      ok = false;
      for (const base of ['monospace', 'serif', 'sans-serif']) {
        measureCtx.font = `72px ${base}`;
        const w0 = measureCtx.measureText(sample).width;
        measureCtx.font = `72px ${quoted}, ${base}`;
        if (measureCtx.measureText(sample).width !== w0) { ok = true; break; }
      }
    }
    fontCache.set(key, ok);
    return ok;
  }
  function splitFamilies(list) {
    const out = [];
    for (const m of String(list).matchAll(/\s*("([^"]*)"|'([^']*)'|[^,]+)\s*(,|$)/g)) {
      const name = (m[2] !== undefined ? m[2] : m[3] !== undefined ? m[3] : m[1]).trim();
      if (name) out.push(name);
      if (m[0] === '') break;
    }
    return out;
  }
  // Font families a rendered text names that the host lacks: a stack that starts with a named
  // family counts as missing when none of its named families exists before its first generic
  // or system family; the first named family is reported (the one the author asked for).
  function missingFonts() {
    const missing = [];
    const seen = new Set();
    // The browser's own default family (a page that sets none) is never the author's wish.
    if (document.body) {
      const probe = document.createElement('span');
      probe.style.fontFamily = 'initial';
      document.body.appendChild(probe);
      seen.add(getComputedStyle(probe).fontFamily);
      probe.remove();
    }
    const all = document.body ? document.body.getElementsByTagName('*') : [];
    for (let i = 0; i < all.length && i < 5000; i++) {
      const el = all[i];
      let hasText = false;
      for (const n of el.childNodes) { if (n.nodeType === 3 && n.nodeValue.trim()) { hasText = true; break; } }
      if (!hasText) continue;
      const stack = getComputedStyle(el).fontFamily;
      if (seen.has(stack)) continue;
      seen.add(stack);
      let wanted = null;
      let fine = false;
      for (const fam of splitFamilies(stack)) {
        const key = fam.toLowerCase();
        // A stack that starts with a generic or system family (the system-font idiom
        // "-apple-system, BlinkMacSystemFont, 'Segoe UI', …") asks for no particular font.
        if (GENERIC.has(key) || ALWAYS_FINE.has(key)) { fine = wanted === null; break; }
        if (fontAvailable(fam)) { fine = true; break; }
        if (wanted === null) wanted = fam;
      }
      if (!fine && wanted !== null && !missing.includes(wanted)) missing.push(wanted);
    }
    return missing;
  }

  // ---- glyphs no font has ------------------------------------------------------------------------
  // After each frame whose text changed (a MutationObserver says so), every new character of the
  // page's text is drawn in its element's font stack beside an unassigned code point (U+0378):
  // identical pixels mean the browser found no font with that glyph and drew its missing-glyph
  // box. Each such character is kept with the first frame that showed it.
  const glyphsMissing = new Map(); // char -> first frame
  const glyphsChecked = new Set();
  let textDirty = true;
  let glyphCtx = null;
  const IGNORABLE = /[\s\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]|[\u{e0000}-\u{e007f}]/u;
  function drawn(ch, font) {
    glyphCtx.clearRect(0, 0, 48, 48);
    glyphCtx.font = font;
    glyphCtx.fillText(ch, 4, 36);
    return glyphCtx.getImageData(0, 0, 48, 48).data;
  }
  function covered(ch, family) {
    if (!glyphCtx) {
      const c = document.createElement('canvas');
      c.width = 48; c.height = 48;
      glyphCtx = c.getContext('2d', { willReadFrequently: true });
    }
    const font = `32px ${family}`;
    const a = drawn(ch, font);
    const b = drawn('\u0378', font);
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return true;
    return false;
  }
  function scanGlyphs(at) {
    // This frame's changes are still queued for the observer's callback: take them now.
    if (textWatch && textWatch.takeRecords().length) textDirty = true;
    if (!textDirty || !document.body) return;
    if (document.fonts && document.fonts.status === 'loading') return; // judged once fonts are in
    textDirty = false;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(), count = 0; n && count < 20000; n = walker.nextNode(), count++) {
      const text = n.nodeValue;
      if (!text || /^[\x00-\x7f]*$/.test(text)) continue;
      let family = null;
      for (const ch of text) {
        if (ch.codePointAt(0) < 0x80 || IGNORABLE.test(ch)) continue;
        if (glyphsChecked.has(ch)) continue;
        glyphsChecked.add(ch);
        if (family === null) family = n.parentElement ? getComputedStyle(n.parentElement).fontFamily : 'sans-serif';
        if (!covered(ch, family)) glyphsMissing.set(ch, at);
      }
    }
  }
  const textWatch = typeof MutationObserver === 'function' ? new MutationObserver(() => { textDirty = true; }) : null;
  if (textWatch) textWatch.observe(document, { subtree: true, childList: true, characterData: true });
  /** [{char, code, frame}] of the characters no font could draw, by first frame. */
  function missingGlyphs() {
    return [...glyphsMissing].map(([ch, f]) => ({ char: ch, code: `U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`, frame: f }));
  }

  // ---- the contract --------------------------------------------------------------------------
  const clock = {
    epoch: EPOCH_MS,
    now: () => now,
    pending: () => rafQueue.size,
    timers: () => timers.size,
    advance,
  };
  const folio = {
    frame,
    clock,
    errors,
    consoleErrors,
    mounted: false,
    scene: null,
    flush: (fn) => fn(),
    recordError,
    treePath,
    configure(cfg) {
      const c = cfg || {};
      for (const k of ['fps', 'durationInFrames', 'width', 'height']) if (c[k] !== undefined) frame[k] = Number(c[k]);
      frame.frame = c.frame !== undefined ? Number(c.frame) : 0;
      if (c.seed !== undefined) random = mulberry32(Number(c.seed));
      return frame;
    },
    setFrame,
    onFrame,
    listenerCount: () => listeners.size,
    pinAnimations,
    drain: drainMessages,
    settleWork,
    // One frame: the frame signal and/or the clock move (mode 'auto' | 'frame' | 'clock'), inside
    // `flush` so React commits synchronously; the work that schedules runs in the same task
    // (settleWork), animations are pinned, and the promise resolves after one more real task, or
    // when new images, fonts and delayRender handles are done (at most IMAGE_WAIT_MS real time).
    drive(f, mode, stepMs) {
      const m = mode || 'auto';
      const step = stepMs !== undefined ? Number(stepMs) : 1000 / (frame.fps || 30);
      let callbacks = 0;
      try {
        folio.flush(() => {
          if (m !== 'clock') setFrame(f);
          if (m !== 'frame') callbacks = advance(f === 0 ? 0 : step);
        });
        drainMessages(); // React work the frame scheduled: renders after effects, more effects
        folio.flush(() => {});
      } catch (err) { recordError(err, 'render'); }
      pinAnimations();
      try { scanGlyphs(frame.frame); } catch (err) { recordError(err, 'runtime'); }
      return settle({ frame: frame.frame, now, callbacks, errors: errors.length });
    },
    probe: () => ({ listeners: listeners.size, pending: rafQueue.size, timers: timers.size, mounted: folio.mounted }),
    brokenImages,
    missingFonts,
    missingGlyphs,
    // delayRender/continueRender: a drive waits (bounded) for open handles.
    delay(label) {
      const id = nextDelay++;
      let resolve;
      const promise = new Promise((r) => { resolve = r; });
      delays.set(id, { label: String(label || ''), promise, resolve });
      return id;
    },
    release(id) {
      const d = delays.get(id);
      if (d) { delays.delete(id); d.resolve(); }
    },
  };
  Object.defineProperty(window, '__folio', { value: folio, writable: false, configurable: false, enumerable: false });
})();
