//! The hostile-script suite: nothing reachable leads to host state (sandbox.test.ts).

use super::*;

/// Walks every value reachable from `roots` (depth ≤ 4, ≤ 30 keys per node) and, for each, tries
/// `v.constructor.constructor('return typeof require')()` directly and through its prototype.
/// Returns the paths where the answer was not "undefined".
const HUNTER: &str = r#"
const escapes = [];
let visited = 0;
const seen = new Set();
function probe(v, path) {
  for (const [how, target] of [['', v], ['proto.', (() => { try { return Object.getPrototypeOf(v); } catch { return null; } })()]]) {
    try {
      const F = target.constructor.constructor;
      const r = F('return typeof require')();
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
    assert_eq!(outcome(&r), r#"{"escapes":[],"enough":true,"promiseIsLocal":true,"errorIsLocal":true}"#);
}

#[test]
fn direct_payloads_fail() {
    let payloads = [
        "globalThis.constructor.constructor('return typeof require')()",
        "({}).constructor.constructor('return typeof require')()",
        "(function(){}).constructor('return typeof require')()",
        "(async function(){}).constructor('return typeof require')()",
        "[].constructor.constructor('return typeof require')()",
        "console.log.constructor('return typeof require')()",
        "readFile.constructor('return typeof require')()",
    ];
    for p in payloads {
        let r = run(&format!(
            "import {{ readFile }} from 'env:fs';\nexport default () => {{ try {{ return {p}; }} catch (e) {{ return `threw ${{e.name}}: ${{e.message}}`; }} }}"
        ));
        // Each payload reaches a Function of the script's own realm, which sees no `require` (the sandbox's own `process` stand-in is a global there, so `require` is the probe).
        assert_eq!(outcome(&r), r#""undefined""#, "{p}");
    }
}

#[test]
fn host_apis_are_absent() {
    // `process` is the sandbox's own stand-in (env empty, cwd '/'), tested in node.rs.
    let names = [
        "require",
        "fetch",
        "XMLHttpRequest",
        "WebSocket",
        "WebAssembly",
        "module",
        "exports",
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
        "export default () => { try { return typeof globalThis.constructor.constructor('return require(\"fs\")')(); } catch (e) { return `${e.name}: ${e.message}`; } }",
    );
    assert_eq!(outcome(&r), r#""ReferenceError: require is not defined""#);
    // Timers, Buffer and the text codecs are the sandbox's stand-ins (node.rs), not the host's.
    let r = run(
        "export default () => [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof queueMicrotask, typeof Buffer, typeof TextEncoder, Object.getPrototypeOf(Buffer) === Uint8Array]",
    );
    assert_eq!(outcome(&r), r#"["function","function","function","function","function","function",true]"#);
    // Node's fs and path are answered by the sandbox; the rest of Node is not there.
    for spec in ["std", "os", "child_process", "node:child_process", "http", "node:net"] {
        let r = run(&format!("import * as m from '{spec}'; export default () => 1"));
        assert!(
            outcome(&r).contains("only relative VFS paths, env:* modules and the vendored packages can be imported"),
            "{spec}: {}",
            outcome(&r)
        );
    }
}

#[test]
fn escape_is_blocked_at_write_time_too() {
    let src = "const t = globalThis.constructor.constructor('return typeof require')();\nif (t !== 'undefined') throw new Error('escaped');\nexport default () => t;";
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

#[test]
fn the_host_kit_and_module_layers_cannot_be_imported() {
    // The prelude and each module's JavaScript layer are loaded as modules named `folio:…`; those
    // names are bare specifiers to the resolver, so a script cannot reach them.
    for spec in ["folio:prelude", "folio:api/std", "folio:api/zip", "folio:node"] {
        let r = run(&format!(
            "export default async () => {{ try {{ await import('{spec}'); return 'imported'; }} catch (e) {{ return e.message; }} }}"
        ));
        assert!(
            outcome(&r).starts_with(&format!(
                r#""only relative VFS paths, env:* modules and the vendored packages can be imported (got \"{spec}\"). Importable by name: the packages exceljs, docx, pdf-lib, @pdf-lib/fontkit, pptxgenjs and Node's fs, fs/promises, path, buffer, events, stream, stream/promises, util, crypto, url, timers, timers/promises, process (also as node:fs, …). Available env modules: env:fs, env:std, env:assert."#
            )),
            "{spec}: {}",
            outcome(&r)
        );
    }
}

#[test]
fn a_library_namespace_its_classes_and_instances_lead_nowhere() {
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(folio_script::zip_module().unwrap()).unwrap();
    let engine = Engine::new(registry, ScriptLimits { run_timeout_ms: 5_000, ..ScriptLimits::default() });
    let src = format!(
        "import * as zip from 'env:zip';\n{HUNTER}\nexport default () => {{\n  const chunks = [];\n  const z = new zip.Zip((err, c) => chunks.push(c));\n  const f = new zip.ZipDeflate('a.txt');\n  z.add(f);\n  f.push(zip.strToU8('a'), true);\n  z.end();\n  let caught;\n  try {{ zip.unzipSync(new Uint8Array([1])); }} catch (e) {{ caught = e; }}\n  walk({{ zip, z, f, chunks, caught, d: new zip.Deflate() }}, 'roots', 0);\n  return {{ escapes, enough: visited > 100, direct: zip.Zip.constructor('return typeof require')() }};\n}}"
    );
    let t = tree(&[]);
    t.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    let r = engine.run_blocking(Arc::new(TreeFs::new(t)), &vp("/scripts/main.js"), None, RunOptions::default());
    assert_eq!(outcome(&r), r#"{"escapes":[],"enough":true,"direct":"undefined"}"#);
}
