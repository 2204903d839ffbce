//! The `describe`/`ls` handler for folio-env's registry: [`ArchivesHandler`] claims zip, tar and
//! gzip files (magic `PK\3\4`, `PK\5\6`, `1F 8B`, `ustar` at 257 — the 64-byte head the
//! registry matches holds only the first three, so a tar is claimed by its extension) and
//! summarises them with the entry count and total size.
//!
//! Office files are zips too: the registry's rule is that magic beats extensions across
//! handlers in registration order, so folio-host registers this handler after the ones that
//! claim `.xlsx`/`.docx`/`.pptx`, and this one claims `PK` only when nothing earlier did.

use folio_env::{FileHandler, Magic};
use folio_vfs::VPath;

use crate::format::EXTENSIONS;
use crate::read::Limits;

/// Archives, summarised for `describe` and marked "open with env:archives".
pub struct ArchivesHandler {
    limits: Limits,
}

impl ArchivesHandler {
    /// A handler reading with `limits`.
    pub fn new(limits: Limits) -> ArchivesHandler {
        ArchivesHandler { limits }
    }
}

impl FileHandler for ArchivesHandler {
    fn module(&self) -> &str {
        "archives"
    }
    /// Every Office file is a zip: a handler claiming `.xlsx` or `.docx` outranks this one.
    fn container(&self) -> bool {
        true
    }
    fn description(&self) -> &str {
        "zip, tar and tar.gz archives: entry count, total size, first entries; list, extract safely, create"
    }
    fn extensions(&self) -> Vec<String> {
        EXTENSIONS.iter().map(|e| (*e).to_owned()).collect()
    }
    fn magic(&self) -> Vec<Magic> {
        [&b"PK\x03\x04"[..], b"PK\x05\x06", &[0x1f, 0x8b]]
            .iter()
            .map(|b| Magic { offset: 0, bytes: b.to_vec() })
            .collect()
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        let mut v = crate::ops::summary(path.as_str(), bytes, &self.limits).map_err(|e| e.to_string())?;
        v["kind"] = serde_json::json!("archive");
        Ok(v)
    }
}
