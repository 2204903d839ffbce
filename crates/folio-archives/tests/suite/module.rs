//! env:archives through folio-script over an in-memory tree: the declarations and the bindings
//! agree, a script extracts and creates through the tree, writes are refused during validation,
//! and a refusal reaches the script by name.

use std::collections::BTreeSet;
use std::sync::Arc;

use folio_archives::modules::ARCHIVES_DTS;
use folio_archives::{Limits, archives_module};
use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_vfs::{MemTree, Tree};
use serde_json::Value;

use super::common::*;

fn declared(dts: &str) -> BTreeSet<String> {
    dts.lines()
        .filter_map(|l| l.trim_start().strip_prefix("export function "))
        .map(|rest| rest.split(['(', '<']).next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn types_and_bindings_agree() {
    let module = archives_module(Limits::default());
    let bound: BTreeSet<String> = module.functions.iter().map(|f| f.name.clone()).collect();
    assert_eq!(declared(ARCHIVES_DTS), bound);
    for name in &bound {
        assert!(module.docs.contains(&format!("`{name}(")), "README documents {name}");
    }
    assert!(module.docs.contains("20000 entries per archive"), "{}", module.docs);
    let (name, _, body) = folio_archives::SKILL;
    assert_eq!(name, "archives");
    for used in ["describe", "extract", "create"] {
        assert!(body.contains(used));
    }
}

fn run(tree: &Arc<MemTree>, src: &str) -> Result<Value, String> {
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(archives_module(Limits::default())).unwrap();
    let engine = Engine::new(reg, ScriptLimits { run_timeout_ms: 30_000, ..ScriptLimits::default() });
    tree.mkdir(&vp("/scripts")).unwrap();
    tree.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    let res =
        engine.run_blocking(Arc::new(TreeFs::new(tree.clone())), &vp("/scripts/main.js"), None, RunOptions::default());
    match res.outcome {
        Ok(RunValue::Json(v)) => Ok(v),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn a_script_extracts_creates_and_hears_refusals_by_name() {
    let t = tree(&[(
        "/inbox/data.zip",
        &zip_of(&[("q1/sales.csv", b"a,b\n1,2"), ("q1/notes.txt", b"hi"), ("../escape.txt", b"x")]),
    )]);
    let src = r#"
        import { describe, list, extract, create } from 'env:archives';
        export default async function () {
            const d = await describe('/inbox/data.zip');
            const names = (await list('/inbox/data.zip')).map(e => e.name);
            let refused = '';
            try { await extract('/inbox/data.zip', '/tmp/all'); } catch (e) { refused = String(e.message || e); }
            const got = await extract('/inbox/data.zip', '/tmp/q1', { include: 'q1/**' });
            const made = await create('/tmp/q1', '/out/q1.tar.gz');
            return { entries: d.entries, names, refused, got, made };
        }
    "#;
    let v = run(&t, src).unwrap();
    assert_eq!(v["entries"], 3);
    assert_eq!(v["names"].as_array().unwrap().len(), 3);
    let refused = v["refused"].as_str().unwrap();
    assert!(
        refused.contains("env:archives.extract")
            && refused.contains("\"../escape.txt\"")
            && refused.contains("climbs above"),
        "{refused}"
    );
    let mut got: Vec<String> = v["got"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_owned()).collect();
    got.sort();
    assert_eq!(got, ["/tmp/q1/q1/notes.txt", "/tmp/q1/q1/sales.csv"]);
    assert_eq!(v["got"].as_array().unwrap().len(), 2);
    assert_eq!(v["made"]["format"], "tar.gz");
    assert_eq!(t.read(&vp("/tmp/q1/q1/sales.csv")).unwrap(), b"a,b\n1,2");
    assert!(t.stat(&vp("/tmp/all")).unwrap().is_none(), "the refused extraction wrote nothing");
    assert!(t.stat(&vp("/escape.txt")).unwrap().is_none());
}

#[test]
fn writes_are_refused_during_validation() {
    let t = tree(&[("/a.zip", &zip_of(&[("a.txt", b"a")]))]);
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(archives_module(Limits::default())).unwrap();
    let engine = Engine::new(reg, ScriptLimits::default());
    let src = "import { extract } from 'env:archives';\nawait extract('/a.zip', '/x');\nexport default async function () { return 1; }\n";
    let err = engine.validate(t.as_ref(), &vp("/scripts/v.js"), src);
    let text = format!("{err:?}");
    assert!(text.contains("not allowed while a script is being validated"), "{text}");
    assert!(t.stat(&vp("/x")).unwrap().is_none());
}

#[test]
fn the_handler_gives_describe_and_ls_the_entry_count_and_total_size() {
    use folio_env::{EnvOptions, Environment};
    let handler = Arc::new(folio_archives::ArchivesHandler::new(Limits::default()));
    let env = Environment::new(
        Arc::new(MemTree::new()),
        None,
        EnvOptions { handlers: vec![handler], ..EnvOptions::default() },
    )
    .unwrap();
    env.tree().mkdir(&vp("/inbox")).unwrap();
    env.tree()
        .write(&vp("/inbox/data.zip"), &zip_of(&[("a.csv", b"1,2,3"), ("d/", b""), ("d/b.txt", b"hello")]))
        .unwrap();
    env.tree()
        .write(
            &vp("/inbox/bundle.tar"),
            &tar_of(&[tar_entry("x.txt", b'0', "", b"xyz"), tar_entry("ln", b'2', "/etc", b"")]),
        )
        .unwrap();
    let r = env.call("describe", serde_json::json!({"path": "/inbox/data.zip"}));
    let v: Value = serde_json::from_str(&r.message).unwrap();
    assert_eq!(v["module"], "env:archives", "{v}");
    assert_eq!(
        (v["entries"].as_u64(), v["files"].as_u64(), v["uncompressedBytes"].as_u64()),
        (Some(3), Some(2), Some(10)),
        "{v}"
    );
    let r = env.call("describe", serde_json::json!({"path": "/inbox/bundle.tar"}));
    let v: Value = serde_json::from_str(&r.message).unwrap();
    assert_eq!(v["format"], "tar", "{v}");
    assert_eq!(v["refused"][0]["refused"], "symbolic link", "{v}");
    let ls = env.call("ls", serde_json::json!({"path": "/inbox"}));
    assert!(ls.message.contains("env:archives"), "{}", ls.message);
}
