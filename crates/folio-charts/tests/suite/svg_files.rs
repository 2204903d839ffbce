//! folio-render's SVG rasteriser on the corpus' SVGs: an Inkscape drawing renders at its
//! viewBox size, the script-bearing flamegraph renders without running anything, and a corrupt
//! one is refused by name.

use std::path::PathBuf;

use folio_render::svg::{SvgSize, svg_to_png};

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: the corpus is not at {} (set FOLIO_CORPUS)", dir.display());
        None
    }
}

#[test]
fn corpus_svgs_render_or_are_refused_by_name() {
    let Some(dir) = corpus() else { return };
    let cube = std::fs::read(dir.join("images/inkscape-cube.svg")).unwrap();
    let r = svg_to_png("inkscape-cube.svg", &cube, SvgSize { width: Some(300), ..SvgSize::default() }).unwrap();
    assert_eq!(r.width, 300);
    let (_, _, px) = super::charts::decode(&r.png);
    assert!(px.chunks(4).filter(|p| p[3] > 0).count() > 1000, "the cube is drawn");

    let hostile = std::fs::read(dir.join("hostile/flamegraph-with-script.svg")).unwrap();
    assert!(String::from_utf8_lossy(&hostile).contains("<script"), "the sample carries a script");
    let marker = std::env::temp_dir().join(format!("folio-svg-script-{}", std::process::id()));
    let r =
        svg_to_png("flamegraph-with-script.svg", &hostile, SvgSize { width: Some(600), ..SvgSize::default() }).unwrap();
    let (_, _, px) = super::charts::decode(&r.png);
    assert!(px.chunks(4).filter(|p| p[3] > 0).count() > 1000, "the flamegraph's boxes are drawn");
    assert!(!marker.exists(), "nothing ran");

    let h = folio_render::svg::SvgHandler;
    let vp = folio_vfs::VPath::parse("/in/flamegraph.svg").unwrap();
    let d = folio_env::FileHandler::describe(&h, &vp, &hostile).unwrap();
    assert_eq!((d["format"].as_str(), d["scripts_ignored"].as_bool()), (Some("svg"), Some(true)), "{d}");
    let page = folio_env::FileHandler::render_page(&h, &vp, &hostile, 1).unwrap().unwrap();
    assert!(page.png.starts_with(b"\x89PNG") && page.page_count == 1);
    let e = folio_env::FileHandler::render_page(&h, &vp, &hostile, 2).unwrap().unwrap_err();
    assert!(e.contains("page 2 does not exist"), "{e}");

    let corrupt = std::fs::read(dir.join("hostile/corrupt-not-xml.svg")).unwrap();
    let e = svg_to_png("corrupt-not-xml.svg", &corrupt, SvgSize::default()).unwrap_err().to_string();
    assert!(e.contains("corrupt-not-xml.svg is not a readable SVG"), "{e}");
}

#[test]
fn external_references_are_not_followed() {
    let dir = tempfile_dir();
    let secret = dir.join("secret.svg");
    std::fs::write(&secret, r##"<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50"><rect width="50" height="50" fill="#f00"/></svg>"##).unwrap();
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="50" height="50"><image xlink:href="file://{0}" width="50" height="50"/><image href="{0}" width="50" height="50"/></svg>"#,
        secret.display()
    );
    let r = svg_to_png("refs.svg", svg.as_bytes(), SvgSize::default()).unwrap();
    let (_, _, px) = super::charts::decode(&r.png);
    assert_eq!(px.chunks(4).filter(|p| p[3] > 0).count(), 0, "the referenced file was not drawn");
    let _ = std::fs::remove_dir_all(dir);
}

fn tempfile_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("folio-charts-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}
