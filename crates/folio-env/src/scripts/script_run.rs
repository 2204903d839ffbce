//! One script run as the verbs see it: the pre-flight refusals, the run itself on the
//! engine with the environment's `env:fs`, the formatted reply with oversized sections spilled to
//! `/tmp/run-<id>.*`, and one line in the run log.
//!
//! Spill files are one per section so nothing overwrites anything: the result goes to `.out`, an
//! error body to `.err`, stdout to `.log` and stderr to `.stderr` (the reference wrote both the
//! error body and stderr to `.err`, so one overwrote the other).

use std::sync::Arc;

use folio_script::{CancelToken, RunOptions, RunResult, RunValue};
use folio_vfs::{Kind, Tree, VPath};
use serde::Serialize;
use serde_json::Value;

use super::EnvFs;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{iso, now_ms};
use crate::provenance::RunOrigin;
use crate::provenance::trace::RunTrace;
use crate::runlog::RunRecord;

/// A finished run, for hosts (the CLI prints it; the verb turns it into its reply).
#[derive(Debug, Clone, Serialize)]
pub struct RunReport {
    /// The run's id (also in progress lines and spill file names).
    pub run_id: String,
    /// The script.
    pub script: String,
    /// True when the default export returned without throwing.
    pub ok: bool,
    /// The result as JSON (`null` for `undefined`, or for a value JSON cannot carry).
    pub result: Value,
    /// The result as the reply shows it: pretty JSON, `undefined`, or an inspect rendering.
    pub result_text: Option<String>,
    /// The error, when the run failed.
    pub error: Option<String>,
    /// Console lines on stdout.
    pub stdout: Vec<String>,
    /// Console lines on stderr.
    pub stderr: Vec<String>,
    /// Wall-clock milliseconds, measured by the host.
    pub duration_ms: u64,
    /// The first spill file written, if any.
    pub spill: Option<String>,
    /// The formatted reply.
    #[serde(skip)]
    pub text: String,
}

impl RunReport {
    /// The first line of the error, at most 400 characters (the verb's message on failure).
    pub fn short_error(&self) -> String {
        let first = self.error.as_deref().unwrap_or("").lines().next().unwrap_or("");
        first.chars().take(400).collect()
    }
}

fn render(value: &RunValue) -> (Value, String) {
    match value {
        RunValue::Undefined => (Value::Null, "undefined".to_owned()),
        RunValue::Json(v) => (v.clone(), serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())),
        RunValue::Display(text) => (Value::Null, text.clone()),
    }
}

fn clip(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

/// The pre-flight refusals, before any engine work.
pub(crate) fn preflight(env: &Environment, path: &VPath) -> Result<()> {
    let tree = env.tree();
    if VPath::parse("/std").is_ok_and(|std| path.is_under(&std)) {
        let module = path.segments().nth(1).unwrap_or("fs").to_owned();
        return Err(EnvError::refused(format!(
            "Write a script under /scripts that imports it, and run that instead: import {{ … }} from 'env:{module}'. ({path} is a type declaration — /std is documentation, not runnable code.)"
        )));
    }
    match tree.stat(path)? {
        None => {
            let scripts: Vec<String> = VPath::parse("/scripts")
                .ok()
                .and_then(|d| tree.list(&d).ok())
                .unwrap_or_default()
                .into_iter()
                .filter(|e| e.kind == Kind::File && e.name.ends_with(".js"))
                .map(|e| format!("/scripts/{}", e.name))
                .collect();
            if scripts.is_empty() {
                Err(EnvError::refused(format!(
                    "no such script: {path}. /scripts is empty — write_file the script first."
                )))
            } else {
                let more = if scripts.len() > 8 { format!(", +{} more", scripts.len() - 8) } else { String::new() };
                Err(EnvError::refused(format!(
                    "no such script: {path}. Existing scripts: {}{more}.",
                    scripts[..scripts.len().min(8)].join(", ")
                )))
            }
        }
        Some(s) if s.kind == Kind::Dir => {
            Err(EnvError::refused(format!("{path} is a directory, not a script. Name the .js file to run.")))
        }
        Some(_) if path.extension() != Some("js") => Err(EnvError::refused(format!(
            "{path} is not a .js file. run_script executes JavaScript modules under /scripts."
        ))),
        Some(_) => Ok(()),
    }
}

/// Runs `path` on the engine with `args`; `None` when scripts are off.
pub(crate) fn execute(
    env: &Environment,
    path: &VPath,
    args: &Value,
    timeout_ms: Option<u64>,
    cancel: Option<&CancelToken>,
    run_id: &str,
    trace: Arc<RunTrace>,
) -> Result<RunResult> {
    let Some(scripts) = env.scripts.as_ref() else {
        return Err(EnvError::refused(
            "scripts are turned off in this environment (EnvOptions::no_scripts) — do the work with the file verbs instead",
        ));
    };
    let token = cancel.cloned().unwrap_or_default();
    let _tracked = scripts.track(&token);
    let args_json = serde_json::to_string(args).unwrap_or_else(|_| "{}".to_owned());
    let options = RunOptions {
        timeout_ms,
        cancel: Some(token),
        on_progress: env.opts.on_progress.clone(),
        run_id: Some(run_id.to_owned()),
        ceiling_ms: Some(env.opts.limits.run_timeout_ms),
        raise: env.opts.budget_raise.clone(),
    };
    let fs = Arc::new(EnvFs::new(env.gateway.clone(), trace));
    Ok(scripts.engine.run_blocking(fs, path, Some(&args_json), options))
}

/// The log's copy of a run's arguments: as-is up to 500 characters of JSON, else a clipped string.
fn logged_args(args: &Value) -> Value {
    let text = args.to_string();
    let n = text.chars().count();
    if n <= 500 { args.clone() } else { Value::String(format!("{}… [{n} chars total]", clip(&text, 500))) }
}

/// Appends one run to the run log. A failure to log never fails the run (it already happened):
/// the reason is returned as a note for the reply, so the refusal (a full tree, say) is seen.
pub(crate) fn log(env: &Environment, report: &RunReport, args: &Value, kind: &str, started_ms: i64) -> Option<String> {
    let preview = match &report.error {
        Some(e) => clip(e, 200),
        None => clip(&report.result_text.clone().unwrap_or_default(), 200),
    };
    let record = RunRecord {
        ts: iso(started_ms),
        script: report.script.clone(),
        args: logged_args(args),
        ok: report.ok,
        kind: kind.to_owned(),
        ms: report.duration_ms,
        preview,
        spill: report.spill.clone(),
    };
    crate::record_run(env, &record)
        .err()
        .map(|e| format!("(this run was not recorded in {}: {e})", crate::runlog::PATH))
}

/// Builds the report of a settled run; `spill` decides whether oversized sections go to files.
pub(crate) fn report(env: &Environment, path: &VPath, run: RunResult, spill: bool) -> RunReport {
    let id = run.run_id.clone();
    let mut spills: Vec<String> = Vec::new();
    let mut fit = |text: &str, share: f64, ext: &str| -> String {
        if !spill {
            return text.to_owned();
        }
        let (body, file) = env.spill_to(text, share, &format!("/tmp/run-{id}.{ext}"));
        spills.extend(file);
        body
    };
    let ms = run.duration_ms;
    let (ok, result, result_text, error, mut sections) = match &run.outcome {
        Ok(value) => {
            let (json, text) = render(value);
            let body = fit(&text, 0.7, "out");
            (true, json, Some(text), None, vec![format!("ok ({ms}ms)"), format!("result:\n{body}")])
        }
        Err(e) => {
            let text = e.to_string();
            let body = fit(&text, 0.7, "err");
            (false, Value::Null, None, Some(text), vec![format!("error ({ms}ms)"), body])
        }
    };
    // The advisory argument note leads the reply; it never blocks the run.
    if let Some(note) = &run.arg_note {
        sections.insert(0, note.clone());
    }
    if !run.stdout.is_empty() {
        sections.push(format!("stdout:\n{}", fit(&run.stdout.join("\n"), 0.3, "log")));
    }
    if !run.stderr.is_empty() {
        sections.push(format!("stderr:\n{}", fit(&run.stderr.join("\n"), 0.3, "stderr")));
    }
    RunReport {
        run_id: id.clone(),
        script: path.to_string(),
        ok,
        result,
        result_text,
        error,
        stdout: run.stdout,
        stderr: run.stderr,
        duration_ms: ms,
        spill: spills.into_iter().next(),
        text: sections.join("\n"),
    }
}

impl Environment {
    /// Runs the script at `path` with `args`: pre-flight checks, the run (bounded by
    /// `timeout_ms`, never more than `limits.run_timeout_ms`; stopped when `cancel` is
    /// cancelled or [`Environment::cancel_runs`] is called), the formatted reply with oversized
    /// sections spilled to `/tmp/run-<id>.*`, and a line in `/.env/history.jsonl`. A script that
    /// fails is an `Ok` report with `ok: false`; `Err` means it never started (no such script,
    /// not a `.js` file, scripts turned off).
    ///
    /// The run counts as [`RunOrigin::Direct`] (no model): see [`Environment::run_script_as`].
    pub fn run_script(
        &self,
        path: &str,
        args: Value,
        timeout_ms: Option<u64>,
        cancel: Option<&CancelToken>,
    ) -> Result<RunReport> {
        self.run_script_as(path, args, timeout_ms, cancel, &RunOrigin::Direct)
    }

    /// [`Environment::run_script`] on behalf of `origin`: every file the run leaves under `/out`
    /// gets a provenance record naming the script (and its hash), the arguments, each file the
    /// run read (and its hash), the run id and `origin`. A record that cannot be stored never
    /// fails the run (it happened); the reason is added to the reply.
    pub fn run_script_as(
        &self,
        path: &str,
        args: Value,
        timeout_ms: Option<u64>,
        cancel: Option<&CancelToken>,
        origin: &RunOrigin,
    ) -> Result<RunReport> {
        let path = VPath::parse(path)?;
        preflight(self, &path)?;
        let script_hash = crate::provenance::content_hash(&self.tree().read(&path)?);
        let started = now_ms();
        let run_id = self.next_run_id();
        let trace = Arc::new(RunTrace::default());
        let run = execute(self, &path, &args, timeout_ms, cancel, &run_id, trace.clone())?;
        let mut report = report(self, &path, run, true);
        if let Some(note) = log(self, &report, &args, "run", started) {
            report.text.push_str(&format!("\n{note}"));
        }
        let made = crate::provenance::MadeBy { script: &path, script_hash, args: &args, run_id: &run_id, origin };
        if let Err(e) = crate::provenance::record_run(self.tree(), &self.provenance, &trace, &made) {
            report.text.push_str(&format!("\n(the provenance of this run's /out files was not recorded: {e})"));
        }
        Ok(report)
    }
}
