//! The caps every call checks before it writes anything.

use crate::error::EmailError;

/// Caps for one call.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Attachments a message may carry (the reference's `maxAttachments`, 200).
    pub max_attachments: usize,
    /// MIME parts an `.eml` may have (a nested-multipart bomb is refused here).
    pub max_parts: usize,
    /// Levels of messages embedded in messages.
    pub max_depth: usize,
    /// Bytes one call reads from a property or writes in total (`limits.max_vfs_bytes`).
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_attachments: 200, max_parts: 1000, max_depth: 8, max_bytes: 128 << 20 }
    }
}

impl Limits {
    /// The refusal for a message with `found` attachments.
    pub fn too_many(&self, path: &str, found: usize) -> EmailError {
        EmailError::Cap {
            path: path.into(),
            what: "the number of attachments",
            found,
            cap: self.max_attachments,
            limit: "MAX_ATTACHMENTS",
            fix: "pass {include: '<glob>'} to take the ones you need",
        }
    }
}
