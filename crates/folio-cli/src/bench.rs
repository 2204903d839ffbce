//! `folio bench`: the overlay's speed on this machine, measured in a temporary directory.
//!
//! Figures: writing N changed files into the overlay, `pending()` over a folder of F files with N
//! changes, a full `walk` of the folder, and the journaled commit of the N changes. Targets on the
//! 2-core reference machine: commit of 1,000 files ≤ 1 s, `pending()` ≤ 200 ms.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use folio_vfs::{Overlay, OverlayOptions, Selection, Tree, VPath};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

pub(crate) fn run(files: usize, changed: usize) -> Result<ExitCode> {
    let changed = changed.min(files);
    let base = std::env::temp_dir().join(format!("folio-bench-{}", std::process::id()));
    let folder = base.join("folder");
    let state = base.join("state");
    for i in 0..files {
        let dir = folder.join(format!("d{:03}", i % 100));
        std::fs::create_dir_all(&dir).context("creating the benchmark folder")?;
        std::fs::write(dir.join(format!("f{i:05}.txt")), format!("original content of file {i}\n").repeat(20))
            .context("writing the benchmark folder")?;
    }
    let mut commit_ms = Vec::new();
    let mut pending_ms = Vec::new();
    let mut write_ms = Vec::new();
    let mut walk_ms = Vec::new();
    for round in 0..3 {
        let overlay = Overlay::open(&folder, OverlayOptions { state_root: Some(state.clone()), ..Default::default() })?;
        let t = Instant::now();
        for i in 0..changed {
            let path = VPath::parse(&format!("/d{:03}/f{i:05}.txt", i % 100))?;
            overlay.write(&path, format!("round {round}: new content of file {i}\n").repeat(20).as_bytes())?;
        }
        write_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let pending = overlay.pending()?;
        pending_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(pending.len() == changed, "expected {changed} pending changes, found {}", pending.len());
        let t = Instant::now();
        let seen = overlay.walk(&VPath::root())?.len();
        walk_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(seen == files, "walk saw {seen} files, expected {files}");
        let t = Instant::now();
        let report = overlay.commit(&Selection::All, &[])?;
        commit_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(report.written.len() == changed, "commit wrote {} of {changed}", report.written.len());
    }
    let _ = std::fs::remove_dir_all(&base);
    println!("folio bench — overlay, {files} files in the folder, {changed} changed (median of 3 rounds)");
    println!("  write {changed} files into the overlay   {:>9.1} ms", median(write_ms));
    println!("  pending() with {changed} changes          {:>9.1} ms   (target ≤ 200 ms)", median(pending_ms));
    println!("  walk all {files} files                {:>9.1} ms", median(walk_ms));
    println!("  commit {changed} changed files           {:>9.1} ms   (target ≤ 1000 ms)", median(commit_ms));
    Ok(ExitCode::SUCCESS)
}
