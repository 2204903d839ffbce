//! Docs that name only what exists: for every combination of wiring (vision, ask_user and
//! present each on or off; a host without tools, so the conditional env:ocr is absent, and a
//! host with this machine's tools plus a session module), the texts the model reads — `/skills`,
//! `/std` (READMEs and `.d.ts`), the orientation preamble and every tool description — are
//! checked against that environment's tools and module exports (issue 28 item 2):
//!
//! - every `env:<name>` is a module this environment has;
//! - a host-gated verb (`view_image`, `ask_user`, `present`) is named only where it is offered;
//! - every named import from an `env:` module (`import { a } from 'env:x'`), every
//!   `ns.member(` call on a namespace import, and every function a module's `.d.ts` exports is
//!   one the module really exports;
//! - each module's one-liner appears at most once in what one request carries (system prompt
//!   plus tool descriptions).
//!
//! `a_planted_stray_name_is_caught` feeds the checker a text with one lie of each kind.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use folio_env::{Environment, Sight, Status};
use folio_host::{Host, Seams};
use folio_render::{HostPaths, Platform};
use folio_vfs::{Kind, Tree, VPath};
use serde_json::json;

struct Eyes;
impl folio_env::Vision for Eyes {
    fn look(&self, _: &[u8], _: &str, _: &str) -> Result<Sight, String> {
        Ok(Sight::Attach)
    }
}

/// What an environment has, as the checker sees it.
struct Facts {
    modules: BTreeSet<String>,
    exports: BTreeMap<String, BTreeSet<String>>,
    /// Gated verbs this environment does not offer.
    absent_verbs: Vec<&'static str>,
}

/// Every text the model reads, by where it comes from.
fn texts(env: &Environment) -> Vec<(String, String)> {
    let tree = env.tree();
    let mut out = Vec::new();
    let mut stack = vec![VPath::parse("/skills").unwrap(), VPath::parse("/std").unwrap()];
    while let Some(dir) = stack.pop() {
        for e in tree.list(&dir).unwrap() {
            let p = VPath::parse(&format!("{}/{}", dir.as_str(), e.name)).unwrap();
            if e.kind == Kind::Dir {
                stack.push(p);
            } else {
                out.push((p.as_str().to_owned(), String::from_utf8_lossy(&tree.read(&p).unwrap()).into_owned()));
            }
        }
    }
    out.push(("the preamble".into(), folio_env::preamble(env)));
    for t in env.tools() {
        out.push((format!("the {} tool description", t.name), t.description.clone()));
    }
    out
}

fn is_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Each `env:<name>` in `text`.
fn module_mentions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("env:") {
        if i > 0 && text[..i].chars().next_back().is_some_and(|c| is_name(c) || c == '.' || c == '/') {
            continue;
        }
        let name: String = text[i + 4..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_' || *c == '-')
            .collect();
        if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
            out.push(name.trim_end_matches('-').to_owned());
        }
    }
    out
}

/// True when `text` names verb `verb` as a verb: a snake_case name anywhere as a word; a plain
/// word only in backticks or called.
fn names_verb(text: &str, verb: &str) -> bool {
    if verb.contains('_') {
        return text.match_indices(verb).any(|(i, _)| {
            !text[..i].chars().next_back().is_some_and(is_name)
                && !text[i + verb.len()..].chars().next().is_some_and(is_name)
        });
    }
    [format!("`{verb}`"), format!("`{verb}("), format!(" {verb}({{")].iter().any(|p| text.contains(p.as_str()))
}

/// `(module, binding)` for every named import and every `ns.member(` on a namespace import.
fn used_bindings(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("import ") {
        let rest = &text[i + 7..];
        let Some(from) = rest.find(" from ") else { continue };
        let (what, after) = (&rest[..from], &rest[from + 6..]);
        if what.contains('\n') && !what.trim_start().starts_with('{') {
            continue;
        }
        let quote = after.chars().next().unwrap_or(' ');
        if !(quote == '\'' || quote == '"') || !after[1..].starts_with("env:") {
            continue;
        }
        let module: String = after[5..].chars().take_while(|c| *c != quote).collect();
        let what = what.trim();
        if let Some(list) = what.strip_prefix('{').and_then(|w| w.strip_suffix('}')) {
            for b in list.split(',') {
                let b = b.trim().split(" as ").next().unwrap_or("").trim();
                if !b.is_empty() && b != "type" && !b.starts_with("type ") {
                    out.push((module.clone(), b.to_owned()));
                }
            }
        } else if let Some(ns) = what.strip_prefix("* as ") {
            let ns = ns.trim();
            let dot = format!("{ns}.");
            for (j, _) in text.match_indices(dot.as_str()) {
                if j > 0 && text[..j].chars().next_back().is_some_and(|c| is_name(c) || c == '.') {
                    continue;
                }
                let member: String = text[j + dot.len()..].chars().take_while(|c| is_name(*c)).collect();
                if !member.is_empty() && text[j + dot.len() + member.len()..].starts_with('(') {
                    out.push((module.clone(), member));
                }
            }
        }
    }
    out
}

/// The functions and constants a `.d.ts` exports.
fn dts_exports(dts: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in dts.lines() {
        let l = line.trim_start();
        let Some(rest) = l.strip_prefix("export ") else { continue };
        let rest = rest.strip_prefix("declare ").unwrap_or(rest);
        let rest = rest.strip_prefix("async ").unwrap_or(rest);
        let rest = match rest.strip_prefix("function ").or_else(|| rest.strip_prefix("const ")) {
            Some(r) => r,
            None => continue,
        };
        let name: String = rest.chars().take_while(|c| is_name(*c)).collect();
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

/// Every lie in `texts` against `facts`, one line each.
fn lies(texts: &[(String, String)], facts: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    for (from, text) in texts {
        for m in module_mentions(text) {
            if !facts.modules.contains(&m) {
                out.push(format!("{from} names env:{m}, which this environment does not have"));
            }
        }
        for v in &facts.absent_verbs {
            if names_verb(text, v) {
                out.push(format!("{from} names `{v}`, which this environment does not offer"));
            }
        }
        for (m, b) in used_bindings(text) {
            if let Some(have) = facts.exports.get(&m)
                && !have.contains(&b)
            {
                out.push(format!("{from} uses {b} from env:{m}, which exports {have:?}"));
            }
        }
        if let Some(m) = from.strip_prefix("/std/").and_then(|r| r.strip_suffix("/index.d.ts")) {
            for b in dts_exports(text) {
                if let Some(have) = facts.exports.get(m)
                    && !have.contains(&b)
                {
                    out.push(format!("{from} declares {b}, which env:{m} does not export"));
                }
            }
        }
    }
    out
}

/// The exports of every module `env` can import, by running a script per module.
fn exports(host: &Host, env: &Environment) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for name in host.module_names() {
        let path = format!("/scripts/keys_{name}.js");
        let src = format!(
            "/** Lists what env:{name} exports. */\nimport * as m from 'env:{name}';\nexport default async function main() {{\n  return Object.keys(m);\n}}\n"
        );
        let wrote = env.call("write_file", json!({"path": path, "content": src}));
        assert_eq!(wrote.status, Status::Success, "{}", wrote.message);
        let report = env.run_script(&path, json!({}), None, None).unwrap();
        let keys: BTreeSet<String> = report
            .result
            .as_array()
            .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        out.insert(name, keys);
    }
    out
}

fn host(state: &std::path::Path, with_tools: bool) -> Host {
    let mut paths = if with_tools {
        HostPaths::from_host(Some(state.to_path_buf()))
    } else {
        HostPaths::isolated(Platform::current())
    };
    paths.state_dir = Some(state.to_path_buf());
    let mut b = Host::builder().state_dir(Some(state.to_path_buf())).paths(paths);
    if with_tools {
        b = b.module(folio_script::NativeModule { name: "vision".into(), version: "1".into(), ..Default::default() });
    }
    b.build().unwrap()
}

#[test]
fn every_name_the_model_reads_exists_in_each_wiring() {
    let tmp = tempfile::tempdir().unwrap();
    let mut found = Vec::new();
    for with_tools in [false, true] {
        let state = tmp.path().join(format!("state-{with_tools}"));
        let host = host(&state, with_tools);
        let mut exported = None;
        for combo in 0..8u8 {
            let (vision, asker, presenter) = (combo & 1 != 0, combo & 2 != 0, combo & 4 != 0);
            let folder = tmp.path().join(format!("folder-{with_tools}-{combo}"));
            std::fs::create_dir_all(&folder).unwrap();
            let seams = Seams {
                vision: vision.then(|| Arc::new(Eyes) as Arc<dyn folio_env::Vision>),
                asker: asker.then(|| Arc::new(folio_env::Answers::new(Vec::new())) as Arc<dyn folio_env::Asker>),
                presenter: presenter.then(|| Arc::new(folio_env::KeepPresented) as Arc<dyn folio_env::Presenter>),
                ..Seams::default()
            };
            let env = host.open_folder(&folder, seams).unwrap();
            let exports = exported.get_or_insert_with(|| exports(&host, &env)).clone();
            assert!(exports["fs"].contains("readFile") && exports["spreadsheets"].contains("create"), "{exports:?}");
            let offered: Vec<String> = env.tools().iter().map(|t| t.name.to_owned()).collect();
            let absent_verbs: Vec<&'static str> = folio_env::VERBS
                .iter()
                .filter(|v| v.needs.is_some() && !offered.iter().any(|o| o == v.name))
                .map(|v| v.name)
                .collect();
            let mut modules: BTreeSet<String> = host.module_names().into_iter().collect();
            // Modules that only claim files for describe have a /std page too.
            for e in env.tree().list(&VPath::parse("/std").unwrap()).unwrap() {
                if e.kind == Kind::Dir {
                    modules.insert(e.name);
                }
            }
            let facts = Facts { modules, exports, absent_verbs };
            let all = texts(&env);
            let wiring = format!("tools={with_tools} vision={vision} ask_user={asker} present={presenter}");
            found.extend(lies(&all, &facts).into_iter().map(|l| format!("[{wiring}] {l}")));
            // One request carries each module's one-liner once.
            let request: String = std::iter::once(folio_env::preamble(&env))
                .chain(env.tools().iter().map(|t| t.description.clone()))
                .collect();
            for (name, keys) in &facts.exports {
                let _ = keys;
                let needle = format!("env:{name} (");
                let n = request.matches(needle.as_str()).count();
                if n > 1 {
                    found.push(format!("[{wiring}] env:{name}'s one-liner is in one request {n} times"));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    assert!(found.is_empty(), "{} lie(s):\n{}", found.len(), found.join("\n"));
}

#[test]
fn a_planted_stray_name_is_caught() {
    let facts = Facts {
        modules: ["fs", "std"].iter().map(|s| (*s).to_owned()).collect(),
        exports: [("fs".to_owned(), ["readFile".to_owned()].into_iter().collect())].into_iter().collect(),
        absent_verbs: vec!["view_image", "present"],
    };
    let planted = vec![(
        "/skills/planted.md".to_owned(),
        "Use env:nonesuch, then view_image the chart and `present` it.\n```js\nimport { readFile, readFileFast } from 'env:fs';\nimport * as fs from 'env:fs';\nfs.slurp('/a');\n```\n".to_owned(),
    ), ("/std/fs/index.d.ts".to_owned(), "export function readFile(path: string): Promise<string>;\nexport function ghost(): void;\n".to_owned())];
    let found = lies(&planted, &facts).join("\n");
    for lie in
        ["env:nonesuch", "`view_image`", "`present`", "readFileFast from env:fs", "slurp from env:fs", "declares ghost"]
    {
        assert!(found.contains(lie), "{lie} not caught in:\n{found}");
    }
    let honest = vec![(
        "/skills/ok.md".to_owned(),
        "import { readFile } from 'env:fs';\nPresent the result to the person.\n".to_owned(),
    )];
    assert!(lies(&honest, &facts).is_empty());
}

/// The pages the relay play found wrong say what is true: env:fs's readFile names the encodings
/// it decodes; env:zip's types are a summary, not fflate's 1,540 lines; the motion types and
/// skill point to the scene API; chart sizes have units; one page says what the runtime lacks.
#[test]
fn the_pages_the_play_found_wrong_say_what_is_true() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let host = host(&tmp.path().join("state"), false);
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    let read = |p: &str| String::from_utf8(env.tree().read(&VPath::parse(p).unwrap()).unwrap()).unwrap();
    let fs = read("/std/fs/index.d.ts");
    assert!(!fs.contains("as UTF-8 text") && fs.contains("UTF-16") && fs.contains("windows-1252"), "{fs}");
    let zip = read("/std/zip/index.d.ts");
    assert!(zip.lines().count() < 80 && zip.contains("zipSync") && zip.contains("Workers"), "{}", zip.lines().count());
    assert!(read("/std/motion/index.d.ts").contains("/std/motion/README.md"));
    assert!(read("/skills/motion-scenes.md").contains("/std/motion/README.md"));
    assert!(read("/std/spreadsheets/index.d.ts").contains("size in pixels"));
    assert!(read("/std/charts/index.d.ts").contains("width and height in CSS pixels"));
    let runtime = read("/skills/runtime.md");
    assert!(
        runtime.contains("`require`") && runtime.contains("`fetch`") && runtime.contains("`child_process`"),
        "{runtime}"
    );
    assert!(read("/skills/README.md").contains("/skills/runtime.md"));
}
