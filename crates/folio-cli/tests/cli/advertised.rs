//! Never advertise what is not there. Every piece of text the agent is shown — the system prompt
//! (the environment's preamble and the desk prompt), `/.env/orientation.md`, every file under
//! `/std` and `/skills`, each module's `.d.ts` and docs, every verb's description and argument
//! schema (`run_script`'s names the modules), and what `capabilities()` returns — is read against
//! what a script of a host built by folio-host (as `folio ask --vision main` builds it) can
//! really import, learnt by importing every module from a script.
//!
//! The checker ([`check`]) finds, in each text:
//! - every `env:<name>` (and `env:<name>.<export>`): a registered module, and an export of it;
//! - every `import { a, b as c } from 'env:x'`: each binding an export of `env:x`; an
//!   `import * as ns from 'env:x'` or a named binding makes `ns.f` / `c.f` mentions checkable, in
//!   every text (`csv.parse` in one skill relies on the import line of another);
//! - every `<module>.<function>(` for a registered module's own name (`render.rasterize(`);
//! - in a module's `.d.ts`, every declared export (and each method of an `export const x: {…}`);
//! - every mention of a [`TOPICS`] word (Chromium, ffmpeg, video, motion, an Office file as a
//!   deliverable, …): allowed only when a registered module uses the tool or is the module named.
//!
//! The fixture table proves each rule catches what it is for: a fake doc mentioning `env:motion`
//! fails, and so on.
#![allow(clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use folio_env::{Answers, Environment, KeepPresented};
use folio_host::{Host, Seams};
use folio_vfs::{Tree, VPath};
use serde_json::{Value, json};

/// What scripts can really import: module → export → the export's own keys (for an object such
/// as env:std's `csv`; empty for a function or class).
type Exports = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// The registry as a script sees it, and the doctor rows a registered module uses.
struct Truth {
    exports: Exports,
    used_rows: BTreeSet<String>,
}

/// How a text is read: prose, or the `.d.ts` of one module (whose declarations are checked).
#[derive(Clone)]
enum Kind {
    Prose,
    Dts(String),
}

/// One text the agent is shown, named by where it comes from.
struct Text {
    name: String,
    kind: Kind,
    body: String,
}

/// What a topic word needs before the agent may read it.
enum Needs {
    /// A registered module uses the doctor row of this name (`folio_render::doctor::USED_BY`).
    Row(&'static str),
    /// A module of this name is registered.
    Module(&'static str),
    /// A registered module writes Office files (env:spreadsheets, env:documents or env:slides).
    OfficeWriter,
}

/// Words (matched whole, case-insensitive) that claim a capability, and what makes each true.
const TOPICS: &[(&[&str], Needs)] = &[
    (&["chromium", "chrome", "headless browser", "web page", "web pages", "html to pdf"], Needs::Row("chromium")),
    (
        &["ffmpeg", "ffprobe", "video", "videos", "audio", "transcode", "transcodes", "webm", "mp4"],
        Needs::Row("ffmpeg"),
    ),
    (&["motion", "animate", "frames to video"], Needs::Module("motion")),
    (&["env:media"], Needs::Module("media")),
    (
        &["write xlsx", "writes xlsx", "writing xlsx", "xlsx writer", "create a workbook", "write a workbook"],
        Needs::OfficeWriter,
    ),
];

/// The modules that write Office files.
const OFFICE_WRITERS: &[&str] = &["spreadsheets", "documents", "slides"];

/// The extensions of Office files: a *file name* ending in one (`q2.xlsx`) offers it as a
/// deliverable, which no module can make; bare lists (`.docx/.xlsx`, `docx, xlsx`) name what is read.
const OFFICE_EXTENSIONS: &[&str] = &["xlsx", "xls", "docx", "doc", "pptx", "ppt", "ods", "odt", "odp"];

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The identifier at the start of `s` (JavaScript's ASCII subset).
fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
    let id = &s[..end];
    if id.starts_with(|c: char| c.is_ascii_digit()) { "" } else { id }
}

/// A module name at the start of `s` (what the registry allows: lowercase, digits, `-`, `_`).
fn module_name(s: &str) -> &str {
    let end =
        s.find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')).unwrap_or(s.len());
    s[..end].trim_end_matches('-')
}

/// What a binding of an import stands for: a module's namespace, or one export of it.
type Aliases = BTreeMap<String, (String, Option<String>)>;

/// One `import … from 'env:…'` statement: `(module, bindings as (export, local))`, with `None`
/// as the export for `* as local`, and whether it imports a default.
type Import = (String, Vec<(Option<String>, String)>, bool);

/// The `import … from 'env:…'` statements of `body`.
fn imports(body: &str) -> Vec<Import> {
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find("import ") {
        rest = &rest[at + "import ".len()..];
        let head = rest.trim_start();
        let (bindings, default, after) = if let Some(star) = head.strip_prefix('*') {
            let Some(local) = star.trim_start().strip_prefix("as ") else { continue };
            let local = ident(local.trim_start());
            let after = &head[head.find(local).unwrap_or(0) + local.len()..];
            (vec![(None, local.to_string())], false, after)
        } else if let Some(braced) = head.strip_prefix('{') {
            let Some(close) = braced.find('}') else { continue };
            let mut list = Vec::new();
            for item in braced[..close].split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let (export, local) = item.split_once(" as ").map_or((item, item), |(e, l)| (e.trim(), l.trim()));
                list.push((Some(export.to_string()), local.to_string()));
            }
            (list, false, &braced[close + 1..])
        } else {
            let local = ident(head);
            if local.is_empty() {
                continue;
            }
            (vec![(Some("default".to_string()), local.to_string())], true, &head[local.len()..])
        };
        let Some(from) = after.trim_start().strip_prefix("from") else { continue };
        let from = from.trim_start();
        let Some(spec) = from.strip_prefix(['\'', '"', '`']).and_then(|s| s.strip_prefix("env:")) else { continue };
        out.push((module_name(spec).to_string(), bindings, default));
    }
    out
}

/// The locals a text imports from a package or Node module rather than an `env:` module
/// (`import fs from 'node:fs'`, `import ExcelJS from 'exceljs'`): in that text, `fs.` is Node's.
fn foreign_locals(body: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in body.lines().map(str::trim_start).filter(|l| l.starts_with("import ")) {
        let Some((head, from)) = line.rsplit_once(" from ") else { continue };
        let spec = from.trim().trim_start_matches(['\'', '"', '`']);
        if spec.starts_with("env:") || spec.starts_with('.') || spec.starts_with('/') {
            continue;
        }
        let head = head["import ".len()..].trim();
        let head = head.strip_prefix("* as ").unwrap_or(head);
        for part in head.split([',', '{', '}']).map(str::trim).filter(|p| !p.is_empty()) {
            let local = part.rsplit_once(" as ").map_or(part, |(_, l)| l.trim());
            out.insert(ident(local).to_string());
        }
    }
    out
}

/// The aliases every text's import lines define (a skill's `csv.parse` relies on another's
/// `import { csv } from 'env:std'`).
fn aliases(texts: &[Text]) -> Aliases {
    let mut out = Aliases::new();
    for text in texts {
        for (module, bindings, _) in imports(&text.body) {
            for (export, local) in bindings {
                out.insert(local, (module.clone(), export));
            }
        }
    }
    out
}

/// Every `word.member` in `body` where `word` stands alone (not part of a path, a longer name or
/// an `env:` mention), with what follows the member.
fn member_mentions<'a>(body: &'a str, word: &str) -> Vec<(&'a str, &'a str)> {
    let needle = format!("{word}.");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = body[from..].find(&needle) {
        let start = from + at;
        from = start + needle.len();
        let before = body[..start].chars().next_back();
        if before.is_some_and(|c| is_ident_char(c) || matches!(c, '.' | '/' | '-' | ':' | '\\')) {
            continue;
        }
        let member = ident(&body[from..]);
        if !member.is_empty() {
            out.push((member, &body[from + member.len()..]));
        }
    }
    out
}

/// True when `phrase` occurs in `lower` (already lowercased) as whole words.
fn has_phrase(lower: &str, phrase: &str) -> bool {
    let mut from = 0;
    while let Some(at) = lower[from..].find(phrase) {
        let start = from + at;
        let end = start + phrase.len();
        let before = lower[..start].chars().next_back();
        let after = lower[end..].chars().next();
        if !before.is_some_and(|c| c.is_alphanumeric()) && !after.is_some_and(|c| c.is_alphanumeric()) {
            return true;
        }
        from = start + 1;
    }
    false
}

/// Office file names in `body`: a name character right before `.xlsx` (`q2.xlsx`, not `/.xlsx`).
fn office_file_names(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    for ext in OFFICE_EXTENSIONS {
        let needle = format!(".{ext}");
        let mut from = 0;
        while let Some(at) = body[from..].find(&needle) {
            let start = from + at;
            from = start + needle.len();
            let before = body[..start].chars().next_back();
            let after = body[from..].chars().next();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric())
            {
                let name_start = body[..start]
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                    .map_or(0, |i| i + 1);
                out.push(body[name_start..from].to_string());
            }
        }
    }
    out
}

/// Every problem in `texts`, each naming the text and the mention.
fn check(texts: &[Text], truth: &Truth) -> Vec<String> {
    let mut problems = Vec::new();
    let aliases = aliases(texts);
    let has_export = |module: &str, export: &str| truth.exports.get(module).is_some_and(|e| e.contains_key(export));
    for text in texts {
        let mut say = |what: String| problems.push(format!("{}: {what}", text.name));
        // env:<name> and env:<name>.<export>
        for (at, _) in text.body.match_indices("env:") {
            let rest = &text.body[at + 4..];
            let name = module_name(rest);
            if name.is_empty() {
                continue;
            }
            let Some(exports) = truth.exports.get(name) else {
                say(format!("mentions env:{name}, which is not a registered module"));
                continue;
            };
            if let Some(member) = rest[name.len()..].strip_prefix('.').map(ident).filter(|m| !m.is_empty())
                && !exports.contains_key(member)
            {
                say(format!("mentions env:{name}.{member}, which env:{name} does not export"));
            }
        }
        // import { a, b as c } from 'env:x'
        for (module, bindings, default) in imports(&text.body) {
            if !truth.exports.contains_key(&module) {
                continue; // already reported as an env: mention
            }
            if default {
                say(format!("imports a default from env:{module}, which env: modules do not have"));
            }
            for export in bindings.iter().filter_map(|(e, _)| e.as_deref()).filter(|e| *e != "default") {
                if !has_export(&module, export) {
                    say(format!("imports {export} from env:{module}, which does not export it"));
                }
            }
        }
        // ns.f, binding.f, module.f( — unless this text imports that name from a package.
        let foreign = foreign_locals(&text.body);
        for (alias, (module, export)) in aliases.iter().filter(|(a, _)| !foreign.contains(*a)) {
            for (member, _) in member_mentions(&text.body, alias) {
                let ok = match export {
                    None => has_export(module, member),
                    Some(export) => truth
                        .exports
                        .get(module)
                        .and_then(|e| e.get(export))
                        .is_some_and(|members| members.iter().any(|m| m == member)),
                };
                if !ok {
                    let whose = export.as_ref().map_or(format!("env:{module}"), |e| format!("env:{module}'s {e}"));
                    say(format!("mentions {alias}.{member}, which {whose} does not have"));
                }
            }
        }
        // A local of the same name (`const zip = new Zip(…)`) is not the module.
        let locals: BTreeSet<&str> = ["const ", "let ", "var "]
            .iter()
            .flat_map(|kw| text.body.match_indices(kw).map(|(at, _)| ident(&text.body[at + kw.len()..])))
            .collect();
        for module in truth.exports.keys().filter(|m| !aliases.contains_key(*m) && !locals.contains(m.as_str())) {
            for (member, after) in member_mentions(&text.body, module) {
                if after.starts_with('(') && !has_export(module, member) {
                    say(format!("calls {module}.{member}(, which env:{module} does not export"));
                }
            }
        }
        // The .d.ts declares only what the module exports.
        if let Kind::Dts(module) = &text.kind {
            let mut block: Option<String> = None;
            for line in text.body.lines() {
                if let Some(name) = &block {
                    if line.starts_with('}') {
                        block = None;
                    } else if let Some(method) = line.strip_prefix("  ").map(ident).filter(|m| !m.is_empty())
                        && line.trim_start()[method.len()..].starts_with('(')
                        && !truth.exports[module].get(name).is_some_and(|m| m.iter().any(|x| x == method))
                    {
                        say(format!("declares {name}.{method}, which env:{module} does not have"));
                    }
                    continue;
                }
                let Some(decl) = line.strip_prefix("export ") else { continue };
                let decl = decl.strip_prefix("declare ").unwrap_or(decl);
                let decl = decl.strip_prefix("async ").unwrap_or(decl);
                let Some((keyword, rest)) = decl.split_once(' ') else { continue };
                if !matches!(keyword, "function" | "const" | "let" | "var" | "class") {
                    continue;
                }
                let name = ident(rest.trim_start_matches('*').trim_start());
                if !has_export(module, name) {
                    say(format!("declares {name}, which env:{module} does not export"));
                }
                if keyword == "const" && line.trim_end().ends_with('{') {
                    block = Some(name.to_string());
                }
            }
        }
        // Topics that claim a tool or a module.
        let lower = text.body.to_lowercase();
        for (words, needs) in TOPICS {
            let allowed = match needs {
                Needs::Row(row) => truth.used_rows.contains(*row),
                Needs::Module(m) => truth.exports.contains_key(*m),
                Needs::OfficeWriter => OFFICE_WRITERS.iter().any(|m| truth.exports.contains_key(*m)),
            };
            if allowed {
                continue;
            }
            for word in words.iter().filter(|w| has_phrase(&lower, w)) {
                say(format!("mentions \"{word}\", which no registered module provides"));
            }
        }
        if !OFFICE_WRITERS.iter().any(|m| truth.exports.contains_key(*m)) {
            for name in office_file_names(&text.body) {
                say(format!("offers the Office file {name} as something to make, which no registered module writes"));
            }
        }
    }
    problems
}

/// Imports every module of `env` from one script: each export's name and, for an object, its
/// keys; and what `capabilities()` returns.
fn truth_of(env: &Environment) -> (Exports, Value) {
    let names: Vec<String> = env.engine().unwrap().registry().modules().iter().map(|m| m.name.clone()).collect();
    let mut script = String::from("/** Lists what every env: module exports. */\n");
    for (i, name) in names.iter().enumerate() {
        script.push_str(&format!("import * as m{i} from 'env:{name}';\n"));
    }
    script.push_str(
        "import { capabilities } from 'env:render';\nexport default async function () {\n  const out = {};\n",
    );
    for (i, name) in names.iter().enumerate() {
        script.push_str(&format!(
            "  out[{name:?}] = Object.fromEntries(Object.keys(m{i}).map((k) => [k, m{i}[k] !== null && typeof m{i}[k] === 'object' ? Object.keys(m{i}[k]) : []]));\n"
        ));
    }
    script.push_str("  return { exports: out, capabilities: await capabilities() };\n}\n");
    let wrote = env.call("write_file", json!({"path": "/scripts/exports.js", "content": script}));
    assert_eq!(wrote.status, folio_env::Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/exports.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    let exports = serde_json::from_value(report.result["exports"].clone()).unwrap();
    (exports, report.result["capabilities"].clone())
}

/// Everything the agent of `env` is shown, as texts.
fn agent_texts(env: &Environment, capabilities: &Value) -> Vec<Text> {
    let prose = |name: String, body: String| Text { name, kind: Kind::Prose, body };
    let mut texts = vec![
        prose("the system prompt".into(), folio_agent::system_prompt(&folio_env::preamble(env))),
        prose("/.env/orientation.md".into(), folio_env::orientation(env)),
        prose("capabilities()".into(), capabilities.to_string()),
    ];
    let modules = env.engine().unwrap().registry().modules();
    for root in ["/std", "/skills"] {
        for path in env.tree().walk(&VPath::parse(root).unwrap()).unwrap() {
            let body = String::from_utf8(env.tree().read(&path).unwrap()).unwrap();
            let kind = match path.as_str().strip_suffix("/index.d.ts").and_then(|p| p.strip_prefix("/std/")) {
                Some(module) if modules.iter().any(|m| m.name == module) => Kind::Dts(module.to_string()),
                _ => Kind::Prose,
            };
            texts.push(Text { name: path.to_string(), kind, body });
        }
    }
    for m in modules {
        texts.push(Text {
            name: format!("env:{} types_dts", m.name),
            kind: Kind::Dts(m.name.clone()),
            body: m.types_dts.clone(),
        });
        texts.push(prose(format!("env:{} docs", m.name), m.docs.clone()));
        texts.push(prose(format!("env:{} description", m.name), m.description.clone()));
    }
    for tool in env.tools() {
        texts.push(prose(format!("the {} verb", tool.name), format!("{}\n{}", tool.description, tool.schema)));
    }
    texts
}

/// A folder opened as `folio ask --vision main` opens it, with every seam wired (so every
/// conditional skill and verb is there), and tools found on this machine as a person's would be.
fn open() -> (tempfile::TempDir, tokio::runtime::Runtime, Environment) {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let provider = folio_agent::preset("ollama").unwrap().provider(Some("m"), None, None).unwrap();
    let vision = folio_agent::vision_setup("main", &provider, runtime.handle(), |_| None).unwrap().unwrap();
    let host = Host::builder().state_dir(Some(tmp.path().join("state"))).modules(vision.modules).build().unwrap();
    let seams = Seams {
        presenter: Some(Arc::new(KeepPresented)),
        asker: Some(Arc::new(Answers::new(Vec::new()))),
        vision: Some(vision.seam),
        ..Seams::default()
    };
    let env = host.open_folder(&folder, seams).unwrap();
    (tmp, runtime, env)
}

fn used_rows(exports: &Exports) -> BTreeSet<String> {
    folio_render::doctor::USED_BY
        .iter()
        .filter(|(_, modules)| modules.iter().any(|m| exports.contains_key(*m)))
        .map(|(row, _)| row.to_string())
        .collect()
}

#[test]
fn everything_the_agent_reads_names_only_what_is_registered() {
    let (_tmp, _runtime, env) = open();
    let (exports, capabilities) = truth_of(&env);
    for module in ["fs", "std", "assert", "render", "images", "zip", "media", "motion", "vision"] {
        assert!(exports.contains_key(module), "env:{module} is registered: {:?}", exports.keys());
    }
    assert!(exports["std"]["csv"].iter().any(|m| m == "parse"), "objects list their keys: {:?}", exports["std"]);
    let truth = Truth { used_rows: used_rows(&exports), exports };
    let used: BTreeSet<String> = [
        "pdfium",
        "libreoffice",
        "ffmpeg",
        "ffprobe",
        "espeak-ng",
        "chromium",
        "headless-shell",
        "react",
        "reanimated",
        "emoji-font",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(truth.used_rows, used, "the rows of env:render, env:media and env:motion");
    let texts = agent_texts(&env, &capabilities);
    let names: Vec<&str> = texts.iter().map(|t| t.name.as_str()).collect();
    for expected in ["/std/render/README.md", "/skills/imports.md", "/skills/delivering.md", "the run_script verb"] {
        assert!(names.contains(&expected), "{expected} is among the texts read: {names:?}");
    }
    let rows: Vec<&str> = capabilities.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(rows, ["pdfium", "libreoffice"], "capabilities() names only the tools env:render uses");
    let problems = check(&texts, &truth);
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let figure = json!({
            "area": "advertised",
            "texts_checked": texts.len(),
            "bytes_checked": texts.iter().map(|t| t.body.len()).sum::<usize>(),
            "modules": truth.exports.len(),
            "exports": truth.exports.values().map(BTreeMap::len).sum::<usize>(),
            "false_mentions": problems.len(),
        });
        std::fs::write(dir.join("advertised.json"), serde_json::to_string_pretty(&figure).unwrap()).unwrap();
    }
    assert!(problems.is_empty(), "the agent is shown what is not there:\n{}", problems.join("\n"));
}

/// Each rule catches what it is for: one fake text per rule, checked against this host's registry.
#[test]
fn the_checker_catches_each_kind_of_false_advertisement() {
    let (_tmp, _runtime, env) = open();
    let (exports, _) = truth_of(&env);
    let truth = Truth { used_rows: used_rows(&exports), exports };
    let cases: &[(&str, Option<&str>, Option<&str>)] = &[
        ("Build the deck with env:telepathy.", None, Some("mentions env:telepathy, which is not a registered module")),
        ("import { read } from 'env:fax';", None, Some("mentions env:fax, which is not a registered module")),
        ("import { render } from 'env:motion';\nawait render('/s.jsx', '/out/a.mp4');", None, None),
        ("Render a still with env:motion.still first.", None, None),
        ("import { transcode } from 'env:motion';", None, Some("imports transcode from env:motion")),
        ("import { chart } from 'env:charts';", None, Some("imports chart from env:charts")),
        ("import { clip, speak } from 'env:media';", None, None),
        (
            "Call env:render.rasterise on the PDF.",
            None,
            Some("mentions env:render.rasterise, which env:render does not export"),
        ),
        ("import { rasterize, screenshot } from 'env:render';", None, Some("imports screenshot from env:render")),
        ("import thing from 'env:images';", None, Some("imports a default from env:images")),
        (
            "import * as r from 'env:render';\nawait r.screenshot('/a.html')",
            None,
            Some("mentions r.screenshot, which env:render does not have"),
        ),
        ("`csv.parseRows` gives arrays", None, Some("mentions csv.parseRows, which env:std's csv does not have")),
        ("await render.screenshot('/a.html')", None, Some("render.screenshot")),
        ("const zip = new Zip(cb);\nzip.add(entry);", None, None),
        (
            "export function frobnicate(): void;",
            Some("images"),
            Some("declares frobnicate, which env:images does not export"),
        ),
        ("export const csv: {\n  explode(text: string): void;\n};", Some("std"), Some("declares csv.explode")),
        ("Scenes are rendered with Chromium.", None, None),
        ("Trim a video with ffmpeg: env:media.clip.", None, None),
        // Office files are deliverables now that env:spreadsheets, env:documents and env:slides write them.
        ("Save the result as /out/q2-revenue.xlsx.", None, None),
        ("Write xlsx files for the person.", None, None),
        // A package's `fs` is Node's, not env:fs; without the import line it is env:fs.
        ("import fs from 'node:fs';\nfs.writeFileSync('/out/a.txt', 'x');", None, None),
        ("fs.writeFileSync('/out/a.txt', 'x');", None, Some("mentions fs.writeFileSync, which env:fs does not have")),
        // What is there passes.
        ("import { rasterize } from 'env:render';\nawait rasterize('/in/a.pdf', '/tmp/p');", None, None),
        ("Use env:render.capabilities, `csv.parse`, fs.glob('/x/*') and images.resize(a, b, {}).", None, None),
        ("Office files (.docx/.xlsx/.pptx) render through LibreOffice; docx, xlsx, pptx are read.", None, None),
        ("GIF animation frames are described; the `env:` prefix and env:<name> are syntax.", None, None),
        (
            "export function rasterize(path: string): Promise<void>;\nexport interface Nope { x: number }",
            Some("render"),
            None,
        ),
    ];
    // The texts a host really shows define the aliases (`csv`, `fs`) a fixture's prose may use.
    let (_, capabilities) = truth_of(&env);
    let real = agent_texts(&env, &capabilities);
    for (body, dts, expect) in cases {
        let kind = dts.map_or(Kind::Prose, |m| Kind::Dts(m.to_string()));
        let mut texts: Vec<Text> =
            real.iter().map(|t| Text { name: t.name.clone(), kind: t.kind.clone(), body: t.body.clone() }).collect();
        texts.push(Text { name: "FIXTURE".into(), kind, body: (*body).to_string() });
        let found: Vec<String> = check(&texts, &truth).into_iter().filter(|p| p.starts_with("FIXTURE: ")).collect();
        match expect {
            Some(needle) => assert!(
                found.iter().any(|p| p.contains(needle)),
                "{body:?} should be caught with {needle:?}, found {found:?}"
            ),
            None => assert!(found.is_empty(), "{body:?} names only what is there, found {found:?}"),
        }
    }
}
