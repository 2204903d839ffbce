//! `run_tests`: every `*.test.js` at or below a path, run one after another with the
//! same deadline as any script, reported PASS/FAIL per file under a `P/N test file(s) passed`
//! summary, each run logged with kind `test`.

use folio_script::CancelToken;
use folio_vfs::{Kind, Tree, VPath};
use serde_json::json;

use super::script_run::{execute, log, report};
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{fit, now_ms};

const NONE_FOUND: &str = "Write one at /scripts/<name>.test.js: import * as assert from 'env:assert', then export default async function that asserts and throws on failure.";

/// The test files `root` names, sorted.
fn collect(env: &Environment, root: &VPath) -> Result<Vec<VPath>> {
    let tree = env.tree();
    let scripts = VPath::parse("/scripts")?;
    match tree.stat(root)? {
        None if root == &scripts => Err(EnvError::refused(format!("no tests found under {root}. {NONE_FOUND}"))),
        None => Err(folio_vfs::VfsError::NoSuchEntry(root.clone()).into()),
        Some(s) if s.kind == Kind::File => {
            if root.name().ends_with(".test.js") && root.is_under(&scripts) {
                Ok(vec![root.clone()])
            } else {
                Err(EnvError::refused(format!(
                    "{root} is not a test file — tests are named *.test.js and live under /scripts"
                )))
            }
        }
        Some(_) => {
            let base = if root.is_root() { String::new() } else { root.to_string() };
            let mut files = tree.glob(&format!("{base}/**/*.test.js"))?;
            files.sort();
            files.dedup();
            if files.is_empty() {
                return Err(EnvError::refused(format!("no tests found under {root}. {NONE_FOUND}")));
            }
            Ok(files)
        }
    }
}

/// `run_tests`: the summary and body on success; [`EnvError::Run`] (message = summary, data =
/// full text) when any file failed.
pub(crate) fn run_tests(env: &Environment, root: &VPath, cancel: Option<&CancelToken>) -> Result<String> {
    let files = collect(env, root)?;
    let args = json!({});
    let mut passed = 0;
    let mut body = Vec::new();
    for file in &files {
        let started = now_ms();
        let run_id = env.next_run_id();
        let run = execute(env, file, &args, None, cancel, &run_id, Default::default())?;
        let rep = report(env, file, run, false);
        let unlogged = log(env, &rep, &args, "test", started);
        if rep.ok {
            passed += 1;
            body.push(format!("PASS  {file}  ({}ms)", rep.duration_ms));
        } else {
            body.push(format!("FAIL  {file}  ({}ms)", rep.duration_ms));
            for line in rep.error.as_deref().unwrap_or("").lines() {
                body.push(format!("        {line}"));
            }
        }
        for line in &rep.stderr {
            body.push(format!("        stderr: {line}"));
        }
        body.extend(unlogged.map(|note| format!("        {note}")));
    }
    let summary = format!("{passed}/{} test file(s) passed", files.len());
    let limits = env.gateway.limits();
    let joined = body.join("\n");
    let fitted = fit(&joined, limits.max_tool_response_lines, limits.max_tool_response_bytes);
    let mut text = format!("{summary}\n{}", fitted.text);
    if fitted.truncated {
        text.push_str("\n… [output truncated — run_tests on a single file for the rest]");
    }
    if passed == files.len() { Ok(text) } else { Err(EnvError::Run { short: summary, full: text }) }
}
