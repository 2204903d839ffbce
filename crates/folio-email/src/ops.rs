//! The bindings' work over a small file-system seam ([`MailFs`]), so the same code runs over the
//! script gateway (every write a pending overlay edit that passes zones and limits) and in tests.
//!
//! `extract` decides everything before its first write: the attachments selected (`include`,
//! `inline`), their count against [`Limits::max_attachments`], their total bytes against
//! [`Limits::max_bytes`], and their safe, unique names — so a refusal leaves nothing behind.

use serde_json::{Map, Value, json};

use crate::error::EmailError;
use crate::limits::Limits;
use crate::model::{Format, Mail};
use crate::names::{Unique, safe_name};

/// What the operations need from a file system.
pub trait MailFs {
    /// The file's bytes.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    /// Writes a file, creating its parent directories.
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), String>;
    /// Whether something exists at `path`.
    fn exists(&self, path: &str) -> bool;
}

/// Parses the message at `path` from `bytes` (refusing an mbox with its count).
pub fn parse(path: &str, bytes: &[u8], limits: &Limits) -> Result<Mail, EmailError> {
    match crate::detect::detect(path, bytes) {
        Some(Format::Eml) => crate::eml::parse(path, bytes, limits),
        Some(Format::Msg) => crate::msg::parse(path, bytes, limits),
        Some(Format::Mbox) => Err(EmailError::Mbox { path: path.into(), count: crate::detect::mbox_count(bytes) }),
        None => Err(EmailError::NotMail {
            path: path.into(),
            why: if bytes.starts_with(crate::detect::OLE) {
                "a compound (OLE) file without Outlook's __substg1.0_ property streams — a legacy Office document?"
                    .into()
            } else {
                "no RFC 5322 header block with From/To/Subject/Date in its first 8 KiB".into()
            },
        }),
    }
}

/// `describe(path)`: the summary, or for an mbox its message count. Writes nothing.
pub fn describe(fs: &dyn MailFs, path: &str, limits: &Limits) -> Result<Value, EmailError> {
    let bytes = fs.read(path).map_err(EmailError::Fs)?;
    if crate::detect::detect(path, &bytes) == Some(Format::Mbox) {
        return Ok(json!({"format": "mbox", "bytes": bytes.len(), "messages": crate::detect::mbox_count(&bytes),
            "note": "an mbox is listed, not extracted: split it into one .eml per message first"}));
    }
    Ok(parse(path, &bytes, limits)?.summary(bytes.len()))
}

/// Options of `extract`.
#[derive(Debug, Default)]
pub struct ExtractOptions {
    /// Where attachments go (default `<path without extension>.attachments`).
    pub dir: Option<String>,
    /// A glob over attachment names (`*.pdf`); all when absent.
    pub include: Option<String>,
    /// Also write inline (`cid:`) parts.
    pub inline: bool,
}

impl ExtractOptions {
    /// From the script's options object.
    pub fn from_json(v: &Value) -> Result<ExtractOptions, EmailError> {
        let text = |k: &str| -> Result<Option<String>, EmailError> {
            match v.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(EmailError::Argument(format!("extract: option {k} must be a string"))),
            }
        };
        if let Some(bad) =
            v.as_object().and_then(|o| o.keys().find(|k| !["dir", "include", "inline"].contains(&k.as_str())))
        {
            return Err(EmailError::Argument(format!("extract: unknown option {bad} (known: dir, include, inline)")));
        }
        Ok(ExtractOptions {
            dir: text("dir")?,
            include: text("include")?,
            inline: v.get("inline").and_then(Value::as_bool).unwrap_or(false),
        })
    }
}

/// `*` and `?` over a whole name, case-insensitively.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    fn go(p: &[char], n: &[char]) -> bool {
        match p.split_first() {
            None => n.is_empty(),
            Some(('*', rest)) => (0..=n.len()).any(|i| go(rest, &n[i..])),
            Some(('?', rest)) => !n.is_empty() && go(rest, &n[1..]),
            Some((c, rest)) => n.first().is_some_and(|x| x.to_lowercase().eq(c.to_lowercase())) && go(rest, &n[1..]),
        }
    }
    let p: Vec<char> = pattern.trim_start_matches("**/").chars().collect();
    let n: Vec<char> = name.chars().collect();
    go(&p, &n)
}

fn default_dir(path: &str) -> String {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    format!("{dir}/{stem}.attachments")
}

/// `extract(path, options)`: the full message, with the selected attachments written under the
/// directory. Every check runs before the first write.
pub fn extract(fs: &dyn MailFs, path: &str, opts: &ExtractOptions, limits: &Limits) -> Result<Value, EmailError> {
    let bytes = fs.read(path).map_err(EmailError::Fs)?;
    let mail = parse(path, &bytes, limits)?;
    let dir = opts.dir.clone().unwrap_or_else(|| default_dir(path));
    let dir = dir.trim_end_matches('/').to_string();
    if !dir.starts_with('/') || dir.split('/').any(|s| s == "..") {
        return Err(EmailError::Argument(format!("extract: dir {dir:?} must be an absolute folder path without '..'")));
    }
    if mail.attachments.len() > limits.max_attachments {
        return Err(limits.too_many(path, mail.attachments.len()));
    }
    let mut skipped = vec![];
    let mut unique = Unique::default();
    let exists = |n: &str| fs.exists(&format!("{dir}/{n}"));
    let mut plan = vec![];
    for (i, a) in mail.attachments.iter().enumerate() {
        let name = safe_name(&a.name, i + 1);
        if a.inline && !opts.inline {
            skipped.push(format!("{name} (inline; pass inline: true)"));
            continue;
        }
        if opts.include.as_deref().is_some_and(|g| !glob_match(g, &name)) {
            continue;
        }
        let name = unique.claim(&name, &exists);
        plan.push((a, name));
    }
    let total: usize = plan.iter().map(|(a, _)| a.data.len()).sum();
    if total > limits.max_bytes {
        return Err(EmailError::Cap {
            path: path.into(),
            what: "the attachments' total size in bytes",
            found: total,
            cap: limits.max_bytes,
            limit: "limits.max_vfs_bytes",
            fix: "pass {include: '<glob>'} to take fewer",
        });
    }
    let mut written = vec![];
    let mut embedded = vec![];
    for (a, name) in &plan {
        let target = format!("{dir}/{name}");
        fs.write(&target, &a.data).map_err(EmailError::Fs)?;
        let mut v = json!({"name": name, "bytes": a.data.len(), "contentType": a.content_type, "inline": a.inline, "path": target});
        if name != &a.name {
            v["originalName"] = json!(a.name);
        }
        if let Some(id) = &a.content_id {
            v["contentId"] = json!(id);
        }
        if let Some(m) = &a.embedded {
            v["embeddedMessage"] =
                json!({"subject": m.subject, "from": m.from, "date": m.date, "attachments": m.attachments.len()});
            embedded.push(format!("{name} (\"{}\")", m.subject));
        }
        written.push(v);
    }
    let mut out = mail.summary(bytes.len());
    out["bcc"] = json!(mail.bcc);
    out["replyTo"] = json!(mail.reply_to);
    out["text"] = json!(mail.text);
    if let Some(h) = &mail.html {
        out["html"] = json!(h);
    }
    if let Some(r) = &mail.rtf {
        out["rtf"] = json!(r);
    }
    let mut headers = Map::new();
    for (k, v) in &mail.headers {
        headers.entry(k.clone()).or_insert_with(|| json!(v));
    }
    out["headers"] = Value::Object(headers);
    out["attachments"] = json!(written);
    out["dir"] = json!(dir);
    let mut notes = vec![];
    if !embedded.is_empty() {
        notes.push(format!(
            "embedded messages written as .eml (describe or extract them in turn): {}",
            embedded.join(", ")
        ));
    }
    if !skipped.is_empty() {
        notes.push(format!("skipped: {}", skipped.join(", ")));
    }
    if !notes.is_empty() {
        out["note"] = json!(notes.join("; "));
    }
    Ok(out)
}

/// The message's searchable text: subject, people and the plain body (or the HTML's when there
/// is no plain one).
pub fn text(path: &str, bytes: &[u8], limits: &Limits) -> Result<String, EmailError> {
    let m = parse(path, bytes, limits)?;
    let body = if m.text.trim().is_empty() { m.html.clone().unwrap_or_default() } else { m.text.clone() };
    Ok(format!("Subject: {}\nFrom: {}\nTo: {}\n\n{}", m.subject, m.from.unwrap_or_default(), m.to.join(", "), body))
}
