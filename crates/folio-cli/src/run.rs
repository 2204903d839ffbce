//! `folio run`: runs one script of the working environment over a folder, as the agent's
//! `run_script` would — same validation, zones, limits, run log and spill files — streaming its
//! console lines to stderr while it runs. Its edits stay pending like any other (review them with
//! `folio status`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use folio_env::Environment;

/// What `folio run` was asked.
pub(crate) struct RunArgs {
    pub state_dir: Option<PathBuf>,
    pub folder: PathBuf,
    pub script: String,
    pub args: Option<String>,
    pub timeout_ms: Option<u64>,
    pub flags: crate::flags::Flags,
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

/// A folder opened for one command, with the runtime its MCP servers and vision client run on
/// (dropped after the folder).
pub(crate) struct Opened {
    pub folder: folio_workspace::Folder,
    _runtime: tokio::runtime::Runtime,
}

impl Opened {
    pub fn env(&self) -> &Environment {
        self.folder.environment()
    }
}

/// Opens `folder` as `folio run`, `verbs`, `provenance` and `regenerate` do: the stored settings
/// (script budget, vision, MCP servers, read-only choice) under `flags`, console lines on stderr.
pub(crate) fn open(
    state_dir: Option<PathBuf>,
    folder: &Path,
    flags: &crate::flags::Flags,
    asking: folio_workspace::Asking,
) -> Result<Opened> {
    let ws = crate::flags::workspace(state_dir, flags)?;
    let runtime = crate::flags::runtime()?;
    let options = folio_workspace::FolderOptions {
        on_progress: Some(crate::progress::listener(crate::progress::Style::detect())),
        asking,
        ..Default::default()
    };
    let folder = crate::flags::open(&ws, folder, options, &runtime)?;
    Ok(Opened { folder, _runtime: runtime })
}

pub(crate) fn run(a: RunArgs) -> Result<ExitCode> {
    let args = parse_args(a.args.as_deref())?;
    let opened = open(a.state_dir, &a.folder, &a.flags, folio_workspace::Asking::Absent)?;
    let env = opened.env();
    // What was pending before, so a run that edited nothing does not claim edits (the scripts
    // written with `folio verbs` are themselves pending).
    let listed = |env: &Environment| {
        env.overlay().map(|o| {
            o.pending().map(|p| p.iter().map(|c| serde_json::to_string(c).unwrap_or_default()).collect::<Vec<_>>())
        })
    };
    let before = listed(env);
    let report = env.run_script(&a.script, args, a.timeout_ms, None)?;
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
    } else if let Some(result) = &report.result_text {
        println!("{result}");
    }
    match (before, listed(env)) {
        (Some(Err(e)), _) | (_, Some(Err(e))) => eprintln!(
            "folio: the pending edits could not be listed ({e}) — check them with `folio status {}`",
            a.folder.display()
        ),
        (Some(Ok(before)), Some(Ok(after))) if before != after => {
            eprintln!("folio: the script's edits are pending — review them with `folio status {}`", a.folder.display())
        }
        (_, Some(Ok(after))) if after.is_empty() => eprintln!("folio: the script changed no file — nothing is pending"),
        (_, Some(Ok(after))) => eprintln!(
            "folio: the script changed no file; {} earlier change(s) are still pending — `folio status {}` lists them",
            after.len(),
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
