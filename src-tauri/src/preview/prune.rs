//! The preview cache's bound. Everything under a folder's `previews/` (webm transcodes, rendered
//! pages, media probes, scene frames, review diff pictures) is named by content and made again
//! on demand, so it is a cache, not the person's work: when a folder opens, the oldest files go
//! until the cache is under [`CAP_BYTES`]. LibreOffice's profile is not a cache and is kept, and
//! so is any file touched in the last [`KEEP_RECENT`] (a picture the open window may still ask
//! for).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The most a folder's preview cache keeps, in bytes (1 GiB).
pub const CAP_BYTES: u64 = 1 << 30;

/// Files modified this recently are never removed.
pub const KEEP_RECENT: Duration = Duration::from_secs(15 * 60);

/// Directories under `previews/` that are not cached content.
const KEPT_DIRS: &[&str] = &["libreoffice-profile"];

/// What a prune did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Files removed.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
    /// What the cache held before.
    pub before: u64,
}

/// Removes the oldest files under `root` until it holds at most `cap` bytes, keeping what was
/// modified after `now - KEEP_RECENT`. Files that cannot be read or removed are passed over (the
/// next open tries again); a missing `root` is an empty cache.
pub fn prune(root: &Path, cap: u64, now: SystemTime) -> Pruned {
    let mut files = Vec::new();
    walk(root, true, &mut files);
    let before: u64 = files.iter().map(|(_, size, _)| size).sum();
    let mut out = Pruned { before, ..Pruned::default() };
    if before <= cap {
        return out;
    }
    files.sort_by_key(|(_, _, modified)| *modified);
    let mut held = before;
    let recent = now.checked_sub(KEEP_RECENT).unwrap_or(SystemTime::UNIX_EPOCH);
    for (path, size, modified) in files {
        if held <= cap {
            break;
        }
        if modified >= recent {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            held -= size;
            out.files += 1;
            out.bytes += size;
        }
    }
    out
}

fn walk(dir: &Path, top: bool, out: &mut Vec<(PathBuf, u64, SystemTime)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = entry.metadata() else { continue };
        if meta.is_dir() {
            let kept = top && KEPT_DIRS.iter().any(|k| entry.file_name() == *k);
            if !kept {
                walk(&path, false, out);
            }
        } else if meta.is_file() {
            out.push((path, meta.len(), meta.modified().unwrap_or(SystemTime::UNIX_EPOCH)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(dir: &Path, name: &str, bytes: usize, age_s: u64, now: SystemTime) -> PathBuf {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, vec![0u8; bytes]).unwrap();
        let f = std::fs::File::options().write(true).open(&path).unwrap();
        f.set_modified(now - Duration::from_secs(age_s)).unwrap();
        path
    }

    #[test]
    fn the_oldest_go_first_until_under_the_cap_and_recent_files_and_the_profile_stay() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let now = SystemTime::now();
        let hour = 3600;
        let oldest = file(root, "media/a.webm", 400, 5 * hour, now);
        let older = file(root, "diff/b.png", 300, 4 * hour, now);
        let old = file(root, "pages/c.png", 200, 3 * hour, now);
        let recent = file(root, "diff/d.png", 500, 60, now);
        let profile = file(root, "libreoffice-profile/user/registrymodifications.xcu", 900, 9 * hour, now);

        // 1,400 bytes of cache (the profile is not counted); a cap of 800 removes the two oldest.
        let pruned = prune(root, 800, now);
        assert_eq!(pruned, Pruned { files: 2, bytes: 700, before: 1400 });
        assert!(!oldest.exists() && !older.exists());
        assert!(old.exists() && recent.exists() && profile.exists());

        // Under the cap: nothing moves.
        assert_eq!(prune(root, 800, now), Pruned { files: 0, bytes: 0, before: 700 });

        // A cap only recent files could meet: they stay, the old one goes.
        let pruned = prune(root, 100, now);
        assert_eq!((pruned.files, pruned.bytes), (1, 200));
        assert!(recent.exists() && !old.exists());

        // No cache yet.
        assert_eq!(prune(&root.join("missing"), 0, now), Pruned::default());
    }
}
