//! `folio status`, `folio commit` and `folio discard`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use folio_vfs::{Change, ChangeKind, Overlay, OverlayOptions, Selection, VPath};

/// Exit code of a commit that left conflicts pending.
const EXIT_CONFLICTS: u8 = 3;

fn open(state_dir: Option<PathBuf>, folder: &Path) -> Result<Overlay> {
    let overlay = Overlay::open(folder, OverlayOptions { state_root: state_dir, ..OverlayOptions::default() })?;
    if let Some(recovery) = overlay.recovery() {
        eprintln!("folio: {recovery}");
    }
    Ok(overlay)
}

fn parse_paths(raw: &[String]) -> Result<Vec<VPath>> {
    raw.iter().map(|p| Ok(VPath::parse(p)?)).collect()
}

fn describe(change: &Change) -> String {
    let (mark, extra) = match &change.kind {
        ChangeKind::Added => ("A", String::new()),
        ChangeKind::Modified => ("M", String::new()),
        ChangeKind::Deleted => ("D", String::new()),
        ChangeKind::Renamed { from } => ("R", format!("  (from {from})")),
    };
    let name = if change.is_dir { format!("{}/", change.path) } else { change.path.to_string() };
    let size = match (change.size, change.base_size) {
        (Some(new), Some(old)) => format!("  {} (was {})", folio_env::fmt_bytes(new), folio_env::fmt_bytes(old)),
        (Some(new), None) => format!("  {}", folio_env::fmt_bytes(new)),
        _ => String::new(),
    };
    format!("  {mark}  {name}{extra}{size}")
}

pub(crate) fn status(state_dir: Option<PathBuf>, folder: &Path, json: bool) -> Result<ExitCode> {
    let overlay = open(state_dir, folder)?;
    let changes = overlay.pending()?;
    if json {
        let body = serde_json::json!({
            "folder": overlay.root().display().to_string(),
            "changes": changes,
            "recovery": overlay.recovery(),
        });
        println!("{body}");
        return Ok(ExitCode::SUCCESS);
    }
    let conflicts = changes.iter().filter(|c| c.conflict.is_some()).count();
    if changes.is_empty() {
        println!("{}: nothing pending", overlay.root().display());
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: {} pending change(s){}",
        overlay.root().display(),
        changes.len(),
        if conflicts > 0 { format!(", {conflicts} in conflict") } else { String::new() }
    );
    for change in &changes {
        println!("{}", describe(change));
        if let Some(conflict) = &change.conflict {
            println!("       conflict: {conflict}");
        }
    }
    if conflicts > 0 {
        println!(
            "\nhint: review each conflict; `folio commit {0} PATH --overwrite PATH` keeps the agent's version, `folio discard {0} PATH` keeps yours",
            folder.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn commit(
    state_dir: Option<PathBuf>,
    folder: &Path,
    paths: &[String],
    overwrite: &[String],
    json: bool,
) -> Result<ExitCode> {
    let overlay = open(state_dir, folder)?;
    let selection = if paths.is_empty() { Selection::All } else { Selection::Paths(parse_paths(paths)?) };
    let report = overlay.commit(&selection, &parse_paths(overwrite)?)?;
    let code = if report.conflicts.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(EXIT_CONFLICTS) };
    if json {
        println!("{}", serde_json::to_string(&report)?);
        return Ok(code);
    }
    for path in &report.written {
        println!("  wrote    {path}");
    }
    for path in &report.removed {
        println!("  removed  {path}");
    }
    for (path, conflict) in &report.conflicts {
        println!("  skipped  {path}: {conflict}");
    }
    println!(
        "committed {} change(s); {} still pending",
        report.written.len() + report.removed.len(),
        report.pending_left
    );
    if let Some((path, _)) = report.conflicts.first() {
        eprintln!(
            "folio: {} conflicting change(s) were not written — hint: `folio commit {} {path} --overwrite {path}` writes the agent's version over yours",
            report.conflicts.len(),
            folder.display()
        );
    }
    Ok(code)
}

pub(crate) fn discard(state_dir: Option<PathBuf>, folder: &Path, paths: &[String], json: bool) -> Result<ExitCode> {
    let overlay = open(state_dir, folder)?;
    let selection = if paths.is_empty() { Selection::All } else { Selection::Paths(parse_paths(paths)?) };
    let dropped = overlay.discard(&selection)?;
    if json {
        println!("{}", serde_json::json!({ "discarded": dropped }));
    } else {
        for path in &dropped {
            println!("  discarded  {path}");
        }
        println!("discarded {} change(s); the folder was not touched", dropped.len());
    }
    Ok(ExitCode::SUCCESS)
}
