//! `run_script` and `run_tests`: present only when a [`crate::ScriptRunner`] is wired (the
//! scripts crate supplies it). This file is the seam: argument types and the hand-off.

use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};

/// Tool description of `run_script`.
pub const RUN_DOC: &str = "Run a script from /scripts: its default export is called with `args` and its result, console output and duration come back. Long output is cut and the full text is written to /tmp/run-<id>.* (the reply names the file).";
/// Tool description of `run_tests`.
pub const TESTS_DOC: &str =
    "Run the *.test.js files at or below a path (default /scripts) and report PASS/FAIL per file.";

/// Arguments of `run_script`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunArgs {
    /// The script, e.g. /scripts/tally.js.
    pub path: String,
    /// The object passed to the script's default export.
    #[serde(default)]
    pub args: serde_json::Map<String, serde_json::Value>,
    /// Ask for a shorter deadline than the environment's (never a longer one).
    pub timeout_ms: Option<u64>,
}

/// Arguments of `run_tests`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestsArgs {
    /// A test file or a directory to search (default /scripts).
    pub path: Option<String>,
}

/// Hands the call to the wired runner.
pub fn run(env: &Environment, name: &str, args: serde_json::Value) -> Result<Reply> {
    let Some(runner) = env.opts.runner.clone() else {
        return Err(EnvError::refused(format!(
            "{name} is not available in this environment — no script runner is wired"
        )));
    };
    let args = if args.is_null() { serde_json::json!({}) } else { args };
    let bad = |e: serde_json::Error| EnvError::args(name, format!("the arguments do not fit ({e})"));
    if name == "run_script" {
        let a: RunArgs = serde_json::from_value(args).map_err(bad)?;
        let path = folio_vfs::VPath::parse(&a.path)?;
        Ok(Reply::text(runner.run_script(env, &path, serde_json::Value::Object(a.args), a.timeout_ms)?))
    } else {
        let a: TestsArgs = serde_json::from_value(args).map_err(bad)?;
        let path = folio_vfs::VPath::parse(a.path.as_deref().unwrap_or("/scripts"))?;
        Ok(Reply::text(runner.run_tests(env, &path)?))
    }
}
