//! Module compatibility, checked when an environment starts: scripts in the tree that import an
//! `env:` module this host did not register (they would fail only when run), and modules whose
//! binding-contract version changed since the folder's scripts last ran here (recorded in
//! `/.env/adapters.json`). Both become warnings: in orientation's "Read this first" and in
//! [`crate::Environment::warnings`] for the host to show.

use std::collections::BTreeMap;

use folio_vfs::{Tree, VPath};

use crate::env::Environment;
use crate::error::Result;

/// Where the versions seen at the last start are kept.
pub const ADAPTERS_PATH: &str = "/.env/adapters.json";

/// At most this many script paths are named per module.
const NAMED_PER_MODULE: usize = 5;

/// The `env:` modules each script under `/scripts` imports, statically or dynamically, read with
/// the script engine's parser. A script that does not parse is a warning of its own: its imports
/// are unknown.
fn imports(tree: &dyn Tree, warnings: &mut Vec<String>) -> Result<BTreeMap<String, Vec<VPath>>> {
    let scripts = VPath::parse("/scripts")?;
    if tree.stat(&scripts)?.is_none() {
        return Ok(BTreeMap::new());
    }
    let mut out: BTreeMap<String, Vec<VPath>> = BTreeMap::new();
    for file in tree.walk(&scripts)?.into_iter().filter(|f| f.extension() == Some("js")) {
        let text = String::from_utf8_lossy(&tree.read(&file)?).into_owned();
        let found = match folio_script::imports(&text) {
            Ok(found) => found,
            Err(why) => {
                warnings.push(format!("{file}: the env: modules it imports could not be checked: {why}"));
                continue;
            }
        };
        for name in found.iter().filter_map(|i| i.specifier.strip_prefix("env:")) {
            let users = out.entry(name.to_owned()).or_default();
            if !users.contains(&file) {
                users.push(file.clone());
            }
        }
    }
    Ok(out)
}

fn named(paths: &[VPath]) -> String {
    let mut shown: Vec<String> = paths.iter().take(NAMED_PER_MODULE).map(ToString::to_string).collect();
    if paths.len() > NAMED_PER_MODULE {
        shown.push(format!("and {} more", paths.len() - NAMED_PER_MODULE));
    }
    shown.join(", ")
}

/// The warnings for `env`, recording the current module versions for next time.
pub(crate) fn check(env: &Environment) -> Result<Vec<String>> {
    let Some(engine) = env.engine() else { return Ok(Vec::new()) };
    let tree = env.tree();
    let registered: BTreeMap<String, String> =
        engine.registry().modules().iter().map(|m| (m.name.clone(), m.version.clone())).collect();
    let mut warnings = Vec::new();
    let used = imports(tree, &mut warnings)?;
    for (name, paths) in &used {
        if !registered.contains_key(name) {
            warnings.push(format!(
                "scripts import env:{name}, which this host did not register, so they will fail when run: {} — register the module in the host, or rewrite them with the modules in /std/README.md",
                named(paths)
            ));
        }
    }
    let path = VPath::parse(ADAPTERS_PATH)?;
    // No record yet (a first start) means nothing to compare; a record that cannot be read is
    // said, since skew would otherwise go unreported.
    let previous: BTreeMap<String, String> = if tree.exists(&path)? {
        let parsed = tree
            .read(&path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).map_err(|e| e.to_string()))
            .and_then(|v| serde_json::from_value(v["modules"].clone()).map_err(|e| e.to_string()));
        parsed.unwrap_or_else(|why| {
            warnings.push(format!(
                "{ADAPTERS_PATH} could not be read ({why}), so module version changes since the last start are not known — it is rewritten now; check scripts that import env: modules with run_tests"
            ));
            BTreeMap::new()
        })
    } else {
        BTreeMap::new()
    };
    for (name, version) in &registered {
        if let Some(before) = previous.get(name).filter(|before| *before != version) {
            let users = used.get(name).map(|p| format!(" Scripts that import it: {}.", named(p))).unwrap_or_default();
            warnings.push(format!(
                "env:{name} changed its binding contract from version {before} to {version} since this folder's scripts last ran here.{users} Check them against /std/{name}/index.d.ts and run their tests"
            ));
        }
    }
    if previous != registered {
        let body = serde_json::json!({"version": 1, "modules": registered});
        let text = serde_json::to_string_pretty(&body).unwrap_or_default() + "\n";
        tree.write(&path, text.as_bytes())?;
    }
    Ok(warnings)
}
