//! The staging directory of one operation: inputs copied in from the agent's tree under safe
//! names (`in-1.mp4`, never the caller's name), outputs written there by ffmpeg and read back.
//! It is a `tempfile::TempDir` named `folio-media-…`, removed when the operation ends — on
//! success, on error, on cancel and on a panic alike.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::error::MediaError;

/// One operation's staging directory.
pub struct Stage {
    dir: TempDir,
    next: usize,
}

impl Stage {
    /// A fresh directory under `root` (`None`: the system's temporary directory).
    pub fn new(root: Option<&Path>) -> Result<Stage, MediaError> {
        let mut b = tempfile::Builder::new();
        b.prefix("folio-media-");
        let dir = match root {
            Some(r) => {
                std::fs::create_dir_all(r).map_err(MediaError::io(format!("creating {}", r.display())))?;
                b.tempdir_in(r)
            }
            None => b.tempdir(),
        }
        .map_err(MediaError::io("creating the staging directory"))?;
        Ok(Stage { dir, next: 0 })
    }

    /// A directory for a probe only (`describe`): nothing is written there but the input, so on
    /// Linux it is made in the RAM-backed `/dev/shm` when there is one (a 100 MB video is staged
    /// in a third of the time the disk takes); elsewhere, or when that fails, as [`Stage::new`].
    pub fn for_probe(root: Option<&Path>) -> Result<Stage, MediaError> {
        if root.is_none() && cfg!(target_os = "linux") {
            let shm = Path::new("/dev/shm");
            if shm.is_dir()
                && let Ok(dir) = tempfile::Builder::new().prefix("folio-media-").tempdir_in(shm)
            {
                return Ok(Stage { dir, next: 0 });
            }
        }
        Stage::new(root)
    }

    /// The directory (ffmpeg runs with it as its working directory).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `bytes` as the next input, named `in-<n>.<ext of name>`; returns the bare name.
    pub fn input(&mut self, name: &str, bytes: &[u8]) -> Result<String, MediaError> {
        self.next += 1;
        let file = format!("in-{}{}", self.next, safe_ext(name));
        std::fs::write(self.dir.path().join(&file), bytes).map_err(MediaError::io(format!("staging {name}")))?;
        Ok(file)
    }

    /// A file in the directory.
    pub fn path(&self, file: &str) -> PathBuf {
        self.dir.path().join(file)
    }

    /// Reads a file ffmpeg wrote; an empty or missing one is [`MediaError::EmptyOutput`].
    pub fn output(&self, file: &str, what: &str, stderr: &str) -> Result<Vec<u8>, MediaError> {
        match std::fs::read(self.path(file)) {
            Ok(b) if !b.is_empty() => Ok(b),
            _ => Err(MediaError::EmptyOutput { what: what.to_string(), stderr: crate::error::last_lines(stderr, 4) }),
        }
    }
}

/// `.mp4` from `/in/My Clip.MP4`: the extension, lowercased, only `[a-z0-9]` kept; empty when
/// there is none.
pub fn safe_ext(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match base.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => {
            let ext: String = ext.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
            if ext.is_empty() || ext.len() > 8 { String::new() } else { format!(".{ext}") }
        }
        _ => String::new(),
    }
}

/// The extension of a tree path, lowercased, without the dot.
pub fn ext_of(name: &str) -> String {
    safe_ext(name).trim_start_matches('.').to_string()
}
