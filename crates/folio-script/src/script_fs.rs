//! [`ScriptFs`], the host trait scripts touch files through, and [`TreeFs`], its plain
//! implementation over any [`Tree`] that tests and simple hosts use. A leaf: the registry, the
//! loader, the runner and `env:fs` all import it, and it imports none of them.

use std::sync::Arc;

use folio_vfs::{DirEntry, Stat, Tree, VPath};

use crate::error::FsError;

/// The file operations a script may perform. Errors are [`FsError`]s whose messages already name
/// the fix; the runtime prefixes them with `env:fs.<function>: ` before the script sees them.
pub trait ScriptFs: Send + Sync {
    /// The whole content of a file.
    fn read(&self, path: &VPath) -> Result<Vec<u8>, FsError>;
    /// Creates or replaces a file.
    fn write(&self, path: &VPath, data: &[u8]) -> Result<(), FsError>;
    /// Appends to a file, creating it when absent.
    fn append(&self, path: &VPath, data: &[u8]) -> Result<(), FsError>;
    /// The children of a directory.
    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>, FsError>;
    /// Files matching a glob pattern (`*`, `**`, `?`), sorted.
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, FsError>;
    /// What is at `path`, or `None`.
    fn stat(&self, path: &VPath) -> Result<Option<Stat>, FsError>;
    /// Creates a directory and its parents.
    fn mkdir(&self, path: &VPath) -> Result<(), FsError>;
    /// Removes a file, or a directory with everything below it.
    fn rm(&self, path: &VPath) -> Result<(), FsError>;
    /// Moves a file or a subtree.
    fn mv(&self, from: &VPath, to: &VPath) -> Result<(), FsError>;
    /// Copies a file or a subtree.
    fn cp(&self, from: &VPath, to: &VPath) -> Result<(), FsError>;
    /// The environment this file system belongs to, unique in the process (0: none). Host
    /// modules key per-environment state by it — env:motion keeps one browser per environment
    /// and never shares it between folders.
    fn scope(&self) -> u64 {
        0
    }
    /// The room left in the tree files are written to: `(bytes left, the cap)`, `None` when it
    /// has no size budget. A module that knows how much it will write refuses up front when it
    /// will not fit, instead of failing on the last file after all the work.
    fn room(&self) -> Option<(u64, u64)> {
        None
    }
}

/// [`ScriptFs`] straight over a [`Tree`], with no zones or limits.
pub struct TreeFs {
    tree: Arc<dyn Tree>,
}

impl TreeFs {
    /// Wraps `tree`.
    pub fn new(tree: Arc<dyn Tree>) -> TreeFs {
        TreeFs { tree }
    }
}

impl ScriptFs for TreeFs {
    fn read(&self, path: &VPath) -> Result<Vec<u8>, FsError> {
        self.tree.read(path).map_err(FsError::from)
    }
    fn write(&self, path: &VPath, data: &[u8]) -> Result<(), FsError> {
        self.tree.write(path, data).map_err(FsError::from)
    }
    fn append(&self, path: &VPath, data: &[u8]) -> Result<(), FsError> {
        self.tree.append(path, data).map_err(FsError::from)
    }
    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>, FsError> {
        self.tree.list(dir).map_err(FsError::from)
    }
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, FsError> {
        self.tree.glob(pattern).map_err(FsError::from)
    }
    fn stat(&self, path: &VPath) -> Result<Option<Stat>, FsError> {
        self.tree.stat(path).map_err(FsError::from)
    }
    fn mkdir(&self, path: &VPath) -> Result<(), FsError> {
        self.tree.mkdir(path).map_err(FsError::from)
    }
    fn rm(&self, path: &VPath) -> Result<(), FsError> {
        self.tree.rm(path).map_err(FsError::from)
    }
    fn mv(&self, from: &VPath, to: &VPath) -> Result<(), FsError> {
        self.tree.mv(from, to).map_err(FsError::from)
    }
    fn cp(&self, from: &VPath, to: &VPath) -> Result<(), FsError> {
        self.tree.cp(from, to).map_err(FsError::from)
    }
}
