//! Ignore rules: names that are invisible in the tree (listing, walking, stat) and refused by name
//! when read or written. The defaults hide version-control internals, dependency folders and OS
//! litter; the overlay's own commit temp files are always hidden.

use crate::path::VPath;

/// Prefix of the temp files a commit writes next to their targets (see `overlay::commit`).
pub(crate) const COMMIT_TEMP_PREFIX: &str = ".folio-commit-";

/// A set of segment names hidden wherever they appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreRules {
    names: Vec<String>,
}

impl Default for IgnoreRules {
    fn default() -> Self {
        IgnoreRules::new([".git", "node_modules", ".DS_Store", "Thumbs.db", "desktop.ini"])
    }
}

impl IgnoreRules {
    /// Hides every path that has a segment equal to one of `names`.
    pub fn new<I, S>(names: I) -> IgnoreRules
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        IgnoreRules { names: names.into_iter().map(Into::into).collect() }
    }

    /// Hides nothing but the overlay's own temp files.
    pub fn none() -> IgnoreRules {
        IgnoreRules { names: Vec::new() }
    }

    /// The configured names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// True when a single name is hidden.
    pub fn hides_name(&self, name: &str) -> bool {
        name.starts_with(COMMIT_TEMP_PREFIX) || self.names.iter().any(|n| n == name)
    }

    /// The rule hiding `path`, if any, as it should be shown to a person (`.git/`).
    pub fn rule_for(&self, path: &VPath) -> Option<String> {
        let segments: Vec<&str> = path.segments().collect();
        for (i, segment) in segments.iter().enumerate() {
            if self.hides_name(segment) {
                let is_last = i + 1 == segments.len();
                return Some(if is_last { (*segment).to_owned() } else { format!("{segment}/") });
            }
        }
        None
    }
}
