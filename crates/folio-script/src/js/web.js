// The web platform a script expects from MDN: TextEncoder/TextDecoder (the WHATWG Encoding
// Standard, decoded natively by encoding_rs), crypto (getRandomValues, randomUUID,
// subtle.digest), URL and URLSearchParams (the WHATWG URL Standard, parsed natively),
// structuredClone, atob/btoa, Event/EventTarget, AbortController/AbortSignal and DOMException.
// Evaluated in every fresh context before the Node layer; the host calls the factory with the
// native half (`web.rs`) and the layer's UTF-8 encoder, and installs what it returns.
(function webLayer(native, utf8Encode) {
  'use strict';
  // A lone surrogate becomes U+FFFD (the host's UTF-8 conversion would refuse it).
  const toWellFormed = String.prototype.toWellFormed;
  const utf8 = (s) => utf8Encode(toWellFormed ? toWellFormed.call(s) : s);
  const U8 = Uint8Array;
  const bytesOf = (input, what) => {
    if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && input instanceof SharedArrayBuffer)) return new U8(input);
    if (ArrayBuffer.isView(input)) return new U8(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError(`${what}: expected an ArrayBuffer or an ArrayBufferView (a Uint8Array, a Buffer, a DataView), got ${input === null ? 'null' : typeof input}`);
  };

  class DOMException extends Error {
    #name;
    constructor(message = '', name = 'Error') { super(message); this.#name = String(name); }
    get name() { return this.#name; }
    get code() { return { IndexSizeError: 1, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12, InvalidCharacterError: 5, AbortError: 20, TimeoutError: 23, DataCloneError: 25 }[this.#name] || 0; }
  }

  // ---- text ------------------------------------------------------------------------------
  let decoderKeys = 0;
  class TextDecoder {
    #name; #fatal; #ignoreBOM; #key; #streaming = false;
    constructor(label = 'utf-8', options = {}) {
      const name = native.textLabel(String(label));
      if (name === null || name === undefined) throw new RangeError(`TextDecoder: "${label}" is not an encoding label of the WHATWG Encoding Standard (utf-8, utf-16le, windows-1252, shift_jis, gbk, …)`);
      this.#name = name;
      this.#fatal = !!(options && options.fatal);
      this.#ignoreBOM = !!(options && options.ignoreBOM);
      this.#key = ++decoderKeys;
    }
    get encoding() { return this.#name; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input, options = {}) {
      const bytes = input === undefined ? new U8(0) : bytesOf(input, 'TextDecoder.decode');
      const stream = !!(options && options.stream);
      const flags = (this.#fatal ? 1 : 0) | (this.#ignoreBOM ? 2 : 0) | (stream ? 4 : 0);
      try {
        return native.textDecode(this.#name, bytes, flags, this.#key);
      } finally {
        // A call that ends a stream (or fails) leaves the next call a fresh decoder.
        if (!stream) this.#key = ++decoderKeys;
      }
    }
  }
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') { return utf8(String(input)); }
    encodeInto(input, dest) {
      const s = String(input);
      let read = 0, written = 0;
      for (const ch of s) {
        const cp = ch.codePointAt(0);
        const wf = cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp;
        const n = wf < 0x80 ? 1 : wf < 0x800 ? 2 : wf < 0x10000 ? 3 : 4;
        if (written + n > dest.length) break;
        if (n === 1) dest[written] = wf;
        else if (n === 2) { dest[written] = 0xc0 | (wf >> 6); dest[written + 1] = 0x80 | (wf & 63); }
        else if (n === 3) { dest[written] = 0xe0 | (wf >> 12); dest[written + 1] = 0x80 | ((wf >> 6) & 63); dest[written + 2] = 0x80 | (wf & 63); }
        else { dest[written] = 0xf0 | (wf >> 18); dest[written + 1] = 0x80 | ((wf >> 12) & 63); dest[written + 2] = 0x80 | ((wf >> 6) & 63); dest[written + 3] = 0x80 | (wf & 63); }
        written += n; read += ch.length;
      }
      return { read, written };
    }
  }

  // ---- base64 (atob / btoa, forgiving-base64 of the HTML Standard) ------------------------
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function btoa(data) {
    if (arguments.length === 0) throw new TypeError('btoa: 1 argument required, but only 0 present');
    const s = String(data);
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new DOMException('btoa: the string contains characters outside of Latin1 — encode it first (btoa(String.fromCharCode(...new TextEncoder().encode(s))) or Buffer.from(s).toString(\'base64\'))', 'InvalidCharacterError');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < s.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? B64[n & 63] : '=');
    }
    return out;
  }
  function atob(data) {
    if (arguments.length === 0) throw new TypeError('atob: 1 argument required, but only 0 present');
    let s = String(data).replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) s = s.replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new DOMException('atob: the string to be decoded is not correctly encoded (base64 uses A-Z a-z 0-9 + / and = padding)', 'InvalidCharacterError');
    let out = '', acc = 0, bits = 0;
    for (let i = 0; i < s.length; i++) {
      acc = (acc << 6) | B64.indexOf(s[i]); bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((acc >> bits) & 255); }
    }
    return out;
  }

  // ---- crypto ----------------------------------------------------------------------------
  const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  function getRandomValues(array) {
    if (!INTEGER_ARRAYS.some((C) => array instanceof C)) throw new DOMException('crypto.getRandomValues: the argument must be an integer typed array (Uint8Array, Uint32Array, …)', 'TypeMismatchError');
    if (array.byteLength > 65536) throw new DOMException(`crypto.getRandomValues: ${array.byteLength} bytes asked, more than the 65536 one call may fill — fill it in slices`, 'QuotaExceededError');
    new U8(array.buffer, array.byteOffset, array.byteLength).set(native.randomBytes(array.byteLength));
    return array;
  }
  function randomUUID() {
    const b = native.randomBytes(16);
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  const subtle = {
    async digest(algorithm, data) {
      const name = typeof algorithm === 'string' ? algorithm : algorithm && algorithm.name;
      const d = native.digest(String(name), bytesOf(data, 'crypto.subtle.digest').slice());
      if (d === null) throw new DOMException(`crypto.subtle.digest: unsupported algorithm ${name} — the sandbox hashes SHA-1, SHA-256, SHA-384 and SHA-512`, 'NotSupportedError');
      return d.buffer;
    },
  };
  for (const op of ['encrypt', 'decrypt', 'sign', 'verify', 'generateKey', 'deriveKey', 'deriveBits', 'importKey', 'exportKey', 'wrapKey', 'unwrapKey']) {
    subtle[op] = async () => { throw new DOMException(`crypto.subtle.${op} is not available in the sandbox (only digest is) — hint: hash with crypto.subtle.digest('SHA-256', bytes)`, 'NotSupportedError'); };
  }
  const crypto = { getRandomValues, randomUUID, subtle };

  // ---- URL -------------------------------------------------------------------------------
  const FORM_SAFE = /[A-Za-z0-9*\-._]/;
  function formEncode(s) {
    let out = '';
    for (const b of utf8(String(s))) {
      const c = String.fromCharCode(b);
      out += b === 0x20 ? '+' : FORM_SAFE.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
    return out;
  }
  function formDecode(s) {
    const bytes = [];
    const t = s.replace(/\+/g, ' ');
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(t.slice(i + 1, i + 3))) { bytes.push(parseInt(t.slice(i + 1, i + 3), 16)); i += 2; }
      else for (const b of utf8(t[i] + (t.charCodeAt(i) >= 0xd800 && t.charCodeAt(i) < 0xdc00 && i + 1 < t.length ? t[++i] : ''))) bytes.push(b);
    }
    return native.textDecode('utf-8', new U8(bytes), 0, 0);
  }
  class URLSearchParams {
    #list = []; #url = null;
    constructor(init = '') {
      if (init instanceof URLSearchParams) this.#list = init.#list.map(([k, v]) => [k, v]);
      else if (init !== null && typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = Array.from(pair);
          if (p.length !== 2) throw new TypeError('URLSearchParams: each pair must have exactly two items');
          this.#list.push([String(p[0]), String(p[1])]);
        }
      } else if (init !== null && typeof init === 'object') { for (const k of Object.keys(init)) this.#list.push([k, String(init[k])]); }
      else this.#parse(String(init));
    }
    #parse(s) {
      this.#list = [];
      for (const part of (s.startsWith('?') ? s.slice(1) : s).split('&')) {
        if (part === '') continue;
        const at = part.indexOf('=');
        this.#list.push(at < 0 ? [formDecode(part), ''] : [formDecode(part.slice(0, at)), formDecode(part.slice(at + 1))]);
      }
    }
    static _attach(params, url, query) { params.#url = url; params.#parse(query); }
    static _reparse(params, query) { params.#parse(query); }
    #update() { if (this.#url) { const q = this.toString(); setSearchFromParams(this.#url, q === '' ? '' : '?' + q); } }
    get size() { return this.#list.length; }
    append(k, v) { this.#list.push([String(k), String(v)]); this.#update(); }
    delete(k, v) { k = String(k); this.#list = this.#list.filter(([a, b]) => a !== k || (v !== undefined && b !== String(v))); this.#update(); }
    get(k) { const e = this.#list.find(([a]) => a === String(k)); return e ? e[1] : null; }
    getAll(k) { return this.#list.filter(([a]) => a === String(k)).map(([, b]) => b); }
    has(k, v) { return this.#list.some(([a, b]) => a === String(k) && (v === undefined || b === String(v))); }
    set(k, v) {
      k = String(k); v = String(v);
      const i = this.#list.findIndex(([a]) => a === k);
      if (i < 0) this.#list.push([k, v]);
      else { this.#list[i][1] = v; this.#list = this.#list.filter(([a], j) => a !== k || j === i); }
      this.#update();
    }
    sort() { this.#list = this.#list.map((e, i) => [e, i]).sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j)).map(([e]) => e); this.#update(); }
    forEach(fn, self) { for (const [k, v] of this.#list) fn.call(self, v, k, this); }
    keys() { return this.#list.map(([k]) => k)[Symbol.iterator](); }
    values() { return this.#list.map(([, v]) => v)[Symbol.iterator](); }
    entries() { return this.#list.map(([k, v]) => [k, v])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this.#list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&'); }
    get [Symbol.toStringTag]() { return 'URLSearchParams'; }
  }
  let setSearchFromParams;
  class URL {
    #parts; #params;
    constructor(url, base) {
      if (arguments.length === 0) throw new TypeError('URL: 1 argument required, but only 0 present');
      const parts = base === undefined ? native.urlParse(String(url)) : native.urlParse(String(url), String(base));
      if (parts === null) {
        const e = new TypeError(`Invalid URL: ${String(url)}${base === undefined ? '' : ` (against the base ${String(base)})`} — a URL needs a scheme (https://…, file:///…); give a base for a relative one`);
        e.code = 'ERR_INVALID_URL'; e.input = String(url);
        throw e;
      }
      this.#parts = parts;
      this.#params = new URLSearchParams();
      URLSearchParams._attach(this.#params, this, parts.search);
    }
    static canParse(url, base) { return (base === undefined ? native.urlParse(String(url)) : native.urlParse(String(url), String(base))) !== null; }
    static parse(url, base) { try { return new URL(url, base); } catch { return null; } }
    static _setSearch(u, search) { u.#parts = native.urlSet(u.#parts.href, 'search', search); }
    #set(part, value) {
      this.#parts = native.urlSet(this.#parts.href, part, String(value));
      if (part === 'search') URLSearchParams._reparse(this.#params, this.#parts.search);
    }
    get href() { return this.#parts.href; }
    set href(v) {
      const parts = native.urlParse(String(v));
      if (parts === null) throw new TypeError(`Invalid URL: ${String(v)}`);
      this.#parts = parts;
      URLSearchParams._reparse(this.#params, parts.search);
    }
    get origin() { return this.#parts.origin; }
    get protocol() { return this.#parts.protocol; }
    set protocol(v) { this.#set('protocol', v); }
    get username() { return this.#parts.username; }
    set username(v) { this.#set('username', v); }
    get password() { return this.#parts.password; }
    set password(v) { this.#set('password', v); }
    get host() { return this.#parts.host; }
    set host(v) { this.#set('host', v); }
    get hostname() { return this.#parts.hostname; }
    set hostname(v) { this.#set('hostname', v); }
    get port() { return this.#parts.port; }
    set port(v) { this.#set('port', v); }
    get pathname() { return this.#parts.pathname; }
    set pathname(v) { this.#set('pathname', v); }
    get search() { return this.#parts.search; }
    set search(v) { this.#set('search', v); }
    get searchParams() { return this.#params; }
    get hash() { return this.#parts.hash; }
    set hash(v) { this.#set('hash', v); }
    toString() { return this.#parts.href; }
    toJSON() { return this.#parts.href; }
    get [Symbol.toStringTag]() { return 'URL'; }
  }
  setSearchFromParams = (u, search) => URL._setSearch(u, search);
  for (const k of ['_setSearch']) Object.defineProperty(URL, k, { enumerable: false });
  for (const k of ['_attach', '_reparse']) Object.defineProperty(URLSearchParams, k, { enumerable: false });

  // ---- structuredClone (the HTML Standard's serializable values) -------------------------
  const TYPED = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];
  const ERRORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
  function structuredClone(value, options) {
    if (arguments.length === 0) throw new TypeError('structuredClone: 1 argument required, but only 0 present');
    if (options && options.transfer && options.transfer.length) throw new DOMException('structuredClone: transfer is not supported in the sandbox — clone without it', 'DataCloneError');
    const seen = new Map();
    const clone = (v, where) => {
      if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
        if (typeof v === 'symbol') throw new DOMException(`structuredClone: ${String(v)} could not be cloned (at ${where})`, 'DataCloneError');
        return v;
      }
      if (typeof v === 'function') throw new DOMException(`structuredClone: ${v.name ? `function ${v.name}` : 'a function'} could not be cloned (at ${where}) — functions are not data`, 'DataCloneError');
      if (seen.has(v)) return seen.get(v);
      const tag = Object.prototype.toString.call(v).slice(8, -1);
      let out;
      if (Array.isArray(v)) { out = new Array(v.length); seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k], `${where}[${k}]`); return out; }
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (v instanceof DataView) { out = new DataView(clone(v.buffer, where), v.byteOffset, v.byteLength); }
      else if (TYPED.some((C) => v instanceof C)) { const C = TYPED.find((K) => K.name === tag) || Uint8Array; out = new C(clone(v.buffer, where), v.byteOffset, v.length); }
      else if (v instanceof Map) { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(clone(k, `${where} key`), clone(x, `${where}.get(…)`)); return out; }
      else if (v instanceof Set) { out = new Set(); seen.set(v, out); for (const x of v) out.add(clone(x, `${where} item`)); return out; }
      else if (v instanceof Error) {
        const C = ERRORS[v.name] || Error;
        out = new C(v.message);
        if (typeof v.stack === 'string') Object.defineProperty(out, 'stack', { value: v.stack, writable: true, configurable: true });
        if ('cause' in v) out.cause = clone(v.cause, `${where}.cause`);
      } else if (tag === 'Boolean' || tag === 'Number' || tag === 'String' || tag === 'BigInt') out = Object(v.valueOf());
      else if (tag === 'Object' || tag === 'Arguments') {
        out = {}; seen.set(v, out);
        for (const k of Object.keys(v)) out[k] = clone(v[k], `${where}.${k}`);
        return out;
      } else if (tag === 'Promise' || tag === 'WeakMap' || tag === 'WeakSet' || tag === 'WeakRef') throw new DOMException(`structuredClone: #<${tag}> could not be cloned (at ${where})`, 'DataCloneError');
      else { out = {}; seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k], `${where}.${k}`); return out; }
      seen.set(v, out);
      return out;
    };
    return clone(value, 'the value');
  }

  // ---- events and abort ------------------------------------------------------------------
  class Event {
    #type; #defaultPrevented = false; #stop = false;
    constructor(type, init = {}) { this.#type = String(type); this.bubbles = !!init.bubbles; this.cancelable = !!init.cancelable; this.timeStamp = performance.now(); this.target = null; this.currentTarget = null; }
    get type() { return this.#type; }
    get defaultPrevented() { return this.#defaultPrevented; }
    preventDefault() { if (this.cancelable) this.#defaultPrevented = true; }
    stopImmediatePropagation() { this.#stop = true; }
    stopPropagation() {}
    static _stopped(e) { return e.#stop; }
  }
  class EventTarget {
    #listeners = new Map();
    addEventListener(type, fn, options) {
      if (fn === null || fn === undefined) return;
      const once = typeof options === 'object' && options !== null && !!options.once;
      const signal = typeof options === 'object' && options !== null ? options.signal : undefined;
      if (signal && signal.aborted) return;
      const list = this.#listeners.get(type) || [];
      if (list.some((l) => l.fn === fn)) return;
      list.push({ fn, once });
      this.#listeners.set(type, list);
      if (signal) signal.addEventListener('abort', () => this.removeEventListener(type, fn));
    }
    removeEventListener(type, fn) { const list = this.#listeners.get(type); if (list) this.#listeners.set(type, list.filter((l) => l.fn !== fn)); }
    dispatchEvent(event) {
      try { event.target = this; event.currentTarget = this; } catch { /* a frozen event */ }
      const handler = this[`on${event.type}`];
      const list = [...(this.#listeners.get(event.type) || [])];
      if (typeof handler === 'function') list.unshift({ fn: handler, once: false });
      for (const l of list) {
        if (l.once) this.removeEventListener(event.type, l.fn);
        try { typeof l.fn === 'function' ? l.fn.call(this, event) : l.fn.handleEvent(event); } catch (e) { Promise.reject(e); }
        if (Event._stopped(event)) break;
      }
      return !event.defaultPrevented;
    }
  }
  Object.defineProperty(Event, '_stopped', { enumerable: false });
  class AbortSignal extends EventTarget {
    #aborted = false; #reason;
    get aborted() { return this.#aborted; }
    get reason() { return this.#reason; }
    throwIfAborted() { if (this.#aborted) throw this.#reason; }
    static _abort(s, reason) {
      if (s.#aborted) return;
      s.#aborted = true;
      s.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      s.dispatchEvent(new Event('abort'));
    }
    static abort(reason) { const s = new AbortSignal(); AbortSignal._abort(s, reason); return s; }
    static timeout(ms) { const s = new AbortSignal(); const t = setTimeout(() => AbortSignal._abort(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms); if (t && t.unref) t.unref(); return s; }
    static any(signals) {
      const s = new AbortSignal();
      for (const x of signals) { if (x.aborted) { AbortSignal._abort(s, x.reason); return s; } }
      for (const x of signals) x.addEventListener('abort', () => AbortSignal._abort(s, x.reason), { once: true });
      return s;
    }
  }
  Object.defineProperty(AbortSignal, '_abort', { enumerable: false });
  class AbortController {
    #signal = new AbortSignal();
    get signal() { return this.#signal; }
    abort(reason) { AbortSignal._abort(this.#signal, reason); }
  }

  return {
    globals: { TextEncoder, TextDecoder, atob, btoa, crypto, URL, URLSearchParams, structuredClone, Event, EventTarget, AbortController, AbortSignal, DOMException },
    base64: { atob, btoa },
  };
})
