// Node's event and stream surface, answered inside the sandbox: node:events (EventEmitter,
// once), node:stream (Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished),
// node:stream/promises, node:util (promisify, format, inspect, types, …), node:url,
// node:crypto (createHash, randomBytes, randomUUID), node:timers(/promises), the global `process`
// (env empty, argv, hrtime, nextTick, cwd() = '/', platform), and fs streams
// (createReadStream / createWriteStream) over the layer's synchronous fs. Evaluated after the
// Node layer, which it extends: `layer` is what js/node.js returned.
(function nodeStreams(layer, web) {
  'use strict';
  const fs = layer.modules.fs;
  const Buffer = layer.globals.Buffer;
  const nextTick = (fn, ...args) => { Promise.resolve().then(() => fn(...args)); };

  // ---- events ----------------------------------------------------------------------------
  const kListeners = Symbol('listeners');
  class EventEmitter {
    constructor() { this[kListeners] = new Map(); this._maxListeners = 10; }
    static get defaultMaxListeners() { return 10; }
    #map() { if (!this[kListeners]) this[kListeners] = new Map(); return this[kListeners]; }
    on(name, fn) { return this.#add(name, fn, false, false); }
    addListener(name, fn) { return this.#add(name, fn, false, false); }
    prependListener(name, fn) { return this.#add(name, fn, false, true); }
    once(name, fn) { return this.#add(name, fn, true, false); }
    prependOnceListener(name, fn) { return this.#add(name, fn, true, true); }
    #add(name, fn, once, first) {
      if (typeof fn !== 'function') throw new TypeError(`The "listener" argument must be of type function. Received ${fn === null ? 'null' : typeof fn}`);
      const map = this.#map();
      if (map.has('newListener') && name !== 'newListener') this.emit('newListener', name, fn);
      const list = map.get(name) || [];
      const entry = { fn, once };
      if (first) list.unshift(entry); else list.push(entry);
      map.set(name, list);
      return this;
    }
    off(name, fn) { return this.removeListener(name, fn); }
    removeListener(name, fn) {
      const map = this.#map();
      const list = map.get(name);
      if (!list) return this;
      const i = list.findIndex((l) => l.fn === fn);
      if (i >= 0) { list.splice(i, 1); if (list.length === 0) map.delete(name); if (map.has('removeListener')) this.emit('removeListener', name, fn); }
      return this;
    }
    removeAllListeners(name) { if (name === undefined) this.#map().clear(); else this.#map().delete(name); return this; }
    emit(name, ...args) {
      const list = this.#map().get(name);
      if (!list || list.length === 0) {
        if (name === 'error') {
          const e = args[0];
          if (e instanceof Error) throw e;
          const err = new Error(`Unhandled error. (${String(e)})`); err.context = e; throw err;
        }
        return false;
      }
      for (const l of [...list]) {
        if (l.once) this.removeListener(name, l.fn);
        l.fn.apply(this, args);
      }
      return true;
    }
    listeners(name) { return (this.#map().get(name) || []).map((l) => l.fn); }
    rawListeners(name) { return this.listeners(name); }
    listenerCount(name) { return (this.#map().get(name) || []).length; }
    eventNames() { return [...this.#map().keys()]; }
    setMaxListeners(n) { this._maxListeners = n; return this; }
    getMaxListeners() { return this._maxListeners; }
  }
  EventEmitter.EventEmitter = EventEmitter;
  EventEmitter.once = (emitter, name) => new Promise((resolve, reject) => {
    const onError = (e) => { emitter.removeListener(name, onValue); reject(e); };
    const onValue = (...args) => { if (name !== 'error') emitter.removeListener('error', onError); resolve(args); };
    emitter.once(name, onValue);
    if (name !== 'error') emitter.once('error', onError);
  });
  EventEmitter.errorMonitor = Symbol('events.errorMonitor');
  EventEmitter.listenerCount = (emitter, name) => emitter.listenerCount(name);
  EventEmitter.EventTarget = web.globals.EventTarget;
  EventEmitter.Event = web.globals.Event;
  // The module is the class with its statics, as `import EventEmitter, { once } from 'events'` expects.
  const events = EventEmitter;

  // ---- stream ----------------------------------------------------------------------------
  const toChunk = (chunk, enc, objectMode) => (objectMode || typeof chunk !== 'string' ? chunk : Buffer.from(chunk, enc || 'utf8'));
  class Stream extends EventEmitter {
    pipe(dest, options = {}) {
      const src = this;
      src.on('data', (chunk) => { if (dest.write(chunk) === false && src.pause) { src.pause(); dest.once('drain', () => src.resume()); } });
      if (options.end !== false) src.once('end', () => dest.end());
      src.once('error', (e) => { if (dest.listenerCount('error') > 0) dest.emit('error', e); else if (src.listenerCount('error') <= 1) Promise.reject(e); });
      dest.emit('pipe', src);
      if (src.resume) src.resume();
      return dest;
    }
  }
  class Readable extends Stream {
    #buffer = []; #ended = false; #flowing = null; #reading = false; #emittedEnd = false; #scheduled = false;
    constructor(options = {}) {
      super();
      this.readable = true; this.destroyed = false; this.readableEnded = false;
      this.readableObjectMode = !!(options.objectMode || options.readableObjectMode);
      this.readableHighWaterMark = options.highWaterMark || (this.readableObjectMode ? 16 : 16384);
      this._encoding = options.encoding || null;
      if (typeof options.read === 'function') this._read = options.read;
      if (typeof options.destroy === 'function') this._destroy = options.destroy;
    }
    _read() {}
    push(chunk, enc) {
      if (chunk === null) { this.#ended = true; this.#schedule(); return false; }
      let c = toChunk(chunk, enc, this.readableObjectMode);
      if (this._encoding && !this.readableObjectMode) c = Buffer.from(c).toString(this._encoding);
      this.#buffer.push(c);
      this.#schedule();
      return this.#buffer.length < this.readableHighWaterMark;
    }
    unshift(chunk) { this.#buffer.unshift(chunk); }
    setEncoding(enc) { this._encoding = enc; return this; }
    on(name, fn) {
      super.on(name, fn);
      if (name === 'data' && this.#flowing !== false) this.resume();
      if (name === 'readable') this.#schedule();
      return this;
    }
    addListener(name, fn) { return this.on(name, fn); }
    pause() { this.#flowing = false; return this; }
    resume() { this.#flowing = true; this.#schedule(); return this; }
    isPaused() { return this.#flowing === false; }
    read() {
      if (this.#buffer.length === 0) { this.#pull(); return null; }
      if (this.readableObjectMode) return this.#buffer.shift();
      const all = this.#buffer.splice(0);
      return typeof all[0] === 'string' ? all.join('') : Buffer.concat(all);
    }
    #pull() {
      if (this.#ended || this.#reading || this.destroyed) return;
      this.#reading = true;
      try { this._read(this.readableHighWaterMark); } catch (e) { this.destroy(e); } finally { this.#reading = false; }
    }
    #schedule() {
      if (this.#scheduled) return;
      this.#scheduled = true;
      nextTick(() => { this.#scheduled = false; this.#flow(); });
    }
    #flow() {
      if (this.destroyed) return;
      if (this.#flowing) {
        let guard = 0;
        while (this.#flowing && this.#buffer.length > 0 && guard++ < 1e6) this.emit('data', this.#buffer.shift());
        if (this.#buffer.length === 0 && !this.#ended) { this.#pull(); if (this.#buffer.length > 0 || this.#ended) this.#schedule(); }
      } else if (this.listenerCount('readable') > 0 && (this.#buffer.length > 0 || this.#ended)) {
        this.emit('readable');
      } else if (this.#buffer.length === 0 && !this.#ended && this.#flowing === null && this.listenerCount('readable') > 0) this.#pull();
      if (this.#ended && this.#buffer.length === 0 && !this.#emittedEnd) {
        this.#emittedEnd = true; this.readableEnded = true; this.readable = false;
        this.emit('end');
        nextTick(() => this.emit('close'));
      }
    }
    destroy(error) {
      if (this.destroyed) return this;
      this.destroyed = true;
      nextTick(() => { if (error) this.emit('error', error); this.emit('close'); });
      return this;
    }
    async *[Symbol.asyncIterator]() {
      const queue = [];
      let done = false, failed = null, wake = null;
      this.on('data', (c) => { queue.push(c); if (wake) wake(); });
      this.once('end', () => { done = true; if (wake) wake(); });
      this.once('error', (e) => { failed = e; if (wake) wake(); });
      for (;;) {
        if (queue.length) { yield queue.shift(); continue; }
        if (failed) throw failed;
        if (done) return;
        await new Promise((r) => { wake = r; });
        wake = null;
      }
    }
    static from(iterable, options = {}) {
      const r = new Readable({ objectMode: true, ...options });
      (async () => {
        try { for await (const x of iterable) r.push(x); r.push(null); } catch (e) { r.destroy(e); }
      })();
      return r;
    }
  }
  class Writable extends Stream {
    #queue = []; #busy = false; #ending = false; #finished = false; #endCallbacks = [];
    constructor(options = {}) {
      super();
      this.writable = true; this.destroyed = false; this.writableEnded = false; this.writableFinished = false;
      this.writableObjectMode = !!(options.objectMode || options.writableObjectMode);
      this.writableHighWaterMark = options.highWaterMark || 16384;
      this._decodeStrings = options.decodeStrings !== false;
      if (typeof options.write === 'function') this._write = options.write;
      if (typeof options.writev === 'function') this._writev = options.writev;
      if (typeof options.final === 'function') this._final = options.final;
      if (typeof options.destroy === 'function') this._destroy = options.destroy;
    }
    _write(chunk, enc, cb) { cb(); }
    write(chunk, enc, cb) {
      if (typeof enc === 'function') { cb = enc; enc = undefined; }
      if (this.writableEnded) {
        const e = new Error('write after end'); e.code = 'ERR_STREAM_WRITE_AFTER_END';
        nextTick(() => { if (cb) cb(e); this.emit('error', e); });
        return false;
      }
      const c = this._decodeStrings ? toChunk(chunk, enc, this.writableObjectMode) : chunk;
      this.#queue.push({ chunk: c, enc: typeof c === 'string' ? enc || 'utf8' : 'buffer', cb });
      this.#drain();
      return this.#queue.length < this.writableHighWaterMark;
    }
    #drain() {
      if (this.#busy || this.destroyed) return;
      const next = this.#queue.shift();
      if (!next) { if (this.#ending) this.#finish(); return; }
      this.#busy = true;
      let sync = true;
      const done = (err) => {
        const go = () => {
          this.#busy = false;
          if (next.cb) next.cb(err || null);
          if (err) { this.destroy(err); return; }
          if (this.#queue.length === 0 && !this.#ending) this.emit('drain');
          this.#drain();
        };
        if (sync) nextTick(go); else go();
      };
      try { this._write(next.chunk, next.enc, done); } catch (e) { done(e); }
      sync = false;
    }
    #finish() {
      if (this.#finished) return;
      this.#finished = true;
      const complete = (err) => {
        if (err) { this.destroy(err); return; }
        this.writableFinished = true;
        this.emit('finish');
        for (const cb of this.#endCallbacks) cb();
        nextTick(() => this.emit('close'));
      };
      if (typeof this._final === 'function') { try { this._final(complete); } catch (e) { complete(e); } } else nextTick(() => complete());
    }
    end(chunk, enc, cb) {
      if (typeof chunk === 'function') { cb = chunk; chunk = undefined; } else if (typeof enc === 'function') { cb = enc; enc = undefined; }
      if (chunk !== undefined && chunk !== null) this.write(chunk, enc);
      if (cb) this.#endCallbacks.push(cb);
      if (this.writableEnded) return this;
      this.writableEnded = true; this.#ending = true;
      this.#drain();
      return this;
    }
    cork() {}
    uncork() {}
    setDefaultEncoding() { return this; }
    destroy(error) {
      if (this.destroyed) return this;
      this.destroyed = true;
      nextTick(() => { if (error) this.emit('error', error); this.emit('close'); });
      return this;
    }
  }
  class Duplex extends Readable {
    constructor(options = {}) {
      super(options);
      const w = new Writable({ ...options, write: (c, e, cb) => this._write(c, e, cb), final: (cb) => (this._final ? this._final(cb) : cb()) });
      this._writer = w;
      this.writable = true;
      if (typeof options.write === 'function') this._write = options.write;
      if (typeof options.final === 'function') this._final = options.final;
      w.on('finish', () => { this.writableFinished = true; this.emit('finish'); });
      w.on('error', (e) => this.emit('error', e));
      w.on('drain', () => this.emit('drain'));
    }
    _write(chunk, enc, cb) { cb(); }
    write(chunk, enc, cb) { return this._writer.write(chunk, enc, cb); }
    end(chunk, enc, cb) { this.writableEnded = true; this._writer.end(chunk, enc, cb); return this; }
  }
  class Transform extends Duplex {
    constructor(options = {}) {
      super(options);
      if (typeof options.transform === 'function') this._transform = options.transform;
      if (typeof options.flush === 'function') this._flush = options.flush;
    }
    _transform(chunk, enc, cb) { cb(null, chunk); }
    _write(chunk, enc, cb) {
      this._transform(chunk, enc, (err, data) => { if (data !== undefined && data !== null) this.push(data); cb(err); });
    }
    _final(cb) {
      const end = (err, data) => { if (data !== undefined && data !== null) this.push(data); this.push(null); cb(err); };
      if (typeof this._flush === 'function') this._flush(end); else end();
    }
  }
  class PassThrough extends Transform {}
  function finished(s, opts, cb) {
    if (typeof opts === 'function') cb = opts;
    let called = false;
    const once = (e) => { if (!called) { called = true; cb(e || null); } };
    s.once('error', once);
    s.once('finish', () => once());
    s.once('end', () => once());
    s.once('close', () => once());
    return () => {};
  }
  function pipeline(...streams) {
    const cb = typeof streams[streams.length - 1] === 'function' ? streams.pop() : null;
    if (Array.isArray(streams[0])) streams = streams[0];
    let done = false;
    const end = (e) => { if (!done) { done = true; if (cb) cb(e || null); } };
    for (let i = 0; i < streams.length - 1; i++) { streams[i].pipe(streams[i + 1]); streams[i].once('error', end); }
    const last = streams[streams.length - 1];
    last.once('error', end);
    finished(last, end);
    return last;
  }
  const streamPromises = {
    pipeline: (...s) => new Promise((resolve, reject) => pipeline(...s, (e) => (e ? reject(e) : resolve()))),
    finished: (s) => new Promise((resolve, reject) => finished(s, (e) => (e ? reject(e) : resolve()))),
  };
  Stream.Stream = Stream; Stream.Readable = Readable; Stream.Writable = Writable; Stream.Duplex = Duplex;
  Stream.Transform = Transform; Stream.PassThrough = PassThrough; Stream.pipeline = pipeline; Stream.finished = finished;
  Stream.promises = streamPromises;
  const stream = Stream;

  // ---- fs streams ------------------------------------------------------------------------
  class WriteStream extends Writable {
    constructor(path, options = {}) {
      super(options);
      const o = typeof options === 'string' ? { encoding: options } : options || {};
      this.path = typeof path === 'string' ? path : String(path);
      this.bytesWritten = 0;
      this.pending = false;
      // Opening creates (or truncates) the file, as Node's 'w' flag does; 'a' appends.
      if (o.flags !== 'a' && o.flags !== 'a+') fs.writeFileSync(this.path, new Uint8Array(0));
      nextTick(() => { this.emit('open', 3); this.emit('ready'); });
    }
    _write(chunk, enc, cb) {
      try {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, enc === 'buffer' ? 'utf8' : enc) : chunk;
        fs.appendFileSync(this.path, bytes);
        this.bytesWritten += bytes.length;
        cb();
      } catch (e) { cb(e); }
    }
    close(cb) { this.end(cb); }
  }
  class ReadStream extends Readable {
    #bytes = null; #at = 0; #end = Infinity;
    constructor(path, options = {}) {
      const o = typeof options === 'string' ? { encoding: options } : options || {};
      super({ ...o, highWaterMark: o.highWaterMark || 65536 });
      this.path = typeof path === 'string' ? path : String(path);
      this.bytesRead = 0;
      this.#at = o.start || 0;
      this.#end = o.end === undefined ? Infinity : o.end + 1;
      this.pending = false;
      nextTick(() => { this.emit('open', 3); this.emit('ready'); });
    }
    _read(size) {
      if (this.#bytes === null) {
        try { this.#bytes = fs.readFileSync(this.path); } catch (e) { this.destroy(e); return; }
      }
      const stop = Math.min(this.#bytes.length, this.#end);
      if (this.#at >= stop) { this.push(null); return; }
      const chunk = this.#bytes.subarray(this.#at, Math.min(stop, this.#at + size));
      this.#at += chunk.length; this.bytesRead += chunk.length;
      this.push(chunk);
    }
    close(cb) { this.destroy(); if (cb) nextTick(cb); }
  }
  fs.createWriteStream = (path, options) => new WriteStream(path, options);
  fs.createReadStream = (path, options) => new ReadStream(path, options);
  fs.WriteStream = WriteStream;
  fs.ReadStream = ReadStream;

  // ---- util ------------------------------------------------------------------------------
  const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
  function promisify(fn) {
    if (typeof fn !== 'function') throw new TypeError('util.promisify: the "original" argument must be of type function');
    if (fn[kCustomPromisify]) return fn[kCustomPromisify];
    return function (...args) {
      return new Promise((resolve, reject) => {
        fn.call(this, ...args, (err, ...values) => (err ? reject(err) : resolve(values.length > 1 ? values : values[0])));
      });
    };
  }
  promisify.custom = kCustomPromisify;
  function callbackify(fn) {
    return function (...args) {
      const cb = args.pop();
      fn.apply(this, args).then((v) => cb(null, v), (e) => cb(e));
    };
  }
  const kit = () => layer.kit;
  const types = {
    isPromise: (v) => v instanceof Promise, isDate: (v) => v instanceof Date, isRegExp: (v) => v instanceof RegExp,
    isMap: (v) => v instanceof Map, isSet: (v) => v instanceof Set, isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
    isUint8Array: (v) => v instanceof Uint8Array, isArrayBuffer: (v) => v instanceof ArrayBuffer, isAnyArrayBuffer: (v) => v instanceof ArrayBuffer,
    isNativeError: (v) => v instanceof Error, isAsyncFunction: (v) => typeof v === 'function' && v.constructor && v.constructor.name === 'AsyncFunction',
    isGeneratorFunction: (v) => typeof v === 'function' && /GeneratorFunction/.test(v.constructor && v.constructor.name),
    isBoxedPrimitive: (v) => v instanceof Number || v instanceof String || v instanceof Boolean,
  };
  function isDeepStrictEqual(a, b) {
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (a instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof Map || a instanceof Set) return a.size === b.size && isDeepStrictEqual([...a], [...b]);
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && isDeepStrictEqual(a[k], b[k]));
  }
  const util = {
    promisify, callbackify, types, isDeepStrictEqual,
    inspect: (v, o) => (kit() ? kit().inspect(v, o) : String(v)),
    format: (...a) => (kit() ? kit().format(a) : a.join(' ')),
    inherits(ctor, superCtor) { Object.setPrototypeOf(ctor.prototype, superCtor.prototype); Object.setPrototypeOf(ctor, superCtor); ctor.super_ = superCtor; },
    deprecate: (fn) => fn,
    debuglog: () => () => {},
    isArray: Array.isArray,
    TextEncoder: web.globals.TextEncoder, TextDecoder: web.globals.TextDecoder,
  };
  util.promisify.custom = kCustomPromisify;
  layer.modules.fs.exists[kCustomPromisify] = (p) => Promise.resolve(fs.existsSync(p));

  // ---- process ---------------------------------------------------------------------------
  const origin = performance.now();
  function hrtime(prev) {
    const t = performance.now();
    let s = Math.floor(t / 1000), ns = Math.round((t % 1000) * 1e6);
    if (prev) { s -= prev[0]; ns -= prev[1]; if (ns < 0) { s -= 1; ns += 1e9; } }
    return [s, ns];
  }
  hrtime.bigint = () => BigInt(Math.round(performance.now() * 1e6));
  const process = new EventEmitter();
  Object.assign(process, {
    env: {},
    argv: ['/usr/local/bin/node', '/scripts/main.js'],
    argv0: 'node',
    execArgv: [],
    execPath: '/usr/local/bin/node',
    platform: 'linux',
    arch: 'x64',
    pid: 1,
    ppid: 0,
    title: 'folio-script',
    exitCode: undefined,
    hrtime,
    nextTick,
    cwd: () => '/',
    chdir() { throw new Error('process.chdir is not available: the working directory is the folder\'s root (/) — use absolute paths'); },
    exit(code) { throw new Error(`process.exit(${code === undefined ? '' : code}) is not available in a script — return from the default export (throw an Error to fail the run)`); },
    abort() { throw new Error('process.abort is not available in a script — throw an Error to fail the run'); },
    uptime: () => (performance.now() - origin) / 1000,
    memoryUsage: Object.assign(() => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }), { rss: () => 0 }),
    cpuUsage: () => ({ user: 0, system: 0 }),
    emitWarning: (w) => { if (kit()) kit().console.warn(`Warning: ${w instanceof Error ? w.message : w}`); },
    stdout: { write: (s) => { if (kit()) kit().console.log(String(s).replace(/\n$/, '')); return true; }, isTTY: false, columns: 80 },
    stderr: { write: (s) => { if (kit()) kit().console.error(String(s).replace(/\n$/, '')); return true; }, isTTY: false, columns: 80 },
    umask: () => 0o22,
    getuid: () => 1000, getgid: () => 1000,
  });

  // ---- crypto (node:crypto's everyday part) ----------------------------------------------
  const HASHES = { sha1: 'SHA-1', sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512' };
  function createHash(algorithm) {
    const name = HASHES[String(algorithm).toLowerCase().replace('-', '')];
    if (!name) throw new Error(`crypto.createHash: digest method not supported: ${algorithm} — the sandbox hashes sha1, sha256, sha384 and sha512`);
    const parts = [];
    const hash = {
      update(data, enc) { parts.push(typeof data === 'string' ? Buffer.from(data, enc || 'utf8') : new Uint8Array(data.buffer || data, data.byteOffset || 0, data.byteLength)); return hash; },
      digest(enc) { const out = Buffer.from(layer.native.digest(name, Buffer.concat(parts))); return enc ? out.toString(enc) : out; },
      copy() { const h = createHash(algorithm); for (const p of parts) h.update(p); return h; },
    };
    return hash;
  }
  const nodeCrypto = {
    createHash,
    randomBytes(n, cb) { const b = Buffer.alloc(n); for (let i = 0; i < n; i += 65536) web.globals.crypto.getRandomValues(b.subarray(i, Math.min(n, i + 65536))); if (cb) { nextTick(cb, null, b); return undefined; } return b; },
    randomUUID: web.globals.crypto.randomUUID,
    randomInt(min, max) { if (max === undefined) { max = min; min = 0; } const r = new Uint32Array(1); web.globals.crypto.getRandomValues(r); return min + (r[0] % (max - min)); },
    getRandomValues: web.globals.crypto.getRandomValues,
    webcrypto: web.globals.crypto,
    subtle: web.globals.crypto.subtle,
    getHashes: () => Object.keys(HASHES),
  };

  // ---- url, timers -----------------------------------------------------------------------
  const { URL, URLSearchParams } = web.globals;
  const url = {
    URL, URLSearchParams,
    fileURLToPath(u) { const x = typeof u === 'string' ? new URL(u) : u; if (x.protocol !== 'file:') throw new TypeError('The URL must be of scheme file'); return decodeURIComponent(x.pathname); },
    pathToFileURL(p) { return new URL(`file://${layer.modules.path.resolve(p).split('/').map(encodeURIComponent).join('/')}`); },
  };
  const g = layer.globals;
  const timers = { setTimeout: g.setTimeout, setInterval: g.setInterval, setImmediate: g.setImmediate, clearTimeout: g.clearTimeout, clearInterval: g.clearInterval, clearImmediate: g.clearImmediate };
  const timersPromises = {
    setTimeout: (ms, value) => new Promise((r) => g.setTimeout(() => r(value), ms)),
    setImmediate: (value) => new Promise((r) => g.setImmediate(() => r(value))),
  };

  Object.assign(layer.modules, { events, stream, 'stream/promises': streamPromises, util, crypto: nodeCrypto, url, timers, 'timers/promises': timersPromises, process });
  layer.globals.process = process;
  return layer;
})
