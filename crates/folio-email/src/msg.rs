//! Outlook `.msg`: a compound file (MS-CFB) whose properties (MS-OXMSG) are streams named
//! `__substg1.0_<id><type>` — strings as UTF-16LE (`001F`) or 8-bit (`001E`), binaries (`0102`) —
//! plus fixed-size values (the date) in the `__properties_version1.0` stream. Recipients live
//! in `__recip_version1.0_#N` storages, attachments in `__attach_version1.0_#N`; an attachment
//! whose data is a storage (`__substg1.0_3701000D`) is an embedded message, read by the same
//! code one level down (nesting is capped by [`Limits::max_depth`]).

use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

use crate::error::EmailError;
use crate::limits::Limits;
use crate::model::{Attachment, Format, Mail};

type Cfb<'a> = cfb::CompoundFile<Cursor<&'a [u8]>>;

/// A property tag's id, for the properties read here (MS-OXPROPS).
mod tag {
    pub const SUBJECT: u16 = 0x0037;
    pub const SENDER_NAME: u16 = 0x0C1A;
    pub const SENDER_EMAIL: u16 = 0x0C1F;
    pub const SENDER_SMTP: u16 = 0x5D01;
    pub const DISPLAY_TO: u16 = 0x0E04;
    pub const DISPLAY_CC: u16 = 0x0E03;
    pub const DISPLAY_BCC: u16 = 0x0E02;
    pub const BODY: u16 = 0x1000;
    pub const HTML: u16 = 0x1013;
    pub const RTF_COMPRESSED: u16 = 0x1009;
    pub const HEADERS: u16 = 0x007D;
    pub const MESSAGE_ID: u16 = 0x1035;
    pub const SUBMIT_TIME: u16 = 0x0039;
    pub const DELIVERY_TIME: u16 = 0x0E06;
    pub const RECIPIENT_TYPE: u16 = 0x0C15;
    pub const DISPLAY_NAME: u16 = 0x3001;
    pub const EMAIL_ADDRESS: u16 = 0x3003;
    pub const SMTP_ADDRESS: u16 = 0x39FE;
    pub const ATTACH_DATA: u16 = 0x3701;
    pub const ATTACH_FILENAME: u16 = 0x3704;
    pub const ATTACH_LONG_FILENAME: u16 = 0x3707;
    pub const ATTACH_MIME: u16 = 0x370E;
    pub const ATTACH_CONTENT_ID: u16 = 0x3712;
    pub const ATTACH_FLAGS: u16 = 0x3714;
}

/// True when a compound file is an Outlook message: its root has `__substg1.0_` streams
/// (legacy Word, Excel and PowerPoint files never do).
pub fn is_msg(bytes: &[u8]) -> bool {
    cfb::CompoundFile::open(Cursor::new(bytes))
        .map(|c| c.read_root_storage().any(|e| e.name().starts_with("__substg1.0_")))
        .unwrap_or(false)
}

fn stream(c: &mut Cfb<'_>, path: &Path, max: usize) -> Option<Vec<u8>> {
    let s = c.open_stream(path).ok()?;
    let mut out = Vec::new();
    s.take(max as u64).read_to_end(&mut out).ok()?;
    Some(out)
}

fn utf16(b: &[u8]) -> String {
    let units: Vec<u16> = b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    String::from_utf16_lossy(&units).trim_end_matches('\0').to_string()
}

/// A string property under `dir`, in either encoding.
fn string(c: &mut Cfb<'_>, dir: &Path, id: u16, max: usize) -> Option<String> {
    if let Some(b) = stream(c, &dir.join(format!("__substg1.0_{id:04X}001F")), max) {
        return Some(utf16(&b));
    }
    stream(c, &dir.join(format!("__substg1.0_{id:04X}001E")), max)
        .map(|b| String::from_utf8_lossy(&b).trim_end_matches('\0').to_string())
}

fn binary(c: &mut Cfb<'_>, dir: &Path, id: u16, max: usize) -> Option<Vec<u8>> {
    stream(c, &dir.join(format!("__substg1.0_{id:04X}0102")), max)
}

/// The fixed-size properties of `dir` as (id, 8-byte value); `header` is the stream's header
/// size (32 for the top-level message, 24 for an embedded one, 8 for recipients/attachments).
fn fixed(c: &mut Cfb<'_>, dir: &Path, header: usize) -> Vec<(u16, [u8; 8])> {
    let Some(b) = stream(c, &dir.join("__properties_version1.0"), 1 << 20) else { return vec![] };
    b.get(header..)
        .unwrap_or_default()
        .chunks_exact(16)
        .filter_map(|e| {
            let id = u16::from_le_bytes([e[2], e[3]]);
            let value: [u8; 8] = e[8..16].try_into().ok()?;
            Some((id, value))
        })
        .collect()
}

/// A FILETIME (100 ns ticks since 1601) as RFC 3339 UTC.
fn filetime(v: [u8; 8]) -> Option<String> {
    let ticks = u64::from_le_bytes(v);
    let secs = i64::try_from(ticks / 10_000_000).ok()? - 11_644_473_600;
    if secs <= 0 {
        return None;
    }
    // Whole seconds: the milliseconds folio-env's timestamp carries are always zero here.
    Some(folio_env::iso(secs.checked_mul(1000)?).replace(".000Z", "Z"))
}

fn split_display(s: Option<String>) -> Vec<String> {
    s.map(|s| s.split(';').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()).unwrap_or_default()
}

fn children(c: &Cfb<'_>, dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match c.read_storage(dir) {
        Ok(entries) => {
            entries.filter(|e| e.is_storage() && e.name().starts_with(prefix)).map(|e| e.path().to_path_buf()).collect()
        }
        Err(_) => vec![],
    };
    v.sort();
    v
}

/// Parses an Outlook message.
pub fn parse(path: &str, bytes: &[u8], limits: &Limits) -> Result<Mail, EmailError> {
    let mut c = cfb::CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| EmailError::Msg { path: path.into(), why: e.to_string() })?;
    read_message(path, &mut c, Path::new("/"), 32, 0, limits)
}

fn read_message(
    path: &str,
    c: &mut Cfb<'_>,
    dir: &Path,
    header: usize,
    depth: usize,
    limits: &Limits,
) -> Result<Mail, EmailError> {
    let max = limits.max_bytes;
    let mut mail = Mail::empty(Format::Msg);
    mail.subject = string(c, dir, tag::SUBJECT, max).unwrap_or_default();
    let name = string(c, dir, tag::SENDER_NAME, max);
    let address = string(c, dir, tag::SENDER_SMTP, max)
        .or_else(|| string(c, dir, tag::SENDER_EMAIL, max))
        .filter(|a| a.contains('@'));
    mail.from = match (name, address) {
        (Some(n), Some(a)) if n != a => Some(format!("{n} <{a}>")),
        (_, Some(a)) => Some(a),
        (Some(n), None) => Some(n),
        (None, None) => None,
    };
    let props = fixed(c, dir, header);
    mail.date = [tag::SUBMIT_TIME, tag::DELIVERY_TIME]
        .iter()
        .find_map(|t| props.iter().find(|(id, _)| id == t).and_then(|(_, v)| filetime(*v)));
    mail.message_id = string(c, dir, tag::MESSAGE_ID, max).map(|s| s.trim_matches(['<', '>']).to_string());
    mail.text = string(c, dir, tag::BODY, max).unwrap_or_default();
    mail.html = binary(c, dir, tag::HTML, max)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .or_else(|| string(c, dir, tag::HTML, max));
    if let Some(r) = binary(c, dir, tag::RTF_COMPRESSED, max) {
        mail.rtf = Some(String::from_utf8_lossy(&crate::rtf::decompress(&r, max)?).into_owned());
    }
    if let Some(h) = string(c, dir, tag::HEADERS, max) {
        mail.headers = unfold(&h);
    }
    // An Exchange sender has an X.500 address, not an SMTP one; the transport headers' From has it.
    if !mail.from.as_deref().is_some_and(|f| f.contains('@'))
        && let Some((_, f)) = mail.headers.iter().find(|(k, _)| k == "from")
    {
        mail.from = Some(f.clone());
    }
    read_recipients(c, dir, &mut mail, max);
    if mail.to.is_empty() && mail.cc.is_empty() {
        mail.to = split_display(string(c, dir, tag::DISPLAY_TO, max));
        mail.cc = split_display(string(c, dir, tag::DISPLAY_CC, max));
        mail.bcc = split_display(string(c, dir, tag::DISPLAY_BCC, max));
    }
    let attachments = children(c, dir, "__attach_version1.0_#");
    if attachments.len() > limits.max_attachments {
        return Err(limits.too_many(path, attachments.len()));
    }
    for (n, a) in attachments.iter().enumerate() {
        mail.attachments.push(read_attachment(path, c, a, n, depth, limits)?);
    }
    Ok(mail)
}

fn read_recipients(c: &mut Cfb<'_>, dir: &Path, mail: &mut Mail, max: usize) {
    for r in children(c, dir, "__recip_version1.0_#") {
        let kind = fixed(c, &r, 8)
            .into_iter()
            .find(|(id, _)| *id == tag::RECIPIENT_TYPE)
            .map(|(_, v)| u32::from_le_bytes([v[0], v[1], v[2], v[3]]))
            .unwrap_or(1);
        let name = string(c, &r, tag::DISPLAY_NAME, max);
        let addr = string(c, &r, tag::SMTP_ADDRESS, max)
            .or_else(|| string(c, &r, tag::EMAIL_ADDRESS, max))
            .filter(|a| a.contains('@'));
        let who = match (name, addr) {
            (Some(n), Some(a)) if n != a => format!("{n} <{a}>"),
            (_, Some(a)) => a,
            (Some(n), None) => n,
            (None, None) => continue,
        };
        match kind {
            2 => mail.cc.push(who),
            3 => mail.bcc.push(who),
            _ => mail.to.push(who),
        }
    }
}

fn read_attachment(
    path: &str,
    c: &mut Cfb<'_>,
    dir: &Path,
    n: usize,
    depth: usize,
    limits: &Limits,
) -> Result<Attachment, EmailError> {
    let max = limits.max_bytes;
    let name = string(c, dir, tag::ATTACH_LONG_FILENAME, max)
        .or_else(|| string(c, dir, tag::ATTACH_FILENAME, max))
        .or_else(|| string(c, dir, tag::DISPLAY_NAME, max))
        .filter(|s| !s.is_empty());
    let content_id = string(c, dir, tag::ATTACH_CONTENT_ID, max).filter(|s| !s.is_empty());
    let hidden = fixed(c, dir, 8).into_iter().any(|(id, v)| id == tag::ATTACH_FLAGS && v[0] & 0x4 != 0);
    let mut a = Attachment {
        content_type: string(c, dir, tag::ATTACH_MIME, max).unwrap_or_else(|| "application/octet-stream".into()),
        inline: content_id.is_some() || hidden,
        content_id,
        ..Attachment::default()
    };
    let embedded = dir.join(format!("__substg1.0_{:04X}000D", tag::ATTACH_DATA));
    if c.is_storage(&embedded) {
        if depth >= limits.max_depth {
            return Err(EmailError::Cap {
                path: path.into(),
                what: "the depth of embedded messages",
                found: depth + 1,
                cap: limits.max_depth,
                limit: "MAX_DEPTH",
                fix: "the message nests messages unusually deep; extract the outer levels only",
            });
        }
        let inner = read_message(path, c, &embedded, 24, depth + 1, limits)?;
        a.content_type = "message/rfc822".into();
        let base =
            name.unwrap_or_else(|| if inner.subject.is_empty() { "message".into() } else { inner.subject.clone() });
        // Written as RFC 5322 text, so it is named as such.
        a.name = if base.to_ascii_lowercase().ends_with(".eml") { base } else { format!("{base}.eml") };
        a.data = crate::render::to_eml(&inner).into_bytes();
        a.embedded = Some(Box::new(inner));
    } else {
        a.name = name.unwrap_or_else(|| format!("attachment-{}", n + 1));
        a.data = binary(c, dir, tag::ATTACH_DATA, max).unwrap_or_default();
    }
    Ok(a)
}

/// Transport headers (`PR_TRANSPORT_MESSAGE_HEADERS`) as lowercased name/value pairs.
fn unfold(raw: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in raw.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some(last) = out.last_mut() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
        } else if let Some((k, v)) = line.split_once(':') {
            out.push((k.trim().to_lowercase(), v.trim().to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_filetime_reads_as_utc() {
        // 2020-01-02T03:04:05Z = 1577934245 s since 1970.
        let ticks = (1_577_934_245u64 + 11_644_473_600) * 10_000_000;
        assert_eq!(super::filetime(ticks.to_le_bytes()).as_deref(), Some("2020-01-02T03:04:05Z"));
    }
}
