//! `folio verbs`: the working environment's verbs over JSON lines, for scripts and tests.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use folio_env::{Answers, KeepPresented};
use folio_host::{Host, Seams};

pub(crate) fn run(
    state_dir: Option<PathBuf>,
    folder: &Path,
    read_only: Vec<String>,
    read_only_folder: bool,
    run_budget_ms: Option<u64>,
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
    let host = Host::builder().state_dir(state_dir).build()?;
    let seams = Seams {
        read_only_paths: read_only,
        read_only_folder,
        run_budget_ms,
        presenter: Some(Arc::new(KeepPresented)),
        asker,
        ..Seams::default()
    };
    let env = host.open_folder(folder, seams)?;
    if let Some(recovery) = env.overlay().and_then(|o| o.recovery()) {
        eprintln!("folio: {recovery}");
    }
    for warning in host.warnings().iter().chain(env.warnings()) {
        eprintln!("folio: warning: {warning}");
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    folio_env::run_jsonl(&env, stdin.lock(), stdout.lock()).context("reading calls from stdin")?;
    Ok(ExitCode::SUCCESS)
}
