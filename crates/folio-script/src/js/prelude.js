// The per-context host kit. This file is evaluated as a classic script in every fresh context; it
// evaluates to a factory that the host calls once with its native `emit(stream, line)` function.
// The factory's result (console, inspect, tagging, result settling) stays in Rust's hands: nothing
// here is stored on `globalThis` except the frozen `console` object the host installs itself.
//
// Intrinsics are captured up front, so a script that later replaces `Object.keys` or
// `JSON.stringify` cannot change how its own console output or result is rendered.
(function hostKit(emit, layer) {
  const track = layer && layer.track;
  'use strict';
  const { keys, getPrototypeOf, getOwnPropertySymbols, freeze, isFrozen, defineProperty } = Object;
  const construct = Reflect.construct;
  const ownNames = Object.getOwnPropertyNames;
  const propertyIsEnumerable = Function.prototype.call.bind(Object.prototype.propertyIsEnumerable);
  const objectTag = Function.prototype.call.bind(Object.prototype.toString);
  const fnToString = Function.prototype.call.bind(Function.prototype.toString);
  const isArray = Array.isArray;
  const jsonStringify = JSON.stringify;
  const dateToISO = Function.prototype.call.bind(Date.prototype.toISOString);
  const dateTime = Function.prototype.call.bind(Date.prototype.getTime);
  const regexToString = Function.prototype.call.bind(RegExp.prototype.toString);
  const mapEntries = Function.prototype.call.bind(Map.prototype.entries);
  const setValues = Function.prototype.call.bind(Set.prototype.values);
  const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
  const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get;
  const TypedArrayProto = getPrototypeOf(Uint8Array.prototype);
  const typedLength = Object.getOwnPropertyDescriptor(TypedArrayProto, 'length').get;
  const ErrorCtor = Error;
  const isView = ArrayBuffer.isView;
  const ArrayBufferCtor = ArrayBuffer;
  const U8 = Uint8Array;
  const fromCharCode = String.fromCharCode;
  const applyFn = Function.prototype.call.bind(Function.prototype.apply);
  const subarray = Function.prototype.call.bind(U8.prototype.subarray);
  const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  const BREAK = 80;
  const MAX_ITEMS = 100;

  function quote(s) {
    let q = "'";
    if (s.includes("'")) {
      if (!s.includes('"')) q = '"';
      else if (!s.includes('`') && !s.includes('${')) q = '`';
    }
    let out = '';
    for (const ch of s) {
      if (ch === q || ch === '\\') out += '\\' + ch;
      else if (ch === '\n') out += '\\n';
      else if (ch === '\t') out += '\\t';
      else if (ch === '\r') out += '\\r';
      else if (ch < ' ') out += '\\x' + ch.charCodeAt(0).toString(16).padStart(2, '0');
      else out += ch;
    }
    return q + out + q;
  }

  function primitive(v) {
    switch (typeof v) {
      case 'string': return quote(v);
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return String(v) + 'n';
      case 'symbol': return v.toString();
      case 'undefined': return 'undefined';
      default: return String(v);
    }
  }

  function functionLabel(f) {
    let src = '';
    try { src = fnToString(f); } catch { src = ''; }
    const name = typeof f.name === 'string' && f.name !== '' ? f.name : '';
    if (src.startsWith('class')) return name ? `[class ${name}]` : '[class (anonymous)]';
    const tag = objectTag(f).slice(8, -1);
    const kind = tag === 'Function' ? 'Function' : tag;
    return name ? `[${kind}: ${name}]` : `[${kind} (anonymous)]`;
  }

  function errorText(e) {
    let head;
    try { head = `${e.name}: ${e.message}`; } catch { head = 'Error'; }
    if (e.message === '' || e.message === undefined) head = String(e.name || 'Error');
    const stack = typeof e.stack === 'string' ? e.stack.replace(/\n+$/, '') : '';
    // A stack already headed by its message line (V8's form, see below) is shown as it is.
    if (stack.startsWith('    at ') || stack === '') return stack ? `${head}\n${stack}` : head;
    return stack;
  }

  // `error.stack` begins with the message line, as in V8 (`Error: boom\n    at f (file:1:2)`),
  // so code that logs `e.stack` shows what happened; QuickJS calls this when an error is made.
  const frameText = (f) => {
    const name = f.getFunctionName();
    const file = f.getFileName();
    const line = f.getLineNumber();
    const where = f.isNative() ? 'native' : file ? (line >= 0 ? `${file}:${line}:${f.getColumnNumber()}` : file) : '<anonymous>';
    return name ? `    at ${name} (${where})` : `    at ${where}`;
  };
  ErrorCtor.prepareStackTrace = (e, frames) => {
    let head;
    try { head = e.message === '' || e.message === undefined ? String(e.name) : `${e.name}: ${e.message}`; } catch { head = 'Error'; }
    let out = head;
    for (const f of frames) out += '\n' + frameText(f);
    return out;
  };

  function constructorName(o) {
    let proto;
    try { proto = getPrototypeOf(o); } catch { return ''; }
    if (proto === null) return null;
    try {
      const c = proto.constructor;
      return typeof c === 'function' && typeof c.name === 'string' ? c.name : '';
    } catch { return ''; }
  }

  function keyText(k) {
    if (typeof k === 'symbol') return `[${k.toString()}]`;
    return IDENT.test(k) ? k : quote(k);
  }

  // Lays entries out the way Node does: on one line when they fit in 80 columns and nothing below
  // is nested three levels deep, otherwise one entry per line (arrays of more than six short
  // entries are first grouped into aligned columns).
  function layout(ctx, output, braces, prefix, depthBelow, isList, value) {
    let entries = output;
    if (isList && output.length > 6) entries = group(ctx, output, value);
    const head = prefix ? `${prefix} ` : '';
    if (entries === output && depthBelow < 3) {
      let total = output.length + ctx.indent + braces[0].length + prefix.length + 10;
      for (const e of output) total += e.length;
      const joined = output.join(', ');
      if (total + output.length <= BREAK && !joined.includes('\n')) return `${head}${braces[0]} ${joined} ${braces[1]}`;
    }
    const pad = '\n' + ' '.repeat(ctx.indent);
    return `${head}${braces[0]}${pad}  ${entries.join(`,${pad}  `)}${pad}${braces[1]}`;
  }

  function group(ctx, output, value) {
    const count = output.length > MAX_ITEMS ? output.length - 1 : output.length;
    let total = 0;
    let widest = 0;
    for (let i = 0; i < count; i++) {
      total += output[i].length + 2;
      if (output[i].length > widest) widest = output[i].length;
    }
    const cell = widest + 2;
    if (!(cell * 3 + ctx.indent < BREAK && (total / cell > 5 || widest <= 6))) return output;
    const bias = Math.sqrt(cell - total / output.length);
    const biased = Math.max(cell - 3 - bias, 1);
    const columns = Math.min(Math.round(Math.sqrt(2.5 * biased * count) / biased), Math.floor((BREAK - ctx.indent) / cell), 12, 15);
    if (columns <= 1) return output;
    const widths = [];
    for (let c = 0; c < columns; c++) {
      let w = 0;
      for (let j = c; j < count; j += columns) if (output[j].length > w) w = output[j].length;
      widths.push(w + 2);
    }
    let numeric = value !== undefined;
    for (let i = 0; numeric && i < count; i++) if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') numeric = false;
    const rows = [];
    for (let i = 0; i < count; i += columns) {
      const end = Math.min(i + columns, count);
      let line = '';
      let j = i;
      for (; j < end - 1; j++) {
        const cellText = `${output[j]}, `;
        line += numeric ? cellText.padStart(widths[j - i]) : cellText.padEnd(widths[j - i]);
      }
      line += numeric ? output[j].padStart(widths[j - i] - 2) : output[j];
      rows.push(line);
    }
    if (count < output.length) rows.push(output[count]);
    return rows;
  }

  // Renders a value like Node's util.inspect with its defaults (depth 2, no colours). Returns the
  // text and how many object levels it contains, which decides single-line layout upstream.
  function render(ctx, v, depth) {
    if (v === null) return ['null', 0];
    const t = typeof v;
    if (t !== 'object' && t !== 'function') return [primitive(v), 0];
    if (ctx.seen.includes(v)) {
      let id = ctx.refs.get(v);
      if (id === undefined) { id = ctx.refs.size + 1; ctx.refs.set(v, id); }
      return [`[Circular *${id}]`, 0];
    }
    let body;
    ctx.seen.push(v);
    try { body = renderObject(ctx, v, depth); } finally { ctx.seen.pop(); }
    const id = ctx.refs.get(v);
    return id === undefined ? body : [`<ref *${id}> ${body[0]}`, body[1]];
  }

  function renderObject(ctx, v, depth) {
    const tag = objectTag(v).slice(8, -1);
    const ctor = constructorName(v);
    if (typeof v === 'function') {
      const own = keys(v);
      if (own.length === 0 || depth > 2) return [functionLabel(v), 0];
      return properties(ctx, v, depth, own, functionLabel(v), ['{', '}'], [], false);
    }
    if (v instanceof ErrorCtor || tag === 'Error') return [errorText(v), 0];
    if (tag === 'Date') return [Number.isNaN(dateTime(v)) ? 'Invalid Date' : dateToISO(v), 0];
    if (tag === 'RegExp') return [regexToString(v), 0];
    if (tag === 'Promise') return ['Promise { <unknown> }', 0];
    if (tag === 'WeakMap' || tag === 'WeakSet') return [`${tag} { <items unknown> }`, 0];
    if (tag === 'ArrayBuffer') {
      const bytes = new Uint8Array(v);
      const hex = [];
      for (let i = 0; i < Math.min(bytes.length, 50); i++) hex.push(bytes[i].toString(16).padStart(2, '0'));
      const more = bytes.length > 50 ? ` ... ${bytes.length - 50} more bytes` : '';
      return [`ArrayBuffer { [Uint8Contents]: <${hex.join(' ')}${more}>, byteLength: ${bytes.length} }`, 0];
    }
    const name = ctor === null ? '[Object: null prototype]' : ctor;
    if (depth > 2) {
      // A placeholder is not a formatted level, so it must not count towards the nesting that
      // forces a multi-line layout upstream.
      if (isArray(v)) return ['[Array]', -1];
      return [`[${name && name !== 'Object' ? name : tag === 'Object' ? 'Object' : tag}]`, -1];
    }
    if (isArray(v)) {
      const items = [];
      let holes = 0;
      const flushHoles = () => { if (holes) { items.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`); holes = 0; } };
      let below = 0;
      const n = v.length;
      for (let i = 0; i < n && items.length < MAX_ITEMS; i++) {
        if (!(i in v)) { holes++; continue; }
        flushHoles();
        const [text, d] = child(ctx, v[i], depth);
        items.push(text);
        if (d > below) below = d;
      }
      flushHoles();
      if (n > MAX_ITEMS) items.push(`... ${n - MAX_ITEMS} more item${n - MAX_ITEMS > 1 ? 's' : ''}`);
      const extra = keys(v).filter((k) => !/^\d+$/.test(k));
      const prefix = name === 'Array' ? '' : `${name}(${n})`;
      return properties(ctx, v, depth, extra, prefix, ['[', ']'], items, true, below);
    }
    if (tag === 'Map') {
      const items = [];
      let below = 0;
      for (const [k, val] of mapEntries(v)) {
        const a = child(ctx, k, depth);
        const b = child(ctx, val, depth);
        items.push(`${a[0]} => ${b[0]}`);
        below = Math.max(below, a[1], b[1]);
      }
      return properties(ctx, v, depth, keys(v), `${name}(${mapSize.call(v)})`, ['{', '}'], items, false, below);
    }
    if (tag === 'Set') {
      const items = [];
      let below = 0;
      for (const val of setValues(v)) {
        const a = child(ctx, val, depth);
        items.push(a[0]);
        below = Math.max(below, a[1]);
      }
      return properties(ctx, v, depth, keys(v), `${name}(${setSize.call(v)})`, ['{', '}'], items, true, below);
    }
    if (v instanceof TypedArrayProto.constructor) {
      const n = typedLength.call(v);
      const items = [];
      for (let i = 0; i < Math.min(n, MAX_ITEMS); i++) items.push(primitive(v[i]));
      if (n > MAX_ITEMS) items.push(`... ${n - MAX_ITEMS} more item${n - MAX_ITEMS > 1 ? 's' : ''}`);
      return properties(ctx, v, depth, [], `${name}(${n})`, ['[', ']'], items, true, 0);
    }
    let prefix = '';
    if (ctor === null) prefix = name;
    else if (ctor !== 'Object') prefix = ctor || tag;
    const own = keys(v);
    for (const s of getOwnPropertySymbols(v)) if (propertyIsEnumerable(v, s)) own.push(s);
    return properties(ctx, v, depth, own, prefix, ['{', '}'], [], false, 0);
  }

  function child(ctx, value, depth) {
    ctx.indent += 2;
    try {
      const [text, d] = render(ctx, value, depth + 1);
      return [text, value !== null && typeof value === 'object' ? d + 1 : d];
    } finally {
      ctx.indent -= 2;
    }
  }

  function properties(ctx, v, depth, props, prefix, braces, items, isList, below = 0) {
    const output = items.slice();
    let deepest = below;
    for (const k of props) {
      let value;
      try { value = v[k]; } catch (e) { value = `<getter threw ${e}>`; }
      const [text, d] = child(ctx, value, depth);
      output.push(`${keyText(k)}: ${text}`);
      if (d > deepest) deepest = d;
    }
    if (output.length === 0) {
      if (braces[0] === '[') return [prefix ? `${prefix} []` : '[]', 0];
      return [prefix ? `${prefix} {}` : '{}', 0];
    }
    return [layout(ctx, output, braces, prefix, deepest, isList, isList ? v : undefined), deepest];
  }

  function inspect(v) {
    return render({ seen: [], refs: new Map(), indent: 0 }, v, 0)[0];
  }

  function stringOf(v) {
    if (typeof v === 'string') return v;
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return String(v);
    return inspect(v);
  }

  // Node's util.format: printf-style substitutions in a leading string, the rest appended with
  // spaces, strings verbatim and everything else inspected.
  function format(args) {
    let out = '';
    let next = 0;
    if (typeof args[0] === 'string') {
      const f = args[0];
      next = 1;
      let last = 0;
      for (let i = 0; i < f.length - 1; i++) {
        if (f[i] !== '%') continue;
        const c = f[i + 1];
        let piece;
        if (c === '%') { piece = '%'; }
        else if (next >= args.length) { continue; }
        else if (c === 's') piece = stringOf(args[next++]);
        else if (c === 'd') { const a = args[next++]; piece = typeof a === 'bigint' ? `${a}n` : typeof a === 'object' && a !== null ? 'NaN' : String(Number(a)); }
        else if (c === 'i') { const a = args[next++]; piece = typeof a === 'bigint' ? `${a}n` : String(parseInt(a)); }
        else if (c === 'f') { const a = args[next++]; piece = typeof a === 'symbol' ? 'NaN' : String(parseFloat(a)); }
        else if (c === 'j') { try { piece = String(jsonStringify(args[next++])); } catch { piece = '[Circular]'; } }
        else if (c === 'o' || c === 'O') piece = inspect(args[next++]);
        else if (c === 'c') { next++; piece = ''; }
        else continue;
        out += f.slice(last, i) + piece;
        last = i + 2;
        i++;
      }
      out += f.slice(last);
    }
    for (let i = next; i < args.length; i++) {
      const a = args[i];
      out += (i > 0 ? ' ' : '') + (typeof a === 'string' ? a : inspect(a));
    }
    return out;
  }

  const console = {};
  const streams = { log: 'stdout', info: 'stdout', debug: 'stdout', trace: 'stderr', warn: 'stderr', error: 'stderr' };
  for (const level of keys(streams)) {
    const stream = streams[level];
    const fn = { [level](...args) { emit(stream, format(args)); } }[level];
    console[level] = fn;
  }
  freeze(console);

  // Wraps every function reachable through plain objects (depth 3) so that a throw or rejection
  // carries "env:<module>.<path>: " in front of its message, keeping name and stack; then
  // deep-freezes the namespace object.
  function tagAndFreeze(label, api) {
    const wrap = (fn, path) => {
      const fix = (e) => {
        if (e instanceof ErrorCtor) {
          if (typeof e.message === 'string' && !e.message.startsWith('env:')) {
            try { e.message = `${path}: ${e.message}`; } catch { /* a frozen error keeps its text */ }
          }
          return e;
        }
        return new ErrorCtor(`${path}: ${stringOf(e)}`);
      };
      // An ordinary function, not a method, so that `new` works: a library's classes construct
      // through the wrapper (the instance is made by the original, with the prototype `new.target`
      // asks for), and `instanceof` holds because the wrapper shares the original's prototype.
      const wrapped = function (...args) {
        if (new.target !== undefined) {
          try { return construct(fn, args, new.target === wrapped ? fn : new.target); } catch (e) { throw fix(e); }
        }
        let r;
        try { r = applyFn(fn, this, args); } catch (e) { throw fix(e); }
        if (r instanceof Promise) return r.then(undefined, (e) => { throw fix(e); });
        return r;
      };
      defineProperty(wrapped, 'name', { value: fn.name || 'fn' });
      defineProperty(wrapped, 'length', { value: fn.length });
      const proto = fn.prototype;
      if (proto !== null && typeof proto === 'object') defineProperty(wrapped, 'prototype', { value: proto, writable: false });
      // Static members come along, functions tagged too: assigned ones (fflate's
      // `UnzipInflate.compression`) and a class's non-enumerable static methods alike.
      for (const k of ownNames(fn)) {
        if (k === 'length' || k === 'name' || k === 'prototype' || k === 'caller' || k === 'arguments') continue;
        let v;
        try { v = fn[k]; } catch { continue; }
        defineProperty(wrapped, k, { value: typeof v === 'function' ? wrap(v, `${path}.${k}`) : v, enumerable: propertyIsEnumerable(fn, k) });
      }
      return freeze(wrapped);
    };
    const visit = (obj, path, level) => {
      const out = {};
      for (const k of keys(obj)) {
        const v = obj[k];
        if (typeof v === 'function') out[k] = wrap(v, `${path}.${k}`);
        else if (v !== null && typeof v === 'object' && level < 3 && !isArray(v) && constructorName(v) === 'Object') out[k] = visit(v, `${path}.${k}`, level + 1);
        else out[k] = v;
        if (!isFrozen(out[k]) && out[k] !== null && typeof out[k] === 'object') freeze(out[k]);
      }
      return guard(freeze(out), path);
    };
    return visit(api, label, 0);
  }

  // Reading a name a namespace does not have is nearly always a guessed API (`csv.parseRows`):
  // the read itself throws, naming what exists, instead of a later "is not a function". The
  // probes ordinary code makes of any object (`then` when awaited, `toJSON`, …) and symbols stay
  // silent, and `in` answers without throwing. The message is built when the namespace is, so
  // nothing a script later does to the intrinsics can change it.
  const PROBES = ['then', 'toJSON', 'inspect', '__esModule', 'valueOf', 'toString', 'constructor', 'prototype', 'nodeType', 'length', 'name', 'call', 'apply'];
  const ProxyCtor = Proxy;
  const reflectGet = Reflect.get;
  const TypeErrorCtor = TypeError;
  const arrayIncludes = Function.prototype.call.bind(Array.prototype.includes);
  function guard(target, path) {
    const names = keys(target);
    const verbs = names.filter((n) => !/^[A-Z]/.test(n));
    const kinds = names.filter((n) => /^[A-Z]/.test(n));
    let available = verbs.length ? verbs.slice(0, 16).join(', ') : 'nothing but classes';
    if (verbs.length > 16) available += `, and ${verbs.length - 16} more`;
    if (kinds.length) {
      available += `. It also exports ${kinds.length} classes and constants (${kinds.slice(0, 3).join(', ')}${kinds.length > 3 ? ', …' : ''})`;
    }
    return new ProxyCtor(target, {
      get(t, key, receiver) {
        if (typeof key === 'symbol' || key in t || arrayIncludes(PROBES, key)) return reflectGet(t, key, receiver);
        throw new TypeErrorCtor(`no such export "${key}" on ${path} — available: ${available}`);
      },
    });
  }

  // How a run's result crosses to the host: ['undefined'], ['json', text], or ['display', text]
  // for values JSON cannot carry (bigints, cycles, functions at the top).
  function settle(v) {
    if (v === undefined) return ['undefined', ''];
    try {
      const text = jsonStringify(v);
      if (text === undefined) return ['display', inspect(v)];
      return ['json', text];
    } catch {
      return ['display', inspect(v)];
    }
  }

  // Binary strings carry bytes into the host: one char per byte, which QuickJS stores compactly.
  function binary(view) {
    let s = '';
    for (let i = 0; i < view.length; i += 8192) s += applyFn(fromCharCode, null, subarray(view, i, i + 8192));
    return s;
  }

  // Wraps a host function so every argument arrives tagged: 'u' undefined, 'b' bytes (as a binary
  // string), 'j' anything else (the host JSON-encodes it). A promise it returns is tracked: the
  // run does not end while it is in flight (`label` names it in what a timeout says is pending).
  function bridge(native, name, label) {
    return {
      [name](...args) {
        let kinds = '';
        const out = [];
        for (const a of args) {
          if (a === undefined) { kinds += 'u'; out.push(undefined); }
          else if (a instanceof ArrayBufferCtor) { kinds += 'b'; out.push(binary(new U8(a))); }
          else if (isView(a)) { kinds += 'b'; out.push(binary(new U8(a.buffer, a.byteOffset, a.byteLength))); }
          else { kinds += 'j'; out.push(a); }
        }
        const r = native(kinds, ...out);
        if (typeof track === 'function' && r instanceof Promise) track(r, label || name);
        return r;
      },
    }[name];
  }

  // Promises rejected with no handler yet (the runtime's rejection tracker reports each change);
  // what is left when the run settles fails it, as an unhandled rejection ends a Node process.
  const rejections = new Map();
  let fatalResolve = null;
  const fatal = new Promise((resolve) => { fatalResolve = resolve; });
  const describe = (reason) => (reason instanceof ErrorCtor ? errorText(reason) : inspect(reason));
  function rejection(promise, reason, handled) {
    if (handled) { rejections.delete(promise); return; }
    rejections.set(promise, reason);
    // Still unhandled after the microtasks queued so far ran (a host yield): the run fails.
    if (layer && typeof layer.hostYield === 'function') {
      layer.hostYield().then(() => { if (rejections.has(promise) && fatalResolve) fatalResolve(describe(reason)); });
    }
  }
  function unhandled() {
    const out = [];
    for (const reason of rejections.values()) out.push(describe(reason));
    return out;
  }

  return { console, inspect, tagAndFreeze, settle, format, bridge, rejection, unhandled, fatal };
})
