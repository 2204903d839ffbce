//! `folio run`: runs one script of the working environment over a folder, as the agent's
//! `run_script` would — same validation, zones, limits, run log and spill files — streaming its
//! console lines to stderr while it runs. Its edits stay pending like any other (review them with
//! `folio status`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use folio_env::Environment;
use folio_host::{Host, Seams};

/// What `folio run` was asked.
pub(crate) struct RunArgs {
    pub state_dir: Option<PathBuf>,
    pub folder: PathBuf,
    pub script: String,
    pub args: Option<String>,
    pub timeout_ms: Option<u64>,
    pub run_budget_ms: Option<u64>,
    pub read_only_folder: bool,
    pub json: bool,
}

fn parse_args(raw: Option<&str>) -> Result<serde_json::Value> {
    let Some(raw) = raw else { return Ok(serde_json::json!({})) };
    let value: serde_json::Value = serde_json::from_str(raw)
        .with_context(|| format!("--args is not JSON: {raw:?} — pass an object, like --args '{{\"limit\": 10}}'"))?;
    if !value.is_object() {
        bail!(
            "--args must be a JSON object (the script's default export gets it as `args`), got {value} — wrap it, like --args '{{\"value\": {value}}}'"
        );
    }
    Ok(value)
}

pub(crate) fn open(
    state_dir: Option<PathBuf>,
    folder: &Path,
    read_only_folder: bool,
    run_budget_ms: Option<u64>,
) -> Result<Environment> {
    let host = Host::builder().state_dir(state_dir).build()?;
    let seams = Seams {
        on_progress: Some(crate::progress::listener(crate::progress::Style::detect())),
        read_only_folder,
        run_budget_ms,
        ..Seams::default()
    };
    let env = host.open_folder(folder, seams)?;
    if let Some(recovery) = env.overlay().and_then(|o| o.recovery()) {
        eprintln!("folio: {recovery}");
    }
    for warning in host.warnings().iter().chain(env.warnings()) {
        eprintln!("folio: warning: {warning}");
    }
    Ok(env)
}

pub(crate) fn run(a: RunArgs) -> Result<ExitCode> {
    let args = parse_args(a.args.as_deref())?;
    let env = open(a.state_dir, &a.folder, a.read_only_folder, a.run_budget_ms)?;
    let report = env.run_script(&a.script, args, a.timeout_ms, None)?;
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
    } else if let Some(result) = &report.result_text {
        println!("{result}");
    }
    match env.overlay().map(|o| o.pending()) {
        Some(Ok(pending)) if !pending.is_empty() => {
            eprintln!("folio: the script's edits are pending — review them with `folio status {}`", a.folder.display())
        }
        Some(Err(e)) => eprintln!(
            "folio: the pending edits could not be listed ({e}) — check them with `folio status {}`",
            a.folder.display()
        ),
        _ => {}
    }
    match &report.error {
        None => Ok(ExitCode::SUCCESS),
        Some(error) => {
            if !a.json {
                eprintln!("folio: {} failed after {}ms: {error}", report.script, report.duration_ms);
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
