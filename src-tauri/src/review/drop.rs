//! Files dropped on the window land in `/inbox` through the environment's one door for them
//! (`Environment::mount`, which never overwrites: a taken name becomes `name-2.ext`). Folders are
//! copied recursively under a fresh `/inbox/<folder>` name, up to a size and count cap; links are
//! not followed inside a dropped folder. Every file gets a row: where it landed, or why not.

use std::path::Path;

use folio_vfs::{Tree, VPath};

use crate::api::{DropResult, InboxDropResponse};
use crate::session::Session;

/// Where dropped files go.
pub const INBOX: &str = "/inbox";

/// The most bytes one drop copies (all files together).
pub const MAX_DROP_BYTES: u64 = 512 * 1024 * 1024;

/// The most files one drop copies.
pub const MAX_DROP_FILES: usize = 2000;

struct Budget {
    bytes: u64,
    files: usize,
}

fn refused(source: &Path, why: String) -> DropResult {
    DropResult { source: source.display().to_string(), added_as: None, refused: Some(why) }
}

/// Copies each dropped host path into `/inbox`.
pub fn drop_paths(session: &Session, paths: &[String]) -> InboxDropResponse {
    let mut results = Vec::new();
    let mut budget = Budget { bytes: 0, files: 0 };
    for raw in paths {
        let source = Path::new(raw);
        match std::fs::metadata(source) {
            Ok(meta) if meta.is_dir() => drop_dir(session, source, &mut budget, &mut results),
            Ok(_) => results.push(drop_file(session, source, INBOX, &mut budget)),
            Err(e) => results.push(refused(source, format!("it could not be read: {e} — check it still exists"))),
        }
    }
    let added = results.iter().filter(|r| r.added_as.is_some()).count() as u32;
    let refused = results.len() as u32 - added;
    InboxDropResponse { results, added, refused }
}

fn drop_file(session: &Session, source: &Path, dir: &str, budget: &mut Budget) -> DropResult {
    let Some(name) = source.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return refused(source, "it has no file name — drop a file or a folder".into());
    };
    let env = session.environment();
    let cap = env.gateway().limits().max_file_bytes;
    let size = match std::fs::metadata(source) {
        Ok(meta) => meta.len(),
        Err(e) => return refused(source, format!("it could not be read: {e}")),
    };
    if size > cap {
        return refused(
            source,
            format!(
                "it is {} — more than the {} a file in Folio may hold; split it or use a smaller export",
                folio_env::fmt_bytes(size),
                folio_env::fmt_bytes(cap)
            ),
        );
    }
    if budget.files >= MAX_DROP_FILES || budget.bytes + size > MAX_DROP_BYTES {
        return refused(
            source,
            format!(
                "the drop is over its cap ({MAX_DROP_FILES} files, {} in all) — drop fewer files at a time",
                folio_env::fmt_bytes(MAX_DROP_BYTES)
            ),
        );
    }
    let data = match std::fs::read(source) {
        Ok(data) => data,
        Err(e) => return refused(source, format!("it could not be read: {e}")),
    };
    match env.mount(dir, &name, &data) {
        Ok(at) => {
            budget.files += 1;
            budget.bytes += size;
            DropResult { source: source.display().to_string(), added_as: Some(at.to_string()), refused: None }
        }
        Err(e) => refused(source, e.to_string()),
    }
}

/// A name under `dir` that nothing uses yet: `name`, then `name-2`, `name-3`, …
fn fresh_dir(tree: &dyn Tree, dir: &VPath, name: &str) -> Result<VPath, String> {
    let mut n = 1;
    loop {
        let candidate = if n == 1 { name.to_string() } else { format!("{name}-{n}") };
        let at = dir.join(&candidate).map_err(|e| format!("`{candidate}` cannot be a folder name in Folio: {e}"))?;
        if !tree.exists(&at).map_err(|e| e.to_string())? {
            return Ok(at);
        }
        n += 1;
    }
}

fn drop_dir(session: &Session, source: &Path, budget: &mut Budget, results: &mut Vec<DropResult>) {
    let name = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "dropped".into());
    let tree = session.environment().tree();
    let target = VPath::parse(INBOX).map_err(|e| e.to_string()).and_then(|inbox| fresh_dir(tree, &inbox, &name));
    match target {
        Ok(at) => {
            let before = results.len();
            copy_dir(session, source, &at, budget, results);
            if results.len() == before {
                results.push(refused(source, "the folder is empty — nothing to add".into()));
            }
        }
        Err(e) => results.push(refused(source, e)),
    }
}

fn copy_dir(session: &Session, source: &Path, target: &VPath, budget: &mut Budget, results: &mut Vec<DropResult>) {
    let mut entries = match std::fs::read_dir(source) {
        Ok(read) => read.flatten().collect::<Vec<_>>(),
        Err(e) => return results.push(refused(source, format!("the folder could not be listed: {e}"))),
    };
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            results.push(refused(&path, "its type could not be read".into()));
            continue;
        };
        if kind.is_symlink() {
            results.push(refused(&path, "it is a link — drop the file it points to instead".into()));
        } else if kind.is_dir() {
            match target.join(&entry.file_name().to_string_lossy()) {
                Ok(sub) => copy_dir(session, &path, &sub, budget, results),
                Err(e) => results.push(refused(&path, format!("its name cannot be used in Folio: {e}"))),
            }
        } else {
            results.push(drop_file(session, &path, target.as_str(), budget));
        }
    }
}
