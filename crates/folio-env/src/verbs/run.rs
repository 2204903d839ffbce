//! `run_script` and `run_tests`: present whenever scripts are on (the default). The argument
//! types live here; the work is in `crate::scripts`.

use folio_script::CancelToken;
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};

/// Tool description of `run_script`.
pub const RUN_DOC: &str = "Run a script: its default export is called with `args` and its result, console output and duration come back. Scripts may import env:fs (file I/O through this environment), env:std (json, csv, text, base64) and env:assert; full types live in /std/<name>/index.d.ts. Long output is cut and the full text is written to /tmp/run-<id>.out (result), .err (error), .log (stdout) or .stderr — the reply names the file.";
/// Tool description of `run_tests`.
pub const TESTS_DOC: &str = "Run the *.test.js files at or below a path (default /scripts) and report PASS/FAIL per file with a `P/N test file(s) passed` summary.";

/// Arguments of `run_script`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunArgs {
    /// The script, e.g. /scripts/tally.js.
    pub path: String,
    /// The object passed to the script's default export.
    #[serde(default)]
    pub args: serde_json::Map<String, serde_json::Value>,
    /// A shorter deadline than the environment's, in milliseconds (never a longer one: the
    /// ceiling is limits.run_timeout_ms, 30000 by default).
    pub timeout_ms: Option<u64>,
}

/// Arguments of `run_tests`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestsArgs {
    /// A test file or a directory to search (default /scripts).
    pub path: Option<String>,
}

/// Runs the verb `name` (`run_script` or `run_tests`).
pub fn run(env: &Environment, name: &str, args: serde_json::Value, cancel: Option<&CancelToken>) -> Result<Reply> {
    let args = if args.is_null() { serde_json::json!({}) } else { args };
    let bad = |e: serde_json::Error| {
        let shape = if name == "run_script" { "{ path, args?, timeout_ms? }" } else { "{ path? }" };
        EnvError::args(name, format!("the arguments do not fit ({e}) — call it as {name} {shape}"))
    };
    if name == "run_script" {
        let a: RunArgs = serde_json::from_value(args).map_err(bad)?;
        let report = env.run_script(&a.path, serde_json::Value::Object(a.args), a.timeout_ms, cancel)?;
        if report.ok {
            Ok(Reply::text(report.text))
        } else {
            Err(EnvError::Run { short: report.short_error(), full: report.text })
        }
    } else {
        let a: TestsArgs = serde_json::from_value(args).map_err(bad)?;
        let path = folio_vfs::VPath::parse(a.path.as_deref().unwrap_or("/scripts"))?;
        Ok(Reply::text(crate::scripts::run_tests(env, &path, cancel)?))
    }
}
