//! The host side of the overlay: mapping VFS paths onto the real folder, containment after symlink
//! resolution, fingerprints, and the folder's case sensitivity.
//!
//! **Containment.** Every disk access resolves the host path with `realpath` on its longest existing
//! prefix (a file about to be created has no real path, so its nearest existing ancestor is
//! checked) and refuses anything that does not land inside the folder's real root. A link that
//! leaves the folder, or a parent directory that is such a link, is refused by name; links that
//! stay inside behave like what they point at.
//!
//! **Folding.** VFS paths are case- and normalisation-sensitive everywhere; the folder may not be
//! (see `crate::names`). At open the folder is probed ([`probe_folder`]): a temp name (hidden by
//! the ignore rules, like a commit's temp files) is created in the folder, looked up by another
//! case and by its NFD spelling, and removed at once — the one write outside a commit, made
//! because no other test tells what *this* folder does (a USB stick on a Mac folds case, the Mac's
//! own case-sensitive volume does not). A read-only open or a folder that refuses the probe falls
//! back to [`detect_case_insensitive`]. When a test forces semantics the real disk lacks
//! (`CaseMode::Insensitive` on Linux), [`HostRoot::join`] resolves each missing name to the entry
//! the folder would find, as the OS would, so every check runs against the simulated folder.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::error::{Result, VfsError};
use crate::ignore::COMMIT_TEMP_PREFIX;
use crate::names::NameRules;
use crate::path::VPath;

/// How the overlay treats names that differ only in case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CaseMode {
    /// Probe the folder at open (see [`probe_folder`]).
    #[default]
    Detect,
    /// The host distinguishes `a` from `A`.
    Sensitive,
    /// The host folds case: new names are checked for collisions.
    Insensitive,
}

/// How the overlay treats names that differ only in Unicode normalisation (NFC `é` and NFD `é`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NormalisationMode {
    /// Probe the folder at open (see [`probe_folder`]).
    #[default]
    Detect,
    /// The host keeps NFC and NFD spellings apart (Linux, NTFS).
    Sensitive,
    /// The host takes both spellings for one name (APFS, HFS+): a request in one finds the other.
    Insensitive,
}

/// What probing the folder found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// A name looked up in another case found the entry.
    pub case_insensitive: bool,
    /// A name looked up in its NFD spelling found the NFC entry.
    pub normalisation_insensitive: bool,
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
#[derive(Debug, Clone)]
pub(crate) struct HostRoot {
    pub(crate) root: PathBuf,
    pub(crate) names: NameRules,
    /// The folding in `names` is forced and may not be the disk's own: [`HostRoot::join`] then
    /// finds a missing name's other spelling itself.
    simulated: bool,
}

/// The tree error for a failed read of `host`, the host path of `path`.
pub(crate) fn read_err(path: &VPath, host: &Path, err: io::Error) -> VfsError {
    match err.kind() {
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => VfsError::NoSuchFile(path.clone()),
        io::ErrorKind::IsADirectory => VfsError::ReadDirectory(path.clone()),
        // Windows answers a read of a directory with "Access denied" (os error 5).
        io::ErrorKind::PermissionDenied if host.is_dir() => VfsError::ReadDirectory(path.clone()),
        _ => VfsError::host("read", host, err),
    }
}

fn mtime_ns(meta: &fs::Metadata) -> i64 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as i64)
}

impl HostRoot {
    /// Opens `folder`, resolving it to its real path.
    pub(crate) fn open(folder: &Path, case: CaseMode, norm: NormalisationMode, read_only: bool) -> Result<HostRoot> {
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
        let os = std::env::consts::OS;
        let probe = match (case, norm) {
            (CaseMode::Detect, _) | (_, NormalisationMode::Detect) if !read_only => probe_folder(&root),
            _ => None,
        };
        let fold_case = match case {
            CaseMode::Sensitive => false,
            CaseMode::Insensitive => true,
            CaseMode::Detect => probe.map_or_else(|| detect_case_insensitive(&root, os), |p| p.case_insensitive),
        };
        let fold_unicode = match norm {
            NormalisationMode::Sensitive => false,
            NormalisationMode::Insensitive => true,
            NormalisationMode::Detect => probe.map_or(matches!(os, "macos" | "ios"), |p| p.normalisation_insensitive),
        };
        let simulated = case == CaseMode::Insensitive || norm == NormalisationMode::Insensitive;
        let names = NameRules { fold_case, fold_unicode, windows_chars: cfg!(windows) };
        Ok(HostRoot { root, names, simulated })
    }

    /// The host path for `path`, without any check. On a folder whose folding is simulated, a
    /// name that is missing on disk becomes the spelling on disk that the folder would find.
    pub(crate) fn join(&self, path: &VPath) -> PathBuf {
        let mut host = self.root.clone();
        let mut missing = false;
        for segment in path.segments() {
            host.push(segment);
            if self.simulated && !missing && fs::symlink_metadata(&host).is_err() {
                host.pop();
                match self.spelling_in(&host, segment) {
                    Some(found) => host.push(found),
                    None => {
                        host.push(segment);
                        missing = true;
                    }
                }
            }
        }
        host
    }

    /// The entry of host directory `dir` that this folder takes for `name`: `name` itself when it
    /// is there, else another spelling with the same key.
    fn spelling_in(&self, dir: &Path, name: &str) -> Option<String> {
        let key = self.names.key(name);
        let mut found = None;
        for entry in fs::read_dir(dir).ok()?.flatten() {
            let Ok(other) = entry.file_name().into_string() else { continue };
            if other == name {
                return Some(other);
            }
            if found.is_none() && self.names.key(&other) == key {
                found = Some(other);
            }
        }
        found
    }

    /// The name under which the folder holds what `dir`/`name` refers to, when that is another
    /// spelling (`Report.pdf` for `report.pdf` on a folder that ignores case). `None` when the
    /// folder does not fold, when nothing is there, or when the disk spells it exactly so.
    pub(crate) fn other_spelling(&self, dir: &VPath, name: &str) -> Result<Option<String>> {
        if !self.names.folds() {
            return Ok(None);
        }
        let host = self.contained(dir)?;
        Ok(self.spelling_in(&host, name).filter(|found| found != name))
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
                // A path the OS cannot resolve as a whole (Wine answers one past 260 characters
                // with ERROR_MORE_DATA) is resolved through its parent when it is no link
                // itself: a plain entry of a contained directory is contained.
                Err(err) if fs::symlink_metadata(&probe).is_ok_and(|m| !m.file_type().is_symlink()) => {
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
}

/// True when `err` is Windows saying another program holds the file open and locked:
/// ERROR_SHARING_VIOLATION (32) or ERROR_LOCK_VIOLATION (33). Other systems have no such error.
pub(crate) fn is_lock_error(err: &io::Error) -> bool {
    cfg!(windows) && matches!(err.raw_os_error(), Some(32 | 33))
}

/// True when another program holds the host file at `host` open so that Folio cannot replace or
/// remove it (Excel holds an open workbook so). Asked before a commit touches anything, so a
/// change to a held file is left whole rather than half-applied. Windows only: elsewhere an open
/// file does not stop a rename.
pub(crate) fn held_open(host: &Path) -> bool {
    if crate::fault::held(host) {
        return true;
    }
    if !cfg!(windows) || !host.is_file() {
        return false;
    }
    match fs::OpenOptions::new().append(true).open(host) {
        Ok(_) => false,
        Err(err) => is_lock_error(&err),
    }
}

/// blake3 of a file's content, hex.
pub(crate) fn hash_file(path: &Path) -> Result<String> {
    let mut hasher = blake3::Hasher::new();
    let file = fs::File::open(path).map_err(|e| VfsError::host("read", path, e))?;
    hasher.update_reader(file).map_err(|e| VfsError::host("read", path, e))?;
    Ok(hasher.finalize().to_hex().to_string())
}

/// Probes what the folder at `root` folds: creates a temp name with a capital and an NFC `é`,
/// looks it up in another case and in NFD, and removes it. `None` when the folder refused the
/// probe (read-only, full); the caller falls back to [`detect_case_insensitive`].
pub fn probe_folder(root: &Path) -> Option<Probe> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let stem = format!("{COMMIT_TEMP_PREFIX}probe-{}-{nanos}", std::process::id());
    let probe = root.join(format!("{stem}-Ab\u{e9}.tmp"));
    fs::OpenOptions::new().write(true).create_new(true).open(&probe).ok()?;
    let case_insensitive = fs::symlink_metadata(root.join(format!("{stem}-aB\u{e9}.tmp"))).is_ok();
    let normalisation_insensitive = fs::symlink_metadata(root.join(format!("{stem}-Abe\u{301}.tmp"))).is_ok();
    let _ = fs::remove_file(&probe);
    Some(Probe { case_insensitive, normalisation_insensitive })
}

/// Decides whether the folder at `root` folds case, without writing to it. It flips the case of the deepest path
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
