//! Names as the person's folder sees them: which spellings it takes for one name, and which names
//! it cannot hold.
//!
//! **Folding.** VFS paths are compared byte for byte, but a folder may not be: NTFS and APFS (by
//! default) ignore case, so `Report.pdf` and `report.pdf` are one file; APFS and HFS+ ignore
//! Unicode normalisation, so `Café` typed on a keyboard (NFC) and `Café` as the Finder stored it
//! (NFD) are one name. [`NameRules`] records what the folder does — detected by probing the folder
//! itself at open (see `overlay::host::probe_folder`), never assumed from the OS, and forced by
//! tests so that each behaviour runs on Linux with the semantics simulated. [`NameRules::key`] is
//! the one comparison every check uses: two names are the same entry of the folder exactly when
//! their keys are equal.
//!
//! **Portable names.** A name Windows cannot hold — a device name (`CON`, `PRN`, `AUX`, `NUL`,
//! `COM1`–`COM9`, `LPT1`–`LPT9`, with any extension: `aux.txt` is the device too), or a name ending
//! in a dot or a space (Windows strips them, so the file would land under another name) — is
//! refused when the agent *creates* it, on every OS. Decision: a folder on Linux or macOS is often
//! synced to a Windows machine (OneDrive, Dropbox, a network share), where such a file breaks the
//! sync or cannot be opened, and the agent never needs such a name. Names already on disk stay
//! readable and editable. The characters Windows forbids (`<>:"|?*\`) are refused only when the
//! folder is on Windows ([`NameRules::windows_chars`]): on Linux and macOS `:` in a name is
//! ordinary, and refusing it would break folders that work today.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

/// How the folder compares and which names it can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NameRules {
    /// `a` and `A` name one entry.
    pub fold_case: bool,
    /// NFC and NFD spellings name one entry.
    pub fold_unicode: bool,
    /// The folder refuses `<>:"|?*\` in names (it is on Windows).
    pub windows_chars: bool,
}

/// Device names Windows reserves in every directory, whatever the extension.
const RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "LPT1", "LPT2",
    "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// Characters a Windows folder refuses in a name.
const WINDOWS_FORBIDDEN: &[char] = &['<', '>', ':', '"', '|', '?', '*', '\\'];

impl NameRules {
    /// True when some spellings of a name are one entry here.
    pub fn folds(&self) -> bool {
        self.fold_case || self.fold_unicode
    }

    /// The name as this folder compares it: NFC when it ignores normalisation, lower case when it
    /// ignores case. Equal keys, one entry.
    pub fn key<'a>(&self, name: &'a str) -> Cow<'a, str> {
        let mut out: Cow<'a, str> = Cow::Borrowed(name);
        if self.fold_unicode && !name.is_ascii() {
            out = Cow::Owned(name.nfc().collect());
        }
        if self.fold_case && out.chars().any(char::is_uppercase) {
            out = Cow::Owned(out.to_lowercase());
        }
        out
    }

    /// True when `a` and `b` differ only in a way this folder ignores.
    pub fn same(&self, a: &str, b: &str) -> bool {
        a == b || (self.folds() && self.key(a) == self.key(b))
    }

    /// Why this folder (or a Windows machine it may be synced to) cannot hold a new entry named
    /// `name`, or `None` when it can.
    pub fn unportable(&self, name: &str) -> Option<String> {
        let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
        if let Some(device) = RESERVED.iter().find(|r| r.eq_ignore_ascii_case(stem)) {
            return Some(format!(
                "{device} is a device name Windows reserves in every folder, with any extension, so \
                 Windows cannot open or sync a file named {name:?}"
            ));
        }
        if name.ends_with('.') || name.ends_with(' ') {
            return Some(format!(
                "Windows drops a trailing dot or space, so {name:?} would become {:?} on a Windows machine",
                name.trim_end_matches(['.', ' '])
            ));
        }
        if self.windows_chars
            && let Some(c) = name.chars().find(|c| WINDOWS_FORBIDDEN.contains(c))
        {
            return Some(format!("this folder is on Windows, which does not allow {c:?} in a name"));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::NameRules;

    #[test]
    fn reserved_and_trailing_names_are_unportable_with_their_reason() {
        let rules = NameRules::default();
        for (name, reason) in [
            ("CON", Some("CON is a device name")),
            ("aux.txt", Some("AUX is a device name")),
            ("Com7.tar.gz", Some("COM7 is a device name")),
            ("lpt9", Some("LPT9 is a device name")),
            ("nul .txt", Some("NUL is a device name")),
            ("report.", Some("trailing dot or space")),
            ("report ", Some("trailing dot or space")),
            ("COM10", None),
            ("console.txt", None),
            ("auxiliary.txt", None),
            (".aux", None),
            ("a:b", None),
        ] {
            match (rules.unportable(name), reason) {
                (Some(got), Some(want)) => assert!(got.contains(want), "{name}: {got}"),
                (None, None) => {}
                (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
            }
        }
        let windows = NameRules { windows_chars: true, ..NameRules::default() };
        assert!(windows.unportable("a:b").is_some_and(|r| r.contains("':'")));
        assert!(windows.unportable("a?").is_some());
    }

    #[test]
    fn keys_fold_what_the_folder_folds() {
        let nfc = "Caf\u{e9}";
        let nfd = "Cafe\u{301}";
        let plain = NameRules::default();
        assert!(!plain.same("Report.pdf", "report.pdf"));
        assert!(!plain.same(nfc, nfd));
        let case = NameRules { fold_case: true, ..NameRules::default() };
        assert!(case.same("Report.pdf", "report.pdf"));
        assert!(!case.same(nfc, nfd));
        let unicode = NameRules { fold_unicode: true, ..NameRules::default() };
        assert!(unicode.same(nfc, nfd));
        assert!(!unicode.same("Report.pdf", "report.pdf"));
        let both = NameRules { fold_case: true, fold_unicode: true, windows_chars: false };
        assert!(both.same("CAF\u{c9}", nfd));
    }
}
