//! The `.d.ts` of an entry script, from its default export's parameters and JSDoc.
//!
//! The module is parsed with oxc, and the default export is found in any of the forms scripts
//! use: `export default [async] function [name](…)`, an arrow (parenthesised or not), a class,
//! and `export default name` or `export { name as default }` naming a function declared at the
//! top level (`function name`, `const name = (…) => …`, `const name = function …`, exported or
//! not). Its first parameter describes the argument object: an identifier, an object pattern
//! (each property a field; a default makes it optional, `...rest` adds an index signature), an
//! array pattern, a default for the whole parameter (an optional argument) or a rest parameter.
//! The `/** … */` block attached to the statement that declares the function (or, failing that,
//! to the export statement) supplies the description, the types (`@param {T} args`, or field by
//! field with `@param {T} args.field`) and the return type (`jsdoc.rs` reads the block).
//!
//! The declaration is always one line, `declare function name(args: T): R;`, which the desktop
//! app's argument form reads; the tags' descriptions go into the comment block above it.

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    BindingPattern, BindingPatternKind, Declaration as AstDeclaration, ExportDefaultDeclarationKind, Expression,
    FormalParameters, Program, Statement,
};
use oxc_parser::Parser;
use oxc_span::{GetSpan, SourceType};

use crate::jsdoc::{self, JsDoc};

/// The generated declaration and the facts `ls` shows.
pub(crate) struct Declaration {
    pub dts: String,
    pub one_liner: Option<String>,
    pub has_jsdoc: bool,
}

/// What the default export's first parameter looks like.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    /// The function takes no parameter.
    Nothing,
    /// Not a function the parser can see through (a class, a value computed at run time).
    Unknown,
    /// `(args)`, or `(args = {})` when `optional`.
    Named { name: String, optional: bool },
    /// `({ a, b = 1, ...rest })` — each field with whether it has a default — or the same with a
    /// default for the whole pattern when `optional`.
    Object { fields: Vec<(String, bool)>, rest: bool, optional: bool },
    /// `([a, b])`.
    List { optional: bool },
    /// `(...args)`.
    Rest,
}

fn function_arg(params: &FormalParameters<'_>) -> Arg {
    match params.items.first() {
        Some(first) => pattern_arg(&first.pattern, false),
        None if params.rest.is_some() => Arg::Rest,
        None => Arg::Nothing,
    }
}

fn pattern_arg(pattern: &BindingPattern<'_>, optional: bool) -> Arg {
    match &pattern.kind {
        BindingPatternKind::BindingIdentifier(id) => Arg::Named { name: id.name.to_string(), optional },
        BindingPatternKind::AssignmentPattern(assign) => pattern_arg(&assign.left, true),
        BindingPatternKind::ArrayPattern(_) => Arg::List { optional },
        BindingPatternKind::ObjectPattern(object) => {
            let fields = object
                .properties
                .iter()
                .filter(|p| !p.computed)
                .filter_map(|p| {
                    let key = p.key.static_name()?.to_string();
                    Some((key, matches!(p.value.kind, BindingPatternKind::AssignmentPattern(_))))
                })
                .collect();
            Arg::Object { fields, rest: object.rest.is_some(), optional }
        }
    }
}

/// A function-like expression's argument shape, looking through parentheses.
fn expression_arg(expression: &Expression<'_>) -> Option<Arg> {
    match expression.without_parentheses() {
        Expression::FunctionExpression(f) => Some(function_arg(&f.params)),
        Expression::ArrowFunctionExpression(a) => Some(function_arg(&a.params)),
        Expression::ClassExpression(_) => Some(Arg::Unknown),
        _ => None,
    }
}

/// The argument shape of `name` if `declaration` declares it.
fn declared(declaration: &AstDeclaration<'_>, name: &str) -> Option<Arg> {
    match declaration {
        AstDeclaration::FunctionDeclaration(f) if f.id.as_ref().is_some_and(|id| id.name == name) => {
            Some(function_arg(&f.params))
        }
        AstDeclaration::ClassDeclaration(c) if c.id.as_ref().is_some_and(|id| id.name == name) => Some(Arg::Unknown),
        AstDeclaration::VariableDeclaration(v) => v.declarations.iter().find_map(|d| match &d.id.kind {
            BindingPatternKind::BindingIdentifier(id) if id.name == name => {
                Some(d.init.as_ref().and_then(expression_arg).unwrap_or(Arg::Unknown))
            }
            _ => None,
        }),
        _ => None,
    }
}

/// The top-level declaration of `name`: its argument shape and the start of its statement
/// (where its JSDoc is attached).
fn declaration_of(program: &Program<'_>, name: &str) -> Option<(Arg, u32)> {
    program.body.iter().find_map(|statement| {
        let declaration = match statement {
            Statement::ExportNamedDeclaration(e) => e.declaration.as_ref()?,
            other => other.as_declaration()?,
        };
        declared(declaration, name).map(|arg| (arg, statement.span().start))
    })
}

/// The JSDoc block attached to the token at `start` (the first token of a statement).
fn jsdoc_at(program: &Program<'_>, start: u32) -> Option<String> {
    let comment = program.comments.iter().rev().find(|c| c.is_jsdoc() && c.attached_to == start)?;
    let span = comment.content_span();
    let text = program.source_text.get(span.start as usize..span.end as usize)?;
    // `content_span` keeps the second `*` of `/**`.
    Some(text.strip_prefix('*').unwrap_or(text).to_owned())
}

/// The default export's argument shape and JSDoc text, when the module parses and has one.
fn find_default(program: &Program<'_>) -> Option<(Arg, Option<String>)> {
    for statement in &program.body {
        let export_start = statement.span().start;
        let (arg, declared_at) = match statement {
            Statement::ExportDefaultDeclaration(d) => match &d.declaration {
                ExportDefaultDeclarationKind::FunctionDeclaration(f) => (function_arg(&f.params), None),
                ExportDefaultDeclarationKind::ClassDeclaration(_) => (Arg::Unknown, None),
                other => match other.as_expression().map(Expression::without_parentheses) {
                    Some(Expression::Identifier(id)) => match declaration_of(program, &id.name) {
                        Some((arg, at)) => (arg, Some(at)),
                        None => (Arg::Unknown, None),
                    },
                    Some(expression) => (expression_arg(expression).unwrap_or(Arg::Unknown), None),
                    None => (Arg::Unknown, None),
                },
            },
            Statement::ExportNamedDeclaration(e) if e.source.is_none() => {
                let Some(local) = e.specifiers.iter().find(|s| s.exported.name() == "default").map(|s| s.local.name())
                else {
                    continue;
                };
                match declaration_of(program, &local) {
                    Some((arg, at)) => (arg, Some(at)),
                    None => (Arg::Unknown, None),
                }
            }
            _ => continue,
        };
        let jsdoc = declared_at.and_then(|at| jsdoc_at(program, at)).or_else(|| jsdoc_at(program, export_start));
        return Some((arg, jsdoc));
    }
    None
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_alphabetic() || f == '_' || f == '$')
        && c.all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
}

/// A type JSDoc writes when it means "some object": too vague to replace a field list.
fn is_vague(ty: &str) -> bool {
    matches!(ty, "any" | "object" | "Object" | "*")
}

/// The declared function's parameter list (`args: T`, `args?: T`, `...args: any[]` or nothing).
fn parameter(arg: &Arg, doc: &JsDoc) -> Option<String> {
    // The tag documenting the whole first parameter: the one with its name, or for a pattern
    // (which has no name) the first undotted tag, as JSDoc lists parameters in order. A vague
    // type (`object`) does not count, so dotted tags can still describe the fields.
    let plain = |name: Option<&str>| {
        let mut undotted = doc.params.iter().filter(|p| !p.name.contains('.'));
        let tag = match name {
            Some(n) => undotted.find(|p| p.name == n),
            None => undotted.next(),
        };
        tag.filter(|p| p.ty.as_deref().is_some_and(|t| !is_vague(t)))
    };
    // Fields documented one by one: `@param {T} args.field` (any first segment).
    let dotted: Vec<&jsdoc::Param> = doc.params.iter().filter(|p| p.name.split('.').count() == 2).collect();
    let field = |key: &str, has_default: bool| {
        let documented = dotted.iter().find(|p| p.name.split('.').nth(1) == Some(key));
        let optional = has_default || documented.is_some_and(|p| p.optional);
        let ty = documented.and_then(|p| p.ty.as_deref()).unwrap_or("any");
        format!("{key}{}: {ty}", if optional { "?" } else { "" })
    };
    let object = |fields: &[(String, bool)], rest: bool| {
        let mut out: Vec<String> = fields.iter().map(|(k, d)| field(k, *d)).collect();
        for p in &dotted {
            let key = p.name.split('.').nth(1).unwrap_or("");
            if !key.is_empty() && !fields.iter().any(|(k, _)| k == key) {
                out.push(field(key, false));
            }
        }
        if rest {
            out.push("[key: string]: any".into());
        }
        if out.is_empty() { "{}".to_owned() } else { format!("{{ {} }}", out.join("; ")) }
    };
    let mark = |optional: bool| if optional { "?" } else { "" };
    match arg {
        Arg::Nothing => None,
        Arg::Rest => Some("...args: any[]".into()),
        Arg::Unknown => Some(format!(
            "args: {}",
            plain(None).and_then(|p| p.ty.clone()).unwrap_or_else(|| if dotted.is_empty() {
                "any".into()
            } else {
                object(&[], false)
            })
        )),
        Arg::Named { name, optional } => {
            let ty = match plain(Some(name)).and_then(|p| p.ty.clone()) {
                Some(ty) => ty,
                None if !dotted.is_empty() => object(&[], false),
                None => "any".into(),
            };
            Some(format!("args{}: {ty}", mark(*optional)))
        }
        Arg::Object { fields, rest, optional } => {
            let ty = plain(None).and_then(|p| p.ty.clone()).unwrap_or_else(|| object(fields, *rest));
            Some(format!("args{}: {ty}", mark(*optional)))
        }
        Arg::List { optional } => {
            let ty = plain(None).and_then(|p| p.ty.clone()).unwrap_or_else(|| "any[]".into());
            Some(format!("args{}: {ty}", mark(*optional)))
        }
    }
}

/// The comment block above the declaration: the description, then the tags that carry a
/// description of their own.
fn comment(doc: &JsDoc) -> String {
    let mut lines: Vec<String> = doc.description.clone();
    let tagged: Vec<String> = doc
        .params
        .iter()
        .filter(|p| !p.description.is_empty())
        .map(|p| format!("@param {} {}", p.name, p.description))
        .chain(doc.returns.iter().filter(|r| !r.description.is_empty()).map(|r| format!("@returns {}", r.description)))
        .collect();
    if !tagged.is_empty() && !lines.is_empty() {
        lines.push(String::new());
    }
    lines.extend(tagged);
    match lines.as_slice() {
        [] => String::new(),
        [one] => format!("/** {} */\n", one.trim()),
        _ => {
            let mut out = String::from("/**\n");
            for l in &lines {
                if l.trim().is_empty() {
                    out.push_str(" *\n");
                } else {
                    out.push_str(&format!(" * {l}\n"));
                }
            }
            out.push_str(" */\n");
            out
        }
    }
}

/// The declared name: the function's own name when it has one, else the file's.
fn declared_name(path: &str, default_name: &str) -> String {
    if is_ident(default_name) && default_name != "default" {
        return default_name.to_owned();
    }
    let base = path.rsplit('/').next().unwrap_or("script").trim_end_matches(".js");
    let mut n: String = base.chars().map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if n.chars().next().is_none_or(|c| c.is_ascii_digit()) {
        n.insert(0, '_');
    }
    n
}

/// Builds the declaration of the entry script at `path` from its module source and the name
/// its default export has at run time (`default` for an anonymous one). A module the parser
/// cannot read (QuickJS accepted it, so this is a syntax oxc does not know) gets an untyped
/// declaration rather than none.
pub(crate) fn declare(path: &str, module: &str, default_name: &str) -> Declaration {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, module, SourceType::mjs()).parse();
    let found = if parsed.panicked { None } else { find_default(&parsed.program) };
    let (arg, raw) = found.unwrap_or((Arg::Unknown, None));
    let doc = raw.as_deref().map(jsdoc::parse).unwrap_or_default();
    let name = declared_name(path, default_name);
    let returns = doc.returns.as_ref().and_then(|r| r.ty.clone()).unwrap_or_else(|| "Promise<unknown>".into());
    let mut dts = comment(&doc);
    let params = parameter(&arg, &doc).unwrap_or_default();
    dts.push_str(&format!("declare function {name}({params}): {returns};\nexport default {name};\n"));
    let one_liner = doc.description.first().map(|l| l.trim().to_owned()).filter(|l| !l.is_empty());
    Declaration { dts, one_liner, has_jsdoc: raw.is_some() }
}

/// The default export's JSDoc (parsed) and the name of its first parameter when that is a plain
/// identifier, for the advisory argument check; `None` when there is no JSDoc block.
pub(crate) fn default_jsdoc(module: &str) -> Option<(JsDoc, Option<String>)> {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, module, SourceType::mjs()).parse();
    if parsed.panicked {
        return None;
    }
    let (arg, raw) = find_default(&parsed.program)?;
    let name = match arg {
        Arg::Named { name, .. } => Some(name),
        _ => None,
    };
    Some((jsdoc::parse(&raw?), name))
}

/// The names a module exports (`default` included) and whether it also has an `export *`, for
/// the message about a missing named import. A module that does not parse exports nothing known.
pub(crate) fn export_names(module: &str) -> (Vec<String>, bool) {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, module, SourceType::mjs()).parse();
    let record = &parsed.module_record;
    let mut names: Vec<String> = record.exported_bindings.keys().map(|name| name.to_string()).collect();
    let has_default =
        record.local_export_entries.iter().chain(&record.indirect_export_entries).any(|e| e.export_name.is_default());
    if has_default {
        names.push("default".into());
    }
    (names, !record.star_export_entries.is_empty())
}

/// Everything this module derives from a module's source without running it: the declaration
/// `Engine::validate` writes for an entry script at `path` whose default export is anonymous, the
/// default export's JSDoc as the argument check reads it, and the exported names.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// The `.d.ts` text.
    pub dts: String,
    /// The first line of the JSDoc description, as `ls` shows it.
    pub one_liner: Option<String>,
    /// Whether the default export has a JSDoc block.
    pub has_jsdoc: bool,
    /// The name of the default export's first parameter when the argument check can read it.
    pub arg_name: Option<String>,
    /// The names the module exports (`default` included).
    pub exports: Vec<String>,
    /// Whether the module also has an `export *`.
    pub star_export: bool,
}

/// Runs the `.d.ts` derivation, the JSDoc lookup and the export listing over `source` as if it
/// were the entry script at `path` — the pure half of `Engine::validate`, for tools that feed it
/// arbitrary text (folio-fuzz) and never a substitute for validating a script.
pub fn derive(path: &str, source: &str) -> Derived {
    let d = declare(path, source, "default");
    let arg_name = default_jsdoc(source).and_then(|(_, name)| name);
    let (exports, star_export) = export_names(source);
    Derived { dts: d.dts, one_liner: d.one_liner, has_jsdoc: d.has_jsdoc, arg_name, exports, star_export }
}
