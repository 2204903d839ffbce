//! Ends the LibreOffice processes this test process started, and only those: a conversion's
//! input lives in `<temp>/folio-office-<our pid>-<n>/`, so a process whose command line names
//! that directory is ours (`soffice` and the `soffice.bin` it starts both carry it). Each is
//! killed by its id. Used after an Office row ran out its bound, so an orphan neither stalls the
//! next conversion nor outlives the test (the budget facility will do this in the product).

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many processes [`end_own_office_children`] has ended in this run.
pub static ENDED: AtomicUsize = AtomicUsize::new(0);

/// Kills this process's own LibreOffice conversions; returns how many were ended.
pub fn end_own_office_children() -> usize {
    let marker = format!("folio-office-{}-", std::process::id());
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    let mut ended = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if pid == std::process::id() {
            continue;
        }
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        if String::from_utf8_lossy(&cmdline).contains(&marker) {
            let killed = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            if killed.is_ok_and(|s| s.success()) {
                ended += 1;
            }
        }
    }
    ENDED.fetch_add(ended, Ordering::Relaxed);
    ended
}
