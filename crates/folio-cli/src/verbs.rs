//! `folio verbs`: the working environment's verbs over JSON lines, for scripts and tests.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use folio_env::{Answers, EnvOptions, Environment, KeepPresented};

pub(crate) fn run(
    state_dir: Option<PathBuf>,
    folder: &Path,
    read_only: Vec<String>,
    answers: Option<PathBuf>,
) -> Result<ExitCode> {
    let asker = match answers {
        Some(file) => {
            let text = std::fs::read_to_string(&file).with_context(|| {
                format!("cannot read the answers file {} — hint: pass a JSON list of strings", file.display())
            })?;
            Some(Arc::new(Answers::parse(&text)) as Arc<dyn folio_env::Asker>)
        }
        None => None,
    };
    let options = EnvOptions {
        read_only_paths: read_only,
        presenter: Some(Arc::new(KeepPresented)),
        asker,
        ..crate::host::options(state_dir, Vec::new())?
    };
    let env = Environment::open_folder(folder, options)?;
    if let Some(recovery) = env.overlay().and_then(|o| o.recovery()) {
        eprintln!("folio: {recovery}");
    }
    for warning in env.warnings() {
        eprintln!("folio: warning: {warning}");
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    folio_env::run_jsonl(&env, stdin.lock(), stdout.lock()).context("reading calls from stdin")?;
    Ok(ExitCode::SUCCESS)
}
