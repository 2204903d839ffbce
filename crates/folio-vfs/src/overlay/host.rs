//! The host side of the overlay: mapping VFS paths onto the real folder, containment after symlink
//! resolution, fingerprints, and the folder's case sensitivity.
//!
//! **Containment.** Every disk access resolves the host path with `realpath` on its longest existing
//! prefix (a file about to be created has no real path, so its nearest existing ancestor is
//! checked) and refuses anything that does not land inside the folder's real root. A link that
//! leaves the folder, or a parent directory that is such a link, is refused by name; links that
//! stay inside behave like what they point at.
//!
//! **Case.** VFS paths are case-sensitive everywhere. On a case-insensitive host folder (the
//! default on macOS and Windows) `/Report.pdf` and `/report.pdf` are one host file, so the overlay
//! reports a new path whose name differs only in case from an existing host entry, or from
//! another new path, as a conflict (`case collision`) and never commits it unless told to
//! overwrite. Reads fall through to the host, which resolves the name as the OS does.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::error::{Result, VfsError};
use crate::path::VPath;

/// How the overlay treats names that differ only in case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CaseMode {
    /// Probe the folder at open (see [`detect_case_insensitive`]).
    #[default]
    Detect,
    /// The host distinguishes `a` from `A`.
    Sensitive,
    /// The host folds case: new names are checked for collisions.
    Insensitive,
}

/// The host state of one path, after containment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HostState {
    Absent,
    File {
        size: u64,
        mtime_ns: i64,
    },
    Dir,
    /// A FIFO, socket or device: never shown, never overwritten.
    Other,
}

/// What a host file was when the overlay first shadowed it. `hash` is absent for files over
/// [`HASH_LIMIT`] and for bulk directory removals, where size and mtime alone decide.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fingerprint {
    /// Bytes.
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch.
    pub mtime_ns: i64,
    /// blake3 of the content, hex.
    pub hash: Option<String>,
}

/// Files larger than this are fingerprinted by size and mtime only.
pub(crate) const HASH_LIMIT: u64 = 64 * 1024 * 1024;

/// The real folder under the overlay.
#[derive(Debug)]
pub(crate) struct HostRoot {
    pub(crate) root: PathBuf,
    pub(crate) case_insensitive: bool,
}

/// The tree error for a failed read of `host`, the host path of `path`.
pub(crate) fn read_err(path: &VPath, host: &Path, err: io::Error) -> VfsError {
    match err.kind() {
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => VfsError::NoSuchFile(path.clone()),
        io::ErrorKind::IsADirectory => VfsError::ReadDirectory(path.clone()),
        _ => VfsError::host("read", host, err),
    }
}

fn mtime_ns(meta: &fs::Metadata) -> i64 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as i64)
}

impl HostRoot {
    /// Opens `folder`, resolving it to its real path.
    pub(crate) fn open(folder: &Path, case: CaseMode) -> Result<HostRoot> {
        let root = fs::canonicalize(folder).map_err(|source| VfsError::Host {
            op: "open folder",
            path: folder.display().to_string(),
            source,
            hint: "check that the folder exists and that Folio may read it",
        })?;
        if !root.is_dir() {
            return Err(VfsError::Host {
                op: "open folder",
                path: root.display().to_string(),
                source: io::Error::other("not a directory"),
                hint: "pick a folder, not a file",
            });
        }
        let case_insensitive = match case {
            CaseMode::Sensitive => false,
            CaseMode::Insensitive => true,
            CaseMode::Detect => detect_case_insensitive(&root, std::env::consts::OS),
        };
        Ok(HostRoot { root, case_insensitive })
    }

    /// The host path for `path`, without any check.
    pub(crate) fn join(&self, path: &VPath) -> PathBuf {
        let mut host = self.root.clone();
        for segment in path.segments() {
            host.push(segment);
        }
        host
    }

    /// The VFS path for a host path under the root.
    pub(crate) fn vpath(&self, host: &Path) -> Option<VPath> {
        let rel = host.strip_prefix(&self.root).ok()?;
        let mut out = String::new();
        for part in rel.components() {
            out.push('/');
            out.push_str(part.as_os_str().to_str()?);
        }
        if out.is_empty() { Some(VPath::root()) } else { VPath::parse(&out).ok() }
    }

    /// The host path for `path` after checking that it (or its nearest existing ancestor) resolves
    /// inside the folder.
    pub(crate) fn contained(&self, path: &VPath) -> Result<PathBuf> {
        let host = self.join(path);
        let mut probe = host.clone();
        loop {
            match fs::canonicalize(&probe) {
                Ok(real) => {
                    if real.starts_with(&self.root) {
                        return Ok(host);
                    }
                    return Err(VfsError::EscapesFolder { path: path.clone(), resolved: real.display().to_string() });
                }
                Err(err) if err.kind() == io::ErrorKind::NotFound || err.kind() == io::ErrorKind::NotADirectory => {
                    if !probe.pop() || !probe.starts_with(&self.root) {
                        return Err(VfsError::host("resolve", &host, err));
                    }
                }
                Err(err) => return Err(VfsError::host("resolve", &host, err)),
            }
        }
    }

    /// What is on disk at `path` (following links that stay inside).
    pub(crate) fn state(&self, path: &VPath) -> Result<HostState> {
        self.state_at(&self.contained(path)?)
    }

    /// [`HostRoot::state`] of a host path [`HostRoot::contained`] already returned, for a caller
    /// that checked containment itself and must not pay for it twice.
    pub(crate) fn state_at(&self, host: &Path) -> Result<HostState> {
        match fs::metadata(host) {
            Ok(meta) if meta.is_file() => Ok(HostState::File { size: meta.len(), mtime_ns: mtime_ns(&meta) }),
            Ok(meta) if meta.is_dir() => Ok(HostState::Dir),
            Ok(_) => Ok(HostState::Other),
            Err(err) if err.kind() == io::ErrorKind::NotFound || err.kind() == io::ErrorKind::NotADirectory => {
                Ok(HostState::Absent)
            }
            Err(err) => Err(VfsError::host("stat", host, err)),
        }
    }

    /// Reads a host file.
    pub(crate) fn read(&self, path: &VPath) -> Result<Vec<u8>> {
        let host = self.contained(path)?;
        fs::read(&host).map_err(|err| read_err(path, &host, err))
    }

    /// Reads `len` bytes of a host file from `offset` (see [`crate::range::read_file_range`]),
    /// through the same containment check as [`HostRoot::read`].
    pub(crate) fn read_range(&self, path: &VPath, offset: u64, len: u64) -> Result<Vec<u8>> {
        let host = self.contained(path)?;
        crate::range::read_file_range(&host, offset, len).map_err(|err| read_err(path, &host, err))
    }

    /// The fingerprint of the host file at `path`; `None` when it is not a regular file.
    pub(crate) fn fingerprint(&self, path: &VPath, with_hash: bool) -> Result<Option<Fingerprint>> {
        self.fingerprint_at(&self.contained(path)?, with_hash)
    }

    /// [`HostRoot::fingerprint`] of a host path [`HostRoot::contained`] already returned.
    pub(crate) fn fingerprint_at(&self, host: &Path, with_hash: bool) -> Result<Option<Fingerprint>> {
        let meta = match fs::metadata(host) {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => return Ok(None),
            Err(err) if err.kind() == io::ErrorKind::NotFound || err.kind() == io::ErrorKind::NotADirectory => {
                return Ok(None);
            }
            Err(err) => return Err(VfsError::host("stat", host, err)),
        };
        let hash = if with_hash && meta.len() <= HASH_LIMIT { Some(hash_file(host)?) } else { None };
        Ok(Some(Fingerprint { size: meta.len(), mtime_ns: mtime_ns(&meta), hash }))
    }

    /// True when the host file at `path` still is what `base` recorded: same size and mtime, or
    /// same size and content (a touch is not an edit).
    pub(crate) fn matches(&self, path: &VPath, base: &Fingerprint) -> Result<bool> {
        match self.state(path)? {
            HostState::File { size, mtime_ns } if size == base.size => {
                if mtime_ns == base.mtime_ns {
                    return Ok(true);
                }
                match &base.hash {
                    Some(expected) => Ok(hash_file(&self.join(path))? == *expected),
                    None => Ok(false),
                }
            }
            _ => Ok(false),
        }
    }

    /// The children of the host directory for `dir` with their states, skipping names `skip`
    /// rejects. Only symlinked children pay for a containment check: a plain child of a contained
    /// directory is contained. Children whose link leaves the folder are left out.
    pub(crate) fn children(&self, dir: &VPath, skip: impl Fn(&str) -> bool) -> Result<Vec<(String, HostState)>> {
        let host = self.contained(dir)?;
        let reader = match fs::read_dir(&host) {
            Ok(r) => r,
            Err(err) if matches!(err.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory) => {
                return Ok(Vec::new());
            }
            Err(err) => return Err(VfsError::host("list", &host, err)),
        };
        let mut out = Vec::new();
        for entry in reader {
            let entry = entry.map_err(|e| VfsError::host("list", &host, e))?;
            let Ok(name) = entry.file_name().into_string() else { continue };
            if skip(&name) {
                continue;
            }
            let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
            let state = if is_link {
                let Ok(child) = dir.join(&name) else { continue };
                match self.state(&child) {
                    Ok(state) => state,
                    Err(_) => continue,
                }
            } else {
                match entry.metadata() {
                    Ok(meta) if meta.is_file() => HostState::File { size: meta.len(), mtime_ns: mtime_ns(&meta) },
                    Ok(meta) if meta.is_dir() => HostState::Dir,
                    _ => continue,
                }
            };
            out.push((name, state));
        }
        Ok(out)
    }

    /// The existing host name in `dir` that equals `name` ignoring case but not exactly.
    pub(crate) fn case_twin(&self, dir: &VPath, name: &str) -> Result<Option<String>> {
        let lower = name.to_lowercase();
        Ok(self.children(dir, |_| false)?.into_iter().map(|(n, _)| n).find(|n| n != name && n.to_lowercase() == lower))
    }
}

/// blake3 of a file's content, hex.
pub(crate) fn hash_file(path: &Path) -> Result<String> {
    let mut hasher = blake3::Hasher::new();
    let file = fs::File::open(path).map_err(|e| VfsError::host("read", path, e))?;
    hasher.update_reader(file).map_err(|e| VfsError::host("read", path, e))?;
    Ok(hasher.finalize().to_hex().to_string())
}

/// Decides whether the folder at `root` folds case. It flips the case of the deepest path
/// component that has a letter and checks whether the flipped path names the same directory; when
/// no component has a letter it falls back to the platform's default (`os` as in
/// `std::env::consts::OS`: macOS and Windows fold case, others do not).
pub fn detect_case_insensitive(root: &Path, os: &str) -> bool {
    let platform_default = matches!(os, "macos" | "windows" | "ios");
    let mut probe = root.to_path_buf();
    let mut suffix: Vec<std::ffi::OsString> = Vec::new();
    while let Some(name) = probe.file_name().map(|n| n.to_os_string()) {
        if let Some(text) = name.to_str() {
            let flipped: String = text
                .chars()
                .map(|c| if c.is_lowercase() { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
                .collect();
            if flipped != text {
                let mut other = probe.clone();
                other.set_file_name(&flipped);
                for part in suffix.iter().rev() {
                    other.push(part);
                }
                return same_file(root, &other);
            }
        }
        suffix.push(name);
        if !probe.pop() {
            break;
        }
    }
    platform_default
}

#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x.to_string_lossy().to_lowercase() == y.to_string_lossy().to_lowercase(),
        _ => false,
    }
}
