//! The [`Tree`] interface every backend implements, and the operations derived from it.
//!
//! A tree is synchronous and shared (`&self` everywhere, `Send + Sync`): callers on other threads
//! (the script runtime, the desktop app's command handlers) hold an `Arc<dyn Tree>`. Directories
//! exist implicitly above every file; `mkdir` makes empty ones. Listing order is directories first,
//! then files, each in byte order of the name, identical across backends.

use crate::error::{Result, VfsError};
use crate::glob::Glob;
use crate::path::VPath;

/// What a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
}

/// The facts `stat` returns. Directories report size 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Stat {
    /// File or directory.
    pub kind: Kind,
    /// Bytes of content (0 for directories).
    pub size: u64,
    /// Last modification, milliseconds since the Unix epoch (0 when unknown).
    pub mtime_ms: i64,
}

/// One child of a directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DirEntry {
    /// The child's name (one segment).
    pub name: String,
    /// File or directory.
    pub kind: Kind,
    /// Bytes (0 for directories).
    pub size: u64,
}

/// A tree of files addressed by [`VPath`]s.
pub trait Tree: Send + Sync {
    /// The whole content of a file.
    fn read(&self, path: &VPath) -> Result<Vec<u8>>;
    /// Creates or replaces a file, creating its parent directories.
    fn write(&self, path: &VPath, data: &[u8]) -> Result<()>;
    /// Removes a file, or a directory and everything below it.
    fn rm(&self, path: &VPath) -> Result<()>;
    /// Creates a directory and its parents; succeeds when it already exists.
    fn mkdir(&self, path: &VPath) -> Result<()>;
    /// What is at `path`, or `None`.
    fn stat(&self, path: &VPath) -> Result<Option<Stat>>;
    /// The immediate children of a directory, directories first, each group sorted by name.
    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>>;

    /// `len` bytes of a file from `offset`, fewer when the file ends first, none from at or past
    /// its end (see [`crate::range::clamp`]); the same errors as [`Tree::read`]. This default
    /// reads the whole file and slices it; backends that can read part of a file override it, so
    /// a reader of a range (the desktop's `folio://` scheme) never holds more than the range.
    fn read_range(&self, path: &VPath, offset: u64, len: u64) -> Result<Vec<u8>> {
        let mut data = self.read(path)?;
        let (start, count) = crate::range::clamp(data.len() as u64, offset, len);
        data.truncate((start + count) as usize);
        data.drain(..start as usize);
        Ok(data)
    }

    /// Appends to a file, creating it when absent.
    fn append(&self, path: &VPath, data: &[u8]) -> Result<()> {
        let mut current = match self.stat(path)? {
            Some(Stat { kind: Kind::File, .. }) => self.read(path)?,
            Some(Stat { kind: Kind::Dir, .. }) => return Err(VfsError::WriteOntoDirectory(path.clone())),
            None => Vec::new(),
        };
        current.extend_from_slice(data);
        self.write(path, &current)
    }

    /// Moves a file or a directory. Backends that can record the move as a rename override this.
    fn mv(&self, from: &VPath, to: &VPath) -> Result<()> {
        let pairs = transfer_pairs(self, "mv", from, to)?;
        for (src, dst) in &pairs {
            let data = self.read(src)?;
            self.write(dst, &data)?;
        }
        self.rm(from)
    }

    /// Copies a file or a directory.
    fn cp(&self, from: &VPath, to: &VPath) -> Result<()> {
        for (src, dst) in transfer_pairs(self, "cp", from, to)? {
            let data = self.read(&src)?;
            self.write(&dst, &data)?;
        }
        Ok(())
    }

    /// True when something is at `path`.
    fn exists(&self, path: &VPath) -> Result<bool> {
        Ok(self.stat(path)?.is_some())
    }

    /// Every file at or below `root`, sorted.
    fn walk(&self, root: &VPath) -> Result<Vec<VPath>> {
        let mut out = Vec::new();
        match self.stat(root)? {
            None => return Err(VfsError::NoSuchEntry(root.clone())),
            Some(Stat { kind: Kind::File, .. }) => out.push(root.clone()),
            Some(Stat { kind: Kind::Dir, .. }) => walk_into(self, root, &mut out)?,
        }
        out.sort();
        Ok(out)
    }

    /// Every file whose path matches `pattern` (see [`Glob`]), sorted.
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>> {
        let glob = Glob::new(pattern);
        Ok(self.walk(&VPath::root())?.into_iter().filter(|p| glob.matches(p.as_str())).collect())
    }

    /// Bytes of file content in the whole tree.
    fn total_size(&self) -> Result<u64> {
        let mut total = 0;
        for path in self.walk(&VPath::root())? {
            total += self.stat(&path)?.map_or(0, |s| s.size);
        }
        Ok(total)
    }
}

fn walk_into<T: Tree + ?Sized>(tree: &T, dir: &VPath, out: &mut Vec<VPath>) -> Result<()> {
    for entry in tree.list(dir)? {
        let child = dir.join(&entry.name)?;
        match entry.kind {
            Kind::File => out.push(child),
            Kind::Dir => walk_into(tree, &child, out)?,
        }
    }
    Ok(())
}

/// The `(source, destination)` file pairs of an `mv`/`cp`, after the checks both share: the source
/// exists, differs from the destination, a directory is not moved into itself, no destination is a
/// directory and no destination's ancestor is a file.
pub fn transfer_pairs<T: Tree + ?Sized>(
    tree: &T,
    op: &'static str,
    from: &VPath,
    to: &VPath,
) -> Result<Vec<(VPath, VPath)>> {
    if from == to {
        return Err(VfsError::SamePath(from.clone()));
    }
    let pairs = match tree.stat(from)? {
        None => return Err(VfsError::NoSuchEntry(from.clone())),
        Some(Stat { kind: Kind::File, .. }) => vec![(from.clone(), to.clone())],
        Some(Stat { kind: Kind::Dir, .. }) => {
            if to.is_under(from) {
                return Err(VfsError::IntoItself { op, from: from.clone(), to: to.clone() });
            }
            let mut pairs = Vec::new();
            for src in tree.walk(from)? {
                if let Some(dst) = src.rebase(from, to) {
                    pairs.push((src, dst));
                }
            }
            pairs
        }
    };
    for (_, dst) in &pairs {
        if let Some(Stat { kind: Kind::Dir, .. }) = tree.stat(dst)? {
            return Err(VfsError::WriteOntoDirectory(dst.clone()));
        }
        for ancestor in dst.ancestors() {
            if let Some(Stat { kind: Kind::File, .. }) = tree.stat(&ancestor)? {
                return Err(VfsError::AncestorIsFile { op: "write", path: dst.clone(), ancestor });
            }
        }
    }
    Ok(pairs)
}

/// Sorts entries the way every backend lists them: directories first, then files, by name.
pub(crate) fn sort_entries(entries: &mut [DirEntry]) {
    entries.sort_by(|a, b| {
        let rank = |k: Kind| if k == Kind::Dir { 0 } else { 1 };
        rank(a.kind).cmp(&rank(b.kind)).then_with(|| a.name.cmp(&b.name))
    });
}
