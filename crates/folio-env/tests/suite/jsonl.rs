//! The JSONL driver.

use std::io::Cursor;
use std::sync::Arc;

use folio_env::{Answers, EnvOptions, KeepPresented};
use serde_json::Value;

use super::env_with;

#[test]
fn jsonl_runs_calls_in_order_and_reports_presented_files() {
    let env = env_with(EnvOptions {
        presenter: Some(Arc::new(KeepPresented)),
        asker: Some(Arc::new(Answers::parse("[\"yes\"]"))),
        ..Default::default()
    });
    let input = r#"{"verb": "write_file", "args": {"path": "/out/a.txt", "content": "hi"}}

{"verb": "present", "args": {"path": "/out/a.txt", "caption": "A greeting."}}
not json
{"verb": "rm", "args": {"path": "/nope"}}
{"verb": "ask_user", "args": {"question": "Proceed?"}}
{"verb": "ask_user", "args": {"question": "Again?"}}
"#;
    let mut out = Vec::new();
    folio_env::run_jsonl(&env, Cursor::new(input), &mut out).unwrap();
    let lines: Vec<Value> = String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary: Vec<(String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["verb"].as_str().or(l["event"].as_str()).unwrap_or("-").to_owned(),
                l["status"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("write_file", "success"),
        ("present", "success"),
        ("presented", ""),
        ("-", "error"),
        ("rm", "error"),
        ("ask_user", "success"),
        ("ask_user", "error"),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(summary, want);
    assert_eq!(lines[0]["message"], "created /out/a.txt (2B)");
    let ev = &lines[2];
    assert_eq!(
        (
            ev["path"].as_str(),
            ev["name"].as_str(),
            ev["media_type"].as_str(),
            ev["size"].as_u64(),
            ev["caption"].as_str()
        ),
        (Some("/out/a.txt"), Some("a.txt"), Some("text/plain"), Some(2), Some("A greeting."))
    );
    assert!(lines[3]["message"].as_str().unwrap().contains("each line must be a JSON object"));
    assert!(lines[4]["message"].as_str().unwrap().contains("no such file or directory: /nope"));
    assert_eq!(lines[5]["message"], "yes");
    assert!(lines[6]["message"].as_str().unwrap().contains("did not respond"));
}
