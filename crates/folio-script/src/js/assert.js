// env:assert — assertions for *.test.js scripts. Every failure throws an error named
// AssertionFailed whose message is "<message or default>\n  <detail>".
() => {
  'use strict';
  const tagOf = (v) => Object.prototype.toString.call(v);
  const clip = (s, max) => (s.length <= max ? s : `${s.slice(0, max)}… [${s.length} chars]`);
  function show(v, max = 200) {
    let s;
    if (typeof v === 'string') s = JSON.stringify(v);
    else if (typeof v === 'bigint') s = `${v}n`;
    else if (v === undefined) s = 'undefined';
    else if (typeof v === 'function') s = `[Function: ${v.name || 'anonymous'}]`;
    else if (typeof v === 'symbol') s = v.toString();
    else if (typeof v === 'number') s = Object.is(v, -0) ? '-0' : String(v);
    else if (v instanceof Error) s = `${v.name}: ${v.message}`;
    else if (v instanceof Uint8Array) s = `Uint8Array(${v.length})`;
    else if (v instanceof Map) s = `Map(${v.size})`;
    else if (v instanceof Set) s = `Set(${v.size})`;
    else if (v instanceof RegExp) s = String(v);
    else {
      try { s = JSON.stringify(v) ?? String(v); } catch { s = String(v); }
    }
    return clip(s, max);
  }
  class AssertionFailed extends Error {
    constructor(message) { super(message); this.name = 'AssertionFailed'; }
  }
  const fail = (msg, fallback, detail) => { throw new AssertionFailed(`${msg ?? fallback}${detail ? `\n  ${detail}` : ''}`); };

  function deepEq(a, b, seen) {
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    const t = tagOf(a);
    if (t !== tagOf(b)) return false;
    for (const [x, y] of seen) if (x === a && y === b) return true;
    seen.push([a, b]);
    if (t === '[object Date]') return a.getTime() === b.getTime();
    if (t === '[object RegExp]') return String(a) === String(b);
    if (ArrayBuffer.isView(a)) {
      if (a.byteLength !== b.byteLength) return false;
      const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      return x.every((v, i) => v === y[i]);
    }
    if (Array.isArray(a)) return a.length === b.length && a.every((v, i) => deepEq(v, b[i], seen));
    if (t === '[object Map]') {
      if (a.size !== b.size) return false;
      for (const [k, v] of a) if (!b.has(k) || !deepEq(v, b.get(k), seen)) return false;
      return true;
    }
    if (t === '[object Set]') {
      if (a.size !== b.size) return false;
      for (const v of a) if (!b.has(v)) return false;
      return true;
    }
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEq(a[k], b[k], seen));
  }
  const matches = (value, pattern) => {
    if (pattern === undefined) return true;
    const text = value instanceof Error ? `${value.name}: ${value.message}` : typeof value === 'string' ? value : show(value, 10000);
    return pattern instanceof RegExp ? pattern.test(text) : text.includes(String(pattern));
  };
  return {
    equal(actual, expected, msg) {
      if (!Object.is(actual, expected)) fail(msg, 'values are not equal', `actual:   ${show(actual)}\n  expected: ${show(expected)}`);
    },
    notEqual(actual, expected, msg) {
      if (Object.is(actual, expected)) fail(msg, 'values are equal but should not be', `both: ${show(actual)}`);
    },
    deepEqual(actual, expected, msg) {
      if (!deepEq(actual, expected, [])) fail(msg, 'values are not deeply equal', `actual:   ${show(actual, 400)}\n  expected: ${show(expected, 400)}`);
    },
    ok(value, msg) {
      if (!value) fail(msg, 'expected a truthy value', `got: ${show(value)}`);
    },
    match(actual, pattern, msg) {
      const hit = pattern instanceof RegExp ? pattern.test(String(actual)) : String(actual).includes(String(pattern));
      if (!hit) fail(msg, 'value does not match', `pattern: ${show(pattern, 400)}\n  actual:  ${show(actual, 400)}`);
    },
    throws(fn, pattern, msg) {
      try { fn(); } catch (e) {
        if (!matches(e, pattern)) fail(msg, 'thrown error does not match', `pattern: ${show(pattern)}\n  thrown:  ${show(e)}`);
        return e;
      }
      return fail(msg, 'expected the function to throw, but it returned normally');
    },
    async rejects(fnOrPromise, pattern, msg) {
      try { await (typeof fnOrPromise === 'function' ? fnOrPromise() : fnOrPromise); } catch (e) {
        if (!matches(e, pattern)) fail(msg, 'rejection does not match', `pattern: ${show(pattern)}\n  rejected: ${show(e)}`);
        return e;
      }
      return fail(msg, 'expected the promise to reject, but it resolved');
    },
    fail(msg) { fail(msg, 'assert.fail()'); },
  };
}
