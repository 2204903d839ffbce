//! Provenance and regenerate end to end, as a person meets them: `folio ask` (a fake provider on
//! 127.0.0.1) writes a script that turns /inbox/sales.csv into /out/summary.xlsx and runs it; the
//! person commits; the CSV changes on disk; `folio provenance` says STALE naming it; `folio
//! regenerate` re-runs the recorded script with **no request reaching the provider** and the new
//! workbook arrives as a pending change, whose cells an independent reader (openpyxl) checks
//! before and after the commit.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;
use std::process::{Command, Output};

use folio_agent::testing::{FakeServer, Reply, openai};
use serde_json::{Value, json};

const SCRIPT: &str = "import * as sheets from 'env:spreadsheets';\n\
export default async function ({ label }) {\n\
  const rows = await sheets.readRows('/inbox/sales.csv');\n\
  const body = rows.slice(1).map((r) => [r[0], Number(r[1])]);\n\
  const total = body.reduce((a, r) => a + Number(r[1]), 0);\n\
  await sheets.write('/out/summary.xlsx', [['region', 'amount'], ...body, [label, total]]);\n\
  return { total };\n\
}\n";

fn folio(state: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
    cmd.arg("--state-dir").arg(state).args(args).env_remove("ANTHROPIC_API_KEY");
    for var in ["FOLIO_PROVIDER", "FOLIO_MODEL", "FOLIO_BASE_URL", "FOLIO_API_KEY"] {
        cmd.env_remove(var);
    }
    cmd.env("OPENAI_API_KEY", "sk-test");
    cmd.output().unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The workbook's first sheet as openpyxl reads it: one list of values per row.
fn cells(path: &Path) -> Value {
    let python = ["python3", "/usr/bin/python3"]
        .into_iter()
        .find(|p| Command::new(p).args(["-c", "import openpyxl"]).output().is_ok_and(|o| o.status.success()))
        .expect("openpyxl is needed to read the workbook independently — scripts/install.sh installs python3-openpyxl");
    let code = format!(
        "import json, openpyxl\nws = openpyxl.load_workbook({:?}).worksheets[0]\nprint(json.dumps([list(r) for r in ws.iter_rows(values_only=True)]))",
        path.to_str().unwrap()
    );
    let out = Command::new(python).arg("-c").arg(code).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_workbook_is_named_and_regenerated_without_the_model() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let state = tmp.path().join("state");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("inbox/sales.csv"), "region,amount\nnorth,10\nsouth,20\n").unwrap();
    let server = FakeServer::start(vec![
        Reply::sse(openai("", &[("c1", "write_file", json!({"path": "/scripts/summary.js", "content": SCRIPT}))], 500)),
        Reply::sse(openai(
            "",
            &[("c2", "run_script", json!({"path": "/scripts/summary.js", "args": {"label": "total"}}))],
            600,
        )),
        Reply::sse(openai("The total is 30; see /out/summary.xlsx.", &[], 700)),
    ])
    .await
    .unwrap();
    let base = format!("{}/v1", server.base);
    let (dir, st) = (folder.to_str().unwrap().to_owned(), state.clone());
    let out = tokio::task::spawn_blocking(move || {
        folio(
            &st,
            &[
                "ask",
                &dir,
                "Summarise the sales",
                "--provider",
                "openai",
                "--model",
                "test-model",
                "--base-url",
                &base,
                "--json",
            ],
        )
    })
    .await
    .unwrap();
    let events = ok(&out);
    let conversation: Value = serde_json::from_str(events.lines().next().unwrap()).unwrap();
    let conversation = conversation["id"].as_str().unwrap().to_owned();
    let run = events.lines().find(|l| l.contains("run_script") && l.contains("tool_call_finished")).unwrap();
    assert!(run.contains("\"status\":\"success\"") && run.contains("30"), "{run}");
    let dir = folder.to_str().unwrap();
    ok(&folio(&state, &["commit", dir]));
    let workbook = folder.join("out/summary.xlsx");
    assert_eq!(cells(&workbook), json!([["region", "amount"], ["north", 10], ["south", 20], ["total", 30]]));

    // Current, made by the script from the CSV, in the model's turn.
    let known: Value =
        serde_json::from_str(&ok(&folio(&state, &["provenance", dir, "/out/summary.xlsx", "--json"]))).unwrap();
    assert_eq!(known["standing"], "current", "{known}");
    let record = &known["record"];
    assert_eq!(record["script"], "/scripts/summary.js");
    assert_eq!(record["args"], json!({"label": "total"}));
    assert_eq!(record["inputs"][0]["path"], "/inbox/sales.csv", "{record}");
    assert_eq!(
        record["origin"],
        json!({"kind": "agent", "conversation": conversation, "turn": 1, "call": 2, "model": "test-model"})
    );

    // The CSV changes on disk: STALE, naming it.
    std::fs::write(folder.join("inbox/sales.csv"), "region,amount\nnorth,15\nsouth,20\neast,5\n").unwrap();
    let line = ok(&folio(&state, &["provenance", dir, "/out/summary.xlsx"]));
    assert!(line.contains("made by /scripts/summary.js") && line.contains("from /inbox/sales.csv"), "{line}");
    assert!(
        line.contains(&format!("conversation {conversation}, turn 1")) && line.contains("model test-model"),
        "{line}"
    );
    assert!(line.contains("STALE") && line.contains("/inbox/sales.csv (was "), "{line}");

    // Regenerate: no request reaches the provider; the new workbook is pending, the folder unchanged.
    let asked = server.requests().len();
    let said = ok(&folio(&state, &["regenerate", dir, "/out/summary.xlsx"]));
    assert_eq!(server.requests().len(), asked, "regenerate must not call the model");
    assert!(said.contains("/out/summary.xlsx: regenerated by /scripts/summary.js"), "{said}");
    assert!(said.contains("before:") && said.contains("after:") && said.contains("pending"), "{said}");
    assert_eq!(cells(&workbook).as_array().unwrap().len(), 4, "nothing reached the folder before the commit");
    let status = ok(&folio(&state, &["status", dir, "--json"]));
    assert!(status.contains("/out/summary.xlsx"), "{status}");
    let known: Value =
        serde_json::from_str(&ok(&folio(&state, &["provenance", dir, "/out/summary.xlsx", "--json"]))).unwrap();
    assert_eq!(known["standing"], "current", "{known}");
    assert_eq!(known["record"]["origin"]["kind"], "regenerate");

    let before = std::fs::read(&workbook).unwrap();
    ok(&folio(&state, &["commit", dir]));
    assert_eq!(
        cells(&workbook),
        json!([["region", "amount"], ["north", 15], ["south", 20], ["east", 5], ["total", 40]])
    );

    // The change's cell diff, as the review panel shows it: north's amount and the total
    // changed, east's row added, nothing else.
    let after = std::fs::read(&workbook).unwrap();
    let diff = folio_diff::cells(Some(&before), Some(&after), "summary.xlsx").unwrap();
    let sheet = &diff.sheets[0];
    let changed: Vec<(String, Option<String>, Option<String>)> =
        sheet.cells.iter().map(|c| (c.new_address.clone(), c.old_value.clone(), c.new_value.clone())).collect();
    assert_eq!(
        changed,
        vec![
            ("B2".to_string(), Some("10".to_string()), Some("15".to_string())),
            ("B5".to_string(), Some("30".to_string()), Some("40".to_string())),
        ],
        "{diff:?}"
    );
    let added: Vec<&Vec<String>> = sheet.added_rows.iter().map(|r| &r.values).collect();
    assert_eq!(added, vec![&vec!["east".to_string(), "5".to_string()]], "{diff:?}");
    assert_eq!(sheet.counts.removed_rows, 0, "{diff:?}");
}
