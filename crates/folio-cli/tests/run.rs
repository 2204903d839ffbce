//! `folio run` as a black box over a real folder: a script written with `folio verbs`, run with
//! `folio run`, its output file pending in `folio status --json`; a failing script exits non-zero
//! naming file and line.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn folio(state: &std::path::Path, args: &[&str], stdin: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_folio"))
        .arg("--state-dir")
        .arg(state)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

const TALLY: &str = "/** Sums the amount column of a CSV into /out/total.txt. */\nimport * as fs from 'env:fs';\nimport { csv } from 'env:std';\nexport default async function ({ input }) {\n  const rows = csv.parse(await fs.readFile(input));\n  let total = 0;\n  for (const r of rows) { total += Number(r.amount); console.log('row', r.region); }\n  await fs.writeFile('/out/total.txt', String(total));\n  return { total };\n}\n";

const BOOM: &str = "/** Fails. */\nexport default async function () {\n  throw new Error('kapow');\n}\n";

#[test]
fn a_script_written_with_verbs_runs_and_its_output_stays_pending() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let state = tmp.path().join("state");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("inbox/sales.csv"), "region,amount\nnorth,10\nsouth,20\n").unwrap();
    let f = folder.to_str().unwrap();

    let calls = [
        json!({"verb": "write_file", "args": {"path": "/scripts/tally.js", "content": TALLY}}),
        json!({"verb": "write_file", "args": {"path": "/scripts/boom.js", "content": BOOM}}),
    ];
    let stdin: String = calls.iter().map(|c| format!("{c}\n")).collect();
    let (out, err, ok) = folio(&state, &["verbs", f], &stdin);
    assert!(ok, "{err}");
    assert!(out.contains(".d.ts regenerated"), "{out}");

    let (out, err, ok) =
        folio(&state, &["run", f, "/scripts/tally.js", "--args", r#"{"input": "/inbox/sales.csv"}"#], "");
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "{\n  \"total\": 30\n}");
    assert!(err.contains("row north") && err.contains("row south") && err.contains("folio status"), "{err}");
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1, "nothing reaches the folder before commit");

    let (out, err, ok) =
        folio(&state, &["run", f, "/scripts/tally.js", "--json", "--args", r#"{"input": "/inbox/sales.csv"}"#], "");
    assert!(ok, "{err}");
    let run: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(run["ok"], true);
    assert_eq!(run["result"], json!({"total": 30}));

    let (out, err, ok) = folio(&state, &["status", f, "--json"], "");
    assert!(ok, "{err}");
    assert!(out.contains("/out/total.txt") && out.contains("/scripts/tally.js"), "{out}");

    let (_, err, ok) = folio(&state, &["run", f, "/scripts/boom.js"], "");
    assert!(!ok);
    assert!(err.contains("kapow") && err.contains("/scripts/boom.js:3"), "{err}");

    let (_, err, ok) = folio(&state, &["run", f, "/scripts/nope.js"], "");
    assert!(!ok);
    assert!(err.contains("no such script: /scripts/nope.js"), "{err}");

    let (_, err, ok) = folio(&state, &["run", f, "/scripts/tally.js", "--args", "[1]"], "");
    assert!(!ok);
    assert!(err.contains("--args must be a JSON object"), "{err}");
}

/// The library route as a user meets it: `env:zip` (vendored fflate) is registered by the host
/// setup every front end shares, and the archive it writes is a real zip.
#[test]
fn a_script_zips_files_with_the_vendored_library() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let state = tmp.path().join("state");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("a.txt"), "alpha\n").unwrap();
    let f = folder.to_str().unwrap();
    const PACK: &str = "/** Zips a.txt into /out/a.zip. */\nimport * as fs from 'env:fs';\nimport { zipSync, strToU8 } from 'env:zip';\nexport default async function () {\n  const zip = zipSync({ 'a.txt': strToU8(await fs.readFile('/a.txt')) });\n  await fs.writeFile('/out/a.zip', zip);\n  return zip.length;\n}\n";
    let call = json!({"verb": "write_file", "args": {"path": "/scripts/pack.js", "content": PACK}});
    let (_, err, ok) = folio(&state, &["verbs", f], &format!("{call}\n"));
    assert!(ok, "{err}");
    let (out, err, ok) = folio(&state, &["run", f, "/scripts/pack.js", "--json"], "");
    assert!(ok, "{err}");
    assert!(out.contains("\"ok\":true") || out.contains("\"ok\": true"), "{out}");
    let (_, err, ok) = folio(&state, &["commit", f], "");
    assert!(ok, "{err}");
    let bytes = std::fs::read(folder.join("out/a.zip")).unwrap();
    assert_eq!(&bytes[..4], b"PK\x03\x04", "a zip's local file header");
    assert!(bytes.windows(5).any(|w| w == b"a.txt"), "the entry is named a.txt");
}

/// A PDF of `n` blank pages with exact xref offsets.
fn blank_pdf(n: usize) -> Vec<u8> {
    let mut objects = vec![
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        format!(
            "<< /Type /Pages /Kids [{}] /Count {n} >>",
            (0..n).map(|i| format!("{} 0 R", i + 3)).collect::<Vec<_>>().join(" ")
        ),
    ];
    objects.extend((0..n).map(|_| "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>".to_string()));
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}

const PAGES: &str = "/** Renders every page of the deck. */\nimport { rasterize } from 'env:render';\nexport default async function () {\n  const r = await rasterize('/deck.pdf', '/tmp/pages', { dpi: 36 });\n  return r.pages.length;\n}\n";

const SPIN: &str = "/** Spins past any budget. */\nexport default async function () {\n  const end = Date.now() + 5000;\n  while (Date.now() < end) {}\n  return 'done';\n}\n";

#[test]
fn long_work_shows_progress_and_the_run_budget_is_the_option_that_bounds_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (folder, state) = (tmp.path().join("folder"), tmp.path().join("state"));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("deck.pdf"), blank_pdf(30)).unwrap();
    let f = folder.to_str().unwrap();
    let calls = [
        json!({"verb": "write_file", "args": {"path": "/scripts/pages.js", "content": PAGES}}),
        json!({"verb": "write_file", "args": {"path": "/scripts/spin.js", "content": SPIN}}),
    ];
    let stdin: String = calls.iter().map(|c| format!("{c}\n")).collect();
    let (_, err, ok) = folio(&state, &["verbs", f], &stdin);
    assert!(ok, "{err}");

    // Not a terminal: plain progress lines, ending with the whole job.
    let (out, err, ok) = folio(&state, &["run", f, "/scripts/pages.js"], "");
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "30");
    assert!(err.contains("progress: /deck.pdf: 0/30 pages"), "{err}");
    assert!(err.contains("progress: /deck.pdf: 30/30 pages\n"), "{err}");
    // The job measured this host's rate into the state directory: the one-page probe a fresh
    // state directory times before its first estimate, then the job itself.
    let rates: Value = serde_json::from_slice(&std::fs::read(state.join("rates.json")).unwrap()).unwrap();
    assert_eq!(rates["rates"]["pdf-page"]["samples"], 2, "{rates}");

    // The run budget is the option: a script past it is stopped and told which option raises it.
    let started = std::time::Instant::now();
    let (_, err, ok) = folio(&state, &["run", f, "/scripts/spin.js", "--run-budget-ms", "1000"], "");
    assert!(!ok);
    assert!(started.elapsed() < std::time::Duration::from_secs(4), "{:?}", started.elapsed());
    assert!(
        err.contains("script exceeded the wall-clock limit: 1000ms (this environment's run budget). Make it do less per run (process a batch, return, run again), or raise the run budget (--run-budget-ms on folio run, verbs and ask)"),
        "{err}"
    );
    let (_, err, ok) = folio(&state, &["run", f, "/scripts/spin.js", "--run-budget-ms", "5"], "");
    assert!(!ok);
    assert!(err.contains("--run-budget-ms") && err.contains("1000..=3600000"), "{err}");
}

/// A script that edits nothing is not followed by "the script's edits are pending": `folio run`
/// says it changed no file, and counts the changes that were pending before it (issue 28).
#[test]
fn a_script_that_edits_nothing_does_not_claim_pending_edits() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let state = tmp.path().join("state");
    std::fs::create_dir_all(&folder).unwrap();
    let f = folder.to_str().unwrap();
    let noop = "/** Returns a number. */\nexport default async function () {\n  return 7;\n}\n";
    let call = json!({"verb": "write_file", "args": {"path": "/scripts/noop.js", "content": noop}});
    let (_, err, ok) = folio(&state, &["verbs", f], &format!("{call}\n"));
    assert!(ok, "{err}");
    let (out, err, ok) = folio(&state, &["run", f, "/scripts/noop.js"], "");
    assert!(ok, "{err}");
    assert_eq!(out.trim(), "7");
    assert!(!err.contains("the script's edits are pending"), "{err}");
    assert!(
        err.contains("the script changed no file; ") && err.contains(" earlier change(s) are still pending"),
        "{err}"
    );
    // And a script that writes says so.
    let tally = "/** Writes. */\nimport * as fs from 'env:fs';\nexport default async function () {\n  await fs.writeFile('/out/x.txt', 'x');\n}\n";
    let call = json!({"verb": "write_file", "args": {"path": "/scripts/w.js", "content": tally}});
    let (_, err, ok) = folio(&state, &["verbs", f], &format!("{call}\n"));
    assert!(ok, "{err}");
    let (_, err, ok) = folio(&state, &["run", f, "/scripts/w.js"], "");
    assert!(ok && err.contains("the script's edits are pending"), "{err}");
}
