//! The modules a script imports, read with the same oxc parser that derives its `.d.ts`: static
//! imports (`import … from 'x'`, `import 'x'`), re-exports (`export … from 'x'`) and dynamic
//! imports whose specifier is a string literal (`import('x')`). A computed specifier
//! (`import(name)`) names no module and is left out. Comments and strings that merely contain
//! import-like text are not imports.

use oxc_allocator::Allocator;
use oxc_parser::Parser;
use oxc_span::SourceType;

/// One module request in a script's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The specifier as written, without quotes (`env:fs`, `./lib/util.js`).
    pub specifier: String,
    /// True for an `import(…)` expression, false for a static import or re-export.
    pub dynamic: bool,
}

/// Why a source's imports could not be read: it is not a JavaScript module oxc can parse. The
/// author fixes the script; `run_tests` or `run_script` names the same syntax error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("it does not parse as a JavaScript module ({0}) — fix the syntax; run_tests or run_script shows where")]
pub struct ImportsError(pub String);

/// Every module `source` imports, in source order (a specifier imported twice is listed twice).
pub fn imports(source: &str) -> Result<Vec<Import>, ImportsError> {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, source, SourceType::mjs()).parse();
    if let Some(first) = parsed.errors.first() {
        return Err(ImportsError(first.to_string()));
    }
    if parsed.panicked {
        return Err(ImportsError("the parser gave up".to_owned()));
    }
    let record = &parsed.module_record;
    let mut found: Vec<(u32, Import)> = Vec::new();
    for (specifier, requests) in &record.requested_modules {
        for request in requests {
            found.push((request.span.start, Import { specifier: specifier.to_string(), dynamic: false }));
        }
    }
    for dynamic in &record.dynamic_imports {
        let span = dynamic.module_request;
        let text = source.get(span.start as usize..span.end as usize).unwrap_or_default();
        if let Some(specifier) = string_literal(text) {
            found.push((span.start, Import { specifier: specifier.to_owned(), dynamic: true }));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    Ok(found.into_iter().map(|(_, import)| import).collect())
}

/// The contents of a plain single- or double-quoted string literal without escapes.
fn string_literal(text: &str) -> Option<&str> {
    let quote = text.chars().next().filter(|q| *q == '\'' || *q == '"')?;
    let inner = text.strip_prefix(quote)?.strip_suffix(quote)?;
    (!inner.contains(['\\', quote])).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(source: &str, expect: &[(&str, bool)]) {
        let got = imports(source).unwrap();
        let got: Vec<(&str, bool)> = got.iter().map(|i| (i.specifier.as_str(), i.dynamic)).collect();
        assert_eq!(got, expect, "{source}");
    }

    #[test]
    fn every_form_of_import_is_found_in_source_order() {
        check(
            "import { bar } from 'env:charts';\nimport * as m from \"env:maps\";\n",
            &[("env:charts", false), ("env:maps", false)],
        );
        check(
            "import 'env:side';\nexport { a } from './lib/a.js';\nexport * from 'env:std';\n",
            &[("env:side", false), ("./lib/a.js", false), ("env:std", false)],
        );
        check("export default async () => { await import('env:maps'); await import(name); };\n", &[("env:maps", true)]);
        check("// import x from 'env:comment'\nconst s = \"from 'env:string'\";\nexport default 1;\n", &[]);
    }

    #[test]
    fn a_source_that_does_not_parse_is_an_error() {
        let err = imports("import { from 'env:fs'").unwrap_err().to_string();
        assert!(err.contains("does not parse as a JavaScript module"), "{err}");
    }
}
