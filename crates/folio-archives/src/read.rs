//! Reading an archive: its entries (what `describe` and `list` show), the selection an
//! extraction will write (every refusal decided here, before anything is inflated), and
//! inflating one selected entry under a byte cap.
//!
//! Order matters and is the defence: the entry count is checked against `max_entries` on the
//! central directory (zip) or the headers (tar) before any entry's data is inflated; every
//! selected entry's name, type, encryption and method are checked before the first one is
//! written, so a refused archive leaves nothing behind; and every inflate reads at most the bytes
//! left of the budget plus one, so a lying size or a bomb stops at the cap. A `.tar.gz` is
//! inflated (capped) before tar parsing, then parsed from memory.

use std::io::{Cursor, Read};

use folio_vfs::Glob;
use zip::CompressionMethod;

use crate::error::ArchiveError;
use crate::format::Format;
use crate::names::{Resolved, resolve};

/// The limits every read obeys.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes an extraction may inflate in all (the tree's `limits.max_vfs_bytes`; 128 MiB).
    pub max_bytes: u64,
    /// Entries an archive may hold (the reference's `MAX_ENTRIES`, 20 000).
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_bytes: 128 * 1024 * 1024, max_entries: 20_000 }
    }
}

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// Something env:archives refuses to extract (a link, a device, a FIFO, a sparse file).
    Refused(&'static str),
    /// Tar metadata (a PAX global header): neither listed as a file nor extracted.
    Meta,
}

/// One entry as stored.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Its stored name (backslashes kept as stored).
    pub name: String,
    /// Its uncompressed size as declared.
    pub bytes: u64,
    /// What it is.
    pub kind: EntryKind,
    /// True for an encrypted zip entry.
    pub encrypted: bool,
    /// The zip compression method when it is one env:archives cannot inflate.
    pub unsupported_method: Option<String>,
    /// Where its data starts in the (inflated) tar stream; the zip index for zip.
    at: u64,
}

/// An archive opened for reading.
pub struct Opened<'a> {
    /// Its path, for messages.
    pub archive: String,
    /// Its format.
    pub format: Format,
    /// Its entries, in stored order.
    pub entries: Vec<Entry>,
    /// True when the zip's central directory names one entry twice (the reader keeps one of
    /// them, so an extraction would silently pick; it is refused instead).
    pub duplicate_names: bool,
    backend: Backend<'a>,
    cap: u64,
}

enum Backend<'a> {
    Zip(Box<zip::ZipArchive<Cursor<&'a [u8]>>>),
    Tar(Vec<u8>),
    TarRaw(&'a [u8]),
}

/// One entry an extraction will write.
#[derive(Debug, Clone)]
pub struct Selected {
    /// Its index in [`Opened::entries`].
    pub index: usize,
    /// Where it lands, relative to the target directory.
    pub relative: String,
}

/// The name an include glob is matched against: separators normalised, a leading `./` dropped.
fn match_name(name: &str) -> String {
    let n = name.replace('\\', "/");
    n.trim_start_matches("./").to_owned()
}

/// Reads at most `cap` bytes from `reader`; `None` when there were more.
fn read_capped(reader: impl Read, cap: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut out = Vec::new();
    reader.take(cap.saturating_add(1)).read_to_end(&mut out)?;
    Ok(if out.len() as u64 > cap { None } else { Some(out) })
}

impl<'a> Opened<'a> {
    /// Opens `bytes` (the file `archive`); a gzip stream is inflated with at most `cap` bytes.
    pub fn open(archive: &str, bytes: &'a [u8], limits: &Limits, cap: u64) -> Result<Opened<'a>, ArchiveError> {
        let unreadable = |detail: String| ArchiveError::Unreadable { archive: archive.to_owned(), detail };
        let format = Format::detect(archive, bytes).ok_or_else(|| {
            unreadable("it is not a zip, tar or gzip file (no signature, and the name does not say)".into())
        })?;
        let (entries, backend, duplicate_names) = match format {
            Format::Zip => {
                let zip = zip::ZipArchive::new(Cursor::new(bytes))
                    .map_err(|e| unreadable(format!("not a readable zip: {e}")))?;
                if zip.len() > limits.max_entries {
                    return Err(ArchiveError::TooManyEntries {
                        archive: archive.to_owned(),
                        count: zip.len(),
                        limit: limits.max_entries,
                    });
                }
                let duplicates = zip.has_duplicate_names();
                (zip_entries(&zip), Backend::Zip(Box::new(zip)), duplicates)
            }
            Format::Tar => (tar_entries(archive, bytes, limits)?, Backend::TarRaw(bytes), false),
            Format::TarGz => {
                let inflated = read_capped(flate2::read::MultiGzDecoder::new(bytes), cap)
                    .map_err(|e| unreadable(format!("the gzip stream is damaged: {e}")))?
                    .ok_or_else(|| ArchiveError::Bomb {
                        archive: archive.to_owned(),
                        what: "the gzip stream".into(),
                        budget: cap,
                        cap: limits.max_bytes,
                    })?;
                (tar_entries(archive, &inflated, limits)?, Backend::Tar(inflated), false)
            }
        };
        Ok(Opened { archive: archive.to_owned(), format, entries, duplicate_names, backend, cap: limits.max_bytes })
    }

    /// The file entries an extraction with `include` writes, with every refusal decided first.
    pub fn select(&self, include: Option<&str>) -> Result<Vec<Selected>, ArchiveError> {
        let glob = include.map(Glob::new);
        let archive = || self.archive.clone();
        if self.duplicate_names {
            return Err(ArchiveError::Invalid(format!(
                "{}: its central directory names the same entry more than once, so which copy is meant cannot be told — nothing was extracted; ask for the archive re-made, or extract it with the person's own tool",
                self.archive
            )));
        }
        let mut out: Vec<Selected> = Vec::new();
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for (index, e) in self.entries.iter().enumerate() {
            if matches!(e.kind, EntryKind::Directory | EntryKind::Meta) {
                continue;
            }
            if let Some(g) = &glob
                && !g.matches(&format!("/{}", match_name(&e.name)))
            {
                continue;
            }
            let relative = match resolve(&e.name) {
                Resolved::Skip => continue,
                Resolved::Refused(why) => {
                    return Err(ArchiveError::Traversal { archive: archive(), entry: e.name.clone(), why });
                }
                Resolved::File(p) => p,
            };
            if let EntryKind::Refused(kind) = e.kind {
                return Err(ArchiveError::Link { archive: archive(), entry: e.name.clone(), kind });
            }
            if e.encrypted {
                return Err(ArchiveError::Encrypted { archive: archive(), entry: e.name.clone() });
            }
            if let Some(method) = &e.unsupported_method {
                return Err(ArchiveError::Method { archive: archive(), entry: e.name.clone(), method: method.clone() });
            }
            if let Some(first) = seen.insert(relative.clone(), index) {
                return Err(ArchiveError::Duplicate {
                    archive: archive(),
                    first: self.entries[first].name.clone(),
                    second: e.name.clone(),
                    path: relative,
                });
            }
            out.push(Selected { index, relative });
        }
        if out.is_empty() {
            let files =
                self.entries.iter().filter(|e| !matches!(e.kind, EntryKind::Directory | EntryKind::Meta)).count();
            return Err(match include {
                Some(g) => ArchiveError::NothingMatched { archive: archive(), glob: g.to_owned(), files },
                None => ArchiveError::Invalid(format!(
                    "{}: the archive holds no file entries ({} entries in all) — nothing to extract; list(path) shows what it holds",
                    self.archive,
                    self.entries.len()
                )),
            });
        }
        Ok(out)
    }

    /// Inflates one selected entry with at most `budget` bytes (what is left of the cap).
    pub fn inflate(&mut self, selected: &Selected, budget: u64) -> Result<Vec<u8>, ArchiveError> {
        let entry = &self.entries[selected.index];
        let bomb = || ArchiveError::Bomb {
            archive: self.archive.clone(),
            what: format!("entry \"{}\"", entry.name),
            budget,
            cap: self.cap,
        };
        if entry.bytes > budget {
            return Err(bomb());
        }
        let damaged = |e: String| ArchiveError::Unreadable {
            archive: self.archive.clone(),
            detail: format!("entry \"{}\" could not be inflated: {e}", entry.name),
        };
        let data = match &mut self.backend {
            Backend::Zip(zip) => {
                let file = zip.by_index(entry.at as usize).map_err(|e| damaged(e.to_string()))?;
                read_capped(file, budget).map_err(|e| damaged(e.to_string()))?
            }
            Backend::Tar(bytes) => slice(bytes, entry, budget),
            Backend::TarRaw(bytes) => slice(bytes, entry, budget),
        };
        data.ok_or_else(bomb)
    }
}

/// A tar entry's data out of the stream in memory, or `None` past the budget.
fn slice(bytes: &[u8], entry: &Entry, budget: u64) -> Option<Vec<u8>> {
    if entry.bytes > budget {
        return None;
    }
    let start = usize::try_from(entry.at).ok()?;
    let end = start.checked_add(usize::try_from(entry.bytes).ok()?)?;
    Some(bytes.get(start..end.min(bytes.len()))?.to_vec())
}

fn zip_entries(zip: &zip::ZipArchive<Cursor<&[u8]>>) -> Vec<Entry> {
    (0..zip.len())
        .filter_map(|i| {
            let e = zip.by_index_data(i).ok()?;
            let name =
                e.name().map(|n| n.into_owned()).unwrap_or_else(|_| String::from_utf8_lossy(e.name_raw()).into_owned());
            let kind = if e.is_dir() {
                EntryKind::Directory
            } else if e.is_symlink() {
                EntryKind::Refused("symbolic link")
            } else {
                EntryKind::File
            };
            let unsupported_method = match e.compression() {
                CompressionMethod::Stored | CompressionMethod::Deflated => None,
                other => Some(format!("{other:?}")),
            };
            Some(Entry { name, bytes: e.size(), kind, encrypted: e.encrypted(), unsupported_method, at: i as u64 })
        })
        .collect()
}

fn tar_entries(archive: &str, bytes: &[u8], limits: &Limits) -> Result<Vec<Entry>, ArchiveError> {
    let unreadable = |e: std::io::Error| ArchiveError::Unreadable {
        archive: archive.to_owned(),
        detail: format!("not a readable tar: {e}"),
    };
    let mut tar = tar::Archive::new(bytes);
    let mut out = Vec::new();
    for entry in tar.entries().map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        if out.len() == limits.max_entries {
            return Err(ArchiveError::TooManyEntries {
                archive: archive.to_owned(),
                count: out.len() + 1,
                limit: limits.max_entries,
            });
        }
        use tar::EntryType as T;
        let kind = match entry.header().entry_type() {
            T::Regular | T::Continuous => EntryKind::File,
            T::Directory => EntryKind::Directory,
            T::Symlink => EntryKind::Refused("symbolic link"),
            T::Link => EntryKind::Refused("hard link"),
            T::Char => EntryKind::Refused("character device"),
            T::Block => EntryKind::Refused("block device"),
            T::Fifo => EntryKind::Refused("FIFO (named pipe)"),
            T::GNUSparse => EntryKind::Refused("GNU sparse file"),
            T::XGlobalHeader => EntryKind::Meta,
            _ => EntryKind::Refused("tar entry of an unknown type"),
        };
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        out.push(Entry {
            name,
            bytes: entry.size(),
            kind,
            encrypted: false,
            unsupported_method: None,
            at: entry.raw_file_position(),
        });
    }
    Ok(out)
}
