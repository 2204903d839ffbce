//! env:media through folio-script over an in-memory tree: the declarations and the bindings
//! agree, a script cuts and describes real media, writes are refused during validation, and the
//! README says what this host has.

use std::collections::BTreeSet;
use std::sync::Arc;

use folio_media::modules::{MEDIA_DTS, media_module};
use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::Value;

use super::fixtures::fixtures;

fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

/// The names a `.d.ts` exports as functions.
fn declared(dts: &str) -> BTreeSet<String> {
    dts.lines()
        .filter_map(|l| l.trim_start().strip_prefix("export function "))
        .map(|rest| rest.split(['(', '<']).next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn types_and_bindings_agree() {
    let host = folio_media::MediaHost::from_host();
    let module = media_module(Arc::new(host), &[]);
    let bound: BTreeSet<String> = module.functions.iter().map(|f| f.name.clone()).collect();
    let table: BTreeSet<String> =
        folio_media::BINDINGS.iter().map(|b| b.name.to_string()).chain(["capabilities".to_string()]).collect();
    assert_eq!(bound, table, "the module binds exactly the table");
    assert_eq!(declared(MEDIA_DTS), bound, "every binding is declared in the .d.ts and every declaration is bound");
    for b in folio_media::BINDINGS {
        assert!(
            module.docs.contains(b.name) || MEDIA_DTS.contains(&format!("export function {}(", b.name)),
            "{}",
            b.name
        );
    }
}

fn run(
    files: &[(&str, Vec<u8>)],
    src: &str,
    rows: &[folio_media::doctor::Row],
) -> (Arc<MemTree>, Result<Value, String>) {
    let (_, ff) = fixtures().unwrap();
    let host = folio_media::MediaHost::with(ff.clone(), None);
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(media_module(Arc::new(host), rows)).unwrap();
    let engine = Engine::new(reg, ScriptLimits { run_timeout_ms: 60_000, ..ScriptLimits::default() });
    let tree = Arc::new(MemTree::new());
    for (p, b) in files {
        tree.write(&vp(p), b).unwrap();
    }
    tree.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    let res =
        engine.run_blocking(Arc::new(TreeFs::new(tree.clone())), &vp("/scripts/main.js"), None, RunOptions::default());
    let out = match res.outcome {
        Ok(RunValue::Json(v)) => Ok(v),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    };
    (tree, out)
}

#[test]
fn a_script_cuts_describes_and_joins_through_the_tree() {
    let Some((dir, _)) = fixtures() else { return };
    let v = std::fs::read(dir.join("v.mp4")).unwrap();
    let src = r#"
        import { describe, clip, concat, capabilities } from 'env:media';
        export default async function () {
            const cut = await clip('/in/v.mp4', '/out/cut.mp4', { start: 0.5, end: 1.5 });
            const both = await concat(['/out/cut.mp4', '/out/cut.mp4'], '/out/both.mp4');
            const info = await describe('/out/both.mp4');
            let err = '';
            try { await clip('/in/v.mp4', '/out/x.mp4', { start: 2, end: 1 }); } catch (e) { err = e.message; }
            return { cut, both, info, err, caps: await capabilities() };
        }"#;
    let (tree, out) = run(&[("/in/v.mp4", v)], src, &[]);
    let out = out.unwrap();
    assert!((out["cut"]["duration"].as_f64().unwrap() - 1.0).abs() <= 0.07, "{out}");
    assert_eq!(out["both"]["copied"], true, "{out}");
    assert!((out["info"]["duration"].as_f64().unwrap() - 2.0).abs() <= 0.1, "{out}");
    assert_eq!(out["info"]["streams"][0]["codec"], "h264");
    assert!(
        out["err"].as_str().unwrap().contains("env:media.clip")
            && out["err"].as_str().unwrap().contains("must be after start"),
        "{out}"
    );
    assert_eq!(out["caps"], serde_json::json!([]));
    assert!(!tree.read(&vp("/out/both.mp4")).unwrap().is_empty());
}

#[test]
fn the_readme_says_what_this_host_has_and_the_fix_for_what_it_lacks() {
    let rows = vec![folio_media::doctor::Row {
        name: "espeak-ng".into(),
        ok: false,
        required: false,
        detail: "not found".into(),
        fix: "sudo apt-get install --no-install-recommends espeak-ng".into(),
    }];
    let module = media_module(Arc::new(folio_media::MediaHost::from_host()), &rows);
    assert!(module.docs.contains("## On this host"), "{}", module.docs);
    assert!(module.docs.contains("- espeak-ng: MISSING — not found (the person can fix it with: sudo apt-get install --no-install-recommends espeak-ng)"), "{}", module.docs);
    assert!(module.docs.contains("speak** needs espeak-ng"), "the docs say speak needs espeak-ng");
}

#[test]
fn the_handler_claims_media_by_magic_and_extension_and_describes_it() {
    use folio_env::FileHandler;
    let Some((dir, ff)) = fixtures() else { return };
    let h = folio_media::handler::MediaHandler::new(Arc::new(folio_media::MediaHost::with(ff.clone(), None)));
    assert_eq!(h.module(), "media");
    let exts = h.extensions();
    for e in [".mp4", ".mov", ".mkv", ".webm", ".avi", ".m4v", ".mp3", ".wav", ".m4a", ".flac", ".ogg", ".aac", ".mts"]
    {
        assert!(exts.contains(&e.to_string()), "{e} in {exts:?}");
    }
    let magic: Vec<(usize, Vec<u8>)> = h.magic().into_iter().map(|m| (m.offset, m.bytes)).collect();
    assert!(!magic.contains(&(4, b"ftyp".to_vec())), "the bare ftyp box would claim HEIC and AVIF photos");
    for sig in [
        (8usize, b"isom".to_vec()),
        (8, b"mp42".to_vec()),
        (8, b"qt  ".to_vec()),
        (8, b"M4A ".to_vec()),
        (0, b"\x1A\x45\xDF\xA3".to_vec()),
        (0, b"ID3".to_vec()),
        (0, b"fLaC".to_vec()),
        (0, b"OggS".to_vec()),
        (8, b"WAVE".to_vec()),
    ] {
        assert!(magic.contains(&sig), "{sig:?} in {magic:?}");
    }
    let d = h.describe(&vp("/in/v.mp4"), &std::fs::read(dir.join("v.mp4")).unwrap()).unwrap();
    assert_eq!(
        (d["kind"].as_str(), d["width"].as_u64(), d["audio"].as_str()),
        (Some("media"), Some(160), Some("mono")),
        "{d}"
    );
    let err = h.describe(&vp("/in/bad.mp4"), b"not media").unwrap_err();
    assert!(err.contains("/in/bad.mp4 is not readable media"), "{err}");
}
