//! Startup compatibility: imports of unregistered modules and changed binding contracts are
//! reported to the host and in orientation.

use std::sync::Arc;

use folio_env::{EnvOptions, Environment};
use folio_script::{Engine, ModuleRegistry, NativeModule, ScriptLimits};
use folio_vfs::{MemTree, Tree};

use super::p;

fn engine_with(version: &str) -> Arc<Engine> {
    let mut registry = ModuleRegistry::with_builtins();
    registry
        .register_native(NativeModule {
            name: "charts".into(),
            description: "draws charts".into(),
            version: version.into(),
            types_dts: "export function bar(): void;".into(),
            docs: String::new(),
            functions: Vec::new(),
            js_api: Some("() => ({ bar() {} })".into()),
        })
        .unwrap();
    Arc::new(Engine::new(registry, ScriptLimits::default()))
}

#[test]
fn unregistered_imports_and_contract_changes_are_reported() {
    let folder: Arc<MemTree> = Arc::new(MemTree::new());
    folder
        .write(&p("/scripts/report.js"), b"import { bar } from 'env:charts';\nimport * as m from \"env:maps\";\nexport default async () => { await import('env:maps'); };\n")
        .unwrap();
    folder.write(&p("/scripts/lib/plain.js"), b"export const x = 1;\n").unwrap();
    let state = tempfile::tempdir().unwrap();

    // Without env:charts or env:maps registered, both imports are named with their scripts.
    let plain = Environment::new(folder.clone(), Some(state.path()), EnvOptions::default()).unwrap();
    let warnings = plain.warnings().join("\n");
    assert!(warnings.contains("scripts import env:charts, which this host did not register, so they will fail when run: /scripts/report.js"), "{warnings}");
    assert!(warnings.contains("env:maps"), "{warnings}");
    let r = plain.call("read_file", serde_json::json!({"path": "/.env/orientation.md"}));
    assert!(r.message.contains("Read this first") && r.message.contains("env:charts"), "{}", r.message);

    // Registered at version 1: no warning for charts, and the versions are recorded.
    let v1 = Environment::new(
        folder.clone(),
        Some(state.path()),
        EnvOptions { engine: Some(engine_with("1")), ..Default::default() },
    )
    .unwrap();
    assert!(!v1.warnings().join("\n").contains("env:charts"), "{:?}", v1.warnings());
    let recorded: serde_json::Value =
        serde_json::from_slice(&v1.tree().read(&p(folio_env::ADAPTERS_PATH)).unwrap()).unwrap();
    assert_eq!(recorded["modules"]["charts"], "1");

    // The same folder later meets version 2: the skew is named with the scripts that use it.
    let v2 = Environment::new(
        folder.clone(),
        Some(state.path()),
        EnvOptions { engine: Some(engine_with("2")), ..Default::default() },
    )
    .unwrap();
    let warnings = v2.warnings().join("\n");
    assert!(warnings.contains("env:charts changed its binding contract from version 1 to 2"), "{warnings}");
    assert!(warnings.contains("/scripts/report.js") && warnings.contains("/std/charts/index.d.ts"), "{warnings}");
    // Once recorded, the next start is quiet about it.
    let again = Environment::new(
        folder.clone(),
        Some(state.path()),
        EnvOptions { engine: Some(engine_with("2")), ..Default::default() },
    )
    .unwrap();
    assert!(!again.warnings().join("\n").contains("changed its binding contract"), "{:?}", again.warnings());

    // A record that cannot be read is said, not taken for a first start; it is rewritten.
    again.tree().write(&p(folio_env::ADAPTERS_PATH), b"{ torn").unwrap();
    drop(again);
    let torn = Environment::new(
        folder,
        Some(state.path()),
        EnvOptions { engine: Some(engine_with("2")), ..Default::default() },
    )
    .unwrap();
    let warnings = torn.warnings().join("\n");
    assert!(
        warnings.contains("/.env/adapters.json could not be read (") && warnings.contains("it is rewritten now"),
        "{warnings}"
    );
    let recorded: serde_json::Value =
        serde_json::from_slice(&torn.tree().read(&p(folio_env::ADAPTERS_PATH)).unwrap()).unwrap();
    assert_eq!(recorded["modules"]["charts"], "2");
}

#[test]
fn imports_are_read_by_the_parser_and_a_script_that_does_not_parse_is_said() {
    let folder: Arc<MemTree> = Arc::new(MemTree::new());
    // Import-like text in a comment or a string is not an import.
    folder
        .write(
            &p("/scripts/quiet.js"),
            b"// import x from 'env:ghost'\nconst s = \"from 'env:phantom'\";\nexport default () => s;\n",
        )
        .unwrap();
    folder.write(&p("/scripts/broken.js"), b"import { from 'env:charts'\n").unwrap();
    let env = Environment::new(folder, None, EnvOptions::default()).unwrap();
    let warnings = env.warnings().join("\n");
    assert!(!warnings.contains("env:ghost") && !warnings.contains("env:phantom"), "{warnings}");
    assert!(
        warnings.contains("/scripts/broken.js: the env: modules it imports could not be checked")
            && warnings.contains("does not parse as a JavaScript module"),
        "{warnings}"
    );
}
