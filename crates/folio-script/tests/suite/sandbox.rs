//! The hostile-script suite: nothing reachable leads to host state (sandbox.test.ts).

use super::*;

/// Walks every value reachable from `roots` (depth ≤ 4, ≤ 30 keys per node) and, for each, tries
/// `v.constructor.constructor('return typeof process')()` directly and through its prototype.
/// Returns the paths where the answer was not "undefined".
const HUNTER: &str = r#"
const escapes = [];
let visited = 0;
const seen = new Set();
function probe(v, path) {
  for (const [how, target] of [['', v], ['proto.', (() => { try { return Object.getPrototypeOf(v); } catch { return null; } })()]]) {
    try {
      const F = target.constructor.constructor;
      const r = F('return typeof process')();
      if (r !== 'undefined') escapes.push(`${how}${path}: ${r}`);
    } catch {}
  }
}
function walk(v, path, depth) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return;
  if (seen.has(v)) return;
  seen.add(v);
  visited++;
  probe(v, path);
  if (depth >= 4) return;
  let keys = [];
  try { keys = Reflect.ownKeys(v).slice(0, 30); } catch {}
  for (const k of keys) {
    let child;
    try { child = v[k]; } catch { continue; }
    walk(child, `${path}.${String(k)}`, depth + 1);
  }
}
"#;

#[test]
fn no_host_state_is_reachable() {
    let src = format!(
        "import * as fs from 'env:fs';\nimport fsd from 'env:fs';\nimport * as std from 'env:std';\nimport * as assert from 'env:assert';\nimport * as self from './main.js';\n{HUNTER}\nexport default async function main() {{\n  let caught, nonError;\n  try {{ await fs.readFile('/missing'); }} catch (e) {{ caught = e; }}\n  try {{ assert.fail('x'); }} catch (e) {{ nonError = e; }}\n  const p = fs.readdir('/');\n  const roots = {{ globalThis, fs, fsd, std, assert, self, entries: await p, stat: await fs.stat('/data'), parsed: std.json.parse('{{\"a\":{{\"b\":[1]}}}}'), bytes: await fs.readBytes('/data/x.txt'), caught, nonError, p, console }};\n  for (const name of Object.getOwnPropertyNames(globalThis)) walk(globalThis[name], name, 0);\n  walk(roots, 'roots', 0);\n  return {{ escapes, enough: visited > 200, promiseIsLocal: p instanceof Promise, errorIsLocal: caught instanceof Error }};\n}}"
    );
    let r = run_with(&src, &[("/data/x.txt", "x")], None, RunOptions::default());
    assert_eq!(outcome(&r), r#"{"enough":true,"errorIsLocal":true,"escapes":[],"promiseIsLocal":true}"#);
}

#[test]
fn direct_payloads_fail() {
    let payloads = [
        "globalThis.constructor.constructor('return typeof process')()",
        "({}).constructor.constructor('return typeof process')()",
        "(function(){}).constructor('return typeof process')()",
        "(async function(){}).constructor('return typeof process')()",
        "[].constructor.constructor('return typeof process')()",
        "console.log.constructor('return typeof process')()",
        "readFile.constructor('return typeof process')()",
    ];
    for p in payloads {
        let r = run(&format!(
            "import {{ readFile }} from 'env:fs';\nexport default () => {{ try {{ return {p}; }} catch (e) {{ return 'threw'; }} }}"
        ));
        let got = outcome(&r);
        assert!(got == r#""undefined""# || got == r#""threw""#, "{p}: {got}");
    }
}

#[test]
fn host_apis_are_absent() {
    let names = [
        "process",
        "require",
        "fetch",
        "XMLHttpRequest",
        "WebSocket",
        "Buffer",
        "WebAssembly",
        "setTimeout",
        "setInterval",
        "setImmediate",
        "queueMicrotask",
        "module",
        "exports",
        "global",
        "std",
        "os",
        "scriptArgs",
        "print",
        "Deno",
        "Bun",
    ];
    let list = names.iter().map(|n| format!("eval('typeof {n}')")).collect::<Vec<_>>().join(", ");
    let r = run(&format!("export default () => [{list}].filter(t => t !== 'undefined')"));
    assert_eq!(outcome(&r), "[]");
    let r = run(
        "export default () => { try { return typeof globalThis.constructor.constructor('return require(\"fs\")')(); } catch (e) { return e.name; } }",
    );
    assert_eq!(outcome(&r), r#""ReferenceError""#);
    for spec in ["std", "os", "node:fs", "fs"] {
        let r = run(&format!("import * as m from '{spec}'; export default () => 1"));
        assert!(
            outcome(&r).contains("only relative VFS paths and env:* modules can be imported"),
            "{spec}: {}",
            outcome(&r)
        );
    }
}

#[test]
fn escape_is_blocked_at_write_time_too() {
    let src = "const t = globalThis.constructor.constructor('return typeof process')();\nif (t !== 'undefined') throw new Error('escaped');\nexport default () => t;";
    engine().validate(&MemTree::new(), &vp("/scripts/e.js"), src).unwrap();
}

#[test]
fn one_run_cannot_poison_the_next() {
    let poison = run(
        "export default () => { Object.prototype.__poisoned = 1; globalThis.__leftover = 2; Array.prototype.push = null; JSON.stringify = () => 'evil'; return 1; }",
    );
    assert_eq!(outcome(&poison), "1");
    let clean =
        run("export default () => [({}).__poisoned, typeof __leftover, typeof [].push, JSON.stringify({ a: 1 })]");
    assert_eq!(outcome(&clean), r#"[null,"undefined","function","{\"a\":1}"]"#);
}

#[test]
fn tampering_cannot_spoof_the_result_or_console() {
    let r = run(
        "export default () => { JSON.stringify = () => '\"evil\"'; Object.keys = () => []; console.log({ a: 1 }); return { honest: true }; }",
    );
    assert_eq!(outcome(&r), r#"{"honest":true}"#);
    assert_eq!(r.stdout, vec!["{ a: 1 }"]);
}

#[test]
fn values_cross_the_boundary_intact() {
    let src = "import { readdir, stat, readBytes, writeFile } from 'env:fs';\nimport { json, bytes } from 'env:std';\nexport default async () => {\n  await writeFile('/d/b.bin', bytes.fromText('AB'));\n  const e = await readdir('/d');\n  const s = await stat('/d/b.bin');\n  const b = await readBytes('/d/b.bin');\n  return [e[0].name, e[0].kind, s.size, typeof s.mtime, b instanceof Uint8Array, bytes.toBase64(b), json.stringify({ a: [1] }, 0), new Date(0) instanceof Date];\n}";
    assert_eq!(outcome(&run(src)), r#"["b.bin","file",2,"number",true,"QUI=","{\"a\":[1]}",true]"#);
}

#[test]
fn host_frames_never_reach_the_message() {
    let r = run(
        "import { readFile } from 'env:fs';\nexport default async function main() {\n  await readFile('/nope');\n}",
    );
    let err = outcome(&r);
    assert!(err.contains("env:fs.readFile: no such file: /nope"), "{err}");
    for line in err.lines().skip(1) {
        assert!(line.contains("/scripts/"), "a non-script frame leaked: {line}");
    }
    assert!(!err.contains(".rs") && !err.contains("env:fs ("), "{err}");
}
