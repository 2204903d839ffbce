//! env:charts through folio-script: the declarations and the bindings agree, a script writes a
//! PNG and an SVG into the tree, and a bad spec reaches the script as the named error.

use std::collections::BTreeSet;
use std::sync::Arc;

use folio_charts::modules::{CHARTS_DTS, charts_module};
use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::Value;

fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

#[test]
fn types_and_bindings_agree() {
    let m = charts_module();
    let bound: BTreeSet<String> = m.functions.iter().map(|f| f.name.clone()).collect();
    let declared: BTreeSet<String> = CHARTS_DTS
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("export function "))
        .map(|r| r.split(['(', '<']).next().unwrap().trim().to_string())
        .collect();
    assert_eq!(bound, declared);
    assert!(folio_charts::modules::SKILL.2.contains("env:charts"));
}

fn run(src: &str) -> (Arc<MemTree>, Result<Value, String>) {
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(charts_module()).unwrap();
    let engine = Engine::new(reg, ScriptLimits::default());
    let tree = Arc::new(MemTree::new());
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
fn a_script_writes_png_and_svg_and_sees_named_errors() {
    let (tree, out) = run(r#"
        import { render, toSvg } from 'env:charts';
        export default async function () {
            const spec = { type: 'line', categories: ['a', 'b', 'c'], series: [{ name: 's', values: [1, NaN, 3] }] };
            const png = await render(spec, { output: '/out/c.png', width: 400, height: 300, scale: 2 });
            const svg = await render(spec, { output: '/out/c.svg' });
            const text = toSvg(spec);
            let err = '';
            try { render({ type: 'donut', series: [] }, { output: '/out/x.png' }); } catch (e) { err = String(e.message); }
            return { png, svg, len: text.length, err };
        }
    "#);
    let v = out.unwrap();
    assert_eq!(v["png"]["width"], 800, "{v}");
    assert_eq!(v["png"]["height"], 600, "{v}");
    assert!(v["png"]["warnings"][0].as_str().unwrap().contains("empty"), "{v}");
    assert!(tree.read(&vp("/out/c.png")).unwrap().starts_with(b"\x89PNG"));
    assert!(tree.read(&vp("/out/c.svg")).unwrap().starts_with(b"<svg"));
    assert!(v["len"].as_u64().unwrap() > 500, "{v}");
    assert!(v["err"].as_str().unwrap().contains("valid types are"), "{v}");
}
