//! `.eml` through `mail-parser`: MIME structure, RFC 2047 encoded words and charsets decoded by
//! the parser; this layer maps its message onto [`Mail`] and refuses a part count over the cap
//! before anything else looks at the parts (a "bomb" of nested multiparts).

use mail_parser::{Address, MessageParser, MimeHeaders, PartType};

use crate::error::EmailError;
use crate::limits::Limits;
use crate::model::{Attachment, Format, Mail};

fn addresses(a: Option<&Address<'_>>) -> Vec<String> {
    let Some(a) = a else { return vec![] };
    a.iter()
        .map(|x| match (x.name(), x.address()) {
            (Some(n), Some(e)) => format!("{n} <{e}>"),
            (None, Some(e)) => e.to_string(),
            (Some(n), None) => n.to_string(),
            (None, None) => String::new(),
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// Parses `bytes` as one RFC 5322 message.
pub fn parse(path: &str, bytes: &[u8], limits: &Limits) -> Result<Mail, EmailError> {
    let msg = MessageParser::default().parse(bytes).ok_or_else(|| EmailError::Mime { path: path.into() })?;
    if msg.parts.len() > limits.max_parts {
        return Err(EmailError::Cap {
            path: path.into(),
            what: "the number of MIME parts",
            found: msg.parts.len(),
            cap: limits.max_parts,
            limit: "MAX_PARTS",
            fix: "the message is malformed or hostile; read its raw text with env:fs if you must",
        });
    }
    let mut mail = Mail::empty(Format::Eml);
    mail.subject = msg.subject().unwrap_or_default().to_string();
    mail.from = addresses(msg.from()).into_iter().next();
    mail.to = addresses(msg.to());
    mail.cc = addresses(msg.cc());
    mail.bcc = addresses(msg.bcc());
    mail.reply_to = addresses(msg.reply_to());
    mail.date = msg.date().map(|d| d.to_rfc3339());
    mail.message_id = msg.message_id().map(str::to_string);
    mail.text = msg.text_bodies().filter_map(|p| p.text_contents()).collect::<Vec<_>>().join("\n");
    if mail.text.is_empty() {
        mail.text = msg.body_text(0).map(|c| c.into_owned()).unwrap_or_default();
    }
    mail.html = msg.html_bodies().find_map(|p| match &p.body {
        PartType::Html(h) => Some(h.to_string()),
        _ => None,
    });
    mail.headers = msg.headers_raw().map(|(k, v)| (k.to_lowercase(), v.trim().to_string())).collect();
    for (n, part) in msg.attachments().enumerate() {
        let content_type = part
            .content_type()
            .map(|c| match c.subtype() {
                Some(s) => format!("{}/{}", c.ctype(), s),
                None => c.ctype().to_string(),
            })
            .unwrap_or_else(|| "application/octet-stream".into());
        let disposition_inline = part.content_disposition().is_some_and(|d| d.ctype().eq_ignore_ascii_case("inline"));
        let content_id = part.content_id().map(|c| c.trim_matches(['<', '>']).to_string());
        let mut a = Attachment {
            name: part.attachment_name().map(str::to_string).unwrap_or_else(|| format!("attachment-{}", n + 1)),
            content_type,
            data: part.contents().to_vec(),
            inline: disposition_inline || content_id.is_some() && matches!(part.body, PartType::InlineBinary(_)),
            content_id,
            embedded: None,
        };
        if let PartType::Message(inner) = &part.body {
            a.data = inner.raw_message().to_vec();
            if part.attachment_name().is_none() {
                a.name = format!("{}.eml", inner.subject().unwrap_or("message"));
            }
            a.embedded = Some(Box::new(parse(path, inner.raw_message(), limits)?));
        }
        mail.attachments.push(a);
    }
    Ok(mail)
}
