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
//! Every write a checkpoint makes — its blobs and manifest — is the environment's own state and
//! goes through [`crate::Gateway::write_state`]: only under `/.env`, within the size limits, and
//! crash-safe. A fork is checked against `limits.max_vfs_bytes` before anything is written, and
//! its manifest is written last, so a fork that fails leaves no checkpoint behind (at most blobs
//! that `drop` collects).
//!
//! Restore passes the checks a write does (the reference's bug #4 skipped them): every file it
//! would change is checked against the zones, the host's read-only paths and a read-only folder,
//! its stored copy against the hash it was saved under (a blob changed on disk is refused), its
//! size against `limits.max_file_bytes` and the tree's growth against `limits.max_vfs_bytes`, and
//! every script is validated among the files coming back with it ([`crate::staged::Staged`]),
//! its `.d.ts` regenerated rather than copied. Any refusal is [`EnvError::RestoreRefused`],
//! naming the file, and nothing changes. Only then, under the gateway lock, does it change the
//! files that differ; if a write fails half-way the files already changed are put back.
//! Afterwards the undo rings of the changed files are cleared, so `undo` cannot resurrect
//! content from after the checkpoint, and the restore counts as one mutation.

use std::collections::{BTreeMap, BTreeSet};

use folio_vfs::{Kind, Tree, VPath};
use serde::{Deserialize, Serialize};

use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{fmt_bytes, iso, now_ms};
use crate::mounts::MountTree;
use crate::pipeline::{DtsPlan, is_derived};
use crate::staged::Staged;

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
    env.gateway.exclusive(|| fork_locked(env, name))
}

fn fork_locked(env: &Environment, name: &str) -> Result<(usize, u64)> {
    let (tree, gateway) = (env.tree(), &env.gateway);
    let cap = gateway.limits().max_file_bytes;
    // Pass one hashes each file and keeps none of them, so a large tree is never held in memory.
    let mut files = Vec::new();
    let mut fresh: BTreeMap<String, VPath> = BTreeMap::new();
    let mut total = 0;
    for path in captured(env)? {
        let size = tree.stat(&path)?.map_or(0, |s| s.size);
        if size > cap {
            gateway.count_limit_hit();
            return Err(EnvError::refused(format!(
                "checkpoint \"{name}\" was not saved: {path} is {size} bytes, over the {cap}-byte cap (limits.max_file_bytes) a checkpoint can copy — move it out of the tree, or ask the host to raise limits.max_file_bytes"
            )));
        }
        let data = tree.read(&path)?;
        let hash = blake3::hash(&data).to_hex().to_string();
        if !fresh.contains_key(&hash) && !tree.exists(&blob_path(&hash)?)? {
            fresh.insert(hash.clone(), path.clone());
        }
        total += data.len() as u64;
        files.push(FileRef { path, size: data.len() as u64, blob: hash });
    }
    let manifest = Manifest { version: 1, created: iso(now_ms()), files };
    let body = serde_json::to_vec_pretty(&manifest).unwrap_or_default();
    let target = manifest_path(name)?;
    let replaced = tree.stat(&target)?.map_or(0, |s| s.size);
    let sizes: BTreeMap<&VPath, u64> = manifest.files.iter().map(|f| (&f.path, f.size)).collect();
    let new_bytes = fresh.values().map(|p| sizes.get(p).copied().unwrap_or(0)).sum::<u64>() + body.len() as u64;
    let would = tree.total_size()?.saturating_add(new_bytes).saturating_sub(replaced);
    if new_bytes > replaced && would > gateway.limits().max_vfs_bytes {
        gateway.count_limit_hit();
        return Err(EnvError::CheckpointTooLarge {
            name: name.to_owned(),
            new_bytes,
            would,
            cap: gateway.limits().max_vfs_bytes,
        });
    }
    for (hash, path) in &fresh {
        gateway.write_state_locked(&blob_path(hash)?, &tree.read(path)?)?;
    }
    // The manifest last: until it lands there is no checkpoint, only blobs `drop` collects.
    gateway.write_state_locked(&target, &body)?;
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

/// Puts the tree back exactly as checkpoint `name` saved it, or refuses with nothing changed.
pub fn restore(env: &Environment, name: &str) -> Result<Restored> {
    let manifest = load(env, name)?;
    env.gateway.exclusive(|| restore_locked(env, name, manifest))
}

/// One change a restore makes: new content, or `None` to remove the file.
type Change = (VPath, Option<Vec<u8>>);

fn restore_locked(env: &Environment, name: &str, manifest: Manifest) -> Result<Restored> {
    let (tree, gateway) = (env.tree(), &env.gateway);
    let refuse = |reason: String, tampered: bool| EnvError::RestoreRefused { name: name.to_owned(), reason, tampered };
    // Derived `.d.ts` siblings are regenerated from their scripts, never copied back.
    let wanted: BTreeMap<VPath, FileRef> =
        manifest.files.into_iter().filter(|f| !is_derived(&f.path)).map(|f| (f.path.clone(), f)).collect();
    let current: BTreeSet<VPath> = captured(env)?.into_iter().filter(|p| !is_derived(p)).collect();
    // Plan first, checking every stored copy, so nothing changes when one is missing or altered.
    let mut planned: BTreeMap<VPath, Option<Vec<u8>>> = BTreeMap::new();
    for (path, f) in &wanted {
        let data = tree
            .read(&blob_path(&f.blob)?)
            .map_err(|e| refuse(format!("its stored copy of {path} is missing ({e})"), true))?;
        if data.len() as u64 != f.size || blake3::hash(&data).to_hex().as_str() != f.blob {
            return Err(refuse(
                format!(
                    "its stored copy of {path} was changed on disk after the fork (it no longer matches the hash it was saved under)"
                ),
                true,
            ));
        }
        let same = current.contains(path) && tree.read(path).is_ok_and(|now| now == data);
        if !same {
            planned.insert(path.clone(), Some(data));
        }
    }
    for path in current.iter().filter(|p| !wanted.contains_key(*p)) {
        planned.insert(path.clone(), None);
    }
    // Each change passes what a write passes: zones, limits, script validation.
    let staged = Staged { base: tree, planned: &planned };
    let (mut changes, mut derived): (Vec<Change>, Vec<Change>) = (Vec::new(), Vec::new());
    let mut delta = 0i64;
    for (path, content) in &planned {
        gateway
            .check(path, "restore")
            .map_err(|e| refuse(e.to_string(), !matches!(e, EnvError::ReadOnlyFolder { .. })))?;
        let before = tree.stat(path)?.filter(|s| s.kind == Kind::File).map_or(0, |s| s.size) as i64;
        let check = match content {
            Some(data) => {
                gateway.check_size(path, data.len() as u64, 0).map_err(|e| refuse(e.to_string(), true))?;
                delta += data.len() as i64 - before;
                gateway.validate_in(path, data, &staged).map_err(|e| match e {
                    EnvError::ScriptRejected { path, reason } => {
                        refuse(format!("{path} is not a valid script: {reason}"), true)
                    }
                    other => refuse(other.to_string(), true),
                })?
            }
            None => {
                delta -= before;
                None
            }
        };
        let plan = gateway.plan_dts(path, check.as_ref())?;
        if let Some((dts, text)) = plan.map(DtsPlan::into_parts) {
            delta += text.as_ref().map_or(0, |t| t.len() as i64);
            match text {
                Some(text) => derived.push((dts, Some(text.into_bytes()))),
                None if tree.stat(&dts)?.is_some_and(|s| s.kind == Kind::File) => derived.push((dts, None)),
                None => {}
            }
        }
        changes.push((path.clone(), content.clone()));
    }
    if let Some((first, _)) = changes.first() {
        gateway.check_size(first, 0, delta).map_err(|e| refuse(e.to_string(), false))?;
    }
    // Removals first (a file may give way to a directory of the same name), then writes.
    changes.sort_by_key(|(_, content)| content.is_some());
    derived.sort_by_key(|(_, content)| content.is_some());
    let all: Vec<Change> = changes.iter().cloned().chain(derived.iter().cloned()).collect();
    apply_all(tree, name, &all)?;
    let touched: Vec<VPath> = changes.iter().map(|(p, _)| p.clone()).collect();
    let forgotten = gateway.with_versions(|v, t| v.forget(t, &touched))?;
    if !all.is_empty() {
        gateway.note_restore();
    }
    let put_back = all.iter().filter(|(_, c)| c.is_some()).count();
    Ok(Restored { put_back, removed: all.len() - put_back, forgotten })
}

/// Applies every change, or puts back the ones already made when one fails.
fn apply_all(tree: &MountTree, name: &str, all: &[Change]) -> Result<()> {
    let mut undo_log: Vec<(VPath, Option<Vec<u8>>)> = Vec::new();
    let mut apply = || -> Result<()> {
        for (path, content) in all {
            undo_log.push((path.clone(), tree.read(path).ok()));
            match content {
                Some(data) => tree.write(path, data)?,
                None => tree.rm(path)?,
            }
        }
        Ok(())
    };
    let Err(original) = apply() else { return Ok(()) };
    for (path, before) in undo_log.iter().rev() {
        let back = match before {
            Some(data) => tree.write(path, data),
            None if tree.exists(path).unwrap_or(false) => tree.rm(path),
            None => Ok(()),
        };
        if back.is_err() {
            return Err(EnvError::refused(format!(
                "restoring checkpoint \"{name}\" failed part-way and the tree could not be rolled back — it is in a mixed state; fork a new checkpoint before repairing it by hand. Original failure: {original}"
            )));
        }
    }
    Err(original)
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
