//! `/.env/orientation.md`: "where am I" in one read. Rebuilt from the live tree every time it is
//! read (never cached), so it cannot go stale after a delete or a restore.

use folio_vfs::{Tree, VPath};

use crate::env::Environment;
use crate::format::fmt_bytes;

/// Where the file lives.
pub const PATH: &str = "/.env/orientation.md";

const MAX_SCRIPTS: usize = 15;
const MAX_OUT: usize = 15;
const MAX_RUNS: usize = 8;

/// Files (not counting derived `.d.ts`) and bytes at or below `path`; `None` when it is absent.
fn census(tree: &dyn Tree, path: &VPath) -> Option<(usize, u64)> {
    let files = tree.walk(path).ok()?;
    let mut count = 0;
    let mut bytes = 0;
    for f in files.iter().filter(|f| !f.name().ends_with(".d.ts")) {
        count += 1;
        bytes += tree.stat(f).ok().flatten().map_or(0, |s| s.size);
    }
    Some((count, bytes))
}

/// Builds the orientation text.
pub fn build(env: &Environment) -> String {
    let tree = env.tree();
    let mut out = String::from(
        "# Orientation\n\nRegenerated every time this file is read. If it disagrees with `ls`, trust `ls`.\n",
    );
    if !env.warnings().is_empty() {
        out.push_str("\n## Read this first\n\n");
        for w in env.warnings() {
            out.push_str(&format!("- {w}\n"));
        }
    }
    out.push_str("\n## Tree\n\n");
    let mut zones: Vec<(String, &str)> = vec![
        ("/inbox".to_owned(), "inputs the host dropped in"),
        ("/scripts".to_owned(), "your persistent script library"),
        ("/out".to_owned(), "deliverables — what the person gets"),
        ("/tmp".to_owned(), "intermediates and spilled output; never part of the person's folder"),
    ];
    for zone in env.gateway.read_only() {
        zones.push((zone.to_string(), "READ-ONLY reference material — copy out to /tmp to work on it"));
    }
    for (zone, blurb) in &zones {
        let line = match VPath::parse(zone).ok().and_then(|p| census(tree, &p)) {
            None => format!("- `{zone}` — not created yet ({blurb})"),
            Some((0, _)) => format!("- `{zone}` — empty ({blurb})"),
            Some((n, bytes)) => format!("- `{zone}` — {n} file(s), {} ({blurb})", fmt_bytes(bytes)),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("- `/std` and `/skills` — generated documentation and recipes (read-only)\n- `/.env` — run history, undo versions, checkpoints (read-only)\n");
    let zones = crate::zone::Zone::ALL.map(crate::zone::Zone::name);
    let known: Vec<&str> = ["inbox", "scripts", "out"].into_iter().chain(zones).collect();
    let others: Vec<String> = tree
        .list(&VPath::root())
        .unwrap_or_default()
        .into_iter()
        .filter(|e| !known.contains(&e.name.as_str()) && !env.gateway.read_only().iter().any(|z| z.name() == e.name))
        .map(|e| if e.kind == folio_vfs::Kind::Dir { format!("`/{}/`", e.name) } else { format!("`/{}`", e.name) })
        .collect();
    if !others.is_empty() {
        out.push_str(&format!("- also at the top of the folder: {}\n", others.join(", ")));
    }

    out.push_str("\n## Verbs\n\n");
    let offered: Vec<_> = env.verbs().collect();
    for (mutates, label) in
        [(true, "change the tree (undo, checkpoints and history take them back)"), (false, "only look or hand over")]
    {
        let names: Vec<&str> = offered.iter().filter(|v| v.mutates == mutates).map(|v| v.name).collect();
        out.push_str(&format!("- {label}: {}\n", names.join(", ")));
    }

    out.push_str("\n## Scripts you can run\n\n");
    let scripts: Vec<VPath> = tree
        .glob("/scripts/**/*.js")
        .unwrap_or_default()
        .into_iter()
        .filter(|p| !p.as_str().starts_with("/scripts/lib/"))
        .collect();
    if scripts.is_empty() {
        out.push_str("None yet. `write_file` a script under `/scripts` that does `export default async function (args) { … }`, with a one-line JSDoc comment above it, then `run_script` it.\n");
    } else {
        for s in scripts.iter().take(MAX_SCRIPTS) {
            let summary = crate::scripts::script_summary(tree, s);
            out.push_str(&format!("- `{s}` — {}\n", summary.unwrap_or_else(|| "(no description)".to_owned())));
        }
        if scripts.len() > MAX_SCRIPTS {
            out.push_str(&format!("- … {} more — `ls /scripts` for the full catalogue\n", scripts.len() - MAX_SCRIPTS));
        }
    }

    out.push_str("\n## Modules scripts can import\n\n");
    for (name, description) in crate::docs::modules(env) {
        out.push_str(&format!("- `env:{name}` — {description}\n"));
    }
    out.push_str("Signatures live in `/std/<name>/index.d.ts`. Read them before calling in.\n");

    out.push_str("\n## Currently in /out\n\n");
    let outs = VPath::parse("/out").ok().and_then(|p| tree.walk(&p).ok()).unwrap_or_default();
    if outs.is_empty() {
        out.push_str("Nothing yet.\n");
    } else {
        for f in outs.iter().take(MAX_OUT) {
            let size = tree.stat(f).ok().flatten().map_or(0, |s| s.size);
            out.push_str(&format!("- `{f}` ({})\n", fmt_bytes(size)));
        }
        if outs.len() > MAX_OUT {
            out.push_str(&format!("- … {} more — `ls /out`\n", outs.len() - MAX_OUT));
        }
    }

    let l = env.gateway.limits();
    out.push_str(&format!(
        "\n## Limits\n\n- one file up to {}\n- the whole tree up to {} (earlier versions kept for undo count too)\n- one run up to {}ms — `run_script` takes `timeout_ms` to ask for LESS, never more\n- responses up to {} characters / {} lines; longer output is cut and the rest written to /tmp\n- undo depth {} version(s) per file\n\nGoing over a limit is a refusal that names the limit, not a crash — but it costs the call.\n",
        fmt_bytes(l.max_file_bytes),
        fmt_bytes(l.max_vfs_bytes),
        l.run_timeout_ms,
        l.max_tool_response_bytes,
        l.max_tool_response_lines,
        l.max_versions_per_file
    ));

    out.push_str("\n## Recent runs\n\n");
    let runs = crate::runlog::tail(tree, MAX_RUNS);
    if runs.is_empty() {
        out.push_str("No scripts have been run yet.\n");
    } else {
        for r in &runs {
            let first: String = r.preview.lines().next().unwrap_or("").chars().take(120).collect();
            let extra = if first.is_empty() { String::new() } else { format!(" — {first}") };
            out.push_str(&format!(
                "- {} `{}` {} ({}ms){extra}\n",
                if r.ok { "ok" } else { "FAIL" },
                r.script,
                r.args,
                r.ms
            ));
        }
        out.push_str("Full history: `history`, or grep `/.env/history.jsonl`.\n");
    }
    out
}
