//! `vpath`: the path rules. The input (lossy UTF-8) is split at its first newline into a path
//! and a second string used as a relative spec; every accepted path must already be normal and
//! every derived path must agree with the rules.

use folio_vfs::{PathError, VPath};

use super::{bucket, tokens};
use crate::engine::Run;

pub(crate) fn dictionary() -> Vec<Vec<u8>> {
    tokens(&[
        "/", "//", "/./", "/../", "..", ".", "\n", "\\", "\u{0}", "\u{7f}", "\u{85}", "\u{202e}", "é", ".js", "/tmp",
    ])
}

pub(crate) fn setup() -> Result<Run, String> {
    Ok(Box::new(|input| {
        let text = String::from_utf8_lossy(input);
        let (raw, spec) = text.split_once('\n').unwrap_or((&text, "x"));
        match VPath::parse(raw) {
            Ok(path) => {
                check(&path, spec);
                format!("ok {}", bucket(path.segments().count()))
            }
            Err(e) => variant(&e).to_owned(),
        }
    }))
}

fn variant(e: &PathError) -> &'static str {
    match e {
        PathError::Empty => "empty",
        PathError::NotAbsolute(_) => "relative",
        PathError::ControlCharacters(_) => "control",
        PathError::EscapesRoot(_) => "escapes",
    }
}

/// The oracles: what every accepted path and everything derived from it satisfies.
fn check(path: &VPath, spec: &str) {
    let s = path.as_str();
    assert!(s.starts_with('/'), "{s:?} is not absolute");
    assert!(path.is_root() || !s.ends_with('/'), "{s:?} ends with /");
    assert!(!s.contains("//"), "{s:?} has an empty segment");
    assert!(path.segments().all(|seg| seg != "." && seg != ".."), "{s:?} kept a dot segment");
    assert!(!s.chars().any(char::is_control), "{s:?} kept a control character");
    assert_eq!(VPath::parse(s).as_ref(), Ok(path), "parsing {s:?} again changed it");
    if let Some(parent) = path.parent() {
        assert!(path.is_under(&parent), "{s:?} is not under its parent {parent}");
        assert_eq!(path.relative_to(&parent), Some(path.name()), "{s:?} relative to its parent");
        assert_eq!(parent.join(path.name()).as_ref(), Ok(path), "{parent} joined with {:?}", path.name());
        let ancestors = path.ancestors();
        assert_eq!(ancestors.last(), Some(&parent), "{s:?}: the last ancestor is not the parent");
        assert!(ancestors.iter().all(|a| path.is_under(a)), "{s:?} is not under every ancestor");
    } else {
        assert!(path.is_root(), "{s:?} has no parent but is not the root");
    }
    if let Some(ext) = path.extension() {
        assert!(path.name().ends_with(&format!(".{ext}")), "{s:?}: extension {ext:?} is not the name's end");
        assert!(!ext.contains('/'), "{s:?}: extension {ext:?} holds a /");
    }
    for derived in [path.resolve(spec), path.join(spec)].into_iter().flatten() {
        assert_eq!(VPath::parse(derived.as_str()).as_ref(), Ok(&derived), "{s:?} with {spec:?} gave {derived}");
    }
    if let Ok(to) = VPath::parse(&format!("/{spec}")) {
        let moved = path.rebase(path, &to);
        assert_eq!(moved.as_ref(), Some(&to), "{s:?} rebased onto itself at {to}");
        if let Some(parent) = path.parent()
            && let Some(moved) = path.rebase(&parent, &to)
        {
            assert_eq!(moved.name(), path.name(), "{s:?} rebased from its parent onto {to} renamed it");
            assert!(moved.is_under(&to), "{s:?} rebased onto {to} landed at {moved}");
        }
    }
}
