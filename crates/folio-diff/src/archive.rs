//! Archives: both sides listed through folio-archives' reader (zip, tar, tar.gz, with its entry
//! count, byte and encryption limits), every file entry inflated under the byte cap and hashed,
//! and the lists compared by entry name.

use std::collections::BTreeMap;
use std::time::Instant;

use folio_archives::read::Selected;
use folio_archives::{EntryKind, Limits, Opened};
use serde::Serialize;

use crate::error::{DiffError, Result, Side};

/// One entry of one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveEntry {
    /// Its name as stored (`/` separators).
    pub name: String,
    /// Uncompressed size in bytes.
    pub size: u64,
    /// True for a directory entry.
    pub directory: bool,
    /// CRC-32 of its content (0 for a directory, or an entry that is not read).
    pub crc32: u32,
    /// BLAKE3 of its content, hex (empty for a directory, or an entry that is not read: a link,
    /// an encrypted entry, an unsupported compression method — compared by size only).
    pub hash: String,
}

/// An entry on both sides whose content differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryChange {
    /// The old entry.
    pub old: ArchiveEntry,
    /// The new entry.
    pub new: ArchiveEntry,
}

/// Two versions of an archive compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveDiff {
    /// Entries only in the new archive, by name.
    pub added: Vec<ArchiveEntry>,
    /// Entries only in the old archive.
    pub removed: Vec<ArchiveEntry>,
    /// Entries in both whose content differs.
    pub changed: Vec<EntryChange>,
    /// Entries in both with equal content.
    pub same_count: u64,
    /// What listing, inflating and comparing cost, in milliseconds.
    pub ms: u64,
}

/// Compares two versions of an archive (`None`: the file does not exist on that side). A side
/// that is not an archive, or breaks a limit, is refused with [`DiffError::Archive`].
pub fn archive(old: Option<&[u8]>, new: Option<&[u8]>, name: &str) -> Result<ArchiveDiff> {
    let started = Instant::now();
    if old.is_none() && new.is_none() {
        return Err(DiffError::NothingToCompare { name: name.to_string() });
    }
    let old = old.map(|b| entries(name, Side::Old, b)).transpose()?.unwrap_or_default();
    let new = new.map(|b| entries(name, Side::New, b)).transpose()?.unwrap_or_default();
    let mut diff = ArchiveDiff { added: Vec::new(), removed: Vec::new(), changed: Vec::new(), same_count: 0, ms: 0 };
    for (key, n) in &new {
        match old.get(key) {
            None => diff.added.push(n.clone()),
            Some(o) if o.size == n.size && o.hash == n.hash && o.directory == n.directory => diff.same_count += 1,
            Some(o) => diff.changed.push(EntryChange { old: o.clone(), new: n.clone() }),
        }
    }
    diff.removed = old.iter().filter(|(k, _)| !new.contains_key(*k)).map(|(_, e)| e.clone()).collect();
    diff.ms = started.elapsed().as_millis() as u64;
    Ok(diff)
}

/// One side's entries by normalised name, every file read (under the byte cap) and hashed.
fn entries(name: &str, side: Side, bytes: &[u8]) -> Result<BTreeMap<String, ArchiveEntry>> {
    let fail = |source| DiffError::Archive { name: name.to_string(), side, source: Box::new(source) };
    let limits = Limits::default();
    let mut opened = Opened::open(name, bytes, &limits, limits.max_bytes).map_err(fail)?;
    let mut left = limits.max_bytes;
    let mut out = BTreeMap::new();
    for index in 0..opened.entries.len() {
        let e = &opened.entries[index];
        let key = e.name.replace('\\', "/").trim_start_matches("./").to_string();
        let directory = e.kind == EntryKind::Directory;
        if e.kind == EntryKind::Meta || key.is_empty() {
            continue;
        }
        let readable = e.kind == EntryKind::File && !e.encrypted && e.unsupported_method.is_none();
        let mut entry = ArchiveEntry { name: key.clone(), size: e.bytes, directory, crc32: 0, hash: String::new() };
        if readable {
            let data = opened.inflate(&Selected { index, relative: key.clone() }, left).map_err(fail)?;
            left = left.saturating_sub(data.len() as u64);
            entry.size = data.len() as u64;
            entry.crc32 = crc32fast::hash(&data);
            entry.hash = blake3::hash(&data).to_hex().to_string();
        }
        out.insert(key, entry);
    }
    Ok(out)
}
