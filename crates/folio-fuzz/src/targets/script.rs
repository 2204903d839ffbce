//! `dts`: the `.d.ts` derivation (folio-script's `dts.rs` and `jsdoc.rs`) and the import scan
//! over arbitrary JavaScript. Every declaration must keep the one-line shape the desktop's
//! argument form reads, whatever the source.

use super::{bucket, tokens};
use crate::engine::Run;

pub(crate) fn dictionary() -> Vec<Vec<u8>> {
    tokens(&[
        "export default ",
        "async function ",
        "function ",
        "(args) ",
        "({ a, b = 1, ...rest }) ",
        "([x, y]) ",
        "(...all) ",
        "(args = {}) ",
        "=> ",
        "{ return 1; }\n",
        "class ",
        "const f = ",
        "export { f as default };\n",
        "export * from 'env:fs';\n",
        "import { readFile } from 'env:fs';\n",
        "import x from './lib.js';\n",
        "/**\n",
        " */\n",
        " * @param {",
        "} args\n",
        " * @param {string} args.name the name\n",
        " * @returns {Promise<string>}\n",
        " * @typedef {Object} T\n",
        "{{",
        "}}",
        "/*",
        "*/",
        "`${",
        "\\u{",
        "#private",
        "?.",
    ])
}

pub(crate) fn setup() -> Result<Run, String> {
    Ok(Box::new(|input| {
        let source = String::from_utf8_lossy(input);
        let d = folio_script::derive_declaration("/scripts/fuzz_target.js", &source);
        let declare_lines: Vec<&str> = d.dts.lines().filter(|l| l.starts_with("declare function ")).collect();
        assert_eq!(declare_lines.len(), 1, "the .d.ts must hold exactly one declaration line:\n{}", d.dts);
        let line = declare_lines[0];
        assert!(line.ends_with(';'), "the declaration line is not terminated: {line}");
        assert!(d.dts.ends_with("export default fuzz_target;\n"), "the .d.ts does not end with its export:\n{}", d.dts);
        assert!(!d.dts.contains("*/\n*/"), "a comment block was closed twice:\n{}", d.dts);
        if let Some(one) = &d.one_liner {
            assert!(!one.contains('\n') && !one.is_empty(), "one-liner {one:?}");
        }
        let imports = folio_script::imports(&source).map(|i| i.len());
        format!(
            "{} {} {} {} {:?}",
            d.has_jsdoc,
            d.arg_name.is_some(),
            bucket(d.exports.len()),
            bucket(line.len()),
            imports.map(bucket).map_err(|_| ())
        )
    }))
}
