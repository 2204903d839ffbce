//! The model-facing verbs, one file per verb family. Each takes its argument struct (whose
//! JSON Schema is generated from the type) and returns a [`Reply`] or an [`crate::EnvError`]
//! whose message names the fix. [`table`] declares every verb once; everything that lists or
//! calls verbs reads it.

pub mod args;
pub mod checkpoint;
pub mod describe;
pub mod diff;
pub mod grep;
pub mod history;
pub mod ls;
pub mod person;
pub mod read;
pub mod remove;
pub mod run_script;
pub mod table;
pub mod view;
pub mod write;

/// A verb's successful answer.
pub struct Reply {
    /// The text the model reads.
    pub text: String,
    /// Structured data for hosts and tests (null when the text is everything).
    pub data: serde_json::Value,
}

impl Reply {
    /// A text-only reply.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply { text: text.into(), data: serde_json::Value::Null }
    }
}

/// True when a path argument looks like a wildcard pattern rather than a name.
pub(crate) fn is_pattern(raw: &str) -> bool {
    raw.contains(['*', '?', '[', ']'])
}
