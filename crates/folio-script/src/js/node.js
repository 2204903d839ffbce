// The Node layer: the few Node APIs the vendored libraries and their READMEs use, answered inside
// the sandbox. Evaluated in every fresh context before any script or library module; the host
// calls the factory with three native functions and gets back the objects it installs.
//
// - Globals: Buffer (a Uint8Array subclass) and timers (setTimeout, setInterval, setImmediate,
//   queueMicrotask and the clears) on the real clock: one host wait at a time, until the earliest
//   due timer (woken early when an earlier one is set or the last one cleared); due timers fire
//   in (due, creation) order, the microtasks between them drain (a host yield each), and a
//   callback that throws is an uncaught error, as in Node. The web globals (TextDecoder, URL,
//   crypto, …) come from js/web.js.
// - The run's liveness: `settled()` resolves once no ref'd timer is waiting and no host call
//   (tracked through `track`) is in flight, which is when Node's event loop would exit; the
//   run waits for it after its default export settles, and `pending()` names what is left.
// - Modules: node:fs (sync, callback and promise forms), node:fs/promises, node:path (POSIX),
//   node:buffer. File calls go through `bind(host)`, which the run supplies: every path is a tree
//   path (relative ones resolve against /), checked by the same rules as env:fs.
(function nodeLayer(utf8Encode, utf8Decode, hostYield, native) {
  'use strict';
  const U8 = Uint8Array;
  const fromCharCode = String.fromCharCode;
  // A lone surrogate becomes U+FFFD, as in Node (the host's UTF-8 conversion would refuse it).
  const toWellFormed = String.prototype.toWellFormed;
  const utf8 = (s) => utf8Encode(toWellFormed ? toWellFormed.call(s) : s);

  // ---- text ------------------------------------------------------------------------------
  function latin1Decode(b) {
    let s = '';
    for (let i = 0; i < b.length; i += 8192) s += fromCharCode.apply(null, b.subarray(i, i + 8192));
    return s;
  }
  function utf16leDecode(b) {
    let s = '';
    const n = b.length & ~1;
    for (let i = 0; i < n; i += 2) s += fromCharCode(b[i] | (b[i + 1] << 8));
    return s;
  }
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const B64INV = new Int16Array(256).fill(-1);
  for (let i = 0; i < 64; i++) B64INV[B64.charCodeAt(i)] = i;
  B64INV[45] = 62; B64INV[95] = 63; // base64url
  function base64Encode(b, url) {
    let out = '';
    let i = 0;
    for (; i + 2 < b.length; i += 3) {
      const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
      out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
    }
    if (i < b.length) {
      const n = (b[i] << 16) | ((b[i + 1] || 0) << 8);
      out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') + '=';
    }
    return url ? out.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : out;
  }
  function base64Decode(s) {
    const out = new U8(Math.ceil(s.length * 3 / 4));
    let bits = 0, acc = 0, n = 0;
    for (let i = 0; i < s.length; i++) {
      const v = B64INV[s.charCodeAt(i) & 255];
      if (v < 0) continue;
      acc = (acc << 6) | v; bits += 6;
      if (bits >= 8) { bits -= 8; out[n++] = (acc >> bits) & 255; }
    }
    return out.subarray(0, n);
  }
  function hexDecode(s) {
    const n = s.length >> 1;
    const out = new U8(n);
    for (let i = 0; i < n; i++) {
      const v = parseInt(s.substr(i * 2, 2), 16);
      if (Number.isNaN(v)) return out.subarray(0, i);
      out[i] = v;
    }
    return out;
  }
  const ENCODINGS = ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii', 'utf16le', 'utf-16le', 'ucs2', 'ucs-2'];
  function encodingOf(enc) {
    const e = (enc === undefined || enc === null ? 'utf8' : String(enc)).toLowerCase();
    if (!ENCODINGS.includes(e)) throw new TypeError(`Unknown encoding: ${enc} — the sandbox's Buffer knows ${ENCODINGS.join(', ')}`);
    return e === 'utf-8' ? 'utf8' : e === 'binary' ? 'latin1' : e === 'utf-16le' || e === 'ucs2' || e === 'ucs-2' ? 'utf16le' : e;
  }
  function encode(str, enc) {
    switch (encodingOf(enc)) {
      case 'utf8': return utf8(String(str));
      case 'hex': return hexDecode(str);
      case 'base64': case 'base64url': return base64Decode(str);
      case 'latin1': case 'ascii': {
        const out = new U8(str.length);
        for (let i = 0; i < str.length; i++) out[i] = str.charCodeAt(i) & 255;
        return out;
      }
      default: {
        const out = new U8(str.length * 2);
        for (let i = 0; i < str.length; i++) { const c = str.charCodeAt(i); out[2 * i] = c & 255; out[2 * i + 1] = c >> 8; }
        return out;
      }
    }
  }
  function decode(bytes, enc) {
    switch (encodingOf(enc)) {
      case 'utf8': return utf8Decode(bytes);
      case 'hex': { let s = ''; for (let i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16); return s; }
      case 'base64': return base64Encode(bytes, false);
      case 'base64url': return base64Encode(bytes, true);
      case 'latin1': return latin1Decode(bytes);
      case 'ascii': return latin1Decode(bytes.map((b) => b & 127));
      default: return utf16leDecode(bytes);
    }
  }

  // ---- Buffer ----------------------------------------------------------------------------
  function view(x) {
    if (x instanceof ArrayBuffer) return new U8(x);
    if (ArrayBuffer.isView(x)) return new U8(x.buffer, x.byteOffset, x.byteLength);
    return null;
  }
  class Buffer extends U8 {
    static from(value, encOrOffset, length) {
      if (typeof value === 'string') return Buffer.#wrap(encode(value, encOrOffset));
      if (value instanceof ArrayBuffer) {
        const off = encOrOffset >>> 0;
        return new Buffer(value, off, length === undefined ? value.byteLength - off : length >>> 0);
      }
      if (ArrayBuffer.isView(value)) { const b = new Buffer(value.byteLength); b.set(view(value)); return b; }
      if (value && value.type === 'Buffer' && Array.isArray(value.data)) return Buffer.from(value.data);
      if (value && typeof value.length === 'number') { const b = new Buffer(value.length); for (let i = 0; i < value.length; i++) b[i] = value[i]; return b; }
      throw new TypeError('Buffer.from needs a string, an array, an ArrayBuffer or a typed array');
    }
    static #wrap(u8) { return new Buffer(u8.buffer, u8.byteOffset, u8.byteLength); }
    static alloc(size, fill, enc) { const b = new Buffer(size >>> 0); if (fill !== undefined && fill !== 0) b.fill(fill, 0, b.length, enc); return b; }
    static allocUnsafe(size) { return new Buffer(size >>> 0); }
    static allocUnsafeSlow(size) { return new Buffer(size >>> 0); }
    static isBuffer(x) { return x instanceof Buffer; }
    static isEncoding(e) { try { encodingOf(e); return true; } catch { return false; } }
    static byteLength(x, enc) { return typeof x === 'string' ? encode(x, enc).length : x.byteLength; }
    static concat(list, total) {
      const size = total === undefined ? list.reduce((n, b) => n + b.length, 0) : total >>> 0;
      const out = new Buffer(size);
      let at = 0;
      for (const b of list) { if (at >= size) break; const v = view(b) || Buffer.from(b); out.set(v.subarray(0, size - at), at); at += v.length; }
      return out;
    }
    static compare(a, b) { return Buffer.prototype.compare.call(a, b); }
    toString(enc, start = 0, end = this.length) { return decode(U8.prototype.subarray.call(this, start, end), enc); }
    toJSON() { return { type: 'Buffer', data: Array.from(this) }; }
    equals(other) { return this.compare(other) === 0; }
    compare(other) {
      const b = view(other);
      const n = Math.min(this.length, b.length);
      for (let i = 0; i < n; i++) if (this[i] !== b[i]) return this[i] < b[i] ? -1 : 1;
      return this.length === b.length ? 0 : this.length < b.length ? -1 : 1;
    }
    copy(target, targetStart = 0, start = 0, end = this.length) {
      const part = U8.prototype.subarray.call(this, start, Math.min(end, start + target.length - targetStart));
      view(target).set(part, targetStart);
      return part.length;
    }
    slice(start, end) { return this.subarray(start, end); }
    write(string, offset = 0, length, enc) {
      if (typeof offset === 'string') { enc = offset; offset = 0; } else if (typeof length === 'string') { enc = length; length = undefined; }
      const bytes = encode(string, enc);
      const n = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length);
      this.set(bytes.subarray(0, n), offset);
      return n;
    }
    fill(value, start = 0, end = this.length, enc) {
      if (typeof start === 'string') { enc = start; start = 0; end = this.length; }
      if (typeof value === 'string') {
        const bytes = encode(value, enc);
        if (bytes.length === 0) return U8.prototype.fill.call(this, 0, start, end);
        for (let i = start, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
        return this;
      }
      return U8.prototype.fill.call(this, value, start, end);
    }
    indexOf(value, from = 0, enc) {
      if (typeof value === 'number') return U8.prototype.indexOf.call(this, value, from);
      const needle = typeof value === 'string' ? encode(value, enc) : view(value);
      outer: for (let i = from; i <= this.length - needle.length; i++) {
        for (let j = 0; j < needle.length; j++) if (this[i + j] !== needle[j]) continue outer;
        return i;
      }
      return -1;
    }
    includes(value, from, enc) { return this.indexOf(value, from, enc) !== -1; }
  }
  // readUInt8 … writeDoubleBE, over a DataView of the bytes.
  const NUMBERS = [['UInt8', 'Uint8', 1], ['Int8', 'Int8', 1], ['UInt16', 'Uint16', 2], ['Int16', 'Int16', 2], ['UInt32', 'Uint32', 4], ['Int32', 'Int32', 4], ['Float', 'Float32', 4], ['Double', 'Float64', 8], ['BigUInt64', 'BigUint64', 8], ['BigInt64', 'BigInt64', 8]];
  for (const [name, dv, size] of NUMBERS) {
    for (const end of size === 1 ? [''] : ['LE', 'BE']) {
      const little = end === 'LE';
      const get = DataView.prototype[`get${dv}`], set = DataView.prototype[`set${dv}`];
      const dataView = (b) => new DataView(b.buffer, b.byteOffset, b.byteLength);
      const read = function (offset = 0) { return get.call(dataView(this), offset, little); };
      const write = function (value, offset = 0) { set.call(dataView(this), offset, value, little); return offset + size; };
      for (const alias of name.startsWith('UInt') || name.startsWith('BigUInt') ? [name, name.replace('UInt', 'Uint')] : [name]) {
        Object.defineProperty(Buffer.prototype, `read${alias}${end}`, { value: read, writable: true, configurable: true });
        Object.defineProperty(Buffer.prototype, `write${alias}${end}`, { value: write, writable: true, configurable: true });
      }
    }
  }
  Buffer.poolSize = 8192;

  // ---- timers and liveness ---------------------------------------------------------------
  let seq = 0, pumping = false, waitId = 0, waitUntil = Infinity, sleeps = 0;
  const timers = new Map(); // id -> { due, seq, fn, args, delay, every, ref, name }
  const calls = new Map(); // promise -> the host call's name, while it is in flight
  let changed = null; // resolves the current `settled` wait when anything above changes
  const poke = () => { if (changed) { const c = changed; changed = null; c(); } };
  const clock = () => performance.now();
  class Timeout {
    constructor(id) { this.id = id; }
    ref() { const t = timers.get(this.id); if (t) t.ref = true; return this; }
    unref() { const t = timers.get(this.id); if (t) { t.ref = false; poke(); } return this; }
    hasRef() { const t = timers.get(this.id); return !!t && t.ref; }
    refresh() { const t = timers.get(this.id); if (t) { t.due = clock() + t.delay; t.seq = ++seq; kick(t.due); } return this; }
    close() { clear(this); return this; }
    [Symbol.toPrimitive]() { return this.id; }
  }
  function schedule(fn, delay, args, every, name) {
    if (typeof fn !== 'function') throw new TypeError(`${name}: the "callback" argument must be of type function, got ${fn === null ? 'null' : typeof fn}`);
    let d = Number(delay);
    d = name === 'setImmediate' ? 0 : !(d >= 1 && d <= 2147483647) ? 1 : d; // Node's clamp
    const id = ++seq;
    const t = { due: clock() + (name === 'setImmediate' ? -1 : d), delay: d, seq: id, fn, args, every, ref: true, name };
    timers.set(id, t);
    kick(t.due);
    return new Timeout(id);
  }
  function kick(due) {
    if (!pumping) { pumping = true; pump(); } else if (waitId && due < waitUntil) native.wake(waitId);
  }
  function earliest() {
    let next = null;
    for (const t of timers.values()) if (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq)) next = t;
    return next;
  }
  async function pump() {
    try {
      while (timers.size > 0) {
        const next = earliest();
        const wait = next.due - clock();
        if (wait > 0.5) {
          waitId = ++sleeps; waitUntil = next.due;
          try { await native.sleep(waitId, wait); } finally { waitId = 0; waitUntil = Infinity; }
          continue;
        }
        await hostYield(); // the microtasks queued so far run first
        const due = earliest();
        if (!due || due.due - clock() > 0.5) continue;
        const id = [...timers].find(([, t]) => t === due)[0];
        if (due.every) { due.due = clock() + due.delay; due.seq = ++seq; } else timers.delete(id);
        try { due.fn(...due.args); } catch (e) { Promise.reject(e); }
        poke();
      }
    } finally { pumping = false; poke(); }
  }
  function clear(t) {
    if (t === undefined || t === null) return;
    if (timers.delete(typeof t === 'object' ? t.id : Number(t))) {
      if (waitId) native.wake(waitId); // the pump recomputes, or stops when nothing is left
      poke();
    }
  }
  const timerGlobals = {
    setTimeout: (fn, delay, ...args) => schedule(fn, delay, args, false, 'setTimeout'),
    setInterval: (fn, delay, ...args) => schedule(fn, delay, args, true, 'setInterval'),
    setImmediate: (fn, ...args) => schedule(fn, 0, args, false, 'setImmediate'),
    clearTimeout: clear, clearInterval: clear, clearImmediate: clear,
    queueMicrotask: (fn) => { if (typeof fn !== 'function') throw new TypeError('queueMicrotask: the "callback" argument must be of type function'); Promise.resolve().then(() => fn()); },
  };
  // A host call in flight keeps the run alive, as Node's pending I/O keeps its loop alive.
  function track(promise, name) {
    calls.set(promise, name);
    const done = () => { calls.delete(promise); poke(); };
    promise.then(done, done);
    return promise;
  }
  const live = () => [...timers.values()].some((t) => t.ref) || calls.size > 0;
  async function settled() {
    for (;;) {
      await hostYield();
      if (!live()) { await hostYield(); if (!live()) return; }
      else await new Promise((r) => { changed = r; });
    }
  }
  function pending() {
    const out = [];
    const ms = (n) => (n >= 1000 ? `${+(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
    for (const t of timers.values()) {
      if (!t.ref) continue;
      const fn = t.fn.name ? ` (${t.fn.name})` : '';
      out.push(t.every ? `a setInterval every ${ms(t.delay)}${fn} nobody cleared` : `a ${t.name} of ${ms(t.delay)}${fn}, due in ${ms(Math.max(0, t.due - clock()))}`);
    }
    for (const name of calls.values()) out.push(`a call to ${name} that has not returned`);
    return out;
  }

  // ---- path (POSIX) ----------------------------------------------------------------------
  function normalizeParts(p, absolute) {
    const out = [];
    for (const s of p.split('/')) {
      if (s === '' || s === '.') continue;
      if (s === '..') { if (out.length && out[out.length - 1] !== '..') out.pop(); else if (!absolute) out.push('..'); } else out.push(s);
    }
    return out;
  }
  const str = (p, what) => { if (typeof p !== 'string') throw new TypeError(`The "${what}" argument must be of type string. Received ${typeof p}`); return p; };
  const path = {
    sep: '/', delimiter: ':',
    normalize(p) {
      str(p, 'path');
      if (p === '') return '.';
      const abs = p.startsWith('/');
      const s = normalizeParts(p, abs).join('/');
      return (abs ? '/' : '') + (s || (abs ? '' : '.')) + (p.endsWith('/') && s ? '/' : '');
    },
    join(...parts) { const j = parts.map((p) => str(p, 'path')).filter((p) => p !== '').join('/'); return j === '' ? '.' : path.normalize(j); },
    resolve(...parts) {
      let r = '';
      for (let i = parts.length - 1; i >= 0 && !r.startsWith('/'); i--) { const p = str(parts[i], 'path'); if (p) r = p + (r ? '/' + r : ''); }
      if (!r.startsWith('/')) r = '/' + r; // the working directory is the tree's root
      return '/' + normalizeParts(r, true).join('/');
    },
    isAbsolute: (p) => str(p, 'path').startsWith('/'),
    dirname(p) {
      str(p, 'path');
      const t = p.replace(/\/+$/, '');
      if (t === '') return p.startsWith('/') ? '/' : '.';
      const at = t.lastIndexOf('/');
      return at < 0 ? '.' : at === 0 ? '/' : t.slice(0, at).replace(/\/+$/, '') || '/';
    },
    basename(p, ext) {
      const b = str(p, 'path').replace(/\/+$/, '').split('/').pop() || '';
      return ext && b.endsWith(ext) && b !== ext ? b.slice(0, -ext.length) : b;
    },
    extname(p) { const b = path.basename(p); const at = b.lastIndexOf('.'); return at <= 0 ? '' : b.slice(at); },
    relative(from, to) {
      const a = normalizeParts(path.resolve(from), true), b = normalizeParts(path.resolve(to), true);
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
    },
    parse(p) {
      const root = str(p, 'path').startsWith('/') ? '/' : '';
      const base = path.basename(p), ext = path.extname(p);
      const dir = p.includes('/') ? path.dirname(p) : '';
      return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
    },
    format(o) { const dir = o.dir || o.root || ''; const base = o.base || `${o.name || ''}${o.ext || ''}`; return dir ? (dir.endsWith('/') ? dir + base : `${dir}/${base}`) : base; },
    toNamespacedPath: (p) => p,
  };
  path.posix = path;

  // ---- fs --------------------------------------------------------------------------------
  let host = null; // bound per run: { read, write, append, stat, list, mkdir, rm, mv, cp }
  function call(fn, op, p, ...rest) {
    if (host === null) throw new Error(`fs.${fn}: the file system is not available while the sandbox is being prepared — call it inside the script`);
    const target = treePath(p, fn);
    const r = host[op](target, ...rest);
    if (r && r.error !== undefined) {
      const e = new Error(`fs.${fn}: ${r.error}`);
      e.code = r.code; e.path = target; e.syscall = fn.replace(/Sync$/, '');
      throw e;
    }
    return r && 'value' in r ? r.value : undefined;
  }
  function treePath(p, fn) {
    if (typeof URL === 'function' && p instanceof URL) p = p.protocol === 'file:' ? decodeURIComponent(p.pathname) : p.href;
    if (p instanceof U8) p = utf8Decode(p);
    if (typeof p !== 'string') throw new TypeError(`fs.${fn}: the path must be a string like '/out/report.xlsx' (a path in the folder; relative paths start at /), got ${typeof p}`);
    return p.startsWith('/') ? p : '/' + p;
  }
  const encOf = (o) => (typeof o === 'string' ? o : o && o.encoding) || null;
  const dataOf = (data, o) => (typeof data === 'string' ? encode(data, encOf(o) || 'utf8') : view(data) || encode(String(data), 'utf8'));
  class Stats {
    constructor(s) { this.size = s.size; this.mtimeMs = s.mtime || 0; this.mtime = new Date(this.mtimeMs); this.ctime = this.mtime; this.birthtime = this.mtime; this.atime = this.mtime; this.mode = s.kind === 'dir' ? 0o40755 : 0o100644; this._kind = s.kind; }
    isFile() { return this._kind === 'file'; }
    isDirectory() { return this._kind === 'dir'; }
    isSymbolicLink() { return false; }
  }
  class Dirent {
    constructor(e, parent) { this.name = e.name; this.parentPath = parent; this.path = parent; this._kind = e.kind; }
    isFile() { return this._kind === 'file'; }
    isDirectory() { return this._kind === 'dir'; }
    isSymbolicLink() { return false; }
  }
  const sync = {
    readFileSync(p, o) { const bytes = call('readFileSync', 'read', p); const e = encOf(o); return e ? decode(bytes, e) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength); },
    writeFileSync(p, data, o) { call('writeFileSync', (o && o.flag === 'a') ? 'append' : 'write', p, dataOf(data, o)); },
    appendFileSync(p, data, o) { call('appendFileSync', 'append', p, dataOf(data, o)); },
    existsSync(p) { try { return call('existsSync', 'stat', p) !== null; } catch { return false; } },
    statSync(p, o) { const s = call('statSync', 'stat', p); if (s === null) { if (o && o.throwIfNoEntry === false) return undefined; const e = new Error(`fs.statSync: no such file or directory: ${treePath(p, 'statSync')} — hint: ls its directory to see what exists`); e.code = 'ENOENT'; throw e; } return new Stats(s); },
    readdirSync(p, o) { const list = call('readdirSync', 'list', p); return o && o.withFileTypes ? list.map((e) => new Dirent(e, treePath(p, 'readdirSync'))) : list.map((e) => e.name); },
    mkdirSync(p) { call('mkdirSync', 'mkdir', p); return undefined; },
    rmSync(p, o) { if (o && o.force && !sync.existsSync(p)) return; call('rmSync', 'rm', p); },
    unlinkSync(p) { call('unlinkSync', 'rm', p); },
    rmdirSync(p) { call('rmdirSync', 'rm', p); },
    renameSync(a, b) { call('renameSync', 'mv', a, treePath(b, 'renameSync')); },
    copyFileSync(a, b) { call('copyFileSync', 'cp', a, treePath(b, 'copyFileSync')); },
    accessSync(p) { if (!sync.existsSync(p)) { const e = new Error(`fs.accessSync: no such file or directory: ${treePath(p, 'accessSync')}`); e.code = 'ENOENT'; throw e; } },
    cpSync(a, b) { call('cpSync', 'cp', a, treePath(b, 'cpSync')); },
    realpathSync(p) { const t = treePath(p, 'realpathSync'); sync.accessSync(t); return path.resolve(t); },
    mkdtempSync(prefix) { let d; do { d = `${prefix}${Math.random().toString(36).slice(2, 8)}`; } while (sync.existsSync(d)); sync.mkdirSync(d); return d; },
    truncateSync(p, len = 0) { const b = sync.readFileSync(p); sync.writeFileSync(p, len <= b.length ? b.subarray(0, len) : Buffer.concat([b, Buffer.alloc(len - b.length)])); },
    // The tree keeps no modes, owners or times of its own: these succeed on an existing path.
    chmodSync(p) { sync.accessSync(p); },
    chownSync(p) { sync.accessSync(p); },
    utimesSync(p) { sync.accessSync(p); },
  };
  sync.lstatSync = sync.statSync;
  const promises = {};
  const callbacks = {};
  for (const [name, f] of Object.entries(sync)) {
    if (name === 'existsSync') continue;
    const p = name.replace(/Sync$/, '');
    promises[p] = async (...args) => f(...args);
    callbacks[p] = (...args) => {
      const cb = typeof args[args.length - 1] === 'function' ? args.pop() : null;
      let result, error = null;
      try { result = f(...args); } catch (e) { error = e; }
      if (cb) Promise.resolve().then(() => cb(error, result));
    };
  }
  callbacks.exists = (p, cb) => { const r = sync.existsSync(p); Promise.resolve().then(() => cb(r)); };
  const constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 };
  promises.constants = constants;
  // fs.promises.open: a FileHandle over the path (the tree has no descriptors; each call is a
  // whole-file operation, which is what readFile/writeFile/appendFile on a handle are anyway).
  class FileHandle {
    #path; #flags;
    constructor(p, flags) { this.#path = treePath(p, 'open'); this.#flags = flags || 'r'; this.fd = 3; }
    async readFile(o) { return sync.readFileSync(this.#path, o); }
    async writeFile(data, o) { sync.writeFileSync(this.#path, data, o); }
    async appendFile(data, o) { sync.appendFileSync(this.#path, data, o); }
    async write(data) { const b = dataOf(data); sync.appendFileSync(this.#path, b); return { bytesWritten: b.length, buffer: data }; }
    async stat() { return sync.statSync(this.#path); }
    async truncate(len) { sync.truncateSync(this.#path, len); }
    async close() {}
    async sync() {}
  }
  promises.open = async (p, flags) => {
    const f = String(flags || 'r');
    if (f.startsWith('w')) sync.writeFileSync(p, new U8(0));
    else if (f.startsWith('a')) { if (!sync.existsSync(p)) sync.writeFileSync(p, new U8(0)); }
    else sync.accessSync(p);
    return new FileHandle(p, f);
  };
  promises.FileHandle = FileHandle;
  const fs = { ...sync, ...callbacks, promises, constants, Stats, Dirent };
  const bufferModule = { Buffer, constants: { MAX_LENGTH: 2 ** 31 - 1 }, kMaxLength: 2 ** 31 - 1, atob: (s) => latin1Decode(base64Decode(s)), btoa: (s) => base64Encode(encode(s, 'latin1')) };

  return {
    globals: { Buffer, ...timerGlobals },
    modules: { fs, 'fs/promises': promises, path, buffer: bufferModule },
    bind(h) { host = h; },
    native,
    hostYield,
    track,
    settled,
    pending,
  };
})
