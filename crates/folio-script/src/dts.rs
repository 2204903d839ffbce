//! The `.d.ts` of an entry script, from its default export's parameters and JSDoc.
//!
//! QuickJS does the parsing: the load hands over the default export's own source text (QuickJS
//! keeps it for `Function.prototype.toString`), so locating the function needs no JavaScript
//! parser here. What remains is text work on two small pieces — the parameter list and the
//! `/** … */` block just before the export — done by a scanner that respects strings, template
//! literals, comments and bracket nesting.

/// The generated declaration and the facts `ls` shows.
pub(crate) struct Declaration {
    pub dts: String,
    pub one_liner: Option<String>,
    pub has_jsdoc: bool,
}

#[derive(Default)]
struct JsDoc {
    description: Vec<String>,
    params: Vec<Param>,
    returns: Option<String>,
}

struct Param {
    ty: Option<String>,
    name: String,
    optional: bool,
}

/// Index just past the bracket closing the one at `open`, skipping strings, templates and comments.
fn close_of(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            q @ (b'"' | b'\'' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(bytes.len(), |at| i + 2 + at + 1);
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Splits `text` at commas that are not inside brackets, strings or comments.
fn split_top(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' | b'"' | b'\'' | b'`' => {
                let end = if matches!(bytes[i], b'"' | b'\'' | b'`') {
                    let q = bytes[i];
                    let mut j = i + 1;
                    while j < bytes.len() && bytes[j] != q {
                        if bytes[j] == b'\\' {
                            j += 1;
                        }
                        j += 1;
                    }
                    j + 1
                } else {
                    close_of(text, i).unwrap_or(bytes.len())
                };
                i = end;
                continue;
            }
            b',' => {
                parts.push(text[start..i].trim().to_owned());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let last = text[start.min(text.len())..].trim();
    if !last.is_empty() {
        parts.push(last.to_owned());
    }
    parts
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_alphabetic() || f == '_' || f == '$')
        && c.all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
}

/// The parameter list of a function's source text; `None` for a class.
fn parameters(source: &str) -> Option<Vec<String>> {
    let s = source.trim_start();
    if s.starts_with("class") {
        return None;
    }
    let s = s.strip_prefix("async").map_or(s, str::trim_start);
    if !s.starts_with("function") && !s.starts_with('(') {
        let ident: String = s.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
        if s[ident.len()..].trim_start().starts_with("=>") {
            return Some(vec![ident]);
        }
    }
    let open = s.find('(')?;
    let close = close_of(s, open)?;
    Some(split_top(&s[open + 1..close - 1]))
}

/// The TypeScript type of a parameter pattern written without JSDoc.
fn pattern_type(param: &str) -> String {
    let Some(inner) = param.strip_prefix('{') else { return "any".into() };
    let Some(end) = close_of(param, 0) else { return "any".into() };
    let inner = &inner[..end - 2];
    let mut fields = Vec::new();
    for item in split_top(inner) {
        if item.starts_with("...") {
            fields.push("[key: string]: any".to_owned());
            continue;
        }
        let key: String = item.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
        if key.is_empty() {
            continue;
        }
        let rest = item[key.len()..].trim_start();
        let optional = rest.starts_with('=') || (rest.starts_with(':') && split_default(&rest[1..]));
        fields.push(format!("{key}{}: any", if optional { "?" } else { "" }));
    }
    if fields.is_empty() { "{}".into() } else { format!("{{ {} }}", fields.join("; ")) }
}

/// True when a renamed or nested binding (`a: b = 1`, `a: { x } = {}`) carries a default.
fn split_default(rest: &str) -> bool {
    let rest = rest.trim_start();
    let after = if rest.starts_with('{') || rest.starts_with('[') {
        close_of(rest, 0).map_or("", |end| &rest[end..])
    } else {
        rest.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
    };
    after.trim_start().starts_with('=')
}

/// The `/** … */` block right before the default export, if any.
fn jsdoc_before(module: &str, fn_source: &str) -> Option<String> {
    let at = module.find(fn_source).filter(|_| !fn_source.is_empty()).or_else(|| module.find("export default"))?;
    let mut head = module[..at].trim_end();
    if let Some(h) = head.strip_suffix("export default") {
        head = h.trim_end();
    }
    let body = head.strip_suffix("*/")?;
    let start = body.rfind("/**")?;
    Some(body[start + 3..].to_owned())
}

/// Takes a `{…}` type (balanced) off the front of `s`.
fn take_type(s: &str) -> (Option<String>, &str) {
    let s = s.trim_start();
    if !s.starts_with('{') {
        return (None, s);
    }
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let ty = s[1..i].trim();
                    let ty = if ty.is_empty() || ty == "*" { "any" } else { ty };
                    return (Some(ty.to_owned()), &s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    (None, s)
}

fn parse_jsdoc(raw: &str) -> JsDoc {
    let lines: Vec<String> = raw
        .lines()
        .map(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix('*').unwrap_or(t);
            t.strip_prefix(' ').unwrap_or(t).trim_end().to_owned()
        })
        .collect();
    let mut doc = JsDoc::default();
    let mut tags: Vec<String> = Vec::new();
    for line in lines {
        if line.trim_start().starts_with('@') {
            tags.push(line.trim_start().to_owned());
        } else if let Some(last) = tags.last_mut() {
            last.push(' ');
            last.push_str(line.trim());
        } else {
            doc.description.push(line);
        }
    }
    while doc.description.first().is_some_and(|l| l.trim().is_empty()) {
        doc.description.remove(0);
    }
    while doc.description.last().is_some_and(|l| l.trim().is_empty()) {
        doc.description.pop();
    }
    for tag in tags {
        let (name, rest) = tag[1..].split_once(char::is_whitespace).unwrap_or((&tag[1..], ""));
        match name {
            "param" | "arg" | "argument" => {
                let (ty, rest) = take_type(rest);
                let word = rest.split_whitespace().next().unwrap_or("");
                let (word, optional) = match word.strip_prefix('[') {
                    Some(w) => (w.trim_end_matches(']').split('=').next().unwrap_or(""), true),
                    None => (word, false),
                };
                if !word.is_empty() {
                    doc.params.push(Param { ty, name: word.to_owned(), optional });
                }
            }
            "returns" | "return" => doc.returns = take_type(rest).0,
            _ => {}
        }
    }
    doc
}

/// Builds the declaration of the entry script at `path` from its module source and its default
/// export's name and source text.
pub(crate) fn declare(path: &str, module: &str, default_name: &str, default_source: &str) -> Declaration {
    let raw = jsdoc_before(module, default_source);
    let doc = raw.as_deref().map(parse_jsdoc).unwrap_or_default();
    let name = if is_ident(default_name) && default_name != "default" {
        default_name.to_owned()
    } else {
        let base = path.rsplit('/').next().unwrap_or("script").trim_end_matches(".js");
        let mut n: String = base.chars().map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' }).collect();
        if n.chars().next().is_none_or(|c| c.is_ascii_digit()) {
            n.insert(0, '_');
        }
        n
    };
    let params = parameters(default_source);
    let first = params.as_ref().map_or(Some("args".to_owned()), |p| p.first().cloned());
    let dotted: Vec<&Param> = doc.params.iter().filter(|p| p.name.split('.').count() == 2).collect();
    let plain_name = first.as_deref().map(|f| f.split('=').next().unwrap_or("").trim().to_owned());
    let arg_type = if !dotted.is_empty() {
        let fields: Vec<String> = dotted
            .iter()
            .map(|p| {
                let key = p.name.split('.').nth(1).unwrap_or("");
                format!("{key}{}: {}", if p.optional { "?" } else { "" }, p.ty.as_deref().unwrap_or("any"))
            })
            .collect();
        Some(format!("{{ {} }}", fields.join("; ")))
    } else if let Some(p) = doc.params.iter().find(|p| {
        !p.name.contains('.')
            && p.ty.as_deref().is_some_and(|t| t != "any" && t != "object")
            && plain_name.as_deref().is_none_or(|n| !is_ident(n) || n == p.name)
    }) {
        p.ty.clone()
    } else {
        first.as_deref().map(pattern_type)
    };
    let returns = doc.returns.clone().unwrap_or_else(|| "Promise<unknown>".into());
    let mut dts = String::new();
    match doc.description.len() {
        0 => {}
        1 => dts.push_str(&format!("/** {} */\n", doc.description[0].trim())),
        _ => {
            dts.push_str("/**\n");
            for l in &doc.description {
                dts.push_str(&format!(" * {l}\n").replace(" * \n", " *\n"));
            }
            dts.push_str(" */\n");
        }
    }
    match arg_type {
        Some(t) => dts.push_str(&format!("declare function {name}(args: {t}): {returns};\n")),
        None => dts.push_str(&format!("declare function {name}(): {returns};\n")),
    }
    dts.push_str(&format!("export default {name};\n"));
    let one_liner = doc.description.first().map(|l| l.trim().to_owned()).filter(|l| !l.is_empty());
    Declaration { dts, one_liner, has_jsdoc: raw.is_some() }
}
