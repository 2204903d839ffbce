//! Hints appended to the first line of a failed run's error: a bare name
//! that one of the registered `env:` modules exports gets the import line that brings it in —
//! `readFile is not defined — did you mean to import it? import { readFile } from 'env:fs'`.
//!
//! The hint is offered only when a module really exports the name. A module's export names are
//! its host functions plus whatever its `js_api` layer returns, so modules with a layer are
//! evaluated once, on this error path only, in a throwaway runtime with inert stand-ins for the
//! host functions.

use rquickjs::{CatchResultExt, Context, Function, Object, Runtime};

use crate::bytecode;
use crate::registry::{ModuleRegistry, NativeModule};

/// The names `module`'s namespace has, or `None` when its layer cannot be evaluated here.
fn export_names(module: &NativeModule) -> Option<Vec<String>> {
    let Some(src) = &module.js_api else {
        return Some(module.functions.iter().map(|f| f.name.clone()).collect());
    };
    let runtime = Runtime::new().ok()?;
    let context = Context::full(&runtime).ok()?;
    context.with(|ctx| {
        let natives = Object::new(ctx.clone()).ok()?;
        for f in &module.functions {
            let inert = Function::new(ctx.clone(), || ()).ok()?;
            natives.set(f.name.as_str(), inert).ok()?;
        }
        let factory: Function<'_> =
            bytecode::evaluate(&ctx, &format!("folio:api/{}", module.name), src).catch(&ctx).ok()?;
        let api: Object<'_> = factory.call((natives,)).catch(&ctx).ok()?;
        api.keys::<String>().collect::<rquickjs::Result<Vec<_>>>().ok()
    })
}

/// The hint for `message` (a `ReferenceError`'s), or `None`.
pub(crate) fn import_hint(registry: &ModuleRegistry, message: &str) -> Option<String> {
    let name = message.strip_suffix(" is not defined")?;
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
        return None;
    }
    let owners: Vec<String> = registry
        .modules()
        .iter()
        .filter(|m| export_names(m).is_some_and(|names| names.iter().any(|n| n == name)))
        .map(|m| format!("import {{ {name} }} from 'env:{}'", m.name))
        .collect();
    if owners.is_empty() {
        return None;
    }
    Some(format!(" — did you mean to import it? {}", owners.join(" or ")))
}

/// QuickJS says only `not a function`; V8 names what was called. From the first stack frame in
/// one of the script's own modules (`/scripts/main.js:3:17`), the callee expression that ends at
/// or before that column on that line (`fs.createWriteStream`), when one can be read there.
pub(crate) fn callee<'a>(stack: &str, sources: &'a std::collections::BTreeMap<String, String>) -> Option<&'a str> {
    for frame in stack.lines().map(str::trim).filter(|l| l.starts_with("at ")) {
        let place = frame.rsplit(['(', ' ']).next()?.trim_end_matches(')');
        let mut parts = place.rsplitn(3, ':');
        let (col, line, file) = (parts.next()?, parts.next()?, parts.next()?);
        let Some(source) = sources.get(file) else { continue };
        let (line, col): (usize, usize) = (line.parse().ok()?, col.parse().ok()?);
        let text = source.lines().nth(line.checked_sub(1)?)?;
        return callee_at(text, col.saturating_sub(1));
    }
    None
}

/// The dotted name (`a.b.c`, optionally with `?.`) followed by `(` nearest before or at `col`.
fn callee_at(text: &str, col: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let is_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.' || b == b'?';
    let mut best = None;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'(' {
            let mut start = i;
            while start > 0 && (is_name(bytes[start - 1]) || bytes[start - 1] == b' ' && start == i) {
                start -= 1;
            }
            let name = text[start..i].trim().trim_end_matches("?.");
            if !name.is_empty()
                && !name.starts_with('.')
                && name.bytes().any(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'$')
                && !matches!(name, "if" | "for" | "while" | "switch" | "catch" | "function" | "return")
                && (start <= col || best.is_none())
            {
                best = Some(name);
            }
            if start > col && best.is_some() {
                break;
            }
        }
        i += 1;
    }
    best
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_callee_is_read_from_the_line_the_stack_names() {
        let mut sources = std::collections::BTreeMap::new();
        sources.insert(
            "/scripts/main.js".to_owned(),
            "import fs from 'fs';\n  const s = fs.createWriteStream('/x');\n".to_owned(),
        );
        let stack = "TypeError: not a function\n    at main (/scripts/main.js:2:31)\n    at native";
        assert_eq!(super::callee(stack, &sources), Some("fs.createWriteStream"));
        assert_eq!(super::callee_at("x = foo.bar(1) + baz(2)", 16), Some("foo.bar"));
    }
}
