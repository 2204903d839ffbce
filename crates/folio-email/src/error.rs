//! The crate's one error type: each variant says what failed and what to do.

/// Why a message could not be read or extracted.
#[derive(Debug, thiserror::Error)]
pub enum EmailError {
    /// Not a message this crate reads.
    #[error(
        "{path} is not an email message (.eml, .msg or .mbox by content): {why} — describe it with the generic `describe` instead"
    )]
    NotMail {
        /// The file.
        path: String,
        /// What its content looked like.
        why: String,
    },
    /// A mailbox: counted, not extracted.
    #[error(
        "{path} is an mbox mailbox of {count} messages; env:email reads one message at a time — split it first (each message starts at a line beginning with `From `) and extract each as .eml"
    )]
    Mbox {
        /// The file.
        path: String,
        /// Its messages.
        count: usize,
    },
    /// The MIME structure could not be parsed.
    #[error("{path}: the MIME message could not be parsed (no header block) — check that it is a raw RFC 5322 message")]
    Mime {
        /// The file.
        path: String,
    },
    /// The Outlook compound file is damaged.
    #[error("{path}: the Outlook .msg compound file could not be read: {why}")]
    Msg {
        /// The file.
        path: String,
        /// The compound-file reader's reason.
        why: String,
    },
    /// The compressed RTF body is damaged.
    #[error("the compressed RTF body could not be decoded: {0}")]
    Rtf(String),
    /// A cap of [`crate::Limits`] was exceeded; nothing was written.
    #[error("{path}: {what} is {found}, over the cap of {cap} ({limit}); nothing was written — {fix}")]
    Cap {
        /// The file.
        path: String,
        /// What was counted.
        what: &'static str,
        /// How many there were.
        found: usize,
        /// The cap.
        cap: usize,
        /// The cap's name.
        limit: &'static str,
        /// What to do instead.
        fix: &'static str,
    },
    /// An argument was wrong.
    #[error("{0}")]
    Argument(String),
    /// The tree refused a read or write.
    #[error("{0}")]
    Fs(String),
}
