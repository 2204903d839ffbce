//! Every verb's result is said once: the text a model reads never repeats its payload (a
//! `describe` once carried its JSON twice, a failed run its error twice), and stays within the
//! reply caps.

use std::sync::Arc;

use folio_env::{Answers, EnvOptions, Environment, FileHandler, Magic, Presented, Presenter, Sight, VERBS, Vision};
use folio_vfs::VPath;
use serde_json::{Value, json};

use super::{env_with, put, read};

struct Quiet;
impl Presenter for Quiet {
    fn present(&self, _: &Presented) -> Result<(), String> {
        Ok(())
    }
}
impl Vision for Quiet {
    fn look(&self, _: &[u8], _: &str, _: &str) -> Result<Sight, String> {
        Ok(Sight::Answer("the chart shows three rising bars with labels".into()))
    }
}

/// A module whose `describe` of a wide sheet is far over the reply cap (300 named columns).
struct WideSheets;
impl FileHandler for WideSheets {
    fn module(&self) -> &str {
        "widesheets"
    }
    fn description(&self) -> &str {
        "wide test sheets"
    }
    fn extensions(&self) -> Vec<String> {
        vec![".wide".into()]
    }
    fn magic(&self) -> Vec<Magic> {
        vec![]
    }
    fn describe(&self, _: &VPath, _: &[u8]) -> Result<Value, String> {
        let columns: Vec<Value> = (0..300)
            .map(|i| json!({"name": format!("Quarterly revenue column number {i}"), "type": "number", "sample": i * 7}))
            .collect();
        Ok(json!({"sheets": [{"name": "Data", "rows": 5000, "columns": columns}]}))
    }
}

fn wired() -> Environment {
    env_with(EnvOptions {
        presenter: Some(Arc::new(Quiet)),
        vision: Some(Arc::new(Quiet)),
        asker: Some(Arc::new(Answers::new(vec!["use the fiscal year ending in June".into()]))),
        handlers: vec![Arc::new(WideSheets)],
        ..EnvOptions::default()
    })
}

/// Lines of at least 24 characters that occur more than once in `text`.
fn repeated(text: &str) -> Vec<String> {
    let mut seen = std::collections::HashMap::<&str, usize>::new();
    for line in text.lines().map(str::trim).filter(|l| l.chars().count() >= 24) {
        *seen.entry(line).or_default() += 1;
    }
    seen.into_iter().filter(|(_, n)| *n > 1).map(|(l, _)| l.to_owned()).collect()
}

/// The string leaves of `data` of at least 24 characters.
fn leaves(data: &Value, out: &mut Vec<String>) {
    match data {
        Value::String(s) if s.chars().count() >= 24 => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        Value::Object(map) => map.values().for_each(|v| leaves(v, out)),
        _ => {}
    }
}

#[test]
fn no_verbs_result_repeats_its_payload() {
    let env = wired();
    put(&env, "/inbox/notes.txt", "first line of the quarterly notes\nsecond line about the revenue figures\n");
    put(&env, "/inbox/image.png", "\u{89}PNG\r\n\u{1a}\n\0\0\0\rIHDR");
    put(&env, "/inbox/sheet.wide", "not really a sheet");
    put(&env, "/scripts/lib/.keep", "");
    let cases: Vec<(&str, Value)> = vec![
        ("write_file", json!({"path": "/out/a.txt", "content": "alpha line of the output file\n"})),
        (
            "write_file",
            json!({"path": "/scripts/ok.js", "content": "/** Says hello to the caller by name. */\nexport default function main(args) { console.log('a console line from the script run'); return {greeting: 'hello ' + args.name}; }\n"}),
        ),
        (
            "write_file",
            json!({"path": "/scripts/bad.js", "content": "/** Fails on purpose with a long message. */\nexport default function main() { console.log('a console line before the failure'); throw new Error('the quarterly figures are missing from the inbox'); }\n"}),
        ),
        (
            "write_file",
            json!({"path": "/scripts/ok.test.js", "content": "import { test } from 'env:test';\ntest('adds two numbers together', () => {});\n"}),
        ),
        ("edit_file", json!({"path": "/out/a.txt", "old_str": "alpha", "new_str": "beta"})),
        ("edit_file", json!({"path": "/out/a.txt", "old_str": "gamma", "new_str": "beta"})),
        ("cp", json!({"from": "/out/a.txt", "to": "/out/b.txt"})),
        ("mv", json!({"from": "/out/b.txt", "to": "/out/c.txt"})),
        ("rm", json!({"path": "/out/c.txt"})),
        ("rm", json!({"path": "/out/none.txt"})),
        ("read_file", json!({"path": "/inbox/notes.txt"})),
        ("ls", json!({"path": "/", "depth": 2})),
        ("grep", json!({"pattern": "quarterly", "path": "/inbox"})),
        ("describe", json!({"path": "/inbox/notes.txt"})),
        ("describe", json!({"path": "/inbox/sheet.wide"})),
        ("run_script", json!({"path": "/scripts/ok.js", "args": {"name": "Ada"}})),
        ("run_script", json!({"path": "/scripts/bad.js"})),
        ("run_script", json!({"path": "/scripts/bad.js"})),
        ("run_script", json!({"path": "/scripts/bad.js"})),
        ("run_tests", json!({"path": "/scripts"})),
        ("undo", json!({"path": "/out/a.txt"})),
        ("redo", json!({"path": "/out/a.txt"})),
        ("checkpoint", json!({"action": "create", "name": "before-the-change"})),
        ("diff", json!({"path": "/out/a.txt", "checkpoint": "before-the-change"})),
        ("history", json!({"limit": 1})),
        ("view_image", json!({"path": "/inbox/image.png", "prompt": "what does the chart show?"})),
        ("present", json!({"path": "/out/a.txt", "caption": "the output file for the quarter"})),
        ("ask_user", json!({"question": "Which fiscal year should the totals use?"})),
    ];
    for spec in VERBS {
        assert!(cases.iter().any(|(v, _)| *v == spec.name), "no case for {}", spec.name);
    }
    let cap = env.gateway().limits().max_tool_response_bytes;
    for (verb, args) in cases {
        let r = env.call(verb, args.clone());
        let text = r.model_text();
        let twice = repeated(text);
        assert!(twice.is_empty(), "{verb} {args} says {twice:?} more than once:\n{text}");
        let mut strings = Vec::new();
        leaves(&r.data, &mut strings);
        for s in strings {
            let whole = text
                .match_indices(s.as_str())
                .filter(|(at, m)| !text[at + m.len()..].starts_with(|c: char| c.is_alphanumeric()))
                .count();
            assert!(whole <= 1, "{verb} {args}: {s:?} is in the text more than once:\n{text}");
        }
        assert!(text.len() <= cap * 3 / 2, "{verb} {args}: {} bytes over the reply cap {cap}", text.len());
        if verb == "describe" {
            assert!(text.len() <= cap, "describe {args}: {} bytes against the documented {cap}:\n{text}", text.len());
        }
    }
}

#[test]
fn a_describe_over_the_cap_is_shortened_saying_what_it_cut_and_where_the_whole_is() {
    let env = wired();
    put(&env, "/inbox/sheet.wide", "not really a sheet");
    let r = env.call("describe", json!({"path": "/inbox/sheet.wide"}));
    let text = r.model_text();
    let cap = env.gateway().limits().max_tool_response_bytes;
    assert!(text.len() <= cap, "{} > {cap}", text.len());
    let shown: Value = serde_json::from_str(text).expect("still JSON");
    assert!(shown["shortened"].as_str().unwrap().contains("/tmp/describe_inbox_sheet_wide.json"), "{text}");
    let columns = shown["sheets"][0]["columns"].as_array().unwrap();
    let more = columns.last().unwrap().as_str().unwrap();
    assert_eq!(more, format!("… {} more", 300 - (columns.len() - 1)), "{text}");
    let whole: Value = serde_json::from_str(&read(&env, "/tmp/describe_inbox_sheet_wide.json").unwrap()).unwrap();
    assert_eq!(whole["sheets"][0]["columns"].as_array().unwrap().len(), 300);
}

#[test]
fn a_failed_run_is_told_once_with_its_console_output() {
    let env = wired();
    put(
        &env,
        "/scripts/bad.js",
        "/** Fails on purpose. */\nexport default function main() { console.log('a console line before the failure'); throw new Error('the quarterly figures are missing'); }\n",
    );
    for round in 1..=3 {
        let r = env.call("run_script", json!({"path": "/scripts/bad.js"}));
        let text = r.model_text();
        assert_eq!(text.matches("the quarterly figures are missing").count(), 1, "round {round}:\n{text}");
        assert!(text.contains("a console line before the failure"), "round {round}:\n{text}");
        if round == 3 {
            assert!(text.contains("STOP"), "{text}");
        }
    }
}
