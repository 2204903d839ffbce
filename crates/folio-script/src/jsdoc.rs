//! The JSDoc block of a default export, read into what the `.d.ts` needs: the description, the
//! `@param` tags (`{type} name description`, `[name]` or `{type=}` for optional, dotted names for
//! fields of the argument object) and `@returns`.
//!
//! The parser (oxc) finds the block and hands over its text; inside a comment there is no
//! JavaScript left to parse, only the JSDoc tag grammar, which is line-oriented.

/// A parsed `/** … */` block.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct JsDoc {
    /// Description lines before the first tag, blank lines at either end removed.
    pub description: Vec<String>,
    /// `@param` (or `@arg`, `@argument`) tags in order.
    pub params: Vec<Param>,
    /// The `@returns` (or `@return`) tag.
    pub returns: Option<Returns>,
}

/// One `@param` tag.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Param {
    /// The type between braces (`*` and an empty type read as `any`), without a trailing `=`.
    pub ty: Option<String>,
    /// The name as written, without brackets or default (`args.format`).
    pub name: String,
    /// Written `[name]`, `[name=default]` or with a `{type=}`.
    pub optional: bool,
    /// The text after the name, without a leading `-`.
    pub description: String,
}

/// The `@returns` tag.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Returns {
    /// The type between braces.
    pub ty: Option<String>,
    /// The text after the type.
    pub description: String,
}

/// Takes a balanced `{…}` type off the front of `s`.
fn take_type(s: &str) -> (Option<String>, &str) {
    let s = s.trim_start();
    if !s.starts_with('{') {
        return (None, s);
    }
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
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

/// The description after a tag's name: trimmed, without the conventional leading `-`.
fn description(rest: &str) -> String {
    let rest = rest.trim();
    rest.strip_prefix('-').map_or(rest, str::trim_start).to_owned()
}

/// Takes a parameter name (`name`, `[name]`, `[name=default]`, `[name = "a b"]`) off the front
/// of `s`: the name, whether it is optional, and the rest.
fn take_name(s: &str) -> (String, bool, &str) {
    let s = s.trim_start();
    if let Some(inner) = s.strip_prefix('[') {
        let end = inner.find(']').unwrap_or(inner.len());
        let name = inner[..end].split('=').next().unwrap_or("").trim().to_owned();
        return (name, true, inner.get(end + 1..).unwrap_or(""));
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    (s[..end].to_owned(), false, &s[end..])
}

/// The tags this reader understands; one written mid-line (`/** Sums. @param {T} args */`)
/// starts a new line.
const TAGS: &[&str] = &["@param", "@arg", "@argument", "@returns", "@return"];

/// Splits `line` before each known tag that follows other text.
fn split_tags(line: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest = line;
    loop {
        let next = TAGS
            .iter()
            .filter_map(|tag| {
                rest.match_indices(tag).map(|(at, _)| at).find(|&at| {
                    let before_ok = at > 0 && rest[..at].ends_with(char::is_whitespace);
                    let after_ok = rest[at + tag.len()..].chars().next().is_none_or(char::is_whitespace);
                    before_ok && after_ok
                })
            })
            .min();
        match next {
            Some(at) => {
                parts.push(rest[..at].trim_end().to_owned());
                rest = &rest[at..];
            }
            None => {
                parts.push(rest.to_owned());
                return parts;
            }
        }
    }
}

/// Parses the text between `/**` and `*/`.
pub(crate) fn parse(raw: &str) -> JsDoc {
    let lines = raw.lines().flat_map(|l| {
        let t = l.trim_start();
        let t = t.strip_prefix('*').unwrap_or(t);
        split_tags(t.strip_prefix(' ').unwrap_or(t).trim_end())
    });
    let mut doc = JsDoc::default();
    let mut tags: Vec<String> = Vec::new();
    for line in lines {
        let trimmed = line.trim_start();
        if trimmed.starts_with('@') {
            tags.push(trimmed.to_owned());
        } else if let Some(last) = tags.last_mut() {
            if !trimmed.is_empty() {
                last.push(' ');
                last.push_str(trimmed);
            }
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
        let body = &tag[1..];
        let (name, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        match name {
            "param" | "arg" | "argument" => {
                let (ty, rest) = take_type(rest);
                let (name, bracketed, rest) = take_name(rest);
                let optional_type = ty.as_deref().and_then(|t| t.strip_suffix('=')).map(|t| t.trim().to_owned());
                let optional = bracketed || optional_type.is_some();
                let ty = optional_type.or(ty);
                if !name.is_empty() {
                    doc.params.push(Param { ty, name, optional, description: description(rest) });
                }
            }
            "returns" | "return" => {
                let (ty, rest) = take_type(rest);
                doc.returns = Some(Returns { ty, description: description(rest) });
            }
            _ => {}
        }
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(ty: Option<&str>, name: &str, optional: bool, description: &str) -> Param {
        Param { ty: ty.map(str::to_owned), name: name.into(), optional, description: description.into() }
    }

    #[test]
    fn tags_types_names_and_descriptions() {
        let cases: &[(&str, JsDoc)] = &[
            (
                "*\n * Builds a report.\n *\n * Second paragraph.\n * @param {{ a: { b: number } }} args the input\n * @returns {Promise<string>} the path written\n ",
                JsDoc {
                    description: vec!["Builds a report.".into(), "".into(), "Second paragraph.".into()],
                    params: vec![param(Some("{ a: { b: number } }"), "args", false, "the input")],
                    returns: Some(Returns {
                        ty: Some("Promise<string>".into()),
                        description: "the path written".into(),
                    }),
                },
            ),
            (
                "* @param {string} args.input - the file\n * @param {number} [args.rows=10] how many\n * @param {boolean=} args.dry\n * @arg {*} args.x\n * @param args.y spans\n *   two lines ",
                JsDoc {
                    description: vec![],
                    params: vec![
                        param(Some("string"), "args.input", false, "the file"),
                        param(Some("number"), "args.rows", true, "how many"),
                        param(Some("boolean"), "args.dry", true, ""),
                        param(Some("any"), "args.x", false, ""),
                        param(None, "args.y", false, "spans two lines"),
                    ],
                    returns: None,
                },
            ),
            ("* One line. ", JsDoc { description: vec!["One line.".into()], ..JsDoc::default() }),
            (
                "* Sums. @param {{ a: number }} args the numbers @returns {number} the sum ",
                JsDoc {
                    description: vec!["Sums.".into()],
                    params: vec![param(Some("{ a: number }"), "args", false, "the numbers")],
                    returns: Some(Returns { ty: Some("number".into()), description: "the sum".into() }),
                },
            ),
            (
                "* Mentions user@param.org and @params in prose.",
                JsDoc { description: vec!["Mentions user@param.org and @params in prose.".into()], ..JsDoc::default() },
            ),
        ];
        for (raw, expected) in cases {
            assert_eq!(&parse(raw), expected, "{raw:?}");
        }
    }
}
