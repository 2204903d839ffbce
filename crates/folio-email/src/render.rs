//! An embedded Outlook message written out as an `.eml` (RFC 5322, MIME), so what `extract`
//! writes for it opens in any mail reader and in env:email itself: headers, the text and HTML
//! bodies, and its own attachments as base64 parts.

use crate::model::Mail;

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len() * 4 / 3 + data.len() / 57 * 2 + 4);
    for (i, chunk) in data.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push_str("\r\n");
        }
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(B64[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A header value: ASCII as is, anything else as one RFC 2047 base64 encoded word.
fn word(s: &str) -> String {
    let s: String = s.chars().filter(|c| !c.is_control()).collect();
    if s.is_ascii() { s } else { format!("=?utf-8?B?{}?=", base64(s.as_bytes()).replace("\r\n", "")) }
}

/// `mail` as an RFC 5322 message.
pub fn to_eml(mail: &Mail) -> String {
    let mut h = String::new();
    if let Some(f) = &mail.from {
        h += &format!("From: {}\r\n", word(f));
    }
    for (name, list) in [("To", &mail.to), ("Cc", &mail.cc)] {
        if !list.is_empty() {
            h += &format!("{name}: {}\r\n", list.iter().map(|a| word(a)).collect::<Vec<_>>().join(", "));
        }
    }
    h += &format!("Subject: {}\r\n", word(&mail.subject));
    if let Some(d) = &mail.date {
        h += &format!("Date: {d}\r\n");
    }
    if let Some(id) = &mail.message_id {
        h += &format!("Message-ID: <{id}>\r\n");
    }
    h += "MIME-Version: 1.0\r\n";
    let boundary = "folio-embedded-message-boundary";
    h += &format!("Content-Type: multipart/mixed; boundary=\"{boundary}\"\r\n\r\n");
    let mut part = |ctype: &str, extra: &str, body: &str| {
        h += &format!(
            "--{boundary}\r\nContent-Type: {ctype}\r\nContent-Transfer-Encoding: base64\r\n{extra}\r\n{body}\r\n"
        );
    };
    part("text/plain; charset=utf-8", "", &base64(mail.text.as_bytes()));
    if let Some(html) = &mail.html {
        part("text/html; charset=utf-8", "", &base64(html.as_bytes()));
    }
    for a in &mail.attachments {
        let disposition =
            format!("Content-Disposition: attachment; filename=\"{}\"\r\n", word(&a.name).replace('"', ""));
        part(&a.content_type, &disposition, &base64(&a.data));
    }
    h += &format!("--{boundary}--\r\n");
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_rfc_4648_vectors() {
        for (raw, enc) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            assert_eq!(super::base64(raw.as_bytes()), enc);
        }
    }
}
