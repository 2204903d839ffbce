//! VFS paths: absolute, `/`-separated and normalised before any tree sees them.
//!
//! A [`VPath`] can only be built through [`VPath::parse`] (or derived from another `VPath`), so
//! every path a tree receives already satisfies the rules: it starts with `/`, has no empty, `.`
//! or `..` segments, and contains no NUL or other control character. `..` is resolved lexically
//! and can never climb above `/`, however it is spelled.
//!
//! Paths are case-sensitive everywhere in Folio. How that meets a case-insensitive host folder is
//! the overlay's business (see `overlay::host::CaseMode`).

use std::fmt;

/// Why a string is not a usable VFS path. Raised by [`VPath::parse`]; the caller fixes the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// The path was the empty string.
    #[error("path must be a non-empty string — hint: paths are absolute, like /inbox/data.csv")]
    Empty,
    /// The path did not start with `/`.
    #[error("path must be absolute (got \"{0}\") — hint: write it from the folder's root, like /{0}")]
    NotAbsolute(String),
    /// The path held NUL or another control character (U+0000–U+001F, U+007F).
    #[error("path contains control characters: {0:?} — hint: remove them from the name")]
    ControlCharacters(String),
    /// `..` segments would climb above `/`.
    #[error("path escapes the root: \"{0}\" — hint: `..` cannot leave the folder; name a path inside it")]
    EscapesRoot(String),
}

/// A normalised absolute VFS path. Ordering is byte order of the string, so `/a/b` sorts after
/// `/a-b` and every descendant of `/a` sorts inside the range `("/a/", "/a0")`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VPath(String);

impl VPath {
    /// The root, `/`.
    pub fn root() -> VPath {
        VPath("/".to_owned())
    }

    /// Checks and normalises `raw`.
    pub fn parse(raw: &str) -> Result<VPath, PathError> {
        if raw.is_empty() {
            return Err(PathError::Empty);
        }
        if raw.chars().any(|c| c.is_control()) {
            return Err(PathError::ControlCharacters(raw.to_owned()));
        }
        if !raw.starts_with('/') {
            return Err(PathError::NotAbsolute(raw.to_owned()));
        }
        let mut segments: Vec<&str> = Vec::new();
        for segment in raw.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    if segments.pop().is_none() {
                        return Err(PathError::EscapesRoot(raw.to_owned()));
                    }
                }
                other => segments.push(other),
            }
        }
        Ok(VPath(format!("/{}", segments.join("/"))))
    }

    /// Resolves `spec` against this path's directory when it is relative (`./x`, `../x`, `x`), or
    /// parses it as it is when absolute.
    pub fn resolve(&self, spec: &str) -> Result<VPath, PathError> {
        if spec.starts_with('/') {
            return VPath::parse(spec);
        }
        let base = self.parent().unwrap_or_else(VPath::root);
        let joined = if base.is_root() { format!("/{spec}") } else { format!("{}/{spec}", base.0) };
        VPath::parse(&joined).map_err(|err| match err {
            PathError::EscapesRoot(_) => PathError::EscapesRoot(spec.to_owned()),
            other => other,
        })
    }

    /// Appends one or more relative segments (`a/b`); the result is normalised again.
    pub fn join(&self, rel: &str) -> Result<VPath, PathError> {
        if self.is_root() { VPath::parse(&format!("/{rel}")) } else { VPath::parse(&format!("{}/{rel}", self.0)) }
    }

    /// The path as a string, always starting with `/`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for `/`.
    pub fn is_root(&self) -> bool {
        self.0 == "/"
    }

    /// The containing directory; `None` for the root.
    pub fn parent(&self) -> Option<VPath> {
        if self.is_root() {
            return None;
        }
        match self.0.rfind('/') {
            Some(0) => Some(VPath::root()),
            Some(at) => Some(VPath(self.0[..at].to_owned())),
            None => None,
        }
    }

    /// The last segment (`""` for the root).
    pub fn name(&self) -> &str {
        match self.0.rfind('/') {
            Some(at) => &self.0[at + 1..],
            None => &self.0,
        }
    }

    /// The extension after the last dot of the name, without the dot; none when the only dot is
    /// the first character (`.env`).
    pub fn extension(&self) -> Option<&str> {
        let name = self.name();
        match name.rfind('.') {
            Some(0) | None => None,
            Some(at) => Some(&name[at + 1..]),
        }
    }

    /// The segments after the root, in order.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0.split('/').filter(|s| !s.is_empty())
    }

    /// Every proper ancestor from `/` down to the parent (empty for the root).
    pub fn ancestors(&self) -> Vec<VPath> {
        let mut out = Vec::new();
        let mut current = self.parent();
        while let Some(p) = current {
            current = p.parent();
            out.push(p);
        }
        out.reverse();
        out
    }

    /// Segment-aware containment: `/out/a` is under `/out`, `/output` is not; a path is under itself.
    pub fn is_under(&self, prefix: &VPath) -> bool {
        if prefix.is_root() || self == prefix {
            return true;
        }
        self.0.len() > prefix.0.len() && self.0.starts_with(&prefix.0) && self.0.as_bytes()[prefix.0.len()] == b'/'
    }

    /// The part of this path below `base`, without a leading `/` (`""` when equal); `None` when
    /// this path is not under `base`.
    pub fn relative_to(&self, base: &VPath) -> Option<&str> {
        if !self.is_under(base) {
            return None;
        }
        if base.is_root() {
            Some(&self.0[1..])
        } else if self == base {
            Some("")
        } else {
            Some(&self.0[base.0.len() + 1..])
        }
    }

    /// Moves this path from under `from` to under `to` (`/a/x` from `/a` to `/b` is `/b/x`).
    pub fn rebase(&self, from: &VPath, to: &VPath) -> Option<VPath> {
        let rel = self.relative_to(from)?;
        if rel.is_empty() { Some(to.clone()) } else { to.join(rel).ok() }
    }
}

impl fmt::Display for VPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for VPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

impl AsRef<str> for VPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl serde::Serialize for VPath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for VPath {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        VPath::parse(&raw).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
