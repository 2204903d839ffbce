//! The advisory argument check: before a run, the arguments are
//! compared with the shape the script's JSDoc declares, and a mismatch becomes a note the reply
//! shows above the result. It never blocks the run — JSDoc can be stale, and the script may cope.
//!
//! The shape comes from dotted tags (`@param {string} args.input`, `@param {number}
//! [args.limit]`) or from an inline object type (`@param {{ input: string, limit?: number }}
//! args`, whose top-level members are split on `,` and `;`; `?` marks an optional key, quotes are
//! stripped, and only identifier keys count). Only a plain-object argument is checked.

use crate::dts;
use crate::jsdoc::JsDoc;

/// The keys a script's JSDoc declares for its argument object.
#[derive(Debug, PartialEq)]
struct Shape {
    /// The shape as the note shows it: the inline type verbatim, or one built from dotted tags.
    text: String,
    /// Each declared key and whether it is optional.
    keys: Vec<(String, bool)>,
    /// True when the type has an index signature, so any extra key is expected.
    open: bool,
}

/// Splits `text` at top-level `,` and `;` (outside brackets, generics and quotes).
fn members(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut start) = (0i32, None::<char>, 0usize);
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '{' | '(' | '[' | '<') => depth += 1,
            // `=>` is an arrow, not a closing generic.
            (None, '>') if text[..i].ends_with('=') => {}
            (None, '}' | ')' | ']' | '>') => depth -= 1,
            (None, ',' | ';') if depth == 0 => {
                out.push(text[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(text[start..].trim());
    out.into_iter().filter(|m| !m.is_empty()).collect()
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// The shape of an inline object type, `None` when `ty` is not one.
fn inline_shape(ty: &str) -> Option<Shape> {
    let inner = ty.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut keys = Vec::new();
    let mut open = false;
    for member in members(inner) {
        if member.starts_with('[') {
            open = true;
            continue;
        }
        let Some((key, _)) = member.split_once(':') else { continue };
        let key = key.trim();
        let (key, optional) = match key.strip_suffix('?') {
            Some(k) => (k.trim_end(), true),
            None => (key, false),
        };
        let key = key.trim_matches(['"', '\'']);
        if is_identifier(key) {
            keys.push((key.to_owned(), optional));
        }
    }
    Some(Shape { text: ty.trim().to_owned(), keys, open })
}

/// The declared shape, from dotted tags first, else from the argument's inline object type.
fn shape(doc: &JsDoc, arg_name: Option<&str>) -> Option<Shape> {
    let dotted: Vec<(String, bool, String)> = doc
        .params
        .iter()
        .filter_map(|p| {
            let (_, key) = p.name.split_once('.')?;
            (is_identifier(key)).then(|| (key.to_owned(), p.optional, p.ty.clone().unwrap_or_else(|| "any".into())))
        })
        .collect();
    if !dotted.is_empty() {
        let text = dotted
            .iter()
            .map(|(k, optional, ty)| format!("{k}{}: {ty}", if *optional { "?" } else { "" }))
            .collect::<Vec<_>>()
            .join(", ");
        let keys = dotted.into_iter().map(|(k, optional, _)| (k, optional)).collect();
        return Some(Shape { text: format!("{{ {text} }}"), keys, open: false });
    }
    doc.params
        .iter()
        .filter(|p| !p.name.contains('.'))
        .find(|p| arg_name.is_none_or(|n| n == p.name))
        .and_then(|p| p.ty.as_deref())
        .and_then(inline_shape)
}

/// The note for a run of the entry script `module` with `args_json`, or `None` when the
/// arguments fit, are not a plain object, or the JSDoc declares no shape.
pub(crate) fn note(module: &str, args_json: Option<&str>) -> Option<String> {
    // Cheap refusals first: most runs have no JSDoc tags to check against.
    if !module.contains("@param") && !module.contains("@arg") {
        return None;
    }
    let args: serde_json::Value = serde_json::from_str(args_json.unwrap_or("{}")).ok()?;
    let given = args.as_object()?;
    let (doc, arg_name) = dts::default_jsdoc(module)?;
    let shape = shape(&doc, arg_name.as_deref())?;
    let missing: Vec<String> = shape
        .keys
        .iter()
        .filter(|(k, optional)| !optional && !given.contains_key(k))
        .map(|(k, _)| format!("`{k}`"))
        .collect();
    let unexpected: Vec<String> = if shape.open {
        Vec::new()
    } else {
        given.keys().filter(|k| !shape.keys.iter().any(|(d, _)| d == *k)).map(|k| format!("`{k}`")).collect()
    };
    if missing.is_empty() && unexpected.is_empty() {
        return None;
    }
    let got = if given.is_empty() {
        "{}".to_owned()
    } else {
        format!("{{ {} }}", given.keys().cloned().collect::<Vec<_>>().join(", "))
    };
    let mut why = Vec::new();
    if !missing.is_empty() {
        why.push(format!("missing {}", missing.join(", ")));
    }
    if !unexpected.is_empty() {
        why.push(format!("unexpected {}", unexpected.join(", ")));
    }
    Some(format!(
        "note: this script's JSDoc declares args {}; got {got} ({}). Ran it anyway — if the result below is wrong, that is probably why.",
        shape.text,
        why.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_for_missing_and_unexpected_keys() {
        let dotted = "/**\n * Trims a table.\n * @param {string} args.source\n * @param {number} [args.limit]\n */\nexport default async function trim(args) {}";
        let inline = "/** @param {{ input: string, 'format'?: string; opts?: { a: number, b: string } }} args */\nexport default async ({ input }) => input;";
        let open = "/** @param {{ input: string; [key: string]: any }} args */\nexport default async (args) => args;";
        let tail = "Ran it anyway — if the result below is wrong, that is probably why.";
        let cases: &[(&str, &str, Option<&str>, Option<String>)] = &[
            ("dotted, fits", dotted, Some(r#"{"source":"a.csv","limit":3}"#), None),
            ("dotted, optional left out", dotted, Some(r#"{"source":"a.csv"}"#), None),
            (
                "dotted, wrong key",
                dotted,
                Some(r#"{"src":"a.csv"}"#),
                Some(format!(
                    "note: this script's JSDoc declares args {{ source: string, limit?: number }}; got {{ src }} (missing `source`; unexpected `src`). {tail}"
                )),
            ),
            (
                "dotted, no args at all",
                dotted,
                None,
                Some(format!(
                    "note: this script's JSDoc declares args {{ source: string, limit?: number }}; got {{}} (missing `source`). {tail}"
                )),
            ),
            (
                "inline type verbatim, quotes stripped, nested members not keys",
                inline,
                Some(r#"{"input":"x","format":"a4","a":1}"#),
                Some(format!(
                    "note: this script's JSDoc declares args {{ input: string, 'format'?: string; opts?: {{ a: number, b: string }} }}; got {{ input, format, a }} (unexpected `a`). {tail}"
                )),
            ),
            ("an index signature accepts extra keys", open, Some(r#"{"input":"x","more":1}"#), None),
            ("not a plain object", dotted, Some("[1, 2]"), None),
            ("no JSDoc", "export default async (args) => args;", Some(r#"{"x":1}"#), None),
        ];
        for (name, module, args, expected) in cases {
            assert_eq!(&note(module, *args), expected, "{name}");
        }
    }
}
