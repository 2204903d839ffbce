//! `folio provenance` and `folio regenerate`: where a deliverable came from (and whether it is
//! stale), and re-running what made it with no model — both one library call
//! (`Environment::provenance`, `folio_host::regenerate`), shared with the desktop app.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use folio_env::{Standing, short_hash};
use folio_host::{RegenerateOptions, regenerate};

/// `folio provenance FOLDER PATH [--json]`. Exits 0 whatever the standing (a stale file is an
/// answer, not a failure); the JSON's `standing` says which.
pub(crate) fn show(state_dir: Option<PathBuf>, folder: &Path, path: &str, json: bool) -> Result<ExitCode> {
    let opened = crate::run::open(state_dir, folder, &crate::flags::Flags::default(), folio_workspace::Asking::Absent)?;
    let env = opened.env();
    let known = env.provenance(path)?;
    if json {
        println!("{}", serde_json::to_string(&known)?);
    } else {
        println!("{}", known.line());
        if known.standing == Standing::Stale {
            println!("regenerate it with: folio regenerate {} {}", folder.display(), known.path);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `folio regenerate FOLDER PATH [--use-current-script] [--json]`.
pub(crate) fn regen(
    state_dir: Option<PathBuf>,
    folder: &Path,
    path: &str,
    use_current_script: bool,
    flags: &crate::flags::Flags,
    json: bool,
) -> Result<ExitCode> {
    let opened = crate::run::open(state_dir, folder, flags, folio_workspace::Asking::Absent)?;
    let done = regenerate(opened.env(), path, RegenerateOptions { use_current_script })?;
    if json {
        println!("{}", serde_json::to_string(&done)?);
        return Ok(ExitCode::SUCCESS);
    }
    for note in &done.notes {
        eprintln!("folio: note: {note}");
    }
    let what = if done.changed { "regenerated" } else { "regenerated, unchanged" };
    println!(
        "{}: {what} by {} (run {}, replaying run {}; no model call)",
        done.path, done.script, done.run_id, done.from_run
    );
    println!(
        "  before: {} (blake3 {})\n  after:  {} (blake3 {})",
        folio_env::fmt_bytes(done.before.size),
        short_hash(&done.before.hash),
        folio_env::fmt_bytes(done.after.size),
        short_hash(&done.after.hash)
    );
    if !done.changed_inputs.is_empty() {
        println!("  from changed inputs: {}", done.changed_inputs.join(", "));
    }
    if done.pending {
        println!(
            "pending — review with `folio status {0}`, then `folio commit {0}` (or `folio discard {0} {1}`)",
            folder.display(),
            done.path
        );
    }
    Ok(ExitCode::SUCCESS)
}
