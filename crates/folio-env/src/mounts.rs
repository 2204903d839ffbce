//! The mount table: one [`Tree`] that is the agent's `/`.
//!
//! Paths under an environment zone (`/tmp`, `/std`, `/skills`, `/.env`) go to that zone's own
//! tree, rebased so the zone root is the zone tree's `/`; every other path goes to the folder's
//! tree. `list("/")` merges the folder's top level with the zone roots. A folder entry that has a
//! zone's name is shadowed here (the zone wins); [`MountTree::shadowed`] reports it so the
//! orientation file can say so instead of hiding it silently.
//!
//! Moves inside the folder are handed to the folder tree whole, so the overlay can record them as
//! renames; a move that crosses a mount boundary is copied and removed file by file.

use std::sync::Arc;

use folio_vfs::{DirEntry, Kind, Stat, Tree, VPath, VfsError};

/// The environment-owned zones, in the order orientation lists them.
pub const ENV_ZONES: [&str; 4] = ["/tmp", "/std", "/skills", "/.env"];

/// The composite tree: a folder with zone trees mounted over it.
pub struct MountTree {
    folder: Arc<dyn Tree>,
    zones: Vec<(VPath, Arc<dyn Tree>)>,
}

impl MountTree {
    /// Mounts each `(zone root, tree)` over `folder`. Zone roots must be top-level paths.
    pub fn new(folder: Arc<dyn Tree>, zones: Vec<(VPath, Arc<dyn Tree>)>) -> MountTree {
        MountTree { folder, zones }
    }

    /// The folder's own tree (what a commit publishes).
    pub fn folder(&self) -> &Arc<dyn Tree> {
        &self.folder
    }

    /// The tree and the path inside it that `path` routes to.
    fn route(&self, path: &VPath) -> (&dyn Tree, VPath) {
        for (root, tree) in &self.zones {
            if path.is_under(root) && !root.is_root() {
                let inner = path.rebase(root, &VPath::root()).unwrap_or_else(VPath::root);
                return (tree.as_ref(), inner);
            }
        }
        (self.folder.as_ref(), path.clone())
    }

    /// The zone mounted at `path` exactly, if any.
    fn zone_at(&self, path: &VPath) -> Option<&Arc<dyn Tree>> {
        self.zones.iter().find(|(root, _)| root == path).map(|(_, tree)| tree)
    }

    /// Maps a zone tree's error paths back to the agent's paths, so messages name what was asked.
    fn outer_err(&self, err: VfsError, asked: &VPath, inner: &VPath) -> VfsError {
        if asked == inner {
            return err;
        }
        let fix = |p: VPath| if &p == inner { asked.clone() } else { p };
        match err {
            VfsError::NoSuchFile(p) => VfsError::NoSuchFile(fix(p)),
            VfsError::ReadDirectory(p) => VfsError::ReadDirectory(fix(p)),
            VfsError::WriteOntoDirectory(p) => VfsError::WriteOntoDirectory(fix(p)),
            VfsError::NoSuchEntry(p) => VfsError::NoSuchEntry(fix(p)),
            VfsError::NotADirectory(p) => VfsError::NotADirectory(fix(p)),
            VfsError::NoSuchDirectory(p) => VfsError::NoSuchDirectory(fix(p)),
            VfsError::MkdirOnFile(p) => VfsError::MkdirOnFile(fix(p)),
            other => other,
        }
    }

    /// Top-level folder entries hidden behind a zone of the same name.
    pub fn shadowed(&self) -> Vec<(VPath, Kind)> {
        let mut out = Vec::new();
        for (root, _) in &self.zones {
            if let Ok(Some(stat)) = self.folder.stat(root) {
                out.push((root.clone(), stat.kind));
            }
        }
        out
    }

    fn is_zone_path(&self, path: &VPath) -> bool {
        self.zones.iter().any(|(root, _)| path.is_under(root))
    }
}

impl Tree for MountTree {
    fn read(&self, path: &VPath) -> folio_vfs::Result<Vec<u8>> {
        let (tree, inner) = self.route(path);
        tree.read(&inner).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn write(&self, path: &VPath, data: &[u8]) -> folio_vfs::Result<()> {
        if path.is_root() || self.zone_at(path).is_some() {
            return Err(VfsError::WriteOntoDirectory(path.clone()));
        }
        let (tree, inner) = self.route(path);
        tree.write(&inner, data).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn rm(&self, path: &VPath) -> folio_vfs::Result<()> {
        let (tree, inner) = self.route(path);
        tree.rm(&inner).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn mkdir(&self, path: &VPath) -> folio_vfs::Result<()> {
        let (tree, inner) = self.route(path);
        tree.mkdir(&inner).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn stat(&self, path: &VPath) -> folio_vfs::Result<Option<Stat>> {
        let (tree, inner) = self.route(path);
        tree.stat(&inner)
    }

    fn list(&self, dir: &VPath) -> folio_vfs::Result<Vec<DirEntry>> {
        let (tree, inner) = self.route(dir);
        let mut entries = tree.list(&inner).map_err(|e| self.outer_err(e, dir, &inner))?;
        if dir.is_root() {
            entries.retain(|e| !self.zones.iter().any(|(root, _)| root.name() == e.name));
            for (root, _) in &self.zones {
                entries.push(DirEntry { name: root.name().to_owned(), kind: Kind::Dir, size: 0 });
            }
            entries.sort_by(|a, b| {
                let rank = |k: Kind| if k == Kind::Dir { 0 } else { 1 };
                rank(a.kind).cmp(&rank(b.kind)).then_with(|| a.name.cmp(&b.name))
            });
        }
        Ok(entries)
    }

    fn mv(&self, from: &VPath, to: &VPath) -> folio_vfs::Result<()> {
        if !self.is_zone_path(from) && !self.is_zone_path(to) && !from.is_root() {
            return self.folder.mv(from, to);
        }
        let pairs = folio_vfs::transfer_pairs(self, "mv", from, to)?;
        for (src, dst) in &pairs {
            let data = self.read(src)?;
            self.write(dst, &data)?;
        }
        self.rm(from)
    }
}
