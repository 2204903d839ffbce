//! `folio verbs` driven as a black box over a real folder, then `folio status` and `folio commit`.
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

fn calls(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn verbs_then_status_then_commit() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let state = tmp.path().join("state");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("inbox/sales.csv"), "region,amount\nnorth,10\nsouth,20\n").unwrap();
    std::fs::write(folder.join("old.txt"), "old\n").unwrap();
    let f = folder.to_str().unwrap();

    let script = calls(&[
        json!({"verb": "write_file", "args": {"path": "/out/summary.md", "content": "# Summary\ntotal: 30\n"}}),
        json!({"verb": "edit_file", "args": {"path": "/out/summary.md", "old_str": "total: 30", "new_str": "total: 30 (north 10, south 20)"}}),
        json!({"verb": "write_file", "args": {"path": "/out/draft.md", "content": "draft"}}),
        json!({"verb": "mv", "args": {"from": "/out/draft.md", "to": "/out/notes.md"}}),
        json!({"verb": "rm", "args": {"path": "/old.txt"}}),
        json!({"verb": "write_file", "args": {"path": "/out/notes.md", "content": "second version"}}),
        json!({"verb": "undo", "args": {"path": "/out/notes.md"}}),
        json!({"verb": "grep", "args": {"pattern": "north", "path": "/"}}),
        json!({"verb": "checkpoint", "args": {"action": "fork", "name": "before-scratch"}}),
        json!({"verb": "write_file", "args": {"path": "/out/scratch.md", "content": "scratch"}}),
        json!({"verb": "checkpoint", "args": {"action": "restore", "name": "before-scratch"}}),
        json!({"verb": "write_file", "args": {"path": "/tmp/work.txt", "content": "intermediate"}}),
        json!({"verb": "present", "args": {"path": "/out/summary.md", "caption": "Sales summary by region"}}),
        json!({"verb": "present", "args": {"path": "/tmp/work.txt", "caption": "Not finished"}}),
    ]);
    let (out, err, ok) = folio(&state, &["verbs", f], &script);
    assert!(ok, "{err}");
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let results: Vec<&Value> = lines.iter().filter(|l| l.get("verb").is_some()).collect();
    let statuses: Vec<&str> = results.iter().map(|l| l["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses,
        [
            "success", "success", "success", "success", "success", "success", "success", "success", "success",
            "success", "success", "success", "success", "error"
        ],
        "{out}"
    );
    let grep =
        results[7]["data"].as_str().unwrap_or_default().to_owned() + results[7]["message"].as_str().unwrap_or_default();
    assert!(grep.contains("/inbox/sales.csv:2:"), "grep output: {grep}");
    let refusal = results[13]["message"].as_str().unwrap();
    assert!(refusal.contains("present only works on files under /out"), "{refusal}");
    assert!(refusal.contains("cp /tmp/work.txt /out/work.txt"), "the refusal names the fix: {refusal}");
    let presented: Vec<&Value> = lines.iter().filter(|l| l["event"] == "presented").collect();
    assert_eq!(presented.len(), 1, "{out}");
    assert_eq!(presented[0]["path"], "/out/summary.md");
    assert_eq!(presented[0]["media_type"], "text/markdown");
    assert_eq!(presented[0]["caption"], "Sales summary by region");

    // A second process sees exactly the pending changes; /tmp never appears.
    let (status, err, ok) = folio(&state, &["status", f, "--json"], "");
    assert!(ok, "{err}");
    let status: Value = serde_json::from_str(&status).unwrap();
    let changes: Vec<String> = status["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{} {}", c["kind"].as_str().unwrap(), c["path"].as_str().unwrap()))
        .collect();
    assert_eq!(changes, ["deleted /old.txt", "added /out", "added /out/notes.md", "added /out/summary.md"]);
    assert!(!folder.join("out").exists(), "nothing on disk before commit");

    let (_, err, ok) = folio(&state, &["commit", f], "");
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read_to_string(folder.join("out/summary.md")).unwrap(),
        "# Summary\ntotal: 30 (north 10, south 20)\n"
    );
    assert_eq!(std::fs::read_to_string(folder.join("out/notes.md")).unwrap(), "draft");
    assert!(!folder.join("old.txt").exists());
    assert!(!folder.join("out/scratch.md").exists(), "the checkpoint restore removed it");
    assert!(!folder.join("tmp").exists(), "zones are never committed");
}

#[test]
fn ask_user_is_wired_only_with_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let state = tmp.path().join("state");
    let f = folder.to_str().unwrap();
    let ask = calls(&[json!({"verb": "ask_user", "args": {"question": "Which quarter?", "options": ["Q1", "Q2"]}})]);
    let (out, _, _) = folio(&state, &["verbs", f], &ask);
    let line: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["status"], "error");
    assert!(line["message"].as_str().unwrap().contains("no verb named \"ask_user\""), "{line}");

    let answers = tmp.path().join("answers.json");
    std::fs::write(&answers, r#"["Q2"]"#).unwrap();
    let (out, err, ok) = folio(&state, &["verbs", f, "--answers", answers.to_str().unwrap()], &ask);
    assert!(ok, "{err}");
    let line: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["status"], "success", "{line}");
    assert!(line.to_string().contains("Q2"), "{line}");
}

#[test]
fn read_only_paths_are_refused_with_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("ref")).unwrap();
    std::fs::write(folder.join("ref/handbook.md"), "rules\n").unwrap();
    let state = tmp.path().join("state");
    let f = folder.to_str().unwrap();
    let script = calls(&[
        json!({"verb": "write_file", "args": {"path": "/ref/handbook.md", "content": "changed"}}),
        json!({"verb": "rm", "args": {"path": "/ref"}}),
        json!({"verb": "read_file", "args": {"path": "/ref/handbook.md"}}),
    ]);
    let (out, err, ok) = folio(&state, &["verbs", f, "--read-only", "/ref"], &script);
    assert!(ok, "{err}");
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["status"], "error");
    assert!(lines[0]["message"].as_str().unwrap().contains("cp /ref/handbook.md /tmp/handbook.md"), "{}", lines[0]);
    assert_eq!(lines[1]["status"], "error");
    assert_eq!(lines[2]["status"], "success");
}

/// The rendering capabilities reach every environment the CLI opens: `describe` knows a PDF, and a
/// script rasterises it with `env:render` (PDFium, installed by scripts/install.sh).
#[test]
fn pdfs_are_described_and_rasterised_through_env_render() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    let content = "0 0 0 rg 50 50 100 100 re f";
    let pdf = format!(
        "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R>>endobj\n4 0 obj<</Length {}>>stream\n{content}\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
        content.len()
    );
    std::fs::write(folder.join("inbox/box.pdf"), pdf).unwrap();
    let state = tmp.path().join("state");
    let script = "/** Rasterises the box. */\nimport { rasterize } from 'env:render';\nexport default async function main() {\n  const r = await rasterize('/inbox/box.pdf', '/tmp/pages', { dpi: 72 });\n  return { count: r.pageCount, first: r.pages[0] };\n}\n";
    let calls = calls(&[
        json!({"verb": "describe", "args": {"path": "/inbox/box.pdf"}}),
        json!({"verb": "write_file", "args": {"path": "/scripts/raster.js", "content": script}}),
        json!({"verb": "run_script", "args": {"path": "/scripts/raster.js"}}),
        json!({"verb": "ls", "args": {"path": "/inbox"}}),
        json!({"verb": "read_file", "args": {"path": "/std/render/README.md"}}),
    ]);
    let (out, err, ok) = folio(&state, &["verbs", folder.to_str().unwrap()], &calls);
    assert!(ok, "{err}");
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for line in &lines {
        assert_eq!(line["status"], "success", "{line}");
    }
    let described = lines[0].to_string();
    // env:documents summarises a PDF (pages, sizes, metadata); env:render draws it.
    assert!(described.contains("env:documents") && described.contains("\"pages\":1"), "{described}");
    let run = lines[2]["message"].as_str().unwrap();
    assert!(run.contains("\"count\": 1") && run.contains("/tmp/pages/"), "{run}");
    assert!(run.contains("\"width\": 200"), "200pt at 72 dpi is 200 px: {run}");
    assert!(lines[3]["message"].as_str().unwrap().contains("open with env:documents"), "{}", lines[3]);
    let readme = lines[4]["message"].as_str().unwrap();
    assert!(readme.contains("## On this host") && readme.contains("pdfium: available"), "{readme}");
}
