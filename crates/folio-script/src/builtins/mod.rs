//! The builtin modules, registered through the same [`crate::ModuleRegistry`] seam as adapters.

pub(crate) mod assert;
pub mod fs;
pub(crate) mod std;
