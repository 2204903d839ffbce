//! An email message's card (`preview_email`): sender, recipients, date, subject, body and
//! attachments, parsed by env:email's own readers (folio-email) with its caps. Opening an
//! attachment (`preview_email_attachment`) puts its bytes in the environment's scratch zone,
//! `/tmp/attachments/<content hash>/<safe name>` — never the folder, nothing pending — where the
//! preview shows it like any other file; asking again finds it there.

use folio_vfs::{Tree, VPath};

use super::error::PreviewError;
use super::{Previews, Version, checked_path, content_hash, read};
use crate::api::{EmailAttachment, PreviewEmailAttachmentResponse, PreviewEmailResponse};
use crate::session::Session;

/// The most body characters the card carries.
const BODY_CHARS: usize = 200_000;

fn parse(session: &Session, raw: &str) -> Result<(String, folio_email::Mail), PreviewError> {
    let at = checked_path(raw)?;
    let path = at.to_string();
    let bytes = read(session, &at, Version::Current)?;
    let mail = folio_email::ops::parse(&path, &bytes, &folio_email::Limits::default())
        .map_err(|e| PreviewError::Unsupported { path: path.clone(), why: e.to_string() })?;
    Ok((path, mail))
}

impl Previews {
    /// The card of the message at `raw`.
    pub fn email(&self, session: &Session, raw: &str) -> Result<PreviewEmailResponse, PreviewError> {
        let (path, m) = parse(session, raw)?;
        let full = if m.text.trim().is_empty() { m.html.as_deref().map(html_text).unwrap_or_default() } else { m.text };
        let body: String = full.chars().take(BODY_CHARS).collect();
        let attachments = m
            .attachments
            .iter()
            .enumerate()
            .map(|(i, a)| EmailAttachment {
                index: i as u32,
                name: a.name.clone(),
                content_type: a.content_type.clone(),
                size: a.data.len() as u64,
                inline: a.inline,
                embedded: a.embedded.is_some(),
            })
            .collect();
        Ok(PreviewEmailResponse {
            path,
            format: m.format.name().into(),
            from: m.from,
            to: m.to,
            cc: m.cc,
            date: m.date,
            subject: m.subject,
            body_truncated: body.len() < full.len(),
            body,
            attachments,
        })
    }

    /// Puts attachment `index` of the message at `raw` in the scratch zone and says where.
    pub fn email_attachment(
        &self,
        session: &Session,
        raw: &str,
        index: u32,
    ) -> Result<PreviewEmailAttachmentResponse, PreviewError> {
        let (path, m) = parse(session, raw)?;
        let count = m.attachments.len();
        let a = m.attachments.into_iter().nth(index as usize).ok_or_else(|| PreviewError::Unsupported {
            path: path.clone(),
            why: format!("it has {count} attachment(s); there is no attachment {index} — pick one from the card"),
        })?;
        let mut name = folio_email::names::safe_name(&a.name, index as usize + 1);
        if a.embedded.is_some() && !name.to_lowercase().ends_with(".eml") {
            name.push_str(".eml");
        }
        let dir = format!("/tmp/attachments/{}", &content_hash(&a.data)[..16]);
        let at = VPath::parse(&format!("{dir}/{name}"))
            .map_err(|e| PreviewError::BadPath { raw: format!("{dir}/{name}"), why: e.to_string() })?;
        let env = session.environment();
        if env.tree().read(&at).is_ok_and(|b| b == a.data) {
            return Ok(PreviewEmailAttachmentResponse { path: at.to_string() });
        }
        let put = env
            .mount(&dir, &name, &a.data)
            .map_err(|e| PreviewError::Read { path: format!("{path} attachment {index}"), why: e.to_string() })?;
        Ok(PreviewEmailAttachmentResponse { path: put.to_string() })
    }
}

/// The readable text of an HTML body: tags dropped, block ends as line breaks, the common
/// entities decoded, blank runs collapsed.
pub fn html_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            rest = "";
            break;
        };
        let raw_tag = rest[open + 1..open + close].to_ascii_lowercase();
        let closing = raw_tag.starts_with('/');
        let tag = raw_tag.trim_start_matches('/');
        let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if ["p", "br", "div", "tr", "li", "h1", "h2", "h3", "table"].contains(&name.as_str()) {
            out.push('\n');
        }
        rest = &rest[open + close + 1..];
        // The contents of style and script blocks are not text.
        for skip in ["style", "script"] {
            if name == skip && !closing {
                let end = format!("</{skip}");
                if let Some(at) = rest.to_ascii_lowercase().find(&end) {
                    rest = &rest[at..];
                }
            }
        }
    }
    out.push_str(rest);
    let decoded = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    let mut lines: Vec<&str> = Vec::new();
    for line in decoded.lines().map(str::trim_end) {
        if line.trim().is_empty() && lines.last().is_none_or(|l| l.trim().is_empty()) {
            continue;
        }
        lines.push(line);
    }
    lines.join("\n").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::html_text;

    #[test]
    fn an_html_body_reads_as_text() {
        let html = "<html><head><style>p{color:red}</style></head><body><p>Hello &amp; welcome</p><div>Line&nbsp;two</div><br><br><p>End</p></body></html>";
        assert_eq!(html_text(html), "Hello & welcome\n\nLine two\n\nEnd");
    }
}
