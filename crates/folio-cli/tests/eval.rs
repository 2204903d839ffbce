//! `folio eval` end to end: the selfcheck of every scenario, one scenario run through the real
//! agent loop against a fake provider speaking OpenAI's wire format (with the JSON and HTML
//! reports written, and the HTML opened in the headless browser), a budget too small refused
//! before any request, and SpreadsheetBench's rules over a directory laid out as its release.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::path::Path;
use std::process::{Command, Output};

use folio_agent::testing::{FakeServer, Reply, openai};
use serde_json::json;

fn folio(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
    cmd.args(args);
    for var in
        ["FOLIO_PROVIDER", "FOLIO_MODEL", "FOLIO_BASE_URL", "FOLIO_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"]
    {
        cmd.env_remove(var);
    }
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn selfcheck_proves_every_scenario_with_its_reference_and_catches_every_planted_bad_solution() {
    let out = folio(&["eval", "selfcheck"], &[]);
    let said = text(&out);
    println!("{said}");
    assert!(out.status.success(), "{said}");
    let n = folio_eval::scenario::all().unwrap().len();
    assert!(said.contains(&format!("selfcheck: {n} of {n} scenarios proven")), "{said}");
    assert_eq!(said.matches("bad solution caught by").count(), n, "{said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_against_the_fake_provider_completes_a_scenario_and_writes_both_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = folio_eval::scenario::select(&["csv-analysis".into()]).unwrap().remove(0);
    let solution = scenario.solution.to_owned();
    let server = FakeServer::start(vec![
        Reply::sse(openai(
            "",
            &[("c1", "write_file", json!({"path": "/scripts/solve.js", "content": solution}))],
            9_000,
        )),
        Reply::sse(openai("", &[("c2", "run_script", json!({"path": "/scripts/solve.js"}))], 11_000)),
        Reply::sse(openai("The summary is in /out/summary.json.", &[], 12_000)),
    ])
    .await
    .unwrap();
    let base = format!("{}/v1", server.base);
    let out_dir = tmp.path().join("report");
    let (out_s, base_s) = (out_dir.display().to_string(), base.clone());
    let out = tokio::task::spawn_blocking(move || {
        folio(
            &[
                "eval",
                "run",
                "--model",
                "openai:test-model",
                "--base-url",
                &base_s,
                "--scenario",
                "csv-analysis",
                "--budget",
                "2",
                "--price",
                "3,15",
                "--out",
                &out_s,
            ],
            &[("OPENAI_API_KEY", "sk-test")],
        )
    })
    .await
    .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("1 of 1 runs complete"), "{said}");
    assert!(said.contains("[1/1") && said.contains("openai/test-model on csv-analysis"), "progress is shown: {said}");
    assert_eq!(server.requests().len(), 3);
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).unwrap()).unwrap();
    let record = &report["records"][0];
    assert_eq!(record["stop"], "finished");
    assert_eq!(record["turns"], 3);
    assert!(record["checks"].as_array().unwrap().iter().all(|c| c["passed"] == true), "{record}");
    assert_eq!(record["tokens_in"], 32_000);
    let html = std::fs::read_to_string(out_dir.join("report.html")).unwrap();
    assert!(html.contains("csv-analysis") && html.contains("1/1") && html.contains("<svg"), "{html}");
    screenshot(&out_dir.join("report.html"), &tmp.path().join("report.png"));
}

/// Opens the report in the headless browser env:motion uses and keeps its screenshot (under the
/// build directory, for a person to look at).
fn screenshot(html: &Path, png: &Path) {
    let Some(found) = folio_motion::discovery::find(None) else {
        panic!("no Chromium headless shell — install it with scripts/install.sh");
    };
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(&found.path)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1100,900"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    let bytes = std::fs::read(png).unwrap_or_else(|e| panic!("no screenshot ({e}): {}", text(&out)));
    assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000, "a blank page? {} bytes", bytes.len());
    if let Ok(dir) =
        std::env::var("FOLIO_E2E_OUT").or_else(|_| std::env::var("CARGO_TARGET_DIR").map(|d| format!("{d}/e2e")))
    {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::copy(png, Path::new(&dir).join("eval-report.png"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_too_small_for_one_run_is_refused_before_any_request() {
    let tmp = tempfile::tempdir().unwrap();
    let server = FakeServer::start(vec![Reply::sse(openai("never", &[], 10))]).await.unwrap();
    let base = format!("{}/v1", server.base);
    let out_s = tmp.path().join("r").display().to_string();
    let out = tokio::task::spawn_blocking(move || {
        folio(
            &[
                "eval",
                "run",
                "--model",
                "openai:test-model",
                "--base-url",
                &base,
                "--scenario",
                "csv-analysis",
                "--budget",
                "0.50",
                "--price",
                "3,15",
                "--out",
                &out_s,
            ],
            &[("OPENAI_API_KEY", "sk-test")],
        )
    })
    .await
    .unwrap();
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("was not started") && said.contains("raise --budget to at least $1.70"), "{said}");
    assert_eq!(server.requests().len(), 0, "nothing was sent");
    // An unknown price with a budget is refused, naming --price.
    let out =
        folio(&["eval", "run", "--model", "openai:test-model", "--budget", "1"], &[("OPENAI_API_KEY", "sk-test")]);
    assert!(!out.status.success() && text(&out).contains("--price"), "{}", text(&out));
}

/// A workbook with `cells` on its first sheet (named `sheet`).
fn book(path: &Path, sheet: &str, cells: &[(u32, u16, serde_json::Value)]) {
    let mut wb = rust_xlsxwriter::Workbook::new();
    let ws = wb.add_worksheet();
    ws.set_name(sheet).unwrap();
    for (r, c, v) in cells {
        match v {
            serde_json::Value::Number(n) => ws.write(*r, *c, n.as_f64().unwrap()).map(|_| ()).unwrap(),
            serde_json::Value::String(s) => ws.write(*r, *c, s.as_str()).map(|_| ()).unwrap(),
            _ => {}
        }
    }
    wb.save(path).unwrap();
}

#[test]
fn spreadsheetbench_scores_a_release_layout_by_the_benchmarks_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let outputs = tmp.path().join("outputs");
    std::fs::create_dir_all(&outputs).unwrap();
    let tasks = json!([
        {"id": "101", "instruction": "Total column B into B4.", "instruction_type": "Cell-Level Manipulation", "answer_position": "B4", "spreadsheet_path": "spreadsheet/101"},
        {"id": "202", "instruction": "Upper-case the names.", "instruction_type": "Sheet-Level Manipulation", "answer_position": "'Names'!A1:A3", "spreadsheet_path": "spreadsheet/202"},
        {"id": 303, "instruction": "Put the ratio in C1.", "instruction_type": "Cell-Level Manipulation", "answer_position": "C1", "spreadsheet_path": "spreadsheet/303"}
    ]);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("dataset.json"), tasks.to_string()).unwrap();
    for id in ["101", "202", "303"] {
        std::fs::create_dir_all(dir.join("spreadsheet").join(id)).unwrap();
    }
    let s = |id: &str, name: &str| dir.join("spreadsheet").join(id).join(name);
    // 101: cell level, three cases; the output of case 2 is wrong.
    for k in 1..=3u32 {
        let v = f64::from(k);
        book(
            &s("101", &format!("{k}_101_input.xlsx")),
            "Sheet1",
            &[(0, 1, json!(v)), (1, 1, json!(2.0)), (2, 1, json!(3.0))],
        );
        book(&s("101", &format!("{k}_101_answer.xlsx")), "Sheet1", &[(3, 1, json!(v + 5.0))]);
        let got = if k == 2 { v + 6.0 } else { v + 5.0 };
        book(&outputs.join(format!("{k}_101_output.xlsx")), "Sheet1", &[(3, 1, json!(got))]);
    }
    // 202: sheet level, one case, right; numbers written as text compare as numbers.
    book(&s("202", "1_202_input.xlsx"), "Names", &[(0, 0, json!("ann")), (1, 0, json!("bo")), (2, 0, json!("7"))]);
    book(&s("202", "1_202_answer.xlsx"), "Names", &[(0, 0, json!("ANN")), (1, 0, json!("BO")), (2, 0, json!(7.0))]);
    book(
        &outputs.join("1_202_output.xlsx"),
        "Names",
        &[(0, 0, json!("ANN")), (1, 0, json!("BO")), (2, 0, json!("7.001"))],
    );
    // 303: the output is missing.
    book(&s("303", "1_303_input.xlsx"), "Sheet1", &[(0, 0, json!(1.0))]);
    book(&s("303", "1_303_answer.xlsx"), "Sheet1", &[(0, 2, json!(0.3333))]);

    let out = folio(
        &["eval", "spreadsheetbench", dir.to_str().unwrap(), "--outputs", outputs.to_str().unwrap(), "--json"],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let by_id = |id: &str| v["tasks"].as_array().unwrap().iter().find(|t| t["id"] == id).unwrap().clone();
    let t101 = by_id("101");
    assert_eq!(t101["hard"], 0);
    assert!((t101["soft"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9, "{t101}");
    assert!(t101["cases"][1]["Err"].as_str().unwrap().contains("B4"), "{t101}");
    assert_eq!(by_id("202")["hard"], 1, "7.001 rounds to 7.00 as the benchmark compares");
    assert_eq!(by_id("303")["cases"][0]["Err"], "File not exist");
    assert!((v["hard"].as_f64().unwrap() - 100.0 / 3.0).abs() < 1e-6, "{v}");
    // The text report sets the score beside the published leaderboard.
    let out = folio(&["eval", "spreadsheetbench", dir.to_str().unwrap(), "--outputs", outputs.to_str().unwrap()], &[]);
    assert!(text(&out).contains("published: Copilot in Excel (agent mode) 57.2%"), "{}", text(&out));
    // A directory not laid out as the release is refused with what was expected.
    let out = folio(&["eval", "spreadsheetbench", tmp.path().to_str().unwrap(), "--outputs", "x"], &[]);
    assert!(!out.status.success() && text(&out).contains("dataset.json"), "{}", text(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_judge_sees_the_task_the_truth_and_the_artifact_only_and_its_verdicts_count() {
    let tmp = tempfile::tempdir().unwrap();
    let scenario = folio_eval::scenario::select(&["pdf-review".into()]).unwrap().remove(0);
    let agent = FakeServer::start(vec![
        Reply::sse(openai(
            "",
            &[("c1", "write_file", json!({"path": "/scripts/brief.js", "content": scenario.solution}))],
            9_000,
        )),
        Reply::sse(openai("", &[("c2", "run_script", json!({"path": "/scripts/brief.js"}))], 11_000)),
        Reply::sse(openai("The briefing is in /out/briefing.md.", &[], 12_000)),
    ])
    .await
    .unwrap();
    let verdicts = r#"Here: {"verdicts":[{"id":"no-fabrication","pass":true,"reason":"no pay or dividend figure"},{"id":"faithful","pass":false,"reason":"a page is wrong"}]}"#;
    let judge = FakeServer::start(vec![Reply::sse(openai(verdicts, &[], 5_000))]).await.unwrap();
    let (a, j) = (format!("{}/v1", agent.base), format!("{}/v1", judge.base));
    let out_dir = tmp.path().join("report");
    let out_s = out_dir.display().to_string();
    let out = tokio::task::spawn_blocking(move || {
        folio(
            &[
                "eval",
                "run",
                "--model",
                "openai:test-model",
                "--base-url",
                &a,
                "--scenario",
                "pdf-review",
                "--budget",
                "2",
                "--price",
                "3,15",
                "--judge",
                "openai:judge-model",
                "--judge-base-url",
                &j,
                "--judge-price",
                "1,5",
                "--out",
                &out_s,
            ],
            &[("OPENAI_API_KEY", "sk-test")],
        )
    })
    .await
    .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    let asked = &judge.requests()[0].body;
    let prompt = asked["messages"].to_string();
    assert!(prompt.contains("TASK") && prompt.contains("GROUND TRUTH") && prompt.contains("Rotterdam"), "{prompt}");
    assert!(prompt.contains("=== /out/briefing.md ==="), "the artifact's text: {prompt}");
    assert!(!prompt.contains("run_script") && !prompt.contains("brief.js"), "never the transcript: {prompt}");
    assert!(asked["tools"].as_array().is_none_or(|t| t.is_empty()), "no tools for the judge");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).unwrap()).unwrap();
    let checks = report["records"][0]["checks"].as_array().unwrap();
    let verdict = |id: &str| checks.iter().find(|c| c["name"] == format!("judge: {id}")).unwrap().clone();
    assert_eq!(verdict("no-fabrication")["passed"], true);
    assert_eq!(verdict("faithful")["passed"], false);
    assert!(said.contains("0 of 1 runs complete"), "a failed verdict makes the run incomplete: {said}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spreadsheetbench_runs_a_model_on_each_task_then_scores_its_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    std::fs::create_dir_all(dir.join("spreadsheet/303")).unwrap();
    std::fs::write(
        dir.join("dataset.json"),
        json!([{"id": 303, "instruction": "Put a third in C1.", "instruction_type": "Cell-Level Manipulation", "answer_position": "C1"}]).to_string(),
    )
    .unwrap();
    book(&dir.join("spreadsheet/303/1_303_input.xlsx"), "Sheet1", &[(0, 0, json!(1.0))]);
    book(&dir.join("spreadsheet/303/1_303_answer.xlsx"), "Sheet1", &[(0, 2, json!(0.3333))]);
    let script = "/** Writes the answer. */\nimport * as sheets from 'env:spreadsheets';\nexport default async function () {\n  return sheets.create('/out/1_303_output.xlsx', { sheets: [{ name: 'Sheet1', cells: { A1: 1, C1: 0.3333 } }] });\n}\n";
    let server = FakeServer::start(vec![
        Reply::sse(openai(
            "",
            &[("c1", "write_file", json!({"path": "/scripts/answer.js", "content": script}))],
            3_000,
        )),
        Reply::sse(openai("", &[("c2", "run_script", json!({"path": "/scripts/answer.js"}))], 4_000)),
        Reply::sse(openai("Done.", &[], 5_000)),
    ])
    .await
    .unwrap();
    let base = format!("{}/v1", server.base);
    let (d, o) = (dir.display().to_string(), tmp.path().join("outs").display().to_string());
    let out = tokio::task::spawn_blocking(move || {
        folio(
            &[
                "eval",
                "spreadsheetbench",
                &d,
                "--model",
                "openai:test-model",
                "--base-url",
                &base,
                "--budget",
                "2",
                "--price",
                "3,15",
                "--outputs",
                &o,
                "--json",
            ],
            &[("OPENAI_API_KEY", "sk-test")],
        )
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tasks"][0]["hard"], 1, "{v}");
    let asked = server.requests()[0].body["messages"].to_string();
    assert!(asked.contains("Put a third in C1.") && asked.contains("/out/1_303_output.xlsx"), "{asked}");
}
