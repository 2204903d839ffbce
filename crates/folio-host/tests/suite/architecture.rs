//! ARCHITECTURE.md's "only through" invariants, checked by reading the sources.
//!
//! Each [`Rule`] names an invariant, the code that would break it (a needle, searched in every
//! library and shell source file with comments and string literals blanked, and with everything
//! from the first `#[cfg(test)]` on, and the sibling `*_tests.rs` files, left out, since tests
//! may reach past a layer), the files
//! allowed to hold it and why, and the violations known and left for now with where they are
//! fixed. A needle found anywhere else fails the test with the file, line and rule; a known
//! violation that is gone fails it too, so the list is emptied as the code is fixed.
//! `a_planted_violation_is_found` shows each rule fails on a planted line.

use std::fs;
use std::path::{Path, PathBuf};

use super::module_cycles::strip;

/// One invariant as a search.
struct Rule {
    /// The invariant, as ARCHITECTURE.md says it.
    invariant: &'static str,
    /// Code that breaks it (any of these).
    needles: &'static [&'static str],
    /// Which files it reads (path prefixes from the workspace root).
    scope: &'static [&'static str],
    /// A file that also has one of these goes through the allowed door (e.g. it hands its
    /// `Command` to `folio_budget::child`).
    through: &'static [&'static str],
    /// Files (or folders, ending in `/`) allowed to hold a needle, and why.
    allowed: &'static [(&'static str, &'static str)],
    /// Violations known and left for now, and where they are fixed.
    known: &'static [(&'static str, &'static str)],
}

const LIBRARIES_AND_SHELLS: &[&str] = &["crates/", "src-tauri/src/"];
const SHELLS: &[&str] = &["crates/folio-cli/src/", "src-tauri/src/"];

const RULES: &[Rule] = &[
    Rule {
        invariant: "every child process goes through `folio_budget::child` (`run`, or `Supervised`): \
                    its own process group, killed whole on every stop (folio-budget)",
        needles: &["Command::new"],
        scope: LIBRARIES_AND_SHELLS,
        through: &["Supervised::spawn", "child::run"],
        allowed: &[
            (
                "crates/folio-motion/src/browser.rs",
                "the pooled Chromium outlives one run (one browser per environment, closed when idle) and is \
                 read asynchronously (its DevTools URL arrives on stderr): a tokio child leading its own \
                 process group, the group killed when the pool drops it",
            ),
            (
                "crates/folio-mcp/src/mount.rs",
                "an MCP stdio server lives as long as the folder's mount, not one run; rmcp spawns it \
                 (TokioChildProcess) and kills it when the connection drops",
            ),
        ],
        known: &[],
    },
    Rule {
        invariant: "the CLI and the desktop open folders only through `folio-host`; no other crate builds \
                    `EnvOptions` for a shell (folio-host)",
        needles: &["Overlay::open", "EnvOptions", "Environment::open_folder", "Environment::new"],
        scope: SHELLS,
        through: &[],
        allowed: &[("crates/folio-cli/src/bench.rs", "`folio bench` measures the overlay itself")],
        known: &[(
            "crates/folio-cli/src/changes.rs",
            "`folio status/commit/discard` open the overlay without the host; issue 27 (item 2) moves the \
             CLI onto one library layer for an opened folder",
        )],
    },
    Rule {
        invariant: "folio-agent is the only crate that speaks HTTP to model providers: nothing else in Folio \
                    opens a connection to a model (folio-agent)",
        needles: &["reqwest"],
        scope: LIBRARIES_AND_SHELLS,
        through: &[],
        allowed: &[
            ("crates/folio-agent/src/", "the model providers"),
            ("crates/folio-mcp/src/", "MCP servers over Streamable HTTP, after the boundary allowed the URL"),
            ("src-tauri/src/updates.rs", "the app's update check"),
        ],
        known: &[],
    },
    Rule {
        invariant: "provenance records are written only by the run path (`Environment::run_script_as`) \
                    (folio-env)",
        needles: &["provenance::record_run", "ProvenanceStore::add"],
        scope: LIBRARIES_AND_SHELLS,
        through: &[],
        allowed: &[("crates/folio-env/src/scripts/script_run.rs", "the run path")],
        known: &[],
    },
    Rule {
        invariant: "folio-script is the only crate that knows QuickJS (folio-script)",
        needles: &["rquickjs"],
        scope: LIBRARIES_AND_SHELLS,
        through: &[],
        allowed: &[("crates/folio-script/", "the script engine")],
        known: &[],
    },
    Rule {
        invariant: "src-tauri is the only crate that knows Tauri (src-tauri)",
        needles: &["tauri::", "tauri_plugin"],
        scope: &["crates/"],
        through: &[],
        allowed: &[],
        known: &[],
    },
];

/// A broken rule: the file, the line, the code and the rule.
#[derive(Debug, PartialEq)]
struct Finding {
    file: String,
    line: usize,
    code: String,
    rule: usize,
}

fn listed(entries: &[(&str, &str)], file: &str) -> bool {
    entries.iter().any(|(p, _)| if p.ends_with('/') { file.starts_with(p) } else { file == *p })
}

/// The code a rule reads: comments and literals blanked, tests left out.
fn code(text: &str) -> String {
    let stripped = strip(text);
    match stripped.find("#[cfg(test)]") {
        Some(at) => stripped[..at].to_owned(),
        None => stripped,
    }
}

/// Every finding in `files` (path from the workspace root, source), and every known violation
/// that no longer shows (`(rule, file)`).
fn check(files: &[(String, String)]) -> (Vec<Finding>, Vec<(usize, &'static str)>) {
    let mut found = Vec::new();
    let mut seen_known = Vec::new();
    for (path, text) in files {
        let parts: Vec<&str> = path.split('/').collect();
        let source = matches!(parts.as_slice(), ["src-tauri", "src", ..] | ["crates", _, "src", ..])
            && !path.ends_with("_tests.rs");
        if !source {
            continue;
        }
        let applies: Vec<usize> =
            (0..RULES.len()).filter(|i| RULES[*i].scope.iter().any(|s| path.starts_with(s))).collect();
        if applies.is_empty() {
            continue;
        }
        let code = code(text);
        for i in applies {
            let rule = &RULES[i];
            let hits: Vec<(usize, &str)> = code
                .lines()
                .enumerate()
                .filter(|(_, l)| rule.needles.iter().any(|n| l.contains(n)))
                .map(|(n, l)| (n + 1, l.trim()))
                .collect();
            if hits.is_empty() || listed(rule.allowed, path) {
                continue;
            }
            if rule.through.iter().any(|t| code.contains(t)) {
                continue;
            }
            if listed(rule.known, path) {
                seen_known.push((i, path.clone()));
                continue;
            }
            for (line, text) in hits {
                found.push(Finding { file: path.clone(), line, code: text.to_owned(), rule: i });
            }
        }
    }
    let mut gone = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        for (file, _) in rule.known {
            if !seen_known.iter().any(|(r, f)| *r == i && f == file) {
                gone.push((i, *file));
            }
        }
    }
    (found, gone)
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under a crate's `src/` (`crates/*/src`, `src-tauri/src`), from the root.
fn sources() -> Vec<(String, String)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().and_then(|e| e.to_str()) == Some("rs")
                && let (Ok(rel), Ok(text)) = (path.strip_prefix(root), fs::read_to_string(&path))
            {
                out.push((rel.to_string_lossy().replace('\\', "/"), text));
            }
        }
    }
    let root = workspace_root();
    let mut out = Vec::new();
    let mut srcs = vec![root.join("src-tauri/src")];
    if let Ok(entries) = fs::read_dir(root.join("crates")) {
        srcs.extend(entries.flatten().map(|e| e.path().join("src")));
    }
    for src in srcs {
        walk(&root, &src, &mut out);
    }
    out.sort();
    out
}

#[test]
fn the_only_through_invariants_hold() {
    let files = sources();
    assert!(files.len() > 100, "expected the workspace's sources, found {} files", files.len());
    let (found, gone) = check(&files);
    let mut problems: Vec<String> = found
        .iter()
        .map(|f| format!("{}:{}: `{}` breaks: {}", f.file, f.line, f.code, RULES[f.rule].invariant))
        .collect();
    problems.extend(gone.iter().map(|(i, file)| {
        format!(
            "{file} no longer breaks \"{}\" — remove it from the rule's `known` in {}",
            RULES[*i].invariant,
            file!()
        )
    }));
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md's invariants do not hold — go through the named door, or say in the rule's `allowed` why \
         this file may not:\n{}",
        problems.join("\n")
    );
}

/// The crates `doc`'s first diagram (its first fenced block) does not name.
fn missing_from_diagram(doc: &str, crates: &[String]) -> Vec<String> {
    let diagram = doc.split("```").nth(1).unwrap_or("");
    let named = |name: &str| {
        diagram.match_indices(name).any(|(at, _)| {
            let after = diagram[at + name.len()..].chars().next();
            !after.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
        })
    };
    crates.iter().filter(|c| !named(c)).cloned().collect()
}

/// Every workspace member's directory name (`crates/*` with a manifest, and `src-tauri`).
fn members() -> Vec<String> {
    let root = workspace_root();
    let mut out: Vec<String> = fs::read_dir(root.join("crates"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().join("Cargo.toml").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    out.push("src-tauri".to_owned());
    out.sort();
    out
}

#[test]
fn the_diagram_names_every_crate() {
    let doc = fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).unwrap();
    let crates = members();
    assert!(crates.len() > 10, "expected the workspace's crates, found {crates:?}");
    let missing = missing_from_diagram(&doc, &crates);
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's diagram leaves out {} — draw each where it sits",
        missing.join(", ")
    );
    let planted = "# A\n```\n folio-vfs-extra  folio-env\n```\nfolio-vfs is named later\n";
    let two = ["folio-vfs".to_owned(), "folio-env".to_owned()];
    assert_eq!(missing_from_diagram(planted, &two), vec!["folio-vfs".to_owned()]);
}

#[test]
fn a_planted_violation_is_found() {
    let file = |path: &str, text: &str| (path.to_owned(), text.to_owned());
    let (found, _) = check(&[
        // A tool started by hand in a library, and one in the desktop shell.
        file(
            "crates/folio-render/src/new.rs",
            "fn f() {\n    let out = std::process::Command::new(\"x\").output();\n}",
        ),
        file("src-tauri/src/thumb.rs", "use std::process::Command;\nfn f() { Command::new(\"ffmpeg\"); }"),
        // The CLI opening the overlay, and building an environment, past the host.
        file("crates/folio-cli/src/peek.rs", "fn f() { let o = Overlay::open(&p, opts)?; }"),
        file(
            "src-tauri/src/open2.rs",
            "fn f() { let e = folio_env::Environment::open_folder(&p, EnvOptions::default()); }",
        ),
        // A model connection outside folio-agent, a provenance write outside the run path,
        // QuickJS outside folio-script, Tauri in a library.
        file("crates/folio-env/src/fetch.rs", "use reqwest::Client;"),
        file("crates/folio-host/src/x.rs", "fn f() { folio_env::provenance::record_run(t, s, tr, m); }"),
        file("crates/folio-env/src/js.rs", "use rquickjs::Context;"),
        file("crates/folio-store/src/ui.rs", "fn f(app: tauri::AppHandle) {}"),
    ]);
    let at: Vec<(&str, usize, usize)> = found.iter().map(|f| (f.file.as_str(), f.line, f.rule)).collect();
    assert_eq!(
        at,
        vec![
            ("crates/folio-render/src/new.rs", 2, 0),
            ("src-tauri/src/thumb.rs", 2, 0),
            ("crates/folio-cli/src/peek.rs", 1, 1),
            ("src-tauri/src/open2.rs", 1, 1),
            ("crates/folio-env/src/fetch.rs", 1, 2),
            ("crates/folio-host/src/x.rs", 1, 3),
            ("crates/folio-env/src/js.rs", 1, 4),
            ("crates/folio-store/src/ui.rs", 1, 5),
        ]
    );
    // The same code through the door, in a comment or a message, in tests, or in an allowed file: nothing.
    let (found, gone) = check(&[
        file("crates/folio-render/src/ok.rs", "fn f() { let mut c = Command::new(p); Supervised::spawn(&mut c); }"),
        file("crates/folio-docs/src/ok.rs", "fn f() { folio_budget::child::run(&mut Command::new(p), &l); }"),
        file("crates/folio-render/src/doc.rs", "// Command::new is not called here\nfn f() { e(\"Command::new\"); }"),
        file("crates/folio-cli/src/t.rs", "fn f() {}\n#[cfg(test)]\nmod tests { fn g() { Overlay::open(&p, o); } }"),
        file("crates/folio-motion/src/browser.rs", "let mut cmd = tokio::process::Command::new(path);"),
        file("crates/folio-agent/src/client.rs", "use reqwest::Client;"),
        file("crates/folio-cli/src/changes.rs", "let overlay = Overlay::open(folder, o)?;"),
        // Out of every rule's scope: tests and examples are not sources.
        file("crates/folio-render/tests/suite/x.rs", "Command::new(\"soffice\");"),
        file("src-tauri/src/scheme_tests.rs", "std::process::Command::new(\"\");"),
    ]);
    assert_eq!(found, Vec::new());
    assert_eq!(gone, Vec::new());
    // A known violation that is gone is reported, so the list is emptied as the code is fixed.
    let (_, gone) = check(&[file("crates/folio-cli/src/changes.rs", "fn status() { host.open_folder(..) }")]);
    assert_eq!(gone, vec![(1, "crates/folio-cli/src/changes.rs")]);
}
