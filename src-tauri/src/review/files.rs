//! The tree's filter (every path containing a text, with badges) and handing a file to the
//! system: open with the default application or reveal in the file manager. A file that exists
//! only in Folio (pending, or in an environment zone) has no host path yet, so a temporary copy
//! is exported and opened, and the reply says so.

use std::path::PathBuf;

use folio_env::Zone;
use folio_vfs::{Change, ChangeKind, Kind, Tree, VPath};

use crate::api::{Badge, TreeEntry, TreeFindResponse, TreeOpenResponse};
use crate::review::disk;
use crate::session::{Session, badge, tree_zone};

/// The most rows a filter returns.
pub const MAX_FIND: usize = 300;

fn changes(session: &Session) -> Result<Vec<Change>, String> {
    match session.environment().overlay() {
        Some(o) => o.pending().map_err(|e| format!("the pending changes could not be read: {e}")),
        None => Ok(Vec::new()),
    }
}

/// Every file and folder whose path contains `query` (case-insensitive), zones the tree does not
/// show (`/.env`) left out.
pub fn find(session: &Session, query: &str) -> Result<TreeFindResponse, String> {
    let needle = query.trim().to_lowercase();
    if needle.is_empty() {
        return Ok(TreeFindResponse { entries: Vec::new(), truncated: false });
    }
    let tree = session.environment().tree();
    let all = tree.walk(&VPath::root()).map_err(|e| format!("the folder could not be listed: {e}"))?;
    let changes = changes(session)?;
    let mut entries = Vec::new();
    let mut truncated = false;
    let shown = |p: &VPath| Zone::of(p).is_none_or(|z| z.in_tree());
    for path in all.into_iter().filter(|p| shown(p) && !p.is_root()) {
        if !path.as_str().to_lowercase().contains(&needle) {
            continue;
        }
        if entries.len() == MAX_FIND {
            truncated = true;
            break;
        }
        let Some(stat) = tree.stat(&path).map_err(|e| format!("{path} could not be read: {e}"))? else { continue };
        let is_dir = stat.kind == Kind::Dir;
        let own = changes.iter().find(|c| c.path == path).map(badge);
        let inside = is_dir && changes.iter().any(|c| c.path != path && c.path.is_under(&path));
        entries.push(TreeEntry {
            name: path.name().to_string(),
            path: path.to_string(),
            is_dir,
            size: if is_dir { 0 } else { stat.size },
            badge: own.or(inside.then_some(Badge::Modified)),
            zone: tree_zone(&path),
        });
    }
    Ok(TreeFindResponse { entries, truncated })
}

/// Where a file to open or reveal is on the host: the folder's own file when Folio has not
/// changed it, else a temporary copy of Folio's version under `export_root`.
pub fn resolve(
    session: &Session,
    raw: &str,
    reveal: bool,
    export_root: &std::path::Path,
) -> Result<TreeOpenResponse, String> {
    let path = VPath::parse(raw).map_err(|e| format!("`{raw}` is not a path in the folder: {e}"))?;
    let in_zone = Zone::of(&path).is_some();
    let changes = changes(session)?;
    let changed = changes.iter().any(|c| c.path == path || c.path.is_under(&path));
    let deleted = changes.iter().any(|c| path.is_under(&c.path) && matches!(c.kind, ChangeKind::Deleted));
    let verb = if reveal { "Revealed" } else { "Opened" };
    if !in_zone && !changed {
        let host = disk::host_path(session.folder(), &path)?;
        if host.exists() {
            let message = if deleted {
                format!("{verb} the folder's copy of {path} — Folio has deleted it, pending your review")
            } else {
                format!("{verb} {}", host.display())
            };
            return Ok(TreeOpenResponse { host_path: host.display().to_string(), exported: false, message });
        }
    }
    let tree = session.environment().tree();
    let stat = tree.stat(&path).map_err(|e| format!("{path} could not be read: {e}"))?;
    match stat {
        None => Err(format!("{path} is not in the folder any more — refresh the tree")),
        Some(s) if s.kind == Kind::Dir => {
            // A folder with pending changes inside: the folder itself is on disk when it existed
            // before; otherwise there is nothing on the host to show yet.
            let host = disk::host_path(session.folder(), &path)?;
            if host.is_dir() && !in_zone {
                let message =
                    format!("{verb} {} (the folder's version: Folio's changes inside are pending)", host.display());
                return Ok(TreeOpenResponse { host_path: host.display().to_string(), exported: false, message });
            }
            Err(format!(
                "{path} exists only in Folio until you commit it — commit it from the review panel, or open its files one by one"
            ))
        }
        Some(_) => {
            let bytes = tree.read(&path).map_err(|e| format!("{path} could not be read: {e}"))?;
            let host = export(export_root, &path, &bytes)?;
            let message = format!(
                "{verb} a temporary copy ({}) — {path} exists only in Folio until you commit it, so edits to the copy do not come back",
                host.display()
            );
            Ok(TreeOpenResponse { host_path: host.display().to_string(), exported: true, message })
        }
    }
}

fn export(root: &std::path::Path, path: &VPath, bytes: &[u8]) -> Result<PathBuf, String> {
    let hash =
        path.as_str().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    let dir = root.join(format!("{hash:016x}"));
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("a temporary copy could not be made in {}: {e}", dir.display()))?;
    let file = dir.join(path.name());
    std::fs::write(&file, bytes)
        .map_err(|e| format!("a temporary copy could not be written to {}: {e}", file.display()))?;
    Ok(file)
}
