//! `env:fs`, `env:std`, `env:assert` and the registry seam (builtins.test.ts).

use std::sync::Arc as StdArc;

use folio_script::{HostFn, HostValue, NativeFunction, NativeModule, RegistryError};

use super::*;

const INBOX: &[(&str, &str)] = &[
    ("/inbox/a1.csv", "n\n1\n2\n"),
    ("/inbox/b2.csv", "n\n3\n"),
    ("/inbox/deep/c.csv", "n\n15\n"),
    ("/inbox/notes.txt", "hello"),
];

/// `(name, script body of the default export, expected outcome substring)`.
const CASES: &[(&str, &str, &str)] = &[
    (
        "text round trip",
        "await fs.writeFile('/t/a.txt', 'héllo ✓'); return await fs.readFile('/t/a.txt');",
        r#""héllo ✓""#,
    ),
    ("readText alias", "return await fs.readText('/inbox/notes.txt');", r#""hello""#),
    (
        "text as it arrives: UTF-16 with a BOM, latin-1, a UTF-8 BOM dropped; binary refused",
        "await fs.writeFile('/t/u16.txt', new Uint8Array([0xff, 0xfe, 0x41, 0, 0xe9, 0, 0x0d, 0])); await fs.writeFile('/t/l1.csv', new Uint8Array([0x4d, 0xe9, 0x78])); await fs.writeFile('/t/bom.csv', new Uint8Array([0xef, 0xbb, 0xbf, 0x61])); let bin = ''; try { await fs.readFile('/t/l1.bin'); } catch (e) { bin = 'missing'; } await fs.writeFile('/t/x.bin', new Uint8Array([0x89, 0x50, 0, 0, 1, 2, 0xff])); try { await fs.readText('/t/x.bin'); } catch (e) { bin = String(e.message).includes('is binary, not text') ? 'refused' : String(e.message); } return [await fs.readFile('/t/u16.txt'), await fs.readText('/t/l1.csv'), await fs.readFile('/t/bom.csv'), bin];",
        r#"["Aé\r","Méx","a","refused"]"#,
    ),
    (
        "bytes round trip",
        "await fs.writeFile('/t/b.bin', new Uint8Array([0, 1, 2, 250, 255])); const b = await fs.readBytes('/t/b.bin'); return [b instanceof Uint8Array, Array.from(b)];",
        "[true,[0,1,2,250,255]]",
    ),
    (
        "number array write",
        "await fs.writeFile('/t/c.bin', [104, 105]); return await fs.readFile('/t/c.bin');",
        r#""hi""#,
    ),
    (
        "typed array view write",
        "const all = new Uint8Array([1, 2, 3, 4, 5, 6]); await fs.writeFile('/t/v.bin', all.subarray(4)); return Array.from(await fs.readBytes('/t/v.bin'));",
        "[5,6]",
    ),
    (
        "append creates then appends",
        "await fs.appendFile('/t/log.txt', 'one\\n'); await fs.appendFile('/t/log.txt', 'two\\n'); return await fs.readFile('/t/log.txt');",
        r#""one\ntwo\n""#,
    ),
    (
        "readdir entries",
        "return await fs.readdir('/inbox');",
        r#"[{"name":"deep","kind":"dir","size":0},{"name":"a1.csv","kind":"file","size":6},"#,
    ),
    (
        "stat",
        "return [await fs.stat('/inbox/notes.txt'), await fs.stat('/inbox'), await fs.stat('/nope')].map(s => s && [s.kind, s.size]);",
        r#"[["file",5],["dir",0],null]"#,
    ),
    ("glob flat", "return await fs.glob('/inbox/*.csv');", r#"["/inbox/a1.csv","/inbox/b2.csv"]"#),
    (
        "glob deep",
        "return await fs.glob('/inbox/**/*.csv');",
        r#"["/inbox/a1.csv","/inbox/b2.csv","/inbox/deep/c.csv"]"#,
    ),
    ("glob single char", "return await fs.glob('/inbox/?1.csv');", r#"["/inbox/a1.csv"]"#),
    (
        "exists mkdir rm",
        "await fs.mkdir('/x/y/z'); const a = await fs.exists('/x/y/z'); await fs.writeFile('/x/y/f', '1'); await fs.rm('/x/y/f'); const b = await fs.exists('/x/y/f'); await fs.rm('/x'); return [a, b, await fs.exists('/x')];",
        "[true,false,false]",
    ),
    (
        "cp and mv subtrees",
        "await fs.cp('/inbox', '/copy'); await fs.mv('/copy', '/moved'); return [await fs.exists('/copy'), await fs.readFile('/moved/deep/c.csv')];",
        r#"[false,"n\n15\n"]"#,
    ),
    (
        "errors are tagged",
        "try { await fs.readFile('/nope.txt'); } catch (e) { return [e instanceof Error, e.message]; }",
        r#"[true,"env:fs.readFile: no such file: /nope.txt"#,
    ),
    (
        "bad path is explained",
        "try { await fs.readFile('relative.txt'); } catch (e) { return e.message; }",
        "env:fs.readFile: path must be absolute",
    ),
    (
        "binary refused by readFile",
        "await fs.writeFile('/t/z', new Uint8Array([255, 254])); try { await fs.readFile('/t/z'); } catch (e) { return e.message; }",
        "read it with readBytes(path)",
    ),
    (
        "sum over files",
        "let s = 0; for (const p of await fs.glob('/inbox/**/*.csv')) for (const r of std.csv.parse(await fs.readFile(p))) s += Number(r.n); await fs.writeFile('/out/sum.txt', String(s)); return s;",
        "21",
    ),
    ("json pretty by default", "return std.json.stringify({ a: 1 });", r#""{\n  \"a\": 1\n}""#),
    (
        "json compact",
        "return [std.json.stringify({ a: 1 }, false), std.json.stringify({ a: 1 }, 0)];",
        r#"["{\"a\":1}","{\"a\":1}"]"#,
    ),
    (
        "json parse error",
        "try { std.json.parse('{bad'); } catch (e) { return e.message; }",
        "env:std.json.parse: invalid JSON",
    ),
    (
        "csv quotes and crlf",
        r#"return std.csv.parse('a,b\r\n"x,1","say ""hi"""\r\n"multi\nline",2\r\n');"#,
        r#"[{"a":"x,1","b":"say \"hi\""},{"a":"multi\nline","b":"2"}]"#,
    ),
    ("csv rows keep the header", "return std.csv.rows('a,b\\n1,2\\n');", r#"[["a","b"],["1","2"]]"#),
    ("csv missing cells", "return std.csv.parse('a,b\\n1\\n');", r#"[{"a":"1","b":""}]"#),
    (
        "csv stringify quoting",
        r#"return std.csv.stringify([['plain', 'has,comma'], ['has"quote', 'has\nnewline']]);"#,
        r#""plain,\"has,comma\"\n\"has\"\"quote\",\"has\nnewline\"\n""#,
    ),
    (
        "csv records with headers and delimiter",
        "return std.csv.stringify([{ a: 1, b: 2 }], { headers: ['b', 'a'], delimiter: '\\t' });",
        r#""b\ta\n2\t1\n""#,
    ),
    (
        "csv round trip",
        "const recs = [{ x: '1', y: 'a,b' }]; return std.csv.parse(std.csv.stringify(recs));",
        r#"[{"x":"1","y":"a,b"}]"#,
    ),
    (
        "text helpers",
        "const t = std.text; return [t.lines('a\\r\\nb\\nc'), t.joinLines(['a', 'b']), t.truncate('abcdefghij', 5), t.dedent('  a\\n\\n    b')];",
        r#"[["a","b","c"],"a\nb","abcd…","a\n\n  b"]"#,
    ),
    (
        "bytes bridge",
        "const b = std.bytes.fromText('é✓'); return [b instanceof Uint8Array, b.length, std.bytes.toText(b), std.bytes.toBase64(b), std.bytes.toText(std.bytes.fromBase64(std.bytes.toBase64(b)))];",
        r#"[true,5,"é✓","w6ninJM=","é✓"]"#,
    ),
    (
        "base64 of a slice",
        "const all = std.bytes.fromText('skipHELLO'); return std.bytes.toBase64(all.subarray(4));",
        r#""SEVMTE8=""#,
    ),
    (
        "sleep validates",
        "try { await std.sleep(-1); } catch (e) { return e.message; }",
        "env:std.sleep: sleep(ms) needs a non-negative number of milliseconds",
    ),
    (
        "sleep cap",
        "try { await std.sleep(70000); } catch (e) { return [e.name, e.message]; }",
        r#"["RangeError","env:std.sleep: sleep(70000) exceeds the 60000ms per-call cap"#,
    ),
    (
        "assert passes",
        "assert.equal(1, 1); assert.deepEqual({ a: [1, new Date(0)] }, { a: [1, new Date(0)] }); assert.ok(1); assert.match('abc', /b/); assert.throws(() => { throw new Error('x'); }, 'x'); await assert.rejects(async () => { throw new Error('y'); }, /y/); return 'ok';",
        r#""ok""#,
    ),
    (
        "assert.equal failure",
        "try { assert.equal(1, '1'); } catch (e) { return [e.name, e.message]; }",
        r#"["AssertionFailed","env:assert.equal: values are not equal\n  actual:   1\n  expected: \"1\""]"#,
    ),
    (
        "assert.deepEqual failure",
        "try { assert.deepEqual({ a: 1 }, { a: 2 }, 'records differ'); } catch (e) { return e.message; }",
        r#""env:assert.deepEqual: records differ\n  actual:   {\"a\":1}\n  expected: {\"a\":2}""#,
    ),
    (
        "assert.ok failure",
        "try { assert.ok(0); } catch (e) { return e.message; }",
        r#""env:assert.ok: expected a truthy value\n  got: 0""#,
    ),
    (
        "assert.throws failure",
        "try { assert.throws(() => 1); } catch (e) { return e.message; }",
        "expected the function to throw, but it returned normally",
    ),
    (
        "assert.rejects failure",
        "try { await assert.rejects(async () => 1); } catch (e) { return e.message; }",
        "env:assert.rejects: expected the promise to reject, but it resolved",
    ),
    ("assert.fail", "try { assert.fail(); } catch (e) { return e.message; }", r#""env:assert.fail: assert.fail()""#),
    (
        "assert value rendering is clipped",
        "try { assert.equal('x'.repeat(300), 1); } catch (e) { return e.message; }",
        "… [302 chars]",
    ),
    (
        "namespaces are frozen",
        "const r = []; try { fs.readFile = () => 'hacked'; } catch (e) { r.push(e.name); } try { std.json.parse = null; } catch (e) { r.push(e.name); } return [...r, Object.isFrozen(fs), Object.isFrozen(std.json), ns.readFile === fs.readFile, typeof std.json.parse, await fs.readFile('/inbox/notes.txt')];",
        r#"["TypeError","TypeError",true,true,true,"function","hello"]"#,
    ),
    (
        "an unknown name on a namespace names the real ones",
        "return std.csv.parseRows('a,b');",
        r#"ERR: TypeError: no such export "parseRows" on env:std.csv — available: rows, parse, stringify"#,
    ),
    (
        "the guard covers the default import too",
        "try { return fs.readFiles('/x'); } catch (e) { return e.message; }",
        r#""no such export \"readFiles\" on env:fs — available: readFile, readBytes, writeFile, appendFile, readdir, glob, stat, exists, mkdir, rm, mv, cp, readText""#,
    ),
    (
        "the guard is silent for the probes ordinary code makes",
        "const { json } = std; return [std.csv.then, std.csv.toJSON, 'maybeThing' in std.csv, Object.keys({ ...std.csv }), typeof (await fs).readFile, JSON.stringify(std.text) === '{}', String(std.csv.constructor === Object)];",
        r#"[null,null,false,["rows","parse","stringify"],"function",true,"true"]"#,
    ),
    (
        "the guard's cost: a defensive read of an absent name throws as well",
        "try { return std.csv.maybeThing?.deep; } catch (e) { return e.message; }",
        r#""no such export \"maybeThing\" on env:std.csv — available: rows, parse, stringify""#,
    ),
];

#[test]
fn cases() {
    let mut failures = Vec::new();
    for (name, body, expect) in CASES {
        let src = format!(
            "import fs from 'env:fs';\nimport * as ns from 'env:fs';\nimport * as std from 'env:std';\nimport * as assert from 'env:assert';\nexport default async function main() {{\n{body}\n}}"
        );
        let got = outcome(&run_with(&src, INBOX, None, RunOptions::default()));
        if !got.contains(expect) {
            failures.push(format!("{name}:\n  expected to contain: {expect}\n  got: {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn adapter() -> NativeModule {
    let shout = HostFn::Sync(StdArc::new(|args: Vec<HostValue>, _: &folio_script::CallContext| {
        match args.first().and_then(HostValue::as_str) {
            Some(s) => Ok(HostValue::Json(s.to_uppercase().into())),
            None => Err("shout needs a string".into()),
        }
    }));
    let count = HostFn::Async(StdArc::new(|_: Vec<HostValue>, cx: folio_script::CallContext| {
        Box::pin(async move {
            let n = cx.fs.glob("/inbox/*.csv")?.len();
            Ok(HostValue::Json(serde_json::json!({ "csv": n, "readOnly": cx.read_only, "run": cx.run_id })))
        }) as folio_script::registry::HostFuture
    }));
    NativeModule {
        name: "shapes".into(),
        description: "Test adapter.".into(),
        version: "1.0.0".into(),
        types_dts: "export function shout(s: string): string;\nexport function count(): Promise<any>;".into(),
        docs: String::new(),
        functions: vec![
            NativeFunction { name: "shout".into(), call: shout },
            NativeFunction { name: "count".into(), call: count },
        ],
        js_api: None,
    }
}

#[test]
fn adapters_register_through_the_seam() {
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(adapter()).unwrap();
    assert_eq!(reg.catalogue(), "env:fs, env:std, env:assert, env:shapes");
    assert!(matches!(reg.register_native(adapter()), Err(RegistryError::Duplicate(_))));
    let mut std_again = adapter();
    std_again.name = "std".into();
    assert_eq!(
        reg.register_native(std_again).unwrap_err().to_string(),
        "env module name \"std\" is already registered — pick another name for the adapter"
    );
    let mut bad = adapter();
    bad.name = "Bad Name".into();
    assert!(matches!(reg.register_native(bad), Err(RegistryError::Invalid(_))));
    let mut bad_fn = adapter();
    bad_fn.name = "other".into();
    bad_fn.functions[0].name = "default".into();
    assert!(reg.register_native(bad_fn).unwrap_err().to_string().contains("rename it"));

    let e = Engine::new(reg, ScriptLimits::default());
    let t = tree(INBOX);
    t.write(&vp("/scripts/main.js"), b"import { shout, count } from 'env:shapes';\nexport default async () => { let err; try { shout(1); } catch (e) { err = e.message; } return [shout('hi'), await count(), err]; }").unwrap();
    let r = e.run_blocking(
        Arc::new(TreeFs::new(t)),
        &vp("/scripts/main.js"),
        None,
        RunOptions { run_id: Some("run_7".into()), ..RunOptions::default() },
    );
    assert_eq!(
        outcome(&r),
        r#"["HI",{"csv":2,"readOnly":false,"run":"run_7"},"env:shapes.shout: shout needs a string"]"#
    );
    let unknown = run("import x from 'env:shapes'; export default () => 1");
    assert!(outcome(&unknown).contains("unknown module \"env:shapes\""));
}
