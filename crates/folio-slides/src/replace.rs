//! `replaceText`: the text runs (`a:t`) of the chosen slides, and of their notes unless told
//! not to, have each search string replaced; only the parts where something matched are
//! rewritten, every other entry is copied as stored (compressed bytes untouched). A search
//! string that spans two runs is not found (the message says so); nothing matching at all is
//! an error and nothing is written.

use serde::Serialize;

use crate::error::{Result, SlidesError};
use crate::read::{notes_part, slide_parts};
use crate::zipio::Package;

/// What `replaceText` did.
#[derive(Debug, Clone, Serialize)]
pub struct Replaced {
    /// Total replacements.
    pub replacements: usize,
    /// Per slide with at least one replacement.
    pub slides: Vec<SlideCount>,
    /// Search strings found nowhere.
    pub unmatched: Vec<String>,
    /// Parts rewritten.
    pub parts: usize,
    /// Entries in the package.
    pub entries: usize,
}

/// Replacements on one slide.
#[derive(Debug, Clone, Serialize)]
pub struct SlideCount {
    /// 1-based slide.
    pub slide: usize,
    /// How many.
    pub replacements: usize,
}

fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let Some(end) = rest.find(';').filter(|e| *e < 12) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let ent = &rest[1..end];
        let c = match ent {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => ent
                .strip_prefix("#x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| ent.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Replaces within every `<a:t>` of `xml`; returns the new XML and counts per rule.
fn replace_runs(xml: &str, rules: &[(String, String)], counts: &mut [usize]) -> Option<String> {
    let mut out = String::with_capacity(xml.len());
    let mut rest = xml;
    let mut changed = false;
    while let Some(i) = rest.find("<a:t>") {
        let start = i + "<a:t>".len();
        let Some(len) = rest[start..].find("</a:t>") else { break };
        out.push_str(&rest[..start]);
        let raw = &rest[start..start + len];
        let mut text = unescape(raw);
        let mut hit = false;
        for (k, (from, to)) in rules.iter().enumerate() {
            let n = text.matches(from.as_str()).count();
            if n > 0 {
                counts[k] += n;
                text = text.replace(from.as_str(), to);
                hit = true;
            }
        }
        if hit {
            out.push_str(&crate::parts::esc(&text));
            changed = true;
        } else {
            out.push_str(raw);
        }
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// Applies `rules` to `bytes` (named `path`); `slides` limits it to those 1-based slides.
pub fn replace_text(
    path: &str,
    bytes: &[u8],
    rules: &[(String, String)],
    slides: Option<&[usize]>,
    notes: bool,
) -> Result<(Vec<u8>, Replaced)> {
    if rules.is_empty() || rules.iter().any(|(f, _)| f.is_empty()) {
        return Err(SlidesError::Spec(
            "replaceText needs rules like {'Q3': 'Q4'} or [['Q3','Q4']] with non-empty search strings".into(),
        ));
    }
    let mut pkg = Package::open(path, bytes)?;
    let parts = slide_parts(&mut pkg)?;
    if let Some(bad) = slides.and_then(|s| s.iter().find(|n| **n == 0 || **n > parts.len())) {
        return Err(SlidesError::Spec(format!(
            "slide {bad} does not exist — the deck has slides 1 to {}",
            parts.len()
        )));
    }
    let mut counts = vec![0usize; rules.len()];
    let mut replaced: Vec<(String, Vec<u8>)> = Vec::new();
    let mut per_slide = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if slides.is_some_and(|s| !s.contains(&(i + 1))) {
            continue;
        }
        let before: usize = counts.iter().sum();
        let mut targets = vec![part.clone()];
        if notes {
            targets.extend(notes_part(&mut pkg, part)?);
        }
        for t in targets {
            let Some(xml) = pkg.text(&t)? else { continue };
            if let Some(new) = replace_runs(&xml, rules, &mut counts) {
                replaced.push((t, new.into_bytes()));
            }
        }
        let n = counts.iter().sum::<usize>() - before;
        if n > 0 {
            per_slide.push(SlideCount { slide: i + 1, replacements: n });
        }
    }
    let unmatched: Vec<String> =
        rules.iter().zip(&counts).filter(|(_, c)| **c == 0).map(|((f, _), _)| f.clone()).collect();
    if replaced.is_empty() {
        let quoted: Vec<String> = unmatched.iter().map(|u| format!("{u:?}")).collect();
        return Err(SlidesError::NoMatch { path: path.to_string(), unmatched: quoted.join(", ") });
    }
    let entries = pkg.names().len();
    let out = pkg.rewrite(&replaced)?;
    Ok((
        out,
        Replaced { replacements: counts.iter().sum(), slides: per_slide, unmatched, parts: replaced.len(), entries },
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn runs_are_replaced_with_escaping_kept() {
        let mut c = vec![0; 1];
        let out = replace_runs(
            "<a:r><a:t>Q3 &amp; more</a:t></a:r><a:t>none</a:t>",
            &[("Q3".into(), "Q4 <b>".into())],
            &mut c,
        )
        .unwrap();
        assert_eq!(out, "<a:r><a:t>Q4 &lt;b&gt; &amp; more</a:t></a:r><a:t>none</a:t>");
        assert_eq!(c, vec![1]);
        assert!(replace_runs("<a:t>x</a:t>", &[("y".into(), "z".into())], &mut c).is_none());
        assert_eq!(unescape("a&#x41;&#66;&lt;"), "aAB<");
    }
}
