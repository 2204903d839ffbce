//! One turn per folder, across processes: an OS file lock on `turn.lock` in the folder's state
//! directory (std's `File::try_lock`, an advisory `flock` on Unix, `LockFileEx` on Windows).
//!
//! The holder writes who it is into the file (pid, which shell, since when), so a refused
//! second turn — another `folio ask`, or the app — is refused at once with a message naming the
//! other and how to proceed. The OS releases the lock when the holder's process ends, however it
//! ends, so a crashed turn never leaves a folder locked. Refusing before anything is written
//! is what keeps saved messages safe: two turns never load, extend and save the same
//! conversation side by side.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::WorkspaceError;

/// The file the lock is taken on, in the folder's state directory.
pub const LOCK_FILE: &str = "turn.lock";

/// Which shell runs a turn, for the refusal's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shell {
    /// The desktop app.
    App,
    /// `folio ask`.
    Cli,
}

impl Shell {
    fn describe(self) -> &'static str {
        match self {
            Shell::App => "the Folio app",
            Shell::Cli => "`folio ask`",
        }
    }

    fn way_out(self) -> &'static str {
        match self {
            Shell::App => "wait for it to finish or press Stop (Esc) in the app",
            Shell::Cli => "wait for it to finish or stop it (Ctrl-C in its terminal)",
        }
    }
}

/// Who holds the lock, as written in the file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Holder {
    /// The process id.
    pub pid: u32,
    /// The shell.
    pub shell: Shell,
    /// Seconds since the Unix epoch when the turn started.
    pub since: u64,
}

/// A held turn lock; dropping it releases the lock.
#[derive(Debug)]
pub struct TurnLock {
    file: File,
    path: PathBuf,
}

impl TurnLock {
    /// Where the lock file is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TurnLock {
    fn drop(&mut self) {
        // Closing the file releases the lock too; unlocking first makes it immediate.
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// `HH:MM:SS UTC` of `secs` since the epoch.
fn clock(secs: u64) -> String {
    let day = secs % 86_400;
    format!("{:02}:{:02}:{:02} UTC", day / 3600, day % 3600 / 60, day % 60)
}

/// Takes the turn lock of the folder whose state directory is `state_dir`, for `shell`; refused
/// at once when another turn holds it, naming that turn.
pub fn lock_turn(state_dir: &Path, folder: &Path, shell: Shell) -> Result<TurnLock, WorkspaceError> {
    let path = state_dir.join(LOCK_FILE);
    let io = |e: std::io::Error| {
        WorkspaceError::Busy(format!(
            "the turn lock {} could not be taken: {e} — hint: check that the state directory is writable",
            path.display()
        ))
    };
    std::fs::create_dir_all(state_dir).map_err(io)?;
    let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            let who = match serde_json::from_str::<Holder>(&text) {
                Ok(h) => format!(
                    "{} (pid {}) has been running a turn there since {}",
                    h.shell.describe(),
                    h.pid,
                    clock(h.since)
                ),
                Err(_) => "another Folio process is starting a turn there".to_owned(),
            };
            let way =
                serde_json::from_str::<Holder>(&text).map(|h| h.shell.way_out()).unwrap_or("wait for it to finish");
            return Err(WorkspaceError::Busy(format!(
                "the agent is already working in {}: {who} — {way}, then ask again (nothing was sent or saved for this request)",
                folder.display()
            )));
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
    }
    let holder = Holder { pid: std::process::id(), shell, since: now_secs() };
    let text = serde_json::to_string(&holder).unwrap_or_default();
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(text.as_bytes()))
        .and_then(|()| file.flush())
        .map_err(io)?;
    Ok(TurnLock { file, path })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_first_and_freed_when_it_drops() {
        let dir = tempfile::tempdir().unwrap();
        let first = lock_turn(dir.path(), Path::new("/f"), Shell::App).unwrap();
        // A second open file description: refused as another process would be.
        let said = lock_turn(dir.path(), Path::new("/f"), Shell::Cli).unwrap_err().to_string();
        assert!(said.contains("the Folio app") && said.contains(&format!("pid {}", std::process::id())), "{said}");
        assert!(said.contains("press Stop") && said.contains("/f"), "{said}");
        drop(first);
        lock_turn(dir.path(), Path::new("/f"), Shell::Cli).unwrap();
    }

    #[test]
    fn clock_reads_the_time_of_day() {
        assert_eq!(clock(86_400 + 3 * 3600 + 4 * 60 + 5), "03:04:05 UTC");
    }
}
