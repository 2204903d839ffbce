//! Attachment names made safe to write: a sender chooses them, so they may climb out of the
//! directory (`../../x`), carry control characters, be only dots, or be thousands of
//! characters long. Only the basename survives (after both `/` and `\`), control characters are
//! dropped, a name of nothing but dots and spaces becomes `attachment-N`, names are cut to
//! [`MAX_NAME`] characters keeping the extension, and a name already taken becomes
//! `name-2.ext`, `name-3.ext`, …

use std::collections::HashSet;

/// Longest name written, in characters.
pub const MAX_NAME: usize = 200;

/// `raw` as a safe basename; `n` (1-based) names the fallback.
pub fn safe_name(raw: &str, n: usize) -> String {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or_default();
    let clean: String = base.chars().filter(|c| !c.is_control()).collect();
    let clean = clean.trim().to_string();
    if clean.chars().all(|c| c == '.' || c == ' ') {
        return format!("attachment-{n}");
    }
    cut(&clean, MAX_NAME)
}

fn split_ext(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(i) if i > 0 && name.len() - i <= 16 => (&name[..i], &name[i..]),
        _ => (name, ""),
    }
}

fn cut(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_string();
    }
    let (stem, ext) = split_ext(name);
    let keep = max.saturating_sub(ext.chars().count());
    stem.chars().take(keep).chain(ext.chars()).collect()
}

/// Hands out unique names: the second `a.pdf` becomes `a-2.pdf`.
#[derive(Default)]
pub struct Unique {
    taken: HashSet<String>,
}

impl Unique {
    /// `name`, or the first free `name-K.ext`; `also_taken` says whether a name exists already
    /// (a file in the directory).
    pub fn claim(&mut self, name: &str, also_taken: &dyn Fn(&str) -> bool) -> String {
        let free = |t: &HashSet<String>, s: &str| !t.contains(&s.to_lowercase()) && !also_taken(s);
        let mut pick = name.to_string();
        let (stem, ext) = split_ext(name);
        let mut k = 2;
        while !free(&self.taken, &pick) {
            let suffix = format!("-{k}{ext}");
            let stem = cut(stem, MAX_NAME.saturating_sub(suffix.chars().count()));
            pick = format!("{stem}{suffix}");
            k += 1;
        }
        self.taken.insert(pick.to_lowercase());
        pick
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_names_are_made_safe() {
        let long = format!("{}.pdf", "a".repeat(500));
        let cases: &[(&str, &str)] = &[
            ("../../x", "x"),
            ("..\\..\\windows\\evil.exe", "evil.exe"),
            ("re\u{7}port\u{0}.pdf", "report.pdf"),
            ("..", "attachment-3"),
            ("   ", "attachment-3"),
            ("/etc/", "attachment-3"),
            ("ok.txt", "ok.txt"),
        ];
        for (raw, want) in cases {
            assert_eq!(safe_name(raw, 3), *want, "{raw:?}");
        }
        let cut = safe_name(&long, 1);
        assert_eq!(cut.chars().count(), MAX_NAME);
        assert!(cut.ends_with(".pdf"));
    }

    #[test]
    fn collisions_get_a_number_before_the_extension() {
        let mut u = Unique::default();
        let none = |_: &str| false;
        assert_eq!(u.claim("a.pdf", &none), "a.pdf");
        assert_eq!(u.claim("a.pdf", &none), "a-2.pdf");
        assert_eq!(u.claim("A.PDF", &none), "A-3.PDF");
        assert_eq!(u.claim("b", &|s: &str| s == "b"), "b-2");
    }
}
