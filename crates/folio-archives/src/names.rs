//! Where an entry may land: the one function every extraction asks before it writes.
//!
//! The rules are the reference's: backslashes are separators (a Windows-made zip says
//! `..\..\evil`), an absolute name (`/etc/x`, `C:\x`, `\\server\x`) is refused, the name is
//! resolved segment by segment and a `..` that would climb above the target is refused — so
//! `a/../b.txt` is allowed (it resolves inside) while `a/../../b.txt` is not. `.` segments and
//! empty segments vanish, and a name that resolves to nothing (`./`) or ends in `/` (a directory
//! entry) is skipped, not written: directories are made as files land in them.

/// What [`resolve`] decided about one entry name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// A file lands at this path relative to the target (segments joined with `/`).
    File(String),
    /// A directory entry or `.`: nothing to write.
    Skip,
    /// Refused, with the rule it broke.
    Refused(&'static str),
}

/// Resolves one stored entry name (see the module essay).
pub fn resolve(name: &str) -> Resolved {
    let name = name.replace('\\', "/");
    if name.starts_with('/') {
        return Resolved::Refused("an absolute name (it starts with /)");
    }
    let bytes = name.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Resolved::Refused("an absolute Windows name (it starts with a drive letter)");
    }
    if name.chars().any(|c| c.is_control()) {
        return Resolved::Refused("a name with control characters");
    }
    let directory = name.ends_with('/');
    let mut stack: Vec<&str> = Vec::new();
    for segment in name.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if stack.pop().is_none() {
                    return Resolved::Refused("a name that climbs above the target directory (..)");
                }
            }
            s => stack.push(s),
        }
    }
    if directory || stack.is_empty() { Resolved::Skip } else { Resolved::File(stack.join("/")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, expect: &str) {
        let got = match resolve(name) {
            Resolved::File(p) => p,
            Resolved::Skip => "skip".into(),
            Resolved::Refused(_) => "refused".into(),
        };
        assert_eq!(got, expect, "{name}");
    }

    #[test]
    fn names_resolve_inside_or_are_refused() {
        for (name, expect) in [
            ("a.txt", "a.txt"),
            ("dir/b.csv", "dir/b.csv"),
            ("a/../b.txt", "b.txt"),
            ("./c.txt", "c.txt"),
            ("a/./b//c", "a/b/c"),
            ("dir/", "skip"),
            ("./", "skip"),
            (".", "skip"),
            ("../evil.txt", "refused"),
            ("a/../../evil.txt", "refused"),
            ("..\\..\\evil.txt", "refused"),
            ("good\\nested.txt", "good/nested.txt"),
            ("/etc/passwd", "refused"),
            ("\\\\server\\share\\x", "refused"),
            ("C:\\Windows\\x.dll", "refused"),
            ("c:/x", "refused"),
            ("bad\u{7}bell", "refused"),
            ("émoji 📦.txt", "émoji 📦.txt"),
        ] {
            check(name, expect);
        }
    }
}
