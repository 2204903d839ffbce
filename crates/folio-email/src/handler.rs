//! The describe handler: `describe`/`ls` show a message's sender and subject (`ls` for a message
//! up to [`LISTING_BYTES`], so a listing never parses a huge mailbox), and `grep` with
//! `documents: true` searches its subject, people and body. It claims `.eml`, `.msg` and `.mbox`
//! by extension and no signature: the compound-file signature is shared with legacy Office files,
//! which must keep their own handlers (folio-kinds decides a misnamed message by content).

use folio_env::{FileHandler, Magic};
use folio_vfs::VPath;

use crate::limits::Limits;

/// The extensions claimed.
pub const EXTENSIONS: &[&str] = &[".eml", ".msg", ".mbox"];

/// The largest message `ls` opens to name its sender and subject.
pub const LISTING_BYTES: u64 = 8 * 1024 * 1024;

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
    fn listing(&self, path: &VPath, size: u64, read: &dyn Fn() -> Option<Vec<u8>>) -> Option<String> {
        if size > LISTING_BYTES {
            return None;
        }
        let bytes = read()?;
        let p = path.as_str();
        if crate::detect::detect(p, &bytes) == Some(crate::Format::Mbox) {
            return Some(format!("mailbox of {} messages", crate::detect::mbox_count(&bytes)));
        }
        let m = crate::ops::parse(p, &bytes, &self.limits).ok()?;
        let subject: String = m.subject.chars().take(80).collect();
        let more = if m.subject.chars().count() > 80 { "…" } else { "" };
        let attached = match m.attachments.len() {
            0 => String::new(),
            1 => ", 1 attachment".to_string(),
            n => format!(", {n} attachments"),
        };
        Some(format!("from {}: \"{subject}{more}\"{attached}", m.from.as_deref().unwrap_or("(no sender)")))
    }
    fn text(&self, path: &VPath, bytes: &[u8]) -> Option<Result<String, String>> {
        Some(crate::ops::text(path.as_str(), bytes, &self.limits).map_err(|e| e.to_string()))
    }
}
