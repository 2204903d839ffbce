//! The folder's own version of a file (what is on disk now, before any commit), for the "before"
//! side of a diff and for open/reveal. Read-only: nothing here writes to the folder. The bytes
//! come through `Overlay::read_disk` (the overlay's containment check); the size and kind are
//! looked up first, refusing like the overlay a path that resolves outside the folder.

use std::path::{Path, PathBuf};

use folio_vfs::{Overlay, VPath};

/// The largest file read for a diff side; larger files are compared by size only.
pub const DIFF_READ_LIMIT: u64 = 4 * 1024 * 1024;

/// What the folder holds at a path.
#[derive(Debug, PartialEq, Eq)]
pub enum DiskSide {
    /// Nothing is there.
    Absent,
    /// A directory.
    Dir,
    /// A file of this many bytes, with its content when it is at most the limit read.
    File {
        /// Its size in bytes.
        size: u64,
        /// Its content, when it is at most the limit read ([`DIFF_READ_LIMIT`] by default).
        bytes: Option<Vec<u8>>,
    },
}

/// The host path of `path` inside `root`, refused when it resolves outside the folder.
pub fn host_path(root: &Path, path: &VPath) -> Result<PathBuf, String> {
    let rel = path.as_str().trim_start_matches('/');
    let joined = if rel.is_empty() { root.to_path_buf() } else { root.join(rel) };
    if let Ok(real) = joined.canonicalize() {
        let real_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        if !real.starts_with(&real_root) {
            return Err(format!(
                "{path} resolves outside the folder ({}) — Folio does not follow links out of the folder; open the target directly",
                real.display()
            ));
        }
    }
    Ok(joined)
}

/// Reads what the folder holds at `path` now (its bytes when at most [`DIFF_READ_LIMIT`]).
pub fn read(overlay: &Overlay, path: &VPath) -> Result<DiskSide, String> {
    read_capped(overlay, path, DIFF_READ_LIMIT)
}

/// Reads what the folder holds at `path` now, its bytes when they are at most `limit`.
pub fn read_capped(overlay: &Overlay, path: &VPath, limit: u64) -> Result<DiskSide, String> {
    let host = host_path(overlay.root(), path)?;
    let meta = match std::fs::metadata(&host) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(DiskSide::Absent),
        Err(e) => return Err(format!("{} could not be read: {e}", host.display())),
    };
    if meta.is_dir() {
        return Ok(DiskSide::Dir);
    }
    let size = meta.len();
    if size > limit {
        return Ok(DiskSide::File { size, bytes: None });
    }
    let bytes = overlay.read_disk(path).map_err(|e| format!("the folder's {path} could not be read: {e}"))?;
    Ok(DiskSide::File { size: bytes.len() as u64, bytes: Some(bytes) })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_files_dirs_and_absence_and_refuses_links_out() {
        let root = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("a.txt"), "hi").unwrap();
        std::fs::create_dir(root.path().join("d")).unwrap();
        std::fs::write(outside.path().join("secret.txt"), "no").unwrap();
        let p = |s: &str| VPath::parse(s).unwrap();
        let state = tempfile::tempdir().unwrap();
        let options = folio_vfs::OverlayOptions { state_root: Some(state.path().to_path_buf()), ..Default::default() };
        let overlay = Overlay::open(root.path(), options).unwrap();
        assert_eq!(read(&overlay, &p("/a.txt")).unwrap(), DiskSide::File { size: 2, bytes: Some(b"hi".to_vec()) });
        assert_eq!(read(&overlay, &p("/d")).unwrap(), DiskSide::Dir);
        assert_eq!(read(&overlay, &p("/nope.txt")).unwrap(), DiskSide::Absent);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(outside.path().join("secret.txt"), root.path().join("link.txt")).unwrap();
            let err = read(&overlay, &p("/link.txt")).unwrap_err();
            assert!(err.contains("resolves outside the folder"), "{err}");
        }
    }
}
