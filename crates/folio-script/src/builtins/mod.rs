//! The builtin modules, registered through the same [`crate::ModuleRegistry`] seam as adapters.

pub(crate) mod assert;
pub mod fs;
pub(crate) mod std;

use ::std::sync::Arc;

use crate::registry::ModuleRegistry;

impl ModuleRegistry {
    /// The builtins `env:fs`, `env:std` and `env:assert`, in that order.
    pub fn with_builtins() -> ModuleRegistry {
        let mut registry = ModuleRegistry::empty();
        registry.push_builtins([
            Arc::new(self::fs::module()),
            Arc::new(self::std::module()),
            Arc::new(self::assert::module()),
        ]);
        registry
    }
}
