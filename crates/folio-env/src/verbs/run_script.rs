//! `run_script` and `run_tests`: present whenever scripts are on (the default). The argument
//! types live here; the work is in `crate::scripts`.

use folio_script::CancelToken;
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};

/// How `run_script`'s description begins; [`run_doc`] adds the modules this environment has.
const RUN_LEAD: &str =
    "Run a script: its default export is called with `args` and its result, console output and duration come back.";
/// How `run_script`'s description ends.
const RUN_TAIL: &str = "Full types live in /std/<name>/index.d.ts. Long output is cut and the full text is written to /tmp/run-<id>.out (result), .err (error), .log (stdout) or .stderr — the reply names the file.";

/// `run_script`'s description in `env`: every module registered in its engine, by name and one
/// line, in registration order — so a model learns of each module a script can import.
pub fn run_doc(env: &Environment) -> String {
    let modules: Vec<String> = env
        .engine()
        .map(|e| e.registry().modules().iter().map(|m| format!("env:{} ({})", m.name, m.description)).collect())
        .unwrap_or_default();
    if modules.is_empty() {
        return format!("{RUN_LEAD} This host registers no env: modules. {RUN_TAIL}");
    }
    format!("{RUN_LEAD} Scripts may import {}. {RUN_TAIL}", modules.join(", "))
}
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

/// `run_script`.
pub fn run_script(
    env: &Environment,
    a: RunArgs,
    cancel: Option<&CancelToken>,
    origin: &crate::provenance::RunOrigin,
) -> Result<Reply> {
    let report = env.run_script_as(&a.path, serde_json::Value::Object(a.args), a.timeout_ms, cancel, origin)?;
    if report.ok {
        Ok(Reply::text(report.text))
    } else {
        Err(EnvError::Run { short: report.short_error(), full: report.text })
    }
}

/// `run_tests`.
pub fn run_tests(env: &Environment, a: TestsArgs, cancel: Option<&CancelToken>) -> Result<Reply> {
    let path = folio_vfs::VPath::parse(a.path.as_deref().unwrap_or("/scripts"))?;
    Ok(Reply::text(crate::scripts::run_tests(env, &path, cancel)?))
}
