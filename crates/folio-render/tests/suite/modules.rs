//! env:render and env:images through folio-script, over an in-memory tree.

use std::sync::Arc;

use folio_render::modules::{images_module, render_module};
use folio_render::{ImageLimits, Platform, Renderer};
use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::Value;

use super::{near, pdfgen, renderer, rgb};

fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

pub fn run(r: Renderer, files: &[(&str, Vec<u8>)], src: &str) -> (Arc<MemTree>, Result<Value, String>) {
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(render_module(Arc::new(r))).unwrap();
    reg.register_native(images_module(ImageLimits::default())).unwrap();
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

pub fn png(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb(f(x, y)));
    folio_render::images::encode("t.png", &image::DynamicImage::ImageRgb8(img), folio_render::ImageFormat::Png, None)
        .unwrap()
}

#[test]
fn a_script_rasterizes_a_pdf_into_the_tree() {
    let src = r#"
        import { rasterize, render } from 'env:render';
        export default async function () {
            const a = await rasterize('/in/x.pdf', '/tmp/pages', { pages: [1, 3], dpi: 72 });
            const b = await render('/in/x.pdf', '/tmp/again', { pages: 2, width: 421 });
            return { a, b };
        }"#;
    let (tree, out) = run(renderer(), &[("/in/x.pdf", pdfgen::sample())], src);
    let out = out.unwrap();
    assert_eq!(out["a"]["pageCount"], 3);
    assert_eq!(out["a"]["pages"][0]["path"], "/tmp/pages/x-p1.png");
    assert_eq!(out["a"]["pages"][1]["path"], "/tmp/pages/x-p3.png");
    assert_eq!(out["b"]["pages"][0]["width"], 421);
    let p1 = rgb(&tree.read(&vp("/tmp/pages/x-p1.png")).unwrap());
    assert!(near(p1.get_pixel(200, 592), [0, 0, 0]));
    assert!(near(p1.get_pixel(50, 50), [255, 255, 255]));
}

#[test]
fn errors_reach_the_script_named_and_with_the_fix() {
    let locked = {
        let dir = tempfile::tempdir().unwrap();
        let (i, o) = (dir.path().join("i.pdf"), dir.path().join("o.pdf"));
        std::fs::write(&i, pdfgen::sample()).unwrap();
        let ok =
            std::process::Command::new("qpdf").args(["--encrypt", "pw", "owner", "256", "--"]).arg(&i).arg(&o).status();
        assert!(ok.unwrap().success(), "qpdf must be installed (scripts/install.sh)");
        std::fs::read(o).unwrap()
    };
    let src = r#"
        import { rasterize } from 'env:render';
        export default async function () {
            const msgs = [];
            for (const p of ['/in/x.pdf', '/in/nope.docx', '/in/x.pdf']) {
                try { await rasterize(p, '/tmp/o', p === '/in/nope.docx' ? {} : { dpi: 5 }); } catch (e) { msgs.push(e.message); }
            }
            try { await rasterize('/in/x.pdf', '/tmp/o'); } catch (e) { msgs.push(e.message); }
            return msgs;
        }"#;
    let (_, out) = run(renderer(), &[("/in/x.pdf", locked), ("/in/nope.docx", b"PK\x03\x04zz".to_vec())], src);
    let msgs: Vec<String> = serde_json::from_value(out.unwrap()).unwrap();
    assert!(msgs[0].starts_with("env:render.rasterize: dpi must be a number from 10 to 1200"), "{msgs:?}");
    assert!(
        msgs[1].starts_with("env:render.rasterize: /in/nope.docx is damaged: no ZIP end-of-directory record"),
        "{msgs:?}"
    );
    assert!(msgs[3].starts_with("env:render.rasterize: /in/x.pdf is encrypted"), "{msgs:?}");
    assert!(msgs[3].contains("— hint:"), "{msgs:?}");
}

#[test]
fn office_files_are_refused_up_front_when_libreoffice_is_hidden() {
    let mut r = renderer();
    r.host = folio_render::HostPaths::isolated(Platform::current());
    r.pdfium_path = r.pdfium().ok().map(|e| e.library_path().to_path_buf());
    let src = r#"
        import { rasterize } from 'env:render';
        export default async function () {
            try { await rasterize('/in/a.docx', '/tmp/o'); return 'rendered'; } catch (e) { return e.message; }
        }"#;
    let (tree, out) = run(r, &[("/in/a.docx", super::office::docx(&["Hello"]))], src);
    let msg = out.unwrap();
    let msg = msg.as_str().unwrap();
    assert!(
        msg.starts_with("env:render.rasterize: /in/a.docx needs LibreOffice to render, and none was found"),
        "{msg}"
    );
    assert!(
        msg.contains("hint: sudo apt-get install") || msg.contains("brew install") || msg.contains("winget install"),
        "{msg}"
    );
    assert!(tree.stat(&vp("/tmp/o")).unwrap().is_none(), "nothing is written when refused");
}

#[test]
fn image_operations_write_real_pixels() {
    // Left half red, right half blue, 200×100.
    let base = png(200, 100, |x, _| if x < 100 { [255, 0, 0] } else { [0, 0, 255] });
    let dot = png(20, 20, |_, _| [0, 255, 0]);
    let src = r#"
        import * as im from 'env:images';
        export default async function () {
            const d = await im.describe('/in/a.png');
            const r = await im.resize('/in/a.png', '/tmp/small.jpg', { width: 50 });
            const c = await im.crop('/in/a.png', '/tmp/crop.png', { left: 100, top: 0, width: 100, height: 100 });
            const t = await im.rotate('/in/a.png', '/tmp/rot.png', { angle: 90 });
            const w = await im.convert('/in/a.png', '/tmp/a.webp');
            const g = await im.convert('/in/a.png', '/tmp/a.bin', { format: 'gif' });
            const k = await im.composite('/in/a.png', '/tmp/comp.png', [{ input: '/in/dot.png', left: 90, top: 40 }]);
            const s = await im.contactSheet(['/in/a.png', '/in/dot.png', '/in/a.png'], '/tmp/sheet.png', { cell: 64 });
            let bad = null;
            try { await im.crop('/in/a.png', '/tmp/x.png', { left: 150, top: 0, width: 100, height: 10 }); } catch (e) { bad = e.message; }
            let ext = null;
            try { await im.convert('/in/a.png', '/tmp/a.tiff'); } catch (e) { ext = e.message; }
            return { d, r, c, t, w, g, k, s, bad, ext };
        }"#;
    let (tree, out) = run(renderer(), &[("/in/a.png", base), ("/in/dot.png", dot)], src);
    let o = out.unwrap();
    assert_eq!(o["d"]["format"], "png");
    assert_eq!((o["d"]["width"].as_u64(), o["d"]["height"].as_u64()), (Some(200), Some(100)));
    assert_eq!(o["d"]["animated"], false);
    assert_eq!(
        (o["r"]["width"].as_u64(), o["r"]["height"].as_u64(), o["r"]["format"].as_str()),
        (Some(50), Some(25), Some("jpeg"))
    );
    let read = |p: &str| rgb(&tree.read(&vp(p)).unwrap());
    assert!(near(read("/tmp/small.jpg").get_pixel(10, 12), [255, 0, 0]));
    assert!(near(read("/tmp/crop.png").get_pixel(50, 50), [0, 0, 255]));
    let rot = read("/tmp/rot.png");
    assert_eq!(rot.dimensions(), (100, 200));
    assert!(near(rot.get_pixel(50, 20), [255, 0, 0]) && near(rot.get_pixel(50, 180), [0, 0, 255]));
    assert!(tree.read(&vp("/tmp/a.webp")).unwrap().starts_with(b"RIFF"));
    assert!(tree.read(&vp("/tmp/a.bin")).unwrap().starts_with(b"GIF8"));
    let comp = read("/tmp/comp.png");
    assert!(near(comp.get_pixel(100, 50), [0, 255, 0]) && near(comp.get_pixel(10, 50), [255, 0, 0]));
    assert_eq!(read("/tmp/sheet.png").dimensions(), (128, 128));
    assert!(o["bad"].as_str().unwrap().contains("falls outside the 200×100 image"), "{o}");
    assert!(o["ext"].as_str().unwrap().contains("names no format"), "{o}");
}

#[test]
fn the_handlers_claim_by_magic_and_render_pages_for_view_image() {
    use folio_env::FileHandler;
    use folio_render::handler::{ImagesHandler, RenderHandler};
    let r = Arc::new(renderer());
    let handlers: Vec<Arc<dyn FileHandler>> =
        vec![Arc::new(RenderHandler::new(r.clone())), Arc::new(ImagesHandler::new(r))];
    let pdf = pdfgen::sample();
    // folio-env's `claim` is private; check the same rule here: a PDF named .png is claimed by
    // the render handler's magic, not by the images handler's extension.
    let by_magic = |head: &[u8]| {
        handlers
            .iter()
            .find(|h| h.magic().iter().any(|m| head.get(m.offset..m.offset + m.bytes.len()) == Some(&m.bytes[..])))
    };
    let h = by_magic(&pdf[..64]).unwrap();
    assert_eq!(h.module(), "render");
    let info = h.describe(&vp("/in/odd.png"), &pdf).unwrap();
    assert_eq!(info["pageCount"], 3);
    let page = h.render_page(&vp("/in/odd.png"), &pdf, 3).unwrap().unwrap();
    assert_eq!(page.page_count, 3);
    assert!(near(rgb(&page.png).get_pixel(150, 150), [255, 0, 0]));
    let pic = png(10, 10, |_, _| [1, 2, 3]);
    assert_eq!(by_magic(&pic[..64]).unwrap().module(), "images");
}

/// `capabilities()` gives a script the doctor's rows of the tools env:render uses, the same facts
/// `folio doctor` prints for them (and nothing about tools no module uses: Chromium, ffmpeg).
#[test]
fn a_script_reads_the_doctor_rows_with_capabilities() {
    let src = r#"
        import { capabilities } from 'env:render';
        export default async function () {
            const rows = await capabilities();
            return rows.map((r) => [r.name, r.ok, r.required, typeof r.detail, typeof r.fix]);
        }"#;
    let (_, out) = run(renderer(), &[], src);
    let rows = out.unwrap();
    let expected = folio_render::doctor::rows_for("render", &folio_render::capabilities(&renderer()));
    assert_eq!(expected.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["pdfium", "libreoffice"]);
    assert_eq!(rows.as_array().unwrap().len(), expected.len());
    for (row, want) in rows.as_array().unwrap().iter().zip(&expected) {
        assert_eq!(row, &serde_json::json!([want.name, want.ok, want.required, "string", "string"]));
    }
    assert_eq!(rows[0], serde_json::json!(["pdfium", true, true, "string", "string"]));
}

/// Pages are written as they are encoded; a write the tree refuses (here: the output directory
/// would sit below a file) stops the call with the tree's own message.
#[test]
fn a_refused_page_write_reaches_the_script_by_name() {
    let src = r#"
        import { rasterize } from 'env:render';
        export default async function () {
            try { await rasterize('/in/x.pdf', '/in/x.pdf/pages', { dpi: 36 }); return 'written'; }
            catch (e) { return e.message; }
        }"#;
    let (tree, out) = run(renderer(), &[("/in/x.pdf", pdfgen::sample())], src);
    let msg = out.unwrap();
    let msg = msg.as_str().unwrap();
    assert!(msg.starts_with("env:render.rasterize: "), "{msg}");
    assert!(msg.contains("/in/x.pdf"), "{msg}");
    assert!(tree.stat(&vp("/in/x.pdf/pages")).is_err() || tree.stat(&vp("/in/x.pdf/pages")).unwrap().is_none());
}
