//! The describe handler: `describe`/`ls` show a message's sender and subject, and `grep` with
//! `documents: true` searches its subject, people and body. It claims `.eml`, `.msg` and `.mbox`
//! by extension and no signature: the compound-file signature is shared with legacy Office files,
//! which must keep their own handlers (folio-kinds decides a misnamed message by content).

use folio_env::{FileHandler, Magic};
use folio_vfs::VPath;

use crate::limits::Limits;

/// The extensions claimed.
pub const EXTENSIONS: &[&str] = &[".eml", ".msg", ".mbox"];

/// env:email's handler.
pub struct EmailHandler {
    limits: Limits,
}

impl EmailHandler {
    /// A handler with `limits`.
    pub fn new(limits: Limits) -> EmailHandler {
        EmailHandler { limits }
    }
}

impl FileHandler for EmailHandler {
    fn module(&self) -> &str {
        "email"
    }
    fn description(&self) -> &str {
        "email messages (.eml, Outlook .msg): sender, recipients, subject, date, attachments; .mbox counted"
    }
    fn extensions(&self) -> Vec<String> {
        EXTENSIONS.iter().map(|e| (*e).to_owned()).collect()
    }
    fn magic(&self) -> Vec<Magic> {
        vec![]
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        let p = path.as_str();
        if crate::detect::detect(p, bytes) == Some(crate::Format::Mbox) {
            return Ok(
                serde_json::json!({"kind": "email", "format": "mbox", "messages": crate::detect::mbox_count(bytes)}),
            );
        }
        let mut v = crate::ops::parse(p, bytes, &self.limits).map_err(|e| e.to_string())?.summary(bytes.len());
        v["kind"] = serde_json::json!("email");
        Ok(v)
    }
    fn text(&self, path: &VPath, bytes: &[u8]) -> Option<Result<String, String>> {
        Some(crate::ops::text(path.as_str(), bytes, &self.limits).map_err(|e| e.to_string()))
    }
}
