//! `folio verbs`: the working environment's verbs over JSON lines, for scripts and tests. The
//! folder opens with the stored settings under the flags, as every other subcommand's.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

pub(crate) fn run(
    state_dir: Option<PathBuf>,
    folder: &Path,
    flags: &crate::flags::Flags,
    answers: Option<PathBuf>,
) -> Result<ExitCode> {
    // Only --answers answers here: stdin carries the calls.
    let asking = match answers {
        Some(file) => crate::ask::asking(Some(&file))?,
        None => folio_workspace::Asking::Absent,
    };
    let opened = crate::run::open(state_dir, folder, flags, asking)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    folio_env::run_jsonl(opened.env(), stdin.lock(), stdout.lock()).context("reading calls from stdin")?;
    Ok(ExitCode::SUCCESS)
}
