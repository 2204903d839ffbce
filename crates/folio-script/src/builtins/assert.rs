//! `env:assert`: assertions for `*.test.js` scripts, written in JavaScript (`js/assert.js`).

use crate::registry::NativeModule;

/// The `env:assert` module definition.
pub(crate) fn module() -> NativeModule {
    NativeModule {
        name: "assert".into(),
        description: "Assertions for *.test.js scripts: equal, notEqual, deepEqual, ok, match, throws, rejects, fail."
            .into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: include_str!("../js/assert.d.ts").into(),
        docs: "Every failure throws an AssertionFailed error: \"env:assert.<fn>: <message>\\n  <detail>\".".into(),
        functions: Vec::new(),
        js_api: Some(include_str!("../js/assert.js").into()),
    }
}
