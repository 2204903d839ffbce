//! env:slides through folio-script: the declarations and the bindings agree, a script creates
//! a deck with a chart and reads it back, a failed replace reaches the script by name, and the
//! describe handler summarises the deck.

use std::collections::BTreeSet;
use std::sync::Arc;

use folio_env::FileHandler;
use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_slides::handler::SlidesHandler;
use folio_slides::modules::{SLIDES_DTS, slides_module};
use folio_vfs::{MemTree, Tree, VPath};

fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

#[test]
fn types_and_bindings_agree() {
    let m = slides_module();
    let bound: BTreeSet<String> = m.functions.iter().map(|f| f.name.clone()).collect();
    let declared: BTreeSet<String> = SLIDES_DTS
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("export function "))
        .map(|r| r.split(['(', '<']).next().unwrap().trim().to_string())
        .collect();
    assert_eq!(bound, declared);
    assert!(folio_slides::modules::SKILL.2.contains("env:slides"));
}

#[test]
fn a_script_makes_reads_and_edits_a_deck() {
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(slides_module()).unwrap();
    reg.register_native(folio_charts::modules::charts_module()).unwrap();
    let engine = Engine::new(reg, ScriptLimits::default());
    let tree = Arc::new(MemTree::new());
    let src = r#"
        import { create, describe, extract, outline, replaceText } from 'env:slides';
        import { render } from 'env:charts';
        export default async function () {
            const chart = { type: 'line', categories: ['Jan', 'Feb'], series: [{ name: 'Users', values: [3, 5] }] };
            await render(chart, { output: '/tmp/users.png', width: 640, height: 400 });
            const made = await create({ title: 'Deck', footer: 'F', slides: [
                { title: 'Users', bullets: ['Up'], image: '/tmp/users.png', notes: 'n' },
                { title: 'Native', chart },
            ] }, '/out/deck.pptx');
            const d = await describe('/out/deck.pptx');
            const x = await extract('/out/deck.pptx');
            const md = await outline('/out/deck.pptx');
            const r = await replaceText('/out/deck.pptx', { Users: 'People' }, { output: '/out/deck2.pptx' });
            let err = '';
            try { replaceText('/out/deck.pptx', { nope: 'x' }); } catch (e) { err = String(e.message); }
            return { made, d, x, md, r, err };
        }
    "#;
    tree.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    let res =
        engine.run_blocking(Arc::new(TreeFs::new(tree.clone())), &vp("/scripts/main.js"), None, RunOptions::default());
    let v = match res.outcome {
        Ok(RunValue::Json(v)) => v,
        other => panic!("{other:?}"),
    };
    assert_eq!(v["made"]["slides"], 3, "{v}");
    assert_eq!(v["made"]["charts"], 1, "{v}");
    assert_eq!(v["d"]["titles"][1], "Users", "{v}");
    assert_eq!(v["d"]["media"], 1, "{v}");
    assert_eq!(v["x"][1]["notes"], "n", "{v}");
    assert!(v["md"].as_str().unwrap().contains("## Slide 3: Native"), "{v}");
    assert_eq!(v["r"]["path"], "/out/deck2.pptx", "{v}");
    assert!(v["err"].as_str().unwrap().contains("none of the texts to replace"), "{v}");
    let bytes = tree.read(&vp("/out/deck2.pptx")).unwrap();
    let h = SlidesHandler;
    let d = h.describe(&vp("/out/deck2.pptx"), &bytes).unwrap();
    assert_eq!(d["titles"][1], "People", "{d}");
    assert_eq!(d["kind"], "slides");
    assert_eq!(h.extensions(), vec![".pptx"]);
}
