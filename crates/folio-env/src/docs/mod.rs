//! The environment describing itself: `/std` (one directory per importable module with its
//! `index.d.ts`, and an index), `/skills` (worked recipes and their index), and the preamble the
//! agent loop prepends to the system prompt. All generated at startup into memory-backed zones,
//! fit to the wiring (`wiring.rs`: no page names a verb this environment does not offer).

mod skills;
mod wiring;

use folio_vfs::{Tree, VPath};

use crate::env::Environment;
use crate::error::Result;

/// Every module a script can import, as `(name, description)`, in the engine's registration order
/// (builtins first); then modules that only claim files for `describe`.
pub fn modules(env: &Environment) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = env
        .engine()
        .map(|e| e.registry().modules().iter().map(|m| (m.name.clone(), m.description.clone())).collect())
        .unwrap_or_default();
    for h in &env.opts.handlers {
        if !out.iter().any(|(n, _)| n == h.module()) {
            out.push((h.module().to_owned(), h.description().to_owned()));
        }
    }
    out
}

/// The one-line description of module `name`, for `ls /std`.
pub fn module_description(env: &Environment, name: &str) -> Option<String> {
    modules(env).into_iter().find(|(n, _)| n == name).map(|(_, d)| d)
}

/// The skills for this environment: always-present ones, then the ones that travel with a wired
/// host verb.
fn skill_set(env: &Environment) -> Vec<(&'static str, &'static str, &'static str)> {
    let mut out = skills::ALWAYS.to_vec();
    if env.opts.presenter.is_some() {
        out.push(skills::DELIVERING);
    }
    if env.opts.asker.is_some() {
        out.push(skills::ASKING);
    }
    out.extend(env.opts.skills.iter().copied());
    out
}

/// Writes `/std` and `/skills`.
pub fn materialize(env: &Environment) -> Result<()> {
    let tree = env.tree();
    // Host-gated verbs this environment does not offer: no page may tell the model to call them.
    let absent = env.verbs_not_offered();
    let put = |path: &str, text: &str| -> Result<()> {
        Ok(tree.write(&VPath::parse(path)?, wiring::without(text, &absent).as_bytes())?)
    };
    let mods = modules(env);
    let mut readme = String::from(
        "# /std — importable modules\n\nScripts import these as `env:<name>`, e.g. `import * as fs from 'env:fs'`. This directory is documentation, regenerated at every start and read-only.\n\n| Module | What it does | Types |\n|---|---|---|\n",
    );
    for (name, description) in &mods {
        readme
            .push_str(&format!("| `env:{name}` | {} | `/std/{name}/index.d.ts` |\n", description.replace('|', "\\|")));
    }
    readme.push_str("\nRead a module's `index.d.ts` before calling it. Modules take paths in and give paths out; big data stays in files.\n");
    put("/std/README.md", &readme)?;
    // The types and docs come from the modules themselves, so /std cannot drift from what a
    // script can actually import.
    if let Some(engine) = env.engine() {
        for m in engine.registry().modules() {
            put(&format!("/std/{}/index.d.ts", m.name), &m.types_dts)?;
            if !m.docs.trim().is_empty() {
                put(&format!("/std/{}/README.md", m.name), &m.docs)?;
            }
        }
    }
    for h in env.opts.handlers.iter().filter(|h| env.engine().is_none_or(|e| e.registry().get(h.module()).is_none())) {
        let dts = format!(
            "// env:{} — {}\n// This module claims files for `describe`; its script bindings are documented by the module itself.\n",
            h.module(),
            h.description()
        );
        put(&format!("/std/{}/index.d.ts", h.module()), &dts)?;
    }
    let set = skill_set(env);
    let mut index = String::from(
        "# /skills — read this before writing code\n\nWorked, copy-pasteable recipes for this environment. `/std` says what a module exports; these say how to use it well.\n\n**Start with `imports.md`.** Guessing an import is the most common way a run is wasted here, and it is entirely avoidable.\n\n| Skill | For |\n|---|---|\n",
    );
    for (name, summary, body) in &set {
        index.push_str(&format!("| `/skills/{name}.md` | {} |\n", summary.replace('|', "\\|")));
        put(&format!("/skills/{name}.md"), body)?;
    }
    index.push_str("\nThis directory is read-only and regenerated at every start.\n");
    put("/skills/README.md", &index)
}

/// The text the agent loop prepends to its system prompt.
pub fn preamble(env: &Environment) -> String {
    let names: Vec<&str> = env.tools().iter().map(|t| t.name).collect();
    let has = |n: &str| names.contains(&n);
    let mut out = String::from(
        "You have a persistent WORKING ENVIRONMENT: a sandboxed file tree over the person's folder. Your changes stay pending until the person reviews and commits them, and the tree persists between sessions.\n\n\
Layout: the folder itself is `/`. `/inbox` holds inputs the host dropped in; `/scripts` is your script library (shared helpers in `/scripts/lib`); `/out` is for deliverables; `/tmp` is scratch space that never reaches the folder; `/std` documents importable modules and `/skills` holds recipes (both read-only); `/.env` keeps run history, undo versions and checkpoints (read-only).\n\n\
Start here, in this order:\n1. read_file /skills/README.md — the recipes, starting with imports.md. Guessing an import is the most common way a run is wasted here.\n2. read_file /.env/orientation.md — what is in the tree, which scripts exist, the limits and recent runs, in one call instead of four.\n\n\
How to work:\n- Keep big data in files and read slices: `read_file` with start_line/end_line, a narrow `grep`.\n- Orient before you parse: `describe` a file first (your own output too).\n- Every change can be taken back: `undo`/`redo` per file, `diff` to see what changed, `history` for versions and runs. Before restructuring several files, `checkpoint({action:'fork', name:'…'})`.\n- Refusals name their fix; read the message instead of resending the call.\n",
    );
    if has("run_script") {
        out.push_str("- Do computation in named scripts: `write_file` under `/scripts` (`export default async function (args) { … }` with a one-line JSDoc comment), then `run_script`. Check `ls /scripts` before writing a new one.\n");
    }
    if has("ask_user") {
        out.push_str("- ask_user(question, options) only for what the person alone can decide, before the expensive step, with the context they need. If nobody answers, proceed on a stated assumption.\n");
    }
    // Each module's one-liner is in run_script's description; a request carries it once.
    if has("run_script") {
        out.push_str("\nThe env: modules scripts can import are listed in run_script's description, each with one line; /std/README.md has the same table with each module's types.\n");
    }
    out
}
