//! Checkpoints: named copies of the whole tree the agent works on, to return to after a
//! restructuring goes wrong.
//!
//! A checkpoint is a manifest, `/.env/checkpoints/<name>.json` (`{version, created, files: [{path,
//! size, blob}]}`), plus content-addressed blobs in `/.env/checkpoints/blobs/<blake3>`, shared
//! between checkpoints so an unchanged file costs nothing the second time. What is captured: every
//! file outside `/.env` (which holds the checkpoints themselves, the run log and undo history),
//! `/std` and `/skills` (regenerated on every start) and the host's read-only paths (the agent
//! cannot have changed them, and restore must not either). Empty directories are not captured.
//!
//! Restore is all-or-nothing: it changes only files that differ, and if a write fails half-way
//! the files already changed are put back. Afterwards the undo rings of the changed files are
//! cleared, so `undo` cannot resurrect content from after the checkpoint. Restore goes straight
//! to the tree (it is not a sequence of agent edits) but still counts as one mutation.

use std::collections::{BTreeMap, BTreeSet};

use folio_vfs::{Tree, VPath};
use serde::{Deserialize, Serialize};

use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{fmt_bytes, iso, now_ms};

const DIR: &str = "/.env/checkpoints";

#[derive(Serialize, Deserialize)]
struct Manifest {
    version: u32,
    created: String,
    files: Vec<FileRef>,
}

#[derive(Serialize, Deserialize, Clone)]
struct FileRef {
    path: VPath,
    size: u64,
    blob: String,
}

/// Checks a checkpoint name: letters, digits, `-` and `_`, starting with a letter or digit, at
/// most 64 characters.
pub fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(EnvError::refused(format!(
            "invalid checkpoint name \"{name}\" — use letters, digits, \"-\" or \"_\", starting with a letter or digit (max 64), like before-refactor"
        )))
    }
}

fn manifest_path(name: &str) -> Result<VPath> {
    Ok(VPath::parse(&format!("{DIR}/{name}.json"))?)
}

fn blob_path(hash: &str) -> Result<VPath> {
    Ok(VPath::parse(&format!("{DIR}/blobs/{hash}"))?)
}

/// The files a checkpoint covers, as they are now.
fn captured(env: &Environment) -> Result<Vec<VPath>> {
    let excluded: Vec<VPath> = crate::zone::Zone::ALL
        .into_iter()
        .filter(|z| !z.agent_writable())
        .filter_map(|z| z.root().ok())
        .chain(env.gateway.read_only().iter().cloned())
        .collect();
    Ok(env.tree().walk(&VPath::root())?.into_iter().filter(|p| !excluded.iter().any(|z| p.is_under(z))).collect())
}

/// Names of the stored checkpoints, sorted.
pub fn names(env: &Environment) -> Vec<String> {
    let Ok(dir) = VPath::parse(DIR) else { return Vec::new() };
    let mut out: Vec<String> = env
        .tree()
        .list(&dir)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|e| e.name.strip_suffix(".json").map(str::to_owned))
        .collect();
    out.sort();
    out
}

fn load(env: &Environment, name: &str) -> Result<Manifest> {
    check_name(name)?;
    let path = manifest_path(name)?;
    if !env.tree().exists(&path)? {
        let existing = names(env);
        return Err(EnvError::refused(if existing.is_empty() {
            format!(
                "no checkpoint named \"{name}\" — none have been created yet. Use checkpoint({{action:'fork', name:'{name}'}}) first."
            )
        } else {
            format!("no checkpoint named \"{name}\". Existing: {}.", existing.join(", "))
        }));
    }
    let bytes = env.tree().read(&path)?;
    match serde_json::from_slice::<Manifest>(&bytes) {
        Ok(m) if m.version == 1 => Ok(m),
        _ => Err(EnvError::refused(format!(
            "checkpoint \"{name}\" is corrupt and cannot be restored — drop it (checkpoint({{action:'drop', name:'{name}'}})) and fork a new one"
        ))),
    }
}

/// Saves the tree as checkpoint `name` (replacing one of that name). Returns files and bytes.
pub fn fork(env: &Environment, name: &str) -> Result<(usize, u64)> {
    check_name(name)?;
    let tree = env.tree();
    let mut files = Vec::new();
    let mut total = 0;
    for path in captured(env)? {
        let data = tree.read(&path)?;
        let hash = blake3::hash(&data).to_hex().to_string();
        let blob = blob_path(&hash)?;
        if !tree.exists(&blob)? {
            tree.write(&blob, &data)?;
        }
        total += data.len() as u64;
        files.push(FileRef { path, size: data.len() as u64, blob: hash });
    }
    let manifest = Manifest { version: 1, created: iso(now_ms()), files };
    let body = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    tree.write(&manifest_path(name)?, &body)?;
    Ok((manifest.files.len(), total))
}

/// Content of `path` in checkpoint `name`, `None` when the checkpoint did not have it.
pub fn file_in(env: &Environment, name: &str, path: &VPath) -> Result<Option<Vec<u8>>> {
    let manifest = load(env, name)?;
    match manifest.files.iter().find(|f| &f.path == path) {
        Some(f) => Ok(Some(env.tree().read(&blob_path(&f.blob)?)?)),
        None => Ok(None),
    }
}

/// What a restore did.
pub struct Restored {
    /// Files rewritten to their checkpoint content.
    pub put_back: usize,
    /// Files created since the checkpoint, now removed.
    pub removed: usize,
    /// Files whose undo history was cleared.
    pub forgotten: usize,
}

/// Puts the tree back exactly as checkpoint `name` saved it.
pub fn restore(env: &Environment, name: &str) -> Result<Restored> {
    let manifest = load(env, name)?;
    let tree = env.tree();
    let wanted: BTreeMap<&VPath, &FileRef> = manifest.files.iter().map(|f| (&f.path, f)).collect();
    let current: BTreeSet<VPath> = captured(env)?.into_iter().collect();
    // Plan first, so nothing changes when a blob is missing.
    let mut writes = Vec::new();
    for (path, f) in &wanted {
        let data = tree.read(&blob_path(&f.blob)?)?;
        let same = current.contains(*path) && tree.read(path).is_ok_and(|now| now == data);
        if !same {
            writes.push(((*path).clone(), data));
        }
    }
    let removals: Vec<VPath> = current.iter().filter(|p| !wanted.contains_key(p)).cloned().collect();
    let mut undo_log: Vec<(VPath, Option<Vec<u8>>)> = Vec::new();
    let mut apply = || -> Result<()> {
        for path in &removals {
            undo_log.push((path.clone(), tree.read(path).ok()));
            tree.rm(path)?;
        }
        for (path, data) in &writes {
            undo_log.push((path.clone(), tree.read(path).ok()));
            tree.write(path, data)?;
        }
        Ok(())
    };
    if let Err(original) = apply() {
        for (path, before) in undo_log.iter().rev() {
            let back = match before {
                Some(data) => tree.write(path, data),
                None => tree.rm(path),
            };
            if back.is_err() {
                return Err(EnvError::refused(format!(
                    "restoring checkpoint \"{name}\" failed part-way and the tree could not be rolled back — it is in a mixed state; fork a new checkpoint before repairing it by hand. Original failure: {original}"
                )));
            }
        }
        return Err(original);
    }
    let touched: Vec<VPath> = removals.iter().cloned().chain(writes.iter().map(|(p, _)| p.clone())).collect();
    let forgotten = env.gateway.with_versions(|v, t| v.forget(t, &touched))?;
    if !touched.is_empty() {
        env.gateway.note_restore();
    }
    Ok(Restored { put_back: writes.len(), removed: removals.len(), forgotten })
}

/// Deletes checkpoint `name` and any blob no other checkpoint uses.
pub fn drop(env: &Environment, name: &str) -> Result<()> {
    load(env, name)?;
    let tree = env.tree();
    tree.rm(&manifest_path(name)?)?;
    let mut used = BTreeSet::new();
    for other in names(env) {
        if let Ok(m) = load(env, &other) {
            used.extend(m.files.into_iter().map(|f| f.blob));
        }
    }
    if let Ok(entries) = tree.list(&VPath::parse(&format!("{DIR}/blobs"))?) {
        for e in entries.into_iter().filter(|e| !used.contains(&e.name)) {
            // An orphan blob that refuses to go only costs space.
            let _ = tree.rm(&blob_path(&e.name)?);
        }
    }
    Ok(())
}

/// One line per checkpoint: name, file count, size, when saved.
pub fn list(env: &Environment) -> Vec<String> {
    names(env)
        .into_iter()
        .map(|n| match load(env, &n) {
            Ok(m) => format!(
                "{n}  {} file(s), {}, saved {}",
                m.files.len(),
                fmt_bytes(m.files.iter().map(|f| f.size).sum()),
                m.created
            ),
            Err(_) => format!("{n}  0 file(s) (unreadable)"),
        })
        .collect()
}
