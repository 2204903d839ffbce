//! A run ends as Node's event loop does: when the default export's promise, the host calls and
//! the timers it started have settled — not when `main` returns — and what is still pending at
//! the deadline is named. Timers follow the real clock; an unhandled rejection fails the run.

use std::process::Command;
use std::time::{Duration, Instant};

use super::*;

fn limited(ms: u64) -> Engine {
    Engine::new(ModuleRegistry::with_builtins(), ScriptLimits { run_timeout_ms: ms, ..ScriptLimits::default() })
}

/// Runs `src` on a fresh tree and gives back the tree too.
fn run_tree(engine: &Engine, src: &str) -> (RunResult, Arc<MemTree>) {
    let t = tree(&[("/scripts/main.js", src)]);
    let r = engine.run_blocking(Arc::new(TreeFs::new(t.clone())), &vp("/scripts/main.js"), None, RunOptions::default());
    (r, t)
}

#[test]
fn a_write_main_does_not_await_still_lands() {
    let src = "import fs from 'fs';\nexport default () => { new Promise((r) => setTimeout(r, 50)).then(() => fs.writeFileSync('/out/late.txt', 'landed')); return 'returned'; }";
    let (r, t) = run_tree(&limited(5_000), src);
    assert_eq!(outcome(&r), r#""returned""#);
    assert_eq!(t.read(&vp("/out/late.txt")).unwrap(), b"landed");
}

#[test]
fn an_env_call_main_does_not_await_still_lands() {
    let src = "import { writeFile } from 'env:fs';\nexport default () => { setTimeout(() => writeFile('/out/env.txt', 'yes'), 20); }";
    let (r, t) = run_tree(&limited(5_000), src);
    assert_eq!(outcome(&r), "undefined");
    assert_eq!(t.read(&vp("/out/env.txt")).unwrap(), b"yes");
}

/// docx's own quick start, its last line as the README writes it: `.then(…)` and no `await`.
#[test]
fn docx_quick_start_with_then_and_no_await_writes_its_file() {
    let src = r#"import * as fs from "fs";
import { Document, Packer, Paragraph, TextRun } from "docx";
export default function () {
  const doc = new Document({
    sections: [{ properties: {}, children: [new Paragraph({ children: [new TextRun("Hello World"), new TextRun({ text: "Foo Bar", bold: true }), new TextRun({ text: "\tGithub is the best", bold: true })] })] }],
  });
  Packer.toBuffer(doc).then((buffer) => { fs.writeFileSync("/out/My Document.docx", buffer); });
}"#;
    let (r, t) = run_tree(&limited(60_000), src);
    assert_eq!(outcome(&r), "undefined", "{:?}", r.stderr);
    let bytes = t.read(&vp("/out/My Document.docx")).expect("the quick start wrote no file");
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("word/document.xml").unwrap(), &mut xml).unwrap();
    assert!(xml.contains("Hello World") && xml.contains("Foo Bar"), "{xml}");
}

#[test]
fn a_promise_that_never_settles_is_stopped_at_the_deadline_naming_what_was_pending() {
    let started = Instant::now();
    let (r, _) = run_tree(
        &limited(400),
        "import { readFile } from 'env:fs';\nexport default () => new Promise(() => { setTimeout(function guard() {}, 60000); })",
    );
    let took = started.elapsed();
    let err = outcome(&r);
    assert!(err.contains("wall-clock limit: 400ms"), "{err}");
    assert!(err.contains("Still pending when it stopped: the default export's promise, which never settled; a setTimeout of 60 s (guard)"), "{err}");
    assert!(took < Duration::from_millis(1_500), "{took:?}");
    // Work started and not awaited is named too, after main returned.
    let (r, _) = run_tree(&limited(400), "export default () => { setInterval(() => {}, 10); return 1; }");
    let err = outcome(&r);
    assert!(
        err.contains("work the default export started and did not await; a setInterval every 10 ms nobody cleared"),
        "{err}"
    );
}

#[test]
fn an_unreferenced_timer_does_not_keep_the_run_alive() {
    let (r, _) = run_tree(
        &limited(5_000),
        "export default () => { setInterval(() => {}, 5).unref(); setTimeout(() => {}, 60000).unref(); return 'done'; }",
    );
    assert_eq!(outcome(&r), r#""done""#);
}

#[test]
fn timers_follow_the_real_clock_and_a_cleared_guard_never_fires() {
    let src = "export default async () => { let fired = false; const t0 = Date.now(); const guard = setTimeout(() => { fired = true; }, 20000); await new Promise((r) => setTimeout(r, 120)); clearTimeout(guard); return [fired, Date.now() - t0 >= 115]; }";
    let started = Instant::now();
    let (r, _) = run_tree(&limited(30_000), src);
    assert_eq!(outcome(&r), "[false,true]");
    assert!(started.elapsed() < Duration::from_secs(3), "the cleared 20 s guard held the run: {:?}", started.elapsed());
    // A guard that is not cleared fires on time, not after 1 ms.
    let src = "export default () => new Promise((done) => { const t0 = Date.now(); setTimeout(() => done('guard'), 300); Promise.resolve().then(() => setTimeout(() => done('work ' + (Date.now() - t0 < 300)), 50)); })";
    assert_eq!(outcome(&run_tree(&limited(5_000), src).0), r#""work true""#);
}

#[test]
fn an_unhandled_rejection_fails_the_run_with_its_stack() {
    let (r, _) =
        run_tree(&limited(5_000), "export default () => {\n  Promise.reject(new Error('boom'));\n  return 'ok';\n}");
    let err = outcome(&r);
    assert!(
        err.contains("unhandled promise rejection")
            && err.contains("Error: boom")
            && err.contains("/scripts/main.js:2"),
        "{err}"
    );
    // A throw inside a timer callback is as fatal as in Node, even while main still waits.
    let (r, _) = run_tree(
        &limited(5_000),
        "export default () => new Promise((done) => { setTimeout(() => { throw new TypeError('late'); }, 5); setTimeout(done, 3000); })",
    );
    let err = outcome(&r);
    assert!(err.contains("unhandled promise rejection") && err.contains("TypeError: late"), "{err}");
    assert!(r.duration_ms < 2_000, "the failure waited for main: {} ms", r.duration_ms);
    // A rejection handled later in the same turn is not one.
    let (r, _) = run_tree(
        &limited(5_000),
        "export default async () => { const p = Promise.reject(new Error('x')); await null; try { await p; } catch (e) { return e.message; } }",
    );
    assert_eq!(outcome(&r), r#""x""#);
}

#[test]
fn error_stack_begins_with_the_message_line_and_not_a_function_names_the_callee() {
    let (r, _) = run_tree(
        &limited(5_000),
        "function f() { return new Error('boom'); }\nexport default () => { const e = f(); class MyError extends Error {}; return [e.stack.split('\\n')[0], e.stack.split('\\n')[1].trim(), new RangeError('r').stack.split('\\n')[0]]; }",
    );
    assert_eq!(outcome(&r), r#"["Error: boom","at f (/scripts/main.js:1:27)","RangeError: r"]"#);
    let (r, _) = run_tree(
        &limited(5_000),
        "import fs from 'fs';\nexport default () => {\n  const s = fs.createWritStream('/x');\n}",
    );
    let err = outcome(&r);
    assert!(err.starts_with("ERR: TypeError: fs.createWritStream is not a function — hint:"), "{err}");
    assert!(err.contains("/scripts/main.js:3"), "{err}");
}

/// python3 with `module` importable, or None (the check is skipped, saying why).
fn python_with(module: &str) -> bool {
    let ok = Command::new("python3").args(["-c", &format!("import {module}")]).status().is_ok_and(|s| s.success());
    if !ok {
        println!("python3 cannot import {module}: the independent read is skipped (scripts/install.sh installs it)");
    }
    ok
}

fn python(script: &str, file: &std::path::Path) -> String {
    let out = Command::new("python3").arg("-c").arg(script).arg(file).output().unwrap();
    assert!(out.status.success(), "python failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn docx_to_stream_piped_into_fs_create_write_stream_writes_a_file_python_docx_opens() {
    let src = r#"import * as fs from "fs";
import { Document, Packer, Paragraph } from "docx";
export default function () {
  const doc = new Document({ sections: [{ children: [new Paragraph("Streamed paragraph")] }] });
  const out = fs.createWriteStream("/out/x.docx");
  out.on("finish", () => console.log("finished", out.bytesWritten > 0));
  Packer.toStream(doc).pipe(out);
}"#;
    let (r, t) = run_tree(&limited(60_000), src);
    assert_eq!(outcome(&r), "undefined", "{:?}", r.stderr);
    assert_eq!(r.stdout, vec!["finished true".to_owned()]);
    let bytes = t.read(&vp("/out/x.docx")).expect("no file");
    if python_with("docx") {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.docx");
        std::fs::write(&path, bytes).unwrap();
        let text = python("import sys, docx; print(docx.Document(sys.argv[1]).paragraphs[0].text)", &path);
        assert_eq!(text, "Streamed paragraph");
    }
}

#[test]
fn exceljs_worksheet_protect_writes_a_protected_sheet_openpyxl_reads() {
    let src = r#"import ExcelJS from 'exceljs';
export default async function () {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Locked');
  sheet.getCell('A1').value = 42;
  await sheet.protect('secret', { selectLockedCells: true, formatCells: false });
  await workbook.xlsx.writeFile('/out/protected.xlsx');
}"#;
    // exceljs hashes the password with 100,000 SHA-512 rounds in JavaScript: 32–44 s in a debug
    // build on an idle 2-core machine, more under the parallel suite. This test is about the
    // file; the speed is issue 29's native-hashing item, so the bound here is generous.
    let (r, t) = run_tree(&limited(300_000), src);
    assert_eq!(outcome(&r), "undefined", "{:?}", r.stderr);
    let bytes = t.read(&vp("/out/protected.xlsx")).expect("no file");
    if python_with("openpyxl") {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.xlsx");
        std::fs::write(&path, bytes).unwrap();
        let got = python(
            "import sys, openpyxl; ws = openpyxl.load_workbook(sys.argv[1])['Locked']; p = ws.protection; print(p.sheet, bool(p.hashValue or p.password), p.algorithmName, ws['A1'].value)",
            &path,
        );
        assert_eq!(got, "True True SHA-512 42");
    }
}

/// Loading a workbook with exceljs says nothing about timers: its internal timers are not the
/// script's, so no "timer(s) were still pending … await the work" warning follows the run, and
/// they do not hold it open (issue 28 item 4; the play saw the warning after every load).
#[test]
fn an_exceljs_load_leaves_no_timer_warning_and_ends_promptly() {
    let src = r#"import ExcelJS from 'exceljs';
export default async function () {
  const out = new ExcelJS.Workbook();
  out.addWorksheet('S').getCell('A1').value = 7;
  await out.xlsx.writeFile('/tmp/in.xlsx');
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile('/tmp/in.xlsx');
  return book.getWorksheet('S').getCell('A1').value;
}"#;
    let (r, _) = run_tree(&limited(60_000), src);
    assert_eq!(outcome(&r), "7", "{:?}", r.stderr);
    let said = format!("{:?} {:?}", r.stdout, r.stderr).to_lowercase();
    assert!(!said.contains("timer") && !said.contains("pending"), "{said}");
    assert!(r.duration_ms < 10_000, "a library timer held the run for {} ms", r.duration_ms);
}
