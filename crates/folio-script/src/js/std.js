// env:std — the zero-dependency battery. Evaluated as a function expression that receives the
// module's host functions (UTF-8 coding and sleep) and returns the namespace object.
(n) => {
  'use strict';
  const toBinary = (view) => {
    let s = '';
    for (let i = 0; i < view.length; i += 8192) s += String.fromCharCode.apply(null, view.subarray(i, i + 8192));
    return s;
  };
  const asView = (b, fn) => {
    if (b instanceof Uint8Array) return b;
    if (b instanceof ArrayBuffer) return new Uint8Array(b);
    if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    throw new TypeError(`${fn} needs a Uint8Array (or another typed array), got ${b === null ? 'null' : typeof b}`);
  };

  const json = {
    parse(text) {
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new SyntaxError(`invalid JSON: ${e.message}. Check the text is JSON (double-quoted keys, no trailing commas)`);
      }
    },
    stringify(value, pretty = 2) {
      const indent = pretty === true ? 2 : pretty === false ? 0 : Number(pretty) || 0;
      return indent > 0 ? JSON.stringify(value, null, indent) : JSON.stringify(value);
    },
  };

  const parseRows = (text, opts = {}) => {
    const d = opts.delimiter ?? ',';
    if (typeof text !== 'string') throw new TypeError(`csv text must be a string, got ${typeof text}`);
    const rows = [];
    let row = [];
    let field = '';
    let quoted = false;
    let atStart = true;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') { field += '"'; i++; } else quoted = false;
        } else field += c;
        continue;
      }
      if (c === '"' && atStart) { quoted = true; atStart = false; continue; }
      if (text.startsWith(d, i)) { row.push(field); field = ''; atStart = true; i += d.length - 1; continue; }
      if (c === '\r') continue;
      if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; atStart = true; continue; }
      field += c;
      atStart = false;
    }
    if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
    return rows;
  };

  const csv = {
    rows: parseRows,
    parse(text, opts) {
      const rows = parseRows(text, opts);
      if (rows.length === 0) return [];
      const header = rows[0];
      return rows.slice(1).map((r) => {
        const rec = {};
        header.forEach((h, i) => { rec[h] = r[i] ?? ''; });
        return rec;
      });
    },
    stringify(rows, opts = {}) {
      const d = opts.delimiter ?? ',';
      if (!Array.isArray(rows)) throw new TypeError('csv.stringify needs an array of rows (arrays) or records (objects)');
      if (rows.length === 0) return '';
      const cell = (v) => {
        const s = v === null || v === undefined ? '' : String(v);
        return s.includes('"') || s.includes(d) || s.includes('\n') || s.includes('\r') ? `"${s.replaceAll('"', '""')}"` : s;
      };
      const line = (r) => r.map(cell).join(d) + '\n';
      if (Array.isArray(rows[0])) return rows.map(line).join('');
      const headers = opts.headers ?? Object.keys(rows[0]);
      return line(headers) + rows.map((r) => line(headers.map((h) => r[h]))).join('');
    },
  };

  const text = {
    lines: (s) => String(s).split(/\r?\n/),
    joinLines: (lines) => lines.join('\n'),
    truncate(s, max, suffix = '…') {
      s = String(s);
      return s.length <= max ? s : s.slice(0, Math.max(0, max - suffix.length)) + suffix;
    },
    dedent(s) {
      const lines = String(s).split('\n');
      let min = Infinity;
      for (const l of lines) if (l.trim() !== '') min = Math.min(min, l.length - l.trimStart().length);
      if (min === Infinity) return s;
      return lines.map((l) => (l.trim() === '' ? l : l.slice(min))).join('\n');
    },
  };

  const bytes = {
    fromText: (s) => n.encodeUtf8(String(s)),
    toText: (b) => n.decodeUtf8(asView(b, 'bytes.toText')),
    toBase64: (b) => btoa(toBinary(asView(b, 'bytes.toBase64'))),
    fromBase64(s) {
      let bin;
      try { bin = atob(String(s).replace(/\s+/g, '')); } catch { throw new SyntaxError('invalid base64 text: expected A–Z, a–z, 0–9, +, / and = padding'); }
      const out = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
      return out;
    },
  };

  function sleep(ms) {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      return Promise.reject(new TypeError(`sleep(ms) needs a non-negative number of milliseconds, got ${typeof ms === 'number' ? ms : typeof ms}`));
    }
    if (ms > 60000) {
      return Promise.reject(new RangeError(`sleep(${ms}) exceeds the 60000ms per-call cap. Sleep in shorter steps; the run's wall-clock budget still applies`));
    }
    return n.sleep(ms);
  }

  return { json, csv, text, bytes, sleep };
}
