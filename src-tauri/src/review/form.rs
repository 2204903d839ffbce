//! The script catalogue's argument form, derived from the script's `.d.ts` (the declaration the
//! environment generates from the default export's parameters and JSDoc). The sibling `.d.ts` is
//! read when it exists; otherwise the script engine derives it (the same write-time validation
//! that produces the file, with nothing written).

use folio_vfs::{Tree, VPath};

use crate::api::{FieldInput, ScriptField, ScriptsFormResponse};
use crate::session::Session;

/// Splits `text` at `sep` where it is not nested in brackets or quotes.
fn split_top(text: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut current = String::new();
    let mut prev = ' ';
    for ch in text.chars() {
        let arrow = ch == '>' && prev == '=';
        prev = ch;
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None => match ch {
                '"' | '\'' | '`' => quote = Some(ch),
                '{' | '[' | '(' | '<' => depth += 1,
                '}' | ']' | ')' | '>' if !arrow => depth -= 1,
                c if c == sep && depth == 0 => {
                    parts.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            },
        }
        current.push(ch);
    }
    parts.push(current);
    parts.into_iter().map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()
}

/// The text between the bracket at `open` and its partner.
fn inside(text: &str, open: usize) -> Option<&str> {
    let mut depth = 0;
    for (i, ch) in text[open..].char_indices() {
        match ch {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

fn input_for(ty: &str) -> FieldInput {
    match ty.trim() {
        "string" => FieldInput::Text,
        "number" => FieldInput::Number,
        "boolean" => FieldInput::Boolean,
        _ => FieldInput::Json,
    }
}

/// The form for a `.d.ts` text: its declaration line and the argument fields.
pub fn form_from_dts(dts: &str) -> ScriptsFormResponse {
    let Some(at) = dts.find("declare function") else {
        return ScriptsFormResponse { signature: None, fields: Vec::new(), raw_only: true };
    };
    let line = dts[at..].lines().next().unwrap_or_default().to_string();
    let params = line.find('(').and_then(|open| inside(&line, open)).unwrap_or_default().trim().to_string();
    let signature = Some(line);
    if params.is_empty() {
        return ScriptsFormResponse { signature, fields: Vec::new(), raw_only: false };
    }
    let ty = params.split_once(':').map(|(_, ty)| ty.trim()).unwrap_or("any");
    let object = ty.starts_with('{') && ty.ends_with('}');
    if !object {
        return ScriptsFormResponse { signature, fields: Vec::new(), raw_only: true };
    }
    let mut fields = Vec::new();
    for member in split_top(&ty[1..ty.len() - 1], ';').iter().flat_map(|m| split_top(m, ',')) {
        let Some((key, ty)) = member.split_once(':') else {
            return ScriptsFormResponse { signature, fields: Vec::new(), raw_only: true };
        };
        let (name, optional) = match key.trim().strip_suffix('?') {
            Some(name) => (name.trim().to_string(), true),
            None => (key.trim().to_string(), false),
        };
        let name = name.trim_matches(['"', '\'']).to_string();
        let ty = ty.trim().to_string();
        fields.push(ScriptField { input: input_for(&ty), name, ty, optional });
    }
    ScriptsFormResponse { signature, fields, raw_only: false }
}

/// The argument form of the script at `raw`.
pub fn form(session: &Session, raw: &str) -> Result<ScriptsFormResponse, String> {
    let path = VPath::parse(raw).map_err(|e| format!("`{raw}` is not a path in the folder: {e}"))?;
    let env = session.environment();
    let tree = env.tree();
    if let Some(dts_path) = path.as_str().strip_suffix(".js").and_then(|s| VPath::parse(&format!("{s}.d.ts")).ok())
        && let Ok(bytes) = tree.read(&dts_path)
    {
        return Ok(form_from_dts(&String::from_utf8_lossy(&bytes)));
    }
    let source = tree.read(&path).map_err(|e| format!("{path} could not be read: {e}"))?;
    let source = String::from_utf8(source).map_err(|_| format!("{path} is not UTF-8 text, so it is not a script"))?;
    let Some(engine) = env.engine() else {
        return Ok(ScriptsFormResponse { signature: None, fields: Vec::new(), raw_only: true });
    };
    match engine.validate(tree, &path, &source) {
        Ok(validation) => Ok(validation.dts.as_deref().map(form_from_dts).unwrap_or(ScriptsFormResponse {
            signature: None,
            fields: Vec::new(),
            raw_only: true,
        })),
        Err(e) => Err(format!("{path} does not load: {e} — fix the script (or ask the agent to) before running it")),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn field(name: &str, ty: &str, optional: bool, input: FieldInput) -> ScriptField {
        ScriptField { name: name.into(), ty: ty.into(), optional, input }
    }

    #[test]
    fn declarations_become_fields_or_raw_json() {
        let cases: &[(&str, Option<Vec<ScriptField>>)] = &[
            (
                "/** Cleans. */\ndeclare function clean(args: { path: string; rows?: number; dry: boolean }): Promise<string>;\nexport default clean;\n",
                Some(vec![
                    field("path", "string", false, FieldInput::Text),
                    field("rows", "number", true, FieldInput::Number),
                    field("dry", "boolean", false, FieldInput::Boolean),
                ]),
            ),
            (
                "declare function f(args: { cols: string[]; opts?: { a: number; b: string } }): Promise<unknown>;",
                Some(vec![
                    field("cols", "string[]", false, FieldInput::Json),
                    field("opts", "{ a: number; b: string }", true, FieldInput::Json),
                ]),
            ),
            (
                "declare function f(args: { map: (x: number) => string; n: number }): Promise<unknown>;",
                Some(vec![
                    field("map", "(x: number) => string", false, FieldInput::Json),
                    field("n", "number", false, FieldInput::Number),
                ]),
            ),
            ("declare function f(): Promise<unknown>;", Some(vec![])),
            ("declare function f(args: {}): Promise<unknown>;", Some(vec![])),
            ("declare function f(args: any): Promise<unknown>;", None),
            ("export {};", None),
        ];
        for (dts, want) in cases {
            let form = form_from_dts(dts);
            match want {
                Some(fields) => {
                    assert!(!form.raw_only, "{dts}");
                    assert_eq!(&form.fields, fields, "{dts}");
                }
                None => assert!(form.raw_only && form.fields.is_empty(), "{dts}"),
            }
        }
    }
}
