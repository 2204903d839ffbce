//! A scene's sources as the page receives them: JSX and TypeScript turned into plain ES modules
//! (oxc: JSX with the automatic runtime importing `react/jsx-runtime`, types stripped), each
//! with a map from generated to original lines so an error names the author's file:line.
//!
//! The graph is walked *before* the browser is asked for anything: a syntax error, an import of
//! a sibling that does not exist, or an import of a package Folio does not provide fails here,
//! in milliseconds, naming the file and line — never as a page that silently never mounts.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

use oxc_allocator::Allocator;
use oxc_ast::ast::{Expression, Statement};
use oxc_codegen::{Codegen, CodegenOptions};
use oxc_parser::Parser;
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use oxc_transformer::{JsxRuntime, TransformOptions, Transformer};

/// The bare specifiers the page can import, and what answers each (`vendor/` or `js/` file).
pub const PACKAGES: &[(&str, &str)] = &[
    ("react", "react.js"),
    ("react/jsx-runtime", "react-jsx-runtime.js"),
    ("react/jsx-dev-runtime", "react-jsx-runtime.js"),
    ("react-dom", "react-dom.js"),
    ("react-dom/client", "react-dom-client.js"),
    ("react-native", "react-native-web.js"),
    ("react-native-web", "react-native-web.js"),
    ("react-native-reanimated", "react-native-reanimated.js"),
    ("remotion", "remotion.js"),
    ("folio/motion", "motion.js"),
    ("@remotion/transitions", "remotion-transitions.js"),
    ("@remotion/transitions/fade", "remotion-transitions.js"),
    ("@remotion/transitions/slide", "remotion-transitions.js"),
    ("@remotion/transitions/wipe", "remotion-transitions.js"),
    ("@remotion/transitions/flip", "remotion-transitions.js"),
    ("@remotion/transitions/clock-wipe", "remotion-transitions.js"),
    ("@remotion/transitions/none", "remotion-transitions.js"),
    ("@remotion/shapes", "remotion-shapes.js"),
    ("@remotion/paths", "@remotion/paths/paths.js"),
    ("@remotion/noise", "@remotion/noise/noise.js"),
    ("zod", "zod/zod.js"),
    ("react-native-svg", "react-native-svg/react-native-svg.js"),
];

/// The extensions an extension-less relative import is tried with, `.web.*` first so
/// react-native-web code resolves to its browser files.
pub const RESOLVE_EXTENSIONS: &[&str] =
    &[".web.tsx", ".web.ts", ".web.jsx", ".web.js", ".tsx", ".ts", ".jsx", ".js", ".mjs", ".json"];

/// Files whose source is a module the page imports.
pub const SOURCE_EXTENSIONS: &[&str] = &["js", "jsx", "ts", "tsx", "mjs", "cjs"];

/// One transformed module.
#[derive(Debug, Clone)]
pub struct Module {
    /// The plain ES module.
    pub code: String,
    /// Generated line (0-based) → original line (1-based), for error locations.
    pub lines: Vec<u32>,
}

/// A problem found before anything runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError {
    /// The tree path.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// What is wrong, and the fix.
    pub message: String,
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Transforms one source file (`path` picks JSX/TypeScript by extension); also returns its
/// static import specifiers.
pub fn transform(path: &str, source: &str) -> Result<(Module, Vec<String>), SourceError> {
    let ext = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("js");
    let source_type = match ext {
        "ts" => SourceType::ts(),
        "tsx" => SourceType::tsx(),
        // Plain .js may hold JSX (react-native-web publishes it; people write it).
        _ => SourceType::jsx(),
    }
    .with_module(true);
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, source, source_type).parse();
    if let Some(e) = parsed.errors.first() {
        let line = e.labels.as_ref().and_then(|l| l.first()).map(|l| line_of(source, l.offset()));
        return Err(SourceError { file: path.to_string(), line, message: format!("syntax error: {}", e.message) });
    }
    let mut program = parsed.program;
    let imports = specifiers(&program);
    let scoping = SemanticBuilder::new().build(&program).semantic.into_scoping();
    let mut options = TransformOptions::default();
    options.jsx.runtime = JsxRuntime::Automatic;
    options.jsx.development = false;
    let done = Transformer::new(&allocator, Path::new(path), &options).build_with_scoping(scoping, &mut program);
    if let Some(e) = done.errors.first() {
        return Err(SourceError {
            file: path.to_string(),
            line: None,
            message: format!("cannot transform: {}", e.message),
        });
    }
    let generated = Codegen::new()
        .with_options(CodegenOptions { source_map_path: Some(path.into()), ..CodegenOptions::default() })
        .with_source_text(source)
        .build(&program);
    let lines = match &generated.map {
        Some(map) => line_table(map, &generated.code),
        None => Vec::new(),
    };
    Ok((Module { code: generated.code, lines }, imports))
}

fn line_table(map: &oxc_sourcemap::SourceMap, code: &str) -> Vec<u32> {
    let n = code.lines().count() + 1;
    let mut out = vec![0u32; n];
    let mut last = 1u32;
    let mut seen = vec![false; n];
    for token in map.get_tokens() {
        let dst = token.get_dst_line() as usize;
        if dst < n && !seen[dst] {
            seen[dst] = true;
            out[dst] = token.get_src_line() + 1;
        }
    }
    for (i, l) in out.iter_mut().enumerate() {
        if seen[i] {
            last = *l;
        } else {
            *l = last;
        }
    }
    out
}

fn line_of(source: &str, offset: usize) -> u32 {
    let upto = source.get(..offset.min(source.len())).unwrap_or(source);
    u32::try_from(upto.matches('\n').count() + 1).unwrap_or(u32::MAX)
}

fn specifiers(program: &oxc_ast::ast::Program) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in &program.body {
        match stmt {
            Statement::ImportDeclaration(d) => out.push(d.source.value.to_string()),
            Statement::ExportAllDeclaration(d) => out.push(d.source.value.to_string()),
            Statement::ExportNamedDeclaration(d) => {
                if let Some(s) = &d.source {
                    out.push(s.value.to_string());
                }
            }
            Statement::ExpressionStatement(e) => {
                if let Expression::ImportExpression(i) = &e.expression
                    && let Expression::StringLiteral(s) = &i.source
                {
                    out.push(s.value.to_string());
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether `spec` is a package name rather than a path.
pub fn is_bare(spec: &str) -> bool {
    !(spec.starts_with('/') || spec.starts_with("./") || spec.starts_with("../") || spec.contains("://"))
}

/// The vendored file answering a bare specifier.
pub fn package_file(spec: &str) -> Option<&'static str> {
    PACKAGES.iter().find(|(name, _)| *name == spec).map(|(_, f)| *f)
}

/// Resolves `spec` imported from `from` (a tree path) to a tree path, probing extensions
/// and `index.*` when the exact path is not a file. `exists` answers for tree paths.
pub fn resolve(from: &str, spec: &str, exists: &dyn Fn(&str) -> bool) -> Option<String> {
    let base = if spec.starts_with('/') {
        normalize(spec)
    } else {
        let dir = from.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        normalize(&format!("{dir}/{spec}"))
    };
    let has_source_ext = Path::new(&base).extension().is_some();
    if has_source_ext && exists(&base) {
        return Some(base);
    }
    for ext in RESOLVE_EXTENSIONS {
        let p = format!("{base}{ext}");
        if exists(&p) {
            return Some(p);
        }
    }
    for ext in RESOLVE_EXTENSIONS {
        let p = format!("{base}/index{ext}");
        if exists(&p) {
            return Some(p);
        }
    }
    (!has_source_ext && exists(&base)).then_some(base)
}

/// `/a/./b/../c` → `/a/c` (never above the root).
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The scene's static module graph, transformed.
#[derive(Debug, Default)]
pub struct Graph {
    /// Tree path → module.
    pub modules: BTreeMap<String, Module>,
    /// Every bare package the graph imports.
    pub packages: BTreeSet<String>,
}

impl Graph {
    /// Whether the scene uses Reanimated (and so needs the worklets transform).
    pub fn uses_reanimated(&self) -> bool {
        self.packages.contains("react-native-reanimated")
    }
}

/// Walks the graph from `scene`, transforming each source module. `read` returns a tree file's
/// text (`None`: no such file).
pub fn walk(scene: &str, read: &dyn Fn(&str) -> Option<String>) -> Result<Graph, SourceError> {
    let mut graph = Graph::default();
    let mut queue = VecDeque::from([scene.to_string()]);
    let exists = |p: &str| read(p).is_some();
    while let Some(path) = queue.pop_front() {
        if graph.modules.contains_key(&path) {
            continue;
        }
        let ext = Path::new(&path).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        if !SOURCE_EXTENSIONS.contains(&ext.as_str()) {
            continue;
        }
        let Some(source) = read(&path) else {
            return Err(SourceError { file: path, line: None, message: "no such file".into() });
        };
        let (module, imports) = transform(&path, &source)?;
        for spec in imports {
            if is_bare(&spec) {
                if package_file(&spec).is_none() {
                    let line = source
                        .lines()
                        .position(|l| l.contains(&format!("'{spec}'")) || l.contains(&format!("\"{spec}\"")));
                    let names: Vec<&str> = PACKAGES.iter().map(|(n, _)| *n).filter(|n| !n.contains("jsx")).collect();
                    return Err(SourceError {
                        file: path,
                        line: line.and_then(|l| u32::try_from(l + 1).ok()),
                        message: format!(
                            "imports '{spec}', which scenes cannot use — the page has no network and no node_modules; available: {}; put your own code in a sibling file and import it with ./",
                            names.join(", ")
                        ),
                    });
                }
                graph.packages.insert(spec);
            } else if let Some(target) = resolve(&path, &spec, &exists) {
                queue.push_back(target);
            } else {
                let line = source.lines().position(|l| l.contains(&spec));
                return Err(SourceError {
                    file: path,
                    line: line.and_then(|l| u32::try_from(l + 1).ok()),
                    message: format!(
                        "imports '{spec}', which is not in the tree (tried {} and index files) — check the path with ls",
                        RESOLVE_EXTENSIONS.join(" ")
                    ),
                });
            }
        }
        graph.modules.insert(path, module);
    }
    Ok(graph)
}
