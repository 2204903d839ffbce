//! The registration table is what a folder opened through the host offers: the same names, in
//! the same order, each importable from a script.

use folio_env::Status;
use folio_host::{Host, HostError, MODULES, Seams};
use folio_render::{HostPaths, Platform};
use serde_json::json;

/// A host that finds no tool (no probe runs), with its state under `state`.
fn builder(state: &std::path::Path) -> folio_host::HostBuilder {
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(state.to_path_buf());
    Host::builder().state_dir(Some(state.to_path_buf())).paths(paths)
}

#[test]
fn the_registered_modules_are_the_builtins_then_the_table() {
    let tmp = tempfile::tempdir().unwrap();
    let host = builder(tmp.path()).build().unwrap();
    let table: Vec<&str> = MODULES.iter().map(|r| r.name).collect();
    let mut expected = vec!["fs", "std", "assert"];
    expected.extend(&table);
    // Names are reserved for every row; an isolated host finds no tesseract, so env:ocr is absent.
    assert_eq!(folio_host::modules::registered_names(), expected);
    expected.retain(|n| *n != "ocr");
    assert_eq!(host.module_names(), expected);
    // The table holds at least what every shell has offered since before folio-host.
    for name in ["render", "images", "zip"] {
        assert!(table.contains(&name), "env:{name} is missing from folio_host::MODULES: {table:?}");
    }
}

#[test]
fn a_script_in_a_folder_opened_through_the_host_imports_every_registered_module() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let host = builder(&tmp.path().join("state")).build().unwrap();
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    for name in host.module_names() {
        let path = format!("/scripts/import_{name}.js");
        let script = format!(
            "/** Counts what env:{name} exports. */\nimport * as m from 'env:{name}';\nexport default async function main() {{\n  return Object.keys(m).length;\n}}\n"
        );
        let wrote = env.call("write_file", json!({"path": path, "content": script}));
        assert_eq!(wrote.status, Status::Success, "env:{name}: {}", wrote.message);
        let report = env.run_script(&path, json!({}), None, None).unwrap();
        assert!(report.ok, "env:{name}: {:?}", report.error);
        assert!(report.result.as_u64().unwrap_or(0) > 0, "env:{name} exports nothing: {:?}", report.result);
    }
}

#[test]
fn a_shell_module_comes_after_the_table_and_a_taken_name_is_a_named_bug() {
    let tmp = tempfile::tempdir().unwrap();
    let extra = folio_script::NativeModule { name: "vision".into(), version: "1".into(), ..Default::default() };
    let host = builder(tmp.path()).module(extra).build().unwrap();
    assert_eq!(host.module_names().last().map(String::as_str), Some("vision"));

    let twice = folio_script::NativeModule { name: "render".into(), version: "1".into(), ..Default::default() };
    let err = builder(tmp.path()).module(twice).build().err().expect("a second env:render must be refused");
    assert!(matches!(&err, HostError::Module { name, .. } if name == "render"), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("env:render could not be set up") && text.contains("bug in Folio"), "{text}");
}

/// A binary file no module claims is answered with each file-reading module once (with the
/// extensions it reads) and the way forward, not "registered handlers: …, env:render, …,
/// env:render, …" (issue 28 item 4).
#[test]
fn an_unclaimed_binary_names_each_reading_module_once_and_the_way_forward() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("blob.qqq"), [0u8, 1, 2, 3, 0xfe, 0xff, 0, 7]).unwrap();
    let host = builder(&tmp.path().join("state")).build().unwrap();
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    let d = env.call("describe", json!({"path": "/blob.qqq"}));
    assert_eq!(d.status, Status::Success, "{}", d.message);
    let note = d.data["note"].as_str().unwrap_or_else(|| panic!("no note: {}", d.data));
    assert!(!note.contains("registered handlers"), "{note}");
    for module in ["env:render", "env:spreadsheets", "env:documents"] {
        assert_eq!(note.matches(&format!("{module} ")).count(), 1, "{module} once in: {note}");
    }
    assert!(note.contains(".xlsx") && note.contains("`cp` it") && note.contains("readBytes(path)"), "{note}");
}
