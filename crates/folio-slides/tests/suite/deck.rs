//! The six-slide deck of issue 14, checked by readers that are not ours: LibreOffice converts
//! it to a six-page PDF (pdfinfo), the slide text is in it (pdftotext), and the native chart is
//! drawn (its category labels are text on page 4 and its bars are the palette's colours there).
//! Then the package itself: chart part with cached values, footer only on the master, a long
//! table continued with its header repeated, and named refusals.

use std::time::Instant;

use folio_slides::{Deck, create, extract};
use serde_json::json;

use super::common::{has, six_slides, stdout, tmp, to_pdf};

fn chart_png() -> Vec<u8> {
    let spec =
        json!({"type":"line","categories":["Jan","Feb","Mar","Apr"],"series":[{"name":"Revenue","values":[1,2,3,4]}]});
    folio_charts::chart_png(&spec, 640, 400).unwrap()
}

fn make(spec: &serde_json::Value, png: &[u8]) -> folio_slides::Created {
    let deck = Deck::from_json(spec).unwrap();
    let png = png.to_vec();
    create(&deck, &move |p: &str| {
        if p == "/out/trend.png" { Ok(png.clone()) } else { Err(format!("{p}: no such file")) }
    })
    .unwrap()
}

fn entry(bytes: &[u8], name: &str) -> Option<String> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut f = z.by_name(name).ok()?;
    let mut b = Vec::new();
    std::io::Read::read_to_end(&mut f, &mut b).unwrap();
    Some(String::from_utf8_lossy(&b).into_owned())
}

fn decode(png_bytes: &[u8]) -> Vec<u8> {
    let mut d = png::Decoder::new(std::io::Cursor::new(png_bytes));
    d.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    buf
}

fn near(px: &[u8], rgb: (i32, i32, i32)) -> usize {
    px.chunks(4)
        .filter(|p| {
            (p[0] as i32 - rgb.0).abs() < 30 && (p[1] as i32 - rgb.1).abs() < 30 && (p[2] as i32 - rgb.2).abs() < 30
        })
        .count()
}

#[test]
fn the_six_slide_deck_is_what_libreoffice_and_poppler_see() {
    let png = chart_png();
    let t = Instant::now();
    let made = make(&six_slides("/out/trend.png"), &png);
    let create_ms = t.elapsed().as_secs_f64() * 1e3;
    assert_eq!((made.slides, made.charts), (6, 1), "{:?}", made.warnings);
    let chart = entry(&made.bytes, "ppt/charts/chart1.xml").unwrap();
    for want in ["<c:barChart>", "<c:numCache>", "<c:v>2100</c:v>", "<c:v>Europe</c:v>", "#,##0"] {
        assert!(chart.contains(want), "chart part has {want}");
    }
    let master = entry(&made.bytes, "ppt/slideMasters/slideMaster1.xml").unwrap();
    assert!(master.contains("Acme Corp · Confidential"), "footer on the master");
    let slide2 = entry(&made.bytes, "ppt/slides/slide2.xml").unwrap();
    assert!(!slide2.contains("Confidential"), "footer not repeated on slides");
    assert!(slide2.contains(r#"lvl="1""#), "two-space bullets are indented");
    assert!(slide2.contains("DejaVu Sans"));
    assert!(entry(&made.bytes, "ppt/media/image1.png").is_some());

    if !has("soffice") || !has("pdfinfo") || !has("pdftotext") {
        return;
    }
    let dir = tmp("six");
    let file = dir.join("qbr.pptx");
    std::fs::write(&file, &made.bytes).unwrap();
    let t = Instant::now();
    let pdf = to_pdf(&file, &dir);
    let lo_ms = t.elapsed().as_secs_f64() * 1e3;
    let info = stdout("pdfinfo", &[pdf.to_str().unwrap()]);
    let pages: usize = info.lines().find_map(|l| l.strip_prefix("Pages:")).unwrap().trim().parse().unwrap();
    assert_eq!(pages, 6, "{info}");
    let text = stdout("pdftotext", &["-layout", pdf.to_str().unwrap(), "-"]);
    for want in [
        "Quarterly Business Review",
        "Highlights",
        "EMEA led the growth",
        "$4.2M",
        "Regional detail",
        "16.7%",
        "Steady growth",
    ] {
        assert!(text.contains(want), "pdftotext finds {want:?}");
    }
    let page4 = stdout("pdftotext", &["-f", "4", "-l", "4", pdf.to_str().unwrap(), "-"]);
    for want in ["Americas", "Pacific", "Q3"] {
        assert!(page4.contains(want), "the native chart's labels are drawn: {want:?} in {page4:?}");
    }
    if has("pdftoppm") {
        let prefix = dir.join("p4");
        stdout(
            "pdftoppm",
            &["-f", "4", "-l", "4", "-r", "40", "-png", "-singlefile", pdf.to_str().unwrap(), prefix.to_str().unwrap()],
        );
        let px = decode(&std::fs::read(dir.join("p4.png")).unwrap());
        let (blue, orange) = (near(&px, (0x00, 0x72, 0xB2)), near(&px, (0xE6, 0x9F, 0x00)));
        assert!(
            blue > 300 && orange > 300,
            "LibreOffice drew the bars in the palette ({blue} blue, {orange} orange px)"
        );
    }
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let _ = std::fs::create_dir_all(&dir);
        let v = json!({"area": "slides", "deck_slides": made.slides, "libreoffice_pages": pages, "native_charts": made.charts,
            "create_ms": (create_ms * 10.0).round() / 10.0, "libreoffice_pdf_ms": lo_ms.round(), "bytes": made.bytes.len()});
        let _ = std::fs::write(std::path::Path::new(&dir).join("slides.json"), v.to_string());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_table_continues_with_its_header_and_our_reader_agrees() {
    let mut rows = vec![json!(["Store", "City", "Sales"])];
    rows.extend((1..=40).map(|i| json!([format!("Store {i}"), "Springfield", format!("{}", i * 1000)])));
    let spec = json!({"title": "Stores", "slides": [{"title": "All stores", "table": rows, "notes": "forty rows"}]});
    let made = make(&spec, &[]);
    assert!(made.slides >= 4, "{} slides", made.slides);
    assert!(made.warnings[0].contains("continue onto"), "{:?}", made.warnings);
    let slides = extract("t.pptx", &made.bytes).unwrap();
    assert_eq!(slides[1].title, "All stores");
    assert_eq!(slides[2].title, "All stores (cont.)");
    assert_eq!(slides[1].notes, "forty rows");
    assert_eq!(slides[2].notes, "");
    let mut seen = Vec::new();
    for s in &slides[1..] {
        assert_eq!(s.body[0], "Store | City | Sales", "header repeated on slide {}", s.slide);
        seen.extend(s.body[1..].iter().cloned());
    }
    assert_eq!(seen.len(), 40);
    assert_eq!(seen[39], "Store 40 | Springfield | 40000");
}

#[test]
fn every_chart_type_is_a_native_chart_part() {
    for (t, tag) in [
        ("bar", "c:barChart"),
        ("line", "c:lineChart"),
        ("area", "c:areaChart"),
        ("pie", "c:pieChart"),
        ("scatter", "c:scatterChart"),
        ("combo", "c:lineChart"),
    ] {
        let chart = json!({"type": t, "categories": ["a","b","c"], "series": [{"name":"s","values":[1,-2,3],"x":[1,2,3]}, {"name":"t","type":"line","axis": if t == "combo" {"secondary"} else {"primary"},"values":[3,2,1]}]});
        let chart = if t == "pie" {
            json!({"type":"pie","categories":["a","b"],"series":[{"name":"s","values":[1,2]}]})
        } else {
            chart
        };
        let made = make(&json!({"title": "x", "slides": [{"title": t, "chart": chart}]}), &[]);
        let xml = entry(&made.bytes, "ppt/charts/chart1.xml").unwrap();
        assert!(xml.contains(tag), "{t}: {tag}");
        roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{t}: chart XML parses: {e}"));
        if t == "combo" {
            assert!(xml.contains(r#"<c:axPos val="r"/>"#), "secondary axis");
        }
    }
}

#[test]
fn bad_decks_are_refused_by_name() {
    for (spec, want) in [
        (json!({"slides": []}), "title is missing"),
        (
            json!({"title": "x", "theme": "dark"}),
            "unknown field \"theme\" — valid fields are: title, subtitle, footer, slides",
        ),
        (json!({"title": "x", "slides": [{"title": "a", "bulets": ["x"]}]}), "slides[0].unknown field \"bulets\""),
        (json!({"title": "x", "slides": [{"table": [["a","b"],["1"]]}]}), "row 1 has 1 cells but the header has 2"),
        (
            json!({"title": "x", "slides": [{"chart": {"type": "donut", "series": []}}]}),
            "slides[0].chart: chart spec: unknown chart type",
        ),
        (json!({"title": "売上"}), "cannot draw"),
        (
            json!({"title": "x", "slides": [{"image": "/a.png", "chart": {"type":"bar","series":[{"name":"a","values":[1]}]}}]}),
            "both want the right half",
        ),
    ] {
        let e = Deck::from_json(&spec).unwrap_err().to_string();
        assert!(e.contains(want), "{spec}: {e}");
    }
    let deck = Deck::from_json(&json!({"title": "x", "slides": [{"title": "t", "image": "/missing.png"}]})).unwrap();
    let e = create(&deck, &|p: &str| Err(format!("{p}: no such file"))).unwrap_err().to_string();
    assert!(e.contains("/missing.png") && e.contains("hint"), "{e}");
    let deck = Deck::from_json(&json!({"title": "x", "slides": [{"title": "t", "image": "/a.png"}]})).unwrap();
    let e = create(&deck, &|_: &str| Ok(b"hello".to_vec())).unwrap_err().to_string();
    assert!(e.contains("not a PNG, JPEG or GIF"), "{e}");
}
