//! The library route: a vendored pure-JavaScript library as an `env:` module, exposed with
//! its own API. `env:zip` is fflate; the other cases use small inline libraries.

use std::io::Read;

use folio_script::{LibraryError, NativeModule, RunOptions, zip_module};

use super::*;

fn zip_engine() -> Engine {
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(zip_module().unwrap()).unwrap();
    Engine::new(registry, ScriptLimits { run_timeout_ms: 5_000, ..ScriptLimits::default() })
}

fn run_on(engine: &Engine, t: Arc<MemTree>, src: &str) -> RunResult {
    t.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    engine.run_blocking(Arc::new(TreeFs::new(t)), &vp("/scripts/main.js"), None, RunOptions::default())
}

fn library(source: &str) -> Result<NativeModule, LibraryError> {
    NativeModule::library("probe", "A test library.", "1.0.0", source, "export function probe(): string[];", "")
}

#[test]
fn a_script_zips_files_read_through_env_fs_and_rust_reads_the_archive() {
    let t = tree(&[("/inbox/report.csv", "region,total\nnorth,12\nsouth,7\n"), ("/inbox/notes.txt", "héllo ✓\n")]);
    let src = "
        import { zipSync, strFromU8, unzipSync } from 'env:zip';
        import { readBytes, writeFile } from 'env:fs';
        export default async function () {
          const files = {};
          for (const name of ['report.csv', 'notes.txt']) files['docs/' + name] = await readBytes('/inbox/' + name);
          const archive = zipSync(files, { level: 9 });
          await writeFile('/out/archive.zip', archive);
          const back = unzipSync(archive);
          return [archive instanceof Uint8Array, Object.keys(back).sort(), strFromU8(back['docs/notes.txt'])];
        }";
    let r = run_on(&zip_engine(), t.clone(), src);
    assert_eq!(outcome(&r), r#"[true,["docs/notes.txt","docs/report.csv"],"héllo ✓\n"]"#);

    let bytes = t.read(&vp("/out/archive.zip")).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    assert_eq!(archive.len(), 2);
    let mut read = |name: &str| {
        let mut entry = archive.by_name(name).unwrap();
        assert_eq!(entry.compression(), zip::CompressionMethod::Deflated);
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        text
    };
    assert_eq!(read("docs/report.csv"), "region,total\nnorth,12\nsouth,7\n");
    assert_eq!(read("docs/notes.txt"), "héllo ✓\n");
}

#[test]
fn the_zip_module_describes_itself() {
    let m = zip_module().unwrap();
    assert_eq!(m.name, "zip");
    assert_eq!(m.version, "0.8.3");
    assert!(
        m.types_dts.contains("export function zipSync") && m.types_dts.lines().count() < 80,
        "a written summary, not fflate's 1,540 lines"
    );
    assert!(m.docs.contains("env:fs"));
    assert!(m.functions.is_empty(), "a library has no host functions");
}

#[test]
fn the_library_namespace_is_frozen_and_errors_are_tagged() {
    let src = "
        import zip, { FlateErrorCode, unzipSync } from 'env:zip';
        export default function () {
          const attempts = [];
          for (const change of [() => { zip.zipSync = null; }, () => { FlateErrorCode.InvalidBlockType = 99; }, () => { zip.extra = 1; }]) {
            try { change(); attempts.push('changed'); } catch (e) { attempts.push(e instanceof TypeError); }
          }
          let tagged = '';
          try { unzipSync(new Uint8Array([1, 2, 3])); } catch (e) { tagged = e.message; }
          return [attempts, Object.isFrozen(zip), Object.isFrozen(FlateErrorCode), typeof zip.zipSync, tagged];
        }";
    let r = run_on(&zip_engine(), tree(&[]), src);
    assert_eq!(outcome(&r), r#"[[true,true,true],true,true,"function","env:zip.unzipSync: invalid zip data"]"#);
}

#[test]
fn each_run_gets_a_fresh_copy_of_the_library() {
    let engine = zip_engine();
    // A script may not change the library's namespace; whatever it does to its own realm's globals
    // is gone by the next run.
    let first = run_on(
        &engine,
        tree(&[]),
        "import { strToU8 } from 'env:zip'; export default () => { globalThis.leak = 1; return strToU8('ab').length; }",
    );
    assert_eq!(outcome(&first), "2");
    let second = run_on(
        &engine,
        tree(&[]),
        "import { strToU8 } from 'env:zip'; export default () => [typeof globalThis.leak, strToU8('abc').length]",
    );
    assert_eq!(outcome(&second), r#"["undefined",3]"#);
}

#[test]
fn a_library_reaches_only_what_the_script_reaches() {
    let source = "
        const seen = [typeof process, typeof require, typeof setTimeout, typeof Buffer, typeof window, typeof fetch, typeof std, typeof os];
        export function probe() {
          return seen.concat([typeof natives === 'object' && Object.keys(natives).length, typeof globalThis.readFile]);
        }";
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(library(source).unwrap()).unwrap();
    let engine = Engine::new(registry, ScriptLimits::default());
    let r = run_on(&engine, tree(&[]), "import { probe } from 'env:probe'; export default () => probe();");
    assert_eq!(
        outcome(&r),
        // setTimeout, Buffer and process are the sandbox's stand-ins (node.rs), which a library sees like a script.
        r#"["object","undefined","function","function","undefined","undefined","undefined","undefined",0,"undefined"]"#
    );
}

#[test]
fn export_forms_a_bundle_uses_are_carried() {
    let source = "
function hidden() { return 'h'; }
export var one = 1;
export const two = () => 2;
export function three() { return 3; }
export async function four() { return 4; }
export function* five() { yield 5; }
export class Six { get six() { return 6; } }
export { hidden as seven,
  hidden };";
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(library(source).unwrap()).unwrap();
    let engine = Engine::new(registry, ScriptLimits::default());
    let r = run_on(
        &engine,
        tree(&[]),
        "import * as p from 'env:probe'; export default async () => [p.one, p.two(), p.three(), await p.four(), [...p.five()], typeof p.Six, p.seven(), p.hidden()];",
    );
    assert_eq!(outcome(&r), r#"[1,2,3,4,[5],"function","h","h"]"#);
}

#[test]
fn sources_the_route_cannot_carry_are_refused_with_the_line_and_fix() {
    let cases: &[(&str, &str)] = &[
        (
            "import { readFile } from 'env:fs';\nexport const x = 1;",
            "line 1: the library imports another module; vendor a self-contained bundle",
        ),
        ("const x = 1;\nexport default x;", "line 2: `export default` has no name scripts can import"),
        ("export * from './other.js';", "line 1: `export *` re-exports another module"),
        ("export { a } from './a.js';", "`export { … } from` re-exports another module"),
        ("export const { a, b } = { a: 1, b: 2 };", "destructuring exports are not supported"),
        ("function a() {}\nexport { a, a };", "\"a\" is exported twice"),
        ("export {\n  a,", "never closed"),
        ("const quiet = 1;", "exports nothing"),
        ("export const x = window.document;", "failed to load in the sandbox: Error: window is not defined"),
        ("export const x = ;", "failed to load in the sandbox: "),
    ];
    for (source, expected) in cases {
        let err = library(source).err().unwrap_or_else(|| panic!("{source:?} was accepted"));
        let text = err.to_string();
        assert!(text.starts_with("library env:probe"), "{text}");
        assert!(text.contains(expected), "{source:?}: {text}");
    }
}

#[test]
fn library_classes_construct_with_new_subclass_and_stream_a_real_archive() {
    let t = tree(&[]);
    let src = "
        import { Zip, ZipDeflate, ZipPassThrough, Deflate, Unzip, UnzipInflate, strToU8, strFromU8, inflateSync } from 'env:zip';
        import { writeFile } from 'env:fs';
        const concat = (chunks) => {
          const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
          let at = 0;
          for (const c of chunks) { out.set(c, at); at += c.length; }
          return out;
        };
        export default async function () {
          const chunks = [];
          const zip = new Zip((err, chunk) => { if (err) throw err; chunks.push(chunk); });
          const packed = new ZipDeflate('docs/notes.txt', { level: 9 });
          zip.add(packed);
          packed.push(strToU8('first part, '));
          packed.push(strToU8('last part'), true);
          const stored = new ZipPassThrough('raw.txt');
          zip.add(stored);
          stored.push(strToU8('stored as is'), true);
          zip.end();
          const archive = concat(chunks);
          await writeFile('/out/streamed.zip', archive);

          // Read it back in the script with the streaming Unzip, which needs UnzipInflate's static
          // `compression` member to register the decoder.
          const files = {};
          const unzip = new Unzip((file) => {
            const parts = [];
            file.ondata = (err, data, final) => { parts.push(data); if (final) files[file.name] = strFromU8(concat(parts)); };
            file.start();
          });
          unzip.register(UnzipInflate);
          unzip.push(archive, true);

          // A subclass of a library class constructs through the wrapper too.
          class Counting extends Deflate {
            constructor() { super({ level: 6 }); this.pushed = 0; }
            push(data, final) { this.pushed += data.length; return super.push(data, final); }
          }
          const out = [];
          const deflate = new Counting();
          deflate.ondata = (data) => out.push(data);
          deflate.push(strToU8('abcabcabcabc'), true);

          return {
            instances: [zip instanceof Zip, packed instanceof ZipDeflate, stored instanceof ZipPassThrough, deflate instanceof Deflate, deflate instanceof Counting],
            names: [Zip.name, typeof Zip, UnzipInflate.compression, Object.isFrozen(Zip)],
            files,
            inflated: strFromU8(inflateSync(concat(out))),
            pushed: deflate.pushed,
          };
        }";
    let r = run_on(&zip_engine(), t.clone(), src);
    assert_eq!(
        outcome(&r),
        r#"{"instances":[true,true,true,true,true],"names":["Zip","function",8,true],"files":{"docs/notes.txt":"first part, last part","raw.txt":"stored as is"},"inflated":"abcabcabcabc","pushed":12}"#
    );

    let bytes = t.read(&vp("/out/streamed.zip")).unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut read = |name: &str, method: zip::CompressionMethod| {
        let mut entry = archive.by_name(name).unwrap();
        assert_eq!(entry.compression(), method, "{name}");
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        text
    };
    assert_eq!(read("docs/notes.txt", zip::CompressionMethod::Deflated), "first part, last part");
    assert_eq!(read("raw.txt", zip::CompressionMethod::Stored), "stored as is");
}

#[test]
fn a_library_constructor_that_throws_is_tagged_and_a_class_called_without_new_is_refused() {
    let source = "
export class Strict {
  constructor(x) { if (!x) throw new Error('x is required'); this.x = x; }
  static of(x) { return new Strict(x); }
}";
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(library(source).unwrap()).unwrap();
    let engine = Engine::new(registry, ScriptLimits::default());
    let r = run_on(
        &engine,
        tree(&[]),
        "import { Strict } from 'env:probe';
         const attempt = (f) => { try { return f(); } catch (e) { return e.message; } };
         export default () => [
           attempt(() => new Strict().x),
           attempt(() => Strict(1)),
           new Strict(2).x,
           Strict.of(3) instanceof Strict,
           attempt(() => Strict.of(0)),
         ];",
    );
    assert_eq!(
        outcome(&r),
        r#"["env:probe.Strict: x is required","env:probe.Strict: class constructors must be invoked with 'new'",2,true,"env:probe.Strict.of: x is required"]"#
    );
}

/// A deferred library is not evaluated when it is built: one that throws while loading is
/// refused by `library` at once, accepted by `library_deferred`, and then fails the first script
/// that imports it, naming the module — while a script that does not import it runs.
#[test]
fn a_deferred_library_that_cannot_load_fails_the_script_that_imports_it() {
    let source = "throw new Error('broken on load');\nexport function probe() { return []; }";
    assert!(library(source).is_err(), "library() evaluates now and refuses");
    let deferred = NativeModule::library_deferred(
        "probe",
        "A test library.",
        "1.0.0",
        source,
        "export function probe(): string[];",
        "",
    )
    .unwrap();
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(deferred).unwrap();
    let engine = Engine::new(registry, ScriptLimits::default());
    let quiet = run_on(&engine, tree(&[]), "export default () => 1;");
    assert_eq!(outcome(&quiet), "1");
    let r = run_on(&engine, tree(&[]), "import { probe } from 'env:probe';\nexport default () => probe();");
    let said = outcome(&r);
    assert!(said.starts_with("ERR:") && said.contains("broken on load") && said.contains("probe"), "{said}");
    // The deferred env:zip is the same module as the checked one.
    let (now, later) = (zip_module().unwrap(), folio_script::zip_module_deferred().unwrap());
    assert_eq!((now.name, now.js_api, now.version), (later.name, later.js_api, later.version));
}
