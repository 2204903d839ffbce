//! Folders described as text. A fixture is a list of files, each introduced by `//- /path` on its
//! own line and followed by its content; `//- /dir/` makes an empty directory.

use std::path::{Path, PathBuf};

use folio_vfs::{CaseMode, Overlay, OverlayOptions, VPath};

pub struct Folder {
    pub tmp: tempfile::TempDir,
}

impl Folder {
    pub fn new(fixture: &str) -> Folder {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("folder")).unwrap();
        std::fs::create_dir_all(tmp.path().join("state")).unwrap();
        let folder = Folder { tmp };
        let mut current: Option<(String, String)> = None;
        let flush = |entry: Option<(String, String)>| {
            if let Some((path, body)) = entry {
                folder.put(&path, &body);
            }
        };
        for line in fixture.trim_start_matches('\n').lines() {
            if let Some(path) = line.strip_prefix("//- ") {
                flush(current.take());
                if path.ends_with('/') {
                    std::fs::create_dir_all(folder.host(path)).unwrap();
                } else {
                    current = Some((path.trim().to_owned(), String::new()));
                }
            } else if let Some((_, body)) = current.as_mut() {
                body.push_str(line);
                body.push('\n');
            }
        }
        flush(current);
        folder
    }

    pub fn root(&self) -> PathBuf {
        self.tmp.path().join("folder")
    }

    pub fn state(&self) -> PathBuf {
        self.tmp.path().join("state")
    }

    pub fn host(&self, vpath: &str) -> PathBuf {
        self.root().join(vpath.trim_start_matches('/'))
    }

    pub fn put(&self, vpath: &str, body: &str) {
        let host = self.host(vpath);
        std::fs::create_dir_all(host.parent().unwrap()).unwrap();
        std::fs::write(host, body).unwrap();
    }

    pub fn open(&self) -> Overlay {
        self.open_with(OverlayOptions::default())
    }

    pub fn open_with(&self, options: OverlayOptions) -> Overlay {
        Overlay::open(&self.root(), OverlayOptions { state_root: Some(self.state()), ..options }).unwrap()
    }

    pub fn open_case_insensitive(&self) -> Overlay {
        self.open_with(OverlayOptions { case: CaseMode::Insensitive, ..OverlayOptions::default() })
    }

    /// The folder on disk as text: one line per file, `path: content` (content with `\n` shown
    /// as `⏎`), and `path/` for empty directories.
    pub fn disk(&self) -> String {
        let mut lines = Vec::new();
        walk(&self.root(), &self.root(), &mut lines);
        lines.sort();
        lines.join("\n")
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut empty = true;
    for entry in std::fs::read_dir(dir).unwrap() {
        empty = false;
        let entry = entry.unwrap();
        let path = entry.path();
        let rel = vfs_rel(root, &path);
        let meta = std::fs::symlink_metadata(&path).unwrap();
        if meta.file_type().is_symlink() {
            out.push(format!("{rel} -> {}", std::fs::read_link(&path).unwrap().display()));
        } else if meta.is_dir() {
            walk(root, &path, out);
        } else {
            let body = std::fs::read_to_string(&path).unwrap_or_else(|_| "<binary>".into());
            out.push(format!("{rel}: {}", body.replace('\n', "⏎")));
        }
    }
    if empty && dir != root {
        out.push(format!("{}/", vfs_rel(root, dir)));
    }
}

/// `path` below `root` as a VFS path: `/`-separated on every OS (`display()` would give
/// `/inbox\one.txt` on Windows).
fn vfs_rel(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap();
    rel.components().map(|c| format!("/{}", c.as_os_str().to_string_lossy())).collect()
}

pub fn p(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

/// Pending changes as text: one line per change, `KIND path [from X] [! conflict]`. Every use
/// also checks that `pending_count` agrees with the list, on that test's own changes.
pub fn pending(overlay: &Overlay) -> String {
    let mut lines = Vec::new();
    let changes = overlay.pending().unwrap();
    assert_eq!(overlay.pending_count().unwrap(), changes.len(), "pending_count disagrees with pending()");
    for c in changes {
        let kind = match &c.kind {
            folio_vfs::ChangeKind::Added => "added".to_owned(),
            folio_vfs::ChangeKind::Modified => "modified".to_owned(),
            folio_vfs::ChangeKind::Deleted => "deleted".to_owned(),
            folio_vfs::ChangeKind::Renamed { from } => format!("renamed from {from}"),
        };
        let dir = if c.is_dir { "/" } else { "" };
        let conflict = c.conflict.map(|c| format!(" ! {c}")).unwrap_or_default();
        lines.push(format!("{}{dir} {kind}{conflict}", c.path));
    }
    lines.join("\n")
}

/// Asserts `actual` equals the indented block `expect` (leading/trailing blank lines and common
/// indentation removed).
#[track_caller]
pub fn check(actual: &str, expect: &str) {
    let lines: Vec<&str> = expect.lines().filter(|l| !l.trim().is_empty()).collect();
    let indent = lines.iter().map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    let expect: Vec<&str> = lines.iter().map(|l| &l[indent..]).collect();
    assert_eq!(actual.trim_end(), expect.join("\n"), "\n--- actual ---\n{actual}\n");
}
