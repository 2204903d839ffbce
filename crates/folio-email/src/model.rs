//! One parsed message, whatever its container: the fields both readers fill and the JSON the
//! bindings return.

use serde_json::{Value, json};

/// Which container a message came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// RFC 5322 / MIME.
    Eml,
    /// Outlook's compound-file message.
    Msg,
    /// A Unix mailbox (counted, never extracted).
    Mbox,
}

impl Format {
    /// The name results use.
    pub fn name(self) -> &'static str {
        match self {
            Format::Eml => "eml",
            Format::Msg => "msg",
            Format::Mbox => "mbox",
        }
    }
}

/// One attachment or embedded message.
#[derive(Debug, Clone, Default)]
pub struct Attachment {
    /// The name the sender gave it (unsanitised; [`crate::names`] makes it safe to write).
    pub name: String,
    /// Its media type.
    pub content_type: String,
    /// Its bytes (for an embedded `.msg` message, the message re-serialised as `.eml`-like text).
    pub data: Vec<u8>,
    /// Shown inline in the body (`Content-Disposition: inline` or referenced by `cid:`).
    pub inline: bool,
    /// Its `Content-ID`, without angle brackets.
    pub content_id: Option<String>,
    /// An embedded message rather than a file.
    pub embedded: Option<Box<Mail>>,
}

/// A parsed message.
#[derive(Debug, Clone)]
pub struct Mail {
    /// Its container.
    pub format: Format,
    /// Subject ("" when absent).
    pub subject: String,
    /// Sender as `Name <address>`.
    pub from: Option<String>,
    /// To, Cc, Bcc and Reply-To, each `Name <address>`.
    pub to: Vec<String>,
    /// Cc.
    pub cc: Vec<String>,
    /// Bcc.
    pub bcc: Vec<String>,
    /// Reply-To.
    pub reply_to: Vec<String>,
    /// RFC 3339 date.
    pub date: Option<String>,
    /// Message-ID without brackets.
    pub message_id: Option<String>,
    /// Plain-text body.
    pub text: String,
    /// HTML body.
    pub html: Option<String>,
    /// RTF body (an Outlook message's decompressed `PR_RTF_COMPRESSED`).
    pub rtf: Option<String>,
    /// Headers, names lowercased, in order.
    pub headers: Vec<(String, String)>,
    /// Attachments and embedded messages.
    pub attachments: Vec<Attachment>,
}

impl Mail {
    /// An empty message of `format`.
    pub fn empty(format: Format) -> Mail {
        Mail {
            format,
            subject: String::new(),
            from: None,
            to: vec![],
            cc: vec![],
            bcc: vec![],
            reply_to: vec![],
            date: None,
            message_id: None,
            text: String::new(),
            html: None,
            rtf: None,
            headers: vec![],
            attachments: vec![],
        }
    }

    /// The summary `describe` returns (writes nothing).
    pub fn summary(&self, bytes: usize) -> Value {
        let attachments: Vec<Value> = self
            .attachments
            .iter()
            .map(|a| {
                let mut v =
                    json!({"name": a.name, "bytes": a.data.len(), "contentType": a.content_type, "inline": a.inline});
                if let Some(m) = &a.embedded {
                    v["embeddedMessage"] =
                        json!({"subject": m.subject, "from": m.from, "attachments": m.attachments.len()});
                }
                v
            })
            .collect();
        let mut v = json!({
            "format": self.format.name(),
            "bytes": bytes,
            "subject": self.subject,
            "to": self.to,
            "cc": self.cc,
            "attachments": attachments,
            "textCharacters": self.text.chars().count(),
            "hasHtml": self.html.is_some(),
            "hasRtf": self.rtf.is_some(),
        });
        if let Some(f) = &self.from {
            v["from"] = json!(f);
        }
        if let Some(d) = &self.date {
            v["date"] = json!(d);
        }
        if let Some(id) = &self.message_id {
            v["messageId"] = json!(id);
        }
        v
    }
}
