//! Opening a file with the system's default application. A file the folder holds unchanged opens
//! in place; a pending file (new or changed by the agent) or a zone file opens as a read-only copy
//! in the preview cache, since the folder does not have those bytes until a commit.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::error::PreviewError;
use super::{Previews, Version, checked_path, content_hash, read};
use crate::api::PreviewOpenResponse;
use crate::session::Session;

/// The command that hands a file to the default application on this platform.
fn launcher(file: &Path) -> (Command, &'static str) {
    if cfg!(target_os = "macos") {
        let mut cmd = Command::new("open");
        cmd.arg(file);
        (cmd, "open")
    } else if cfg!(windows) {
        let mut cmd = Command::new("cmd");
        cmd.args(["/C", "start", ""]).arg(file);
        (cmd, "cmd /C start")
    } else {
        let mut cmd = Command::new("xdg-open");
        cmd.arg(file);
        (cmd, "xdg-open")
    }
}

/// Starts the default application on `file` and waits briefly for the launcher's verdict.
fn launch(path: &str, file: &Path) -> Result<(), PreviewError> {
    let (mut cmd, name) = launcher(file);
    let fail = |why: String| PreviewError::Open { path: path.to_string(), why };
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().map_err(|e| {
        fail(format!("{name} could not start ({e}) — install it (on Debian/Ubuntu: sudo apt-get install xdg-utils)"))
    })?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Ok(()),
            Ok(Some(status)) => {
                return Err(fail(format!(
                    "{name} reported {status} — no application is set up for this kind of file; pick one in your system settings"
                )));
            }
            // Still running after the deadline: the application took over; leave it be and reap it later.
            Ok(None) if Instant::now() > deadline => {
                std::thread::spawn(move || child.wait());
                return Ok(());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(fail(format!("{name} could not be waited for: {e}"))),
        }
    }
}

impl Previews {
    /// The host file to open for `path`: the folder's own file when unchanged, else a copy.
    pub fn openable(&self, session: &Session, raw: &str) -> Result<(PathBuf, bool), PreviewError> {
        let at = checked_path(raw)?;
        let path = at.to_string();
        let current = read(session, &at, Version::Current)?;
        let on_disk = read(session, &at, Version::Base).ok();
        if on_disk.as_deref() == Some(&current[..])
            && let Some(overlay) = session.environment().overlay()
        {
            let root = overlay.root().canonicalize().unwrap_or_else(|_| overlay.root().to_path_buf());
            let host = root.join(path.trim_start_matches('/'));
            if let Ok(real) = host.canonicalize()
                && real.starts_with(&root)
            {
                return Ok((real, false));
            }
        }
        let name = path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or("file");
        let dir = self.cache_dir(session, &format!("open/{}", content_hash(&current)))?;
        let copy = dir.join(name);
        if !copy.is_file() {
            std::fs::write(&copy, &current)
                .map_err(|e| PreviewError::Cache { dir: dir.display().to_string(), why: e.to_string() })?;
            if let Ok(meta) = std::fs::metadata(&copy) {
                let mut perms = meta.permissions();
                perms.set_readonly(true);
                let _ = std::fs::set_permissions(&copy, perms);
            }
        }
        Ok((copy, true))
    }

    /// Opens `path` with the default application.
    pub fn open(&self, session: &Session, raw: &str) -> Result<PreviewOpenResponse, PreviewError> {
        let (file, is_copy) = self.openable(session, raw)?;
        launch(raw, &file)?;
        Ok(PreviewOpenResponse { opened: file.display().to_string(), is_copy })
    }
}
