//! Form flattening through Debian's `qpdf` (`--generate-appearances --flatten-annotations=all`),
//! the one outside tool env:documents uses. It is looked up on `PATH` (or `FOLIO_QPDF_PATH`)
//! before anything runs and refused with the install command when absent; it runs supervised
//! by folio-budget in its own process group, bounded by its own timeout and the run's deadline.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_budget::{ChildEnd, ChildLimits, RunBudget};

use crate::error::{DocsError, Result};

/// The longest one flattening may take.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// qpdf on this host.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FOLIO_QPDF_PATH").map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(if cfg!(windows) { "qpdf.exe" } else { "qpdf" })).find(|p| p.is_file())
}

fn missing() -> DocsError {
    DocsError::Invalid(
        "fillForm {flatten: true} needs qpdf, which is not installed on this host — hint: the person can install it (Debian/Ubuntu: `sudo apt install qpdf`, macOS: `brew install qpdf`, Windows: `winget install qpdf`), or fill without flatten: viewers still show the values".into(),
    )
}

/// Whether flattening can run here, checked before any work.
pub fn require() -> Result<PathBuf> {
    find().ok_or_else(missing)
}

/// WinAnsi's characters past Latin-1's printable range.
const WIN_ANSI_EXTRA: &str = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

/// qpdf draws appearances with the form's own font in WinAnsi, and writes `?` for anything
/// else; so a value it cannot draw is refused by name before qpdf runs.
pub fn check_values(values: &serde_json::Value) -> Result<()> {
    let mut bad = Vec::new();
    if let serde_json::Value::Object(m) = values {
        for v in m.values().filter_map(serde_json::Value::as_str) {
            for c in v.chars() {
                let ok = c.is_control() || (c as u32) < 0x100 || WIN_ANSI_EXTRA.contains(c);
                if !ok && !bad.contains(&c) {
                    bad.push(c);
                }
            }
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    Err(DocsError::Invalid(format!(
        "fillForm {{flatten: true}}: qpdf draws flattened values with the form's own Western (WinAnsi) font, so {} would become '?' — hint: fill without flatten (viewers draw the values with their own fonts), or use Latin characters",
        folio_fonts::describe_chars(&bad)
    )))
}

/// Generates appearances and flattens every annotation of `bytes`.
pub fn flatten(qpdf: &PathBuf, path: &str, bytes: &[u8], budget: &RunBudget) -> Result<Vec<u8>> {
    let dir =
        tempfile::tempdir().map_err(|e| DocsError::Fs(format!("cannot make a temporary directory for qpdf: {e}")))?;
    let (input, output) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
    std::fs::write(&input, bytes).map_err(|e| DocsError::Fs(format!("cannot stage {path} for qpdf: {e}")))?;
    let mut cmd = Command::new(qpdf);
    cmd.arg("--generate-appearances").arg("--flatten-annotations=all").arg(&input).arg(&output);
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let b = budget.clone();
    let limits = ChildLimits {
        timeout: TIMEOUT,
        deadline: budget.remaining().map(|r| Instant::now() + r),
        memory_bytes: Some(1024 * 1024 * 1024),
        cancel: Some(Arc::new(move || b.is_cancelled())),
    };
    let outcome = folio_budget::child::run(&mut cmd, &limits).map_err(|e| {
        DocsError::Invalid(format!("qpdf ({}) could not start: {e} — hint: reinstall qpdf", qpdf.display()))
    })?;
    match outcome.end {
        // qpdf exits 3 for "succeeded with warnings".
        ChildEnd::Exited(s) if s.success() || s.code() == Some(3) => {}
        ChildEnd::Exited(s) => {
            return Err(DocsError::Damaged {
                path: path.to_string(),
                detail: format!("qpdf could not flatten it (exit {s})"),
                fix: "fill it without flatten".into(),
            });
        }
        ChildEnd::Cancelled => return Err(DocsError::Budget("the run was cancelled while qpdf was flattening".into())),
        other => {
            return Err(DocsError::Budget(format!(
                "qpdf was stopped while flattening {path} ({other:?}) — hint: fill without flatten, or give the run more time"
            )));
        }
    }
    std::fs::read(&output).map_err(|e| DocsError::Fs(format!("qpdf wrote no output for {path}: {e}")))
}
