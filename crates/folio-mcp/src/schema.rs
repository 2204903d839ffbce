//! TypeScript declarations from JSON Schemas, and binding names from tool names.
//!
//! A tool's input schema becomes the type of its one argument: `enum` is a
//! union of JSON literals, `anyOf`/`oneOf` a union, `string`, `number`/`integer`, `boolean` and
//! `null` map to their TypeScript names, `array` to `T[]`, an object with `properties` to
//! `{ k: T; opt?: T }` (required keys without `?`, keys that are not identifiers quoted), an object
//! without properties to `Record<string, any>`, and anything else — or anything nested deeper than
//! four levels — to `any`. Property descriptions become JSDoc comments on their keys, because the
//! declaration is what the agent reads before it writes a call.

use serde_json::Value;

/// How deep a schema is followed before its type becomes `any`.
const MAX_DEPTH: usize = 4;

/// Words that cannot be a binding in `export const { … } = ns`, so a tool named like one gets a
/// trailing `_`.
const RESERVED: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// True for names a script can import: `/^[A-Za-z_][A-Za-z0-9_]*$/` and not a reserved word.
pub(crate) fn is_binding(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name)
}

/// The binding an MCP tool is imported as: every character outside `[A-Za-z0-9_]` becomes `_`
/// (`get-sum` → `get_sum`, `files.read` → `files_read`), a leading digit gets a `_` in front and a
/// reserved word a `_` behind.
pub(crate) fn binding_for(tool: &str) -> String {
    let mut out: String = tool.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if RESERVED.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Text safe inside a `/** … */` comment.
pub(crate) fn comment_text(text: &str) -> String {
    text.replace("*/", "* /")
}

/// The TypeScript type of `schema`, indented for nesting at `indent` spaces.
pub(crate) fn ts_type(schema: &Value, depth: usize, indent: usize) -> String {
    if depth > MAX_DEPTH {
        return "any".into();
    }
    let Some(obj) = schema.as_object() else {
        return "any".into();
    };
    if let Some(values) = obj.get("enum").and_then(Value::as_array)
        && !values.is_empty()
    {
        return values.iter().map(Value::to_string).collect::<Vec<_>>().join(" | ");
    }
    if let Some(value) = obj.get("const") {
        return value.to_string();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = obj.get(key).and_then(Value::as_array)
            && !options.is_empty()
        {
            let parts: Vec<String> = options.iter().map(|o| ts_type(o, depth + 1, indent)).collect();
            return parts.join(" | ");
        }
    }
    match obj.get("type") {
        Some(Value::String(t)) => single_type(t, obj, depth, indent),
        Some(Value::Array(types)) => {
            let parts: Vec<String> =
                types.iter().filter_map(Value::as_str).map(|t| single_type(t, obj, depth, indent)).collect();
            if parts.is_empty() { "any".into() } else { parts.join(" | ") }
        }
        _ if obj.contains_key("properties") => object_type(obj, depth, indent),
        _ => "any".into(),
    }
}

fn single_type(t: &str, obj: &serde_json::Map<String, Value>, depth: usize, indent: usize) -> String {
    match t {
        "string" => "string".into(),
        "number" | "integer" => "number".into(),
        "boolean" => "boolean".into(),
        "null" => "null".into(),
        "array" => {
            let item = obj.get("items").map_or_else(|| "any".to_owned(), |i| ts_type(i, depth + 1, indent));
            if item.contains(' ') { format!("({item})[]") } else { format!("{item}[]") }
        }
        "object" => object_type(obj, depth, indent),
        _ => "any".into(),
    }
}

fn object_type(obj: &serde_json::Map<String, Value>, depth: usize, indent: usize) -> String {
    let Some(props) = obj.get("properties").and_then(Value::as_object).filter(|p| !p.is_empty()) else {
        return "Record<string, any>".into();
    };
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let pad = " ".repeat(indent + 2);
    let mut out = String::from("{\n");
    for (key, schema) in props {
        if let Some(desc) = schema.get("description").and_then(Value::as_str).filter(|d| !d.trim().is_empty()) {
            out.push_str(&format!("{pad}/** {} */\n", comment_text(desc.trim())));
        }
        let name = if is_identifier(key) { key.clone() } else { Value::String(key.clone()).to_string() };
        let optional = if required.contains(&key.as_str()) { "" } else { "?" };
        out.push_str(&format!("{pad}{name}{optional}: {};\n", ts_type(schema, depth + 1, indent + 2)));
    }
    out.push_str(&" ".repeat(indent));
    out.push('}');
    out
}

/// True when the schema declares no properties, so the argument may be left out.
pub(crate) fn takes_no_properties(schema: &Value) -> bool {
    schema.get("properties").and_then(Value::as_object).is_none_or(|p| p.is_empty())
}

/// The required property names (or the first two properties when none are required), for the
/// example call in the docs.
pub(crate) fn example_keys(schema: &Value) -> Vec<(String, String)> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let keys: Vec<&String> = if required.is_empty() {
        props.keys().take(2).collect()
    } else {
        props.keys().filter(|k| required.contains(&k.as_str())).collect()
    };
    keys.into_iter()
        .map(|k| {
            let placeholder = match props.get(k).map(|s| ts_type(s, MAX_DEPTH, 0)).as_deref() {
                Some("number") => "1".to_owned(),
                Some("boolean") => "true".to_owned(),
                Some(t) if t.starts_with('"') => t.split(" | ").next().unwrap_or("'…'").to_owned(),
                _ => "'…'".to_owned(),
            };
            (k.clone(), placeholder)
        })
        .collect()
}
