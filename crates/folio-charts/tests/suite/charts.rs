//! Each chart type as PNG (decoded, not blank, several palette colours present) and as SVG
//! (parsed back by resvg), deterministic output, and the named refusals of bad specs.

use folio_charts::{ChartSpec, render_png, to_svg};
use serde_json::{Value, json};

/// RGBA pixels of a PNG.
pub fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut d = png::Decoder::new(std::io::Cursor::new(png_bytes));
    d.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut r = d.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!(info.color_type, png::ColorType::Rgba, "expanded to RGBA");
    (info.width, info.height, buf)
}

/// How many pixels are close to `rgb` (within 24 per channel).
pub fn count(px: &[u8], rgb: (u8, u8, u8)) -> usize {
    px.chunks(4)
        .filter(|p| {
            (p[0] as i32 - rgb.0 as i32).abs() < 24
                && (p[1] as i32 - rgb.1 as i32).abs() < 24
                && (p[2] as i32 - rgb.2 as i32).abs() < 24
        })
        .count()
}

const BLUE: (u8, u8, u8) = (0x00, 0x72, 0xB2);
const ORANGE: (u8, u8, u8) = (0xE6, 0x9F, 0x00);

fn check(spec: Value, colours: &[(u8, u8, u8)], want_warnings: usize) {
    let parsed = ChartSpec::from_json(&spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let p = render_png(&parsed, 640, 400, 1.5).unwrap();
    assert_eq!((p.width, p.height), (960, 600));
    let (w, h, px) = decode(&p.png);
    assert_eq!((w, h), (960, 600));
    let total = (w * h) as usize;
    let white = count(&px, (255, 255, 255));
    assert!(white < total * 99 / 100, "{spec}: the chart is not blank ({white} of {total} white)");
    for c in colours {
        let n = count(&px, *c);
        assert!(n > total / 4000, "{spec}: colour {c:?} drawn ({n} px)");
    }
    let ink = count(&px, (0x1A, 0x1A, 0x2E)) + count(&px, (0x4B, 0x55, 0x63));
    assert!(ink > 100, "{spec}: text and axes drawn ({ink} px)");
    assert_eq!(p.warnings.len(), want_warnings, "{spec}: {:?}", p.warnings);
    let svg = to_svg(&parsed, 640, 400).unwrap();
    let (sw, sh) = folio_render::svg::svg_size("chart.svg", svg.svg.as_bytes()).unwrap();
    assert_eq!((sw, sh), (640.0, 400.0));
    assert_eq!(to_svg(&parsed, 640, 400).unwrap().svg, svg.svg, "deterministic");
}

#[test]
fn every_type_draws_something_legible() {
    let started = std::time::Instant::now();
    let q = json!(["Q1", "Q2", "Q3", "Q4"]);
    let two = |t: &str| {
        json!({"type": t, "title": "Two series", "categories": q, "series": [
            {"name": "North", "values": [10, 12, -3, 18]}, {"name": "South", "values": [8, 9, 11, 14]}]})
    };
    check(two("bar"), &[BLUE, ORANGE], 0);
    check(two("line"), &[BLUE, ORANGE], 0);
    check(
        json!({"type":"area","stacked":true,"categories":q,"series":[{"name":"a","values":[1,2,3,4]},{"name":"b","values":[4,3,2,1]}]}),
        &[],
        0,
    );
    check(
        json!({"type":"bar","horizontal":true,"stacked":true,"legend":"right","categories":q,"series":[{"name":"a","values":[1,2,3,4]},{"name":"b","values":[4,3,2,1]}]}),
        &[BLUE, ORANGE],
        0,
    );
    check(
        json!({"type":"pie","categories":["a","b","c"],"series":[{"name":"s","values":[50,30,20]}]}),
        &[BLUE, ORANGE],
        0,
    );
    check(json!({"type":"scatter","series":[{"name":"s","x":[1,2,3,4,5],"values":[2,4,3,5,null]}]}), &[BLUE], 1);
    check(
        json!({"type":"combo","categories":q,"numberFormat":"#,##0","series":[{"name":"Orders","values":[1200,1350,1600,1580]},{"name":"Rate","type":"line","axis":"secondary","values":[0.021,0.024,0.027,0.025]}]}),
        &[BLUE, ORANGE],
        0,
    );
    check(json!({"type":"line","categories":q,"series":[{"name":"gap","values":[1,null,3,4]}]}), &[BLUE], 1);
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let _ = std::fs::create_dir_all(&dir);
        let v = json!({"area": "charts", "specs": 8,
            "checked": "PNG decoded, not blank, palette colours present; SVG re-parsed; output deterministic",
            "secs_for_8_specs_png_960x600_plus_svg": (started.elapsed().as_secs_f64() * 100.0).round() / 100.0});
        let _ = std::fs::write(std::path::Path::new(&dir).join("charts.json"), v.to_string());
    }
}

#[test]
fn long_labels_are_wrapped_or_shortened_and_said() {
    let cats: Vec<String> = (0..24).map(|i| format!("A really quite long category label number {i}")).collect();
    let spec =
        ChartSpec::from_json(&json!({"type":"bar","categories":cats,"series":[{"name":"s","values":vec![1;24]}]}))
            .unwrap();
    let d = to_svg(&spec, 800, 500).unwrap();
    assert!(d.svg.contains("rotate(-45"), "turned labels");
    assert!(d.svg.contains('…'), "shortened labels");
    assert!(d.warnings.iter().any(|w| w.contains("shortened")), "{:?}", d.warnings);
}

#[test]
fn bad_specs_are_refused_by_name() {
    for (spec, want) in [
        (json!({"type":"donut","series":[]}), "valid types are: bar, line, area, pie, scatter, combo"),
        (json!({"type":"bar","colour":"red","series":[]}), "unknown field \"colour\" — valid fields are: type, title"),
        (json!({"type":"bar","series":[{"name":"a","vals":[1]}]}), "series[0].unknown field \"vals\""),
        (json!({"type":"bar","categories":["a","b"],"series":[{"name":"a","values":[1]}]}), "one value per category"),
        (json!({"type":"bar","series":[{"name":"a","values":[null,null]}]}), "every value of every series is empty"),
        (json!({"type":"pie","categories":["a","b"],"series":[{"name":"a","values":[3,-1]}]}), "negative value -1"),
        (json!({"type":"bar","series":[{"name":"a","values":"Sheet1!$B$2:$B$5"}]}), "only works in a workbook"),
        (json!({"type":"bar","series":[{"name":"a","values":[1,"x"]}]}), "values[1] must be a number"),
        (json!({"type":"line","series":[{"name":"a","axis":"secondary","values":[1]}]}), "only works in a combo"),
        (json!({"type":"bar","title":"売上","series":[{"name":"a","values":[1]}]}), "cannot draw"),
        (json!({"series":[]}), "type is missing"),
    ] {
        let e = ChartSpec::from_json(&spec).unwrap_err().to_string();
        assert!(e.contains(want), "{spec}: {e}");
    }
    let ok = ChartSpec::from_json(&json!({"type":"bar","series":[{"name":"a","values":[1]}]})).unwrap();
    let e = to_svg(&ok, 10, 10).unwrap_err().to_string();
    assert!(e.contains("outside 120..=8000"), "{e}");
    let e = render_png(&ok, 800, 500, 9.0).unwrap_err().to_string();
    assert!(e.contains("scale 9"), "{e}");
    assert!(
        folio_charts::chart_png(&json!({"type":"bar","series":[{"name":"a","values":[1, 2]}]}), 400, 300)
            .unwrap()
            .starts_with(b"\x89PNG")
    );
}

/// The `<rect>`s of colour `fill` in an SVG: (x, y, w, h).
fn rects(svg: &str, fill: &str) -> Vec<(f32, f32, f32, f32)> {
    let num = |tag: &str, k: &str| -> f32 {
        let at = tag.find(&format!(" {k}=\"")).unwrap() + k.len() + 3;
        tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
    };
    svg.split("<rect ")
        .skip(1)
        .map(|t| format!(" {}", &t[..t.find("/>").unwrap()]))
        .filter(|t| t.contains(&format!("fill=\"{fill}\"")))
        .map(|t| (num(&t, "x"), num(&t, "y"), num(&t, "width"), num(&t, "height")))
        .collect()
}

/// Where each label's `<text>` is drawn: (x, y).
fn label_at(svg: &str, label: &str) -> (f32, f32) {
    let end = svg.find(&format!(">{label}</text>")).unwrap_or_else(|| panic!("{label} is drawn"));
    let tag = &svg[svg[..end].rfind("<text ").unwrap()..end];
    let num = |k: &str| -> f32 {
        let at = tag.find(&format!(" {k}=\"")).unwrap() + k.len() + 3;
        tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
    };
    (num("x"), num("y"))
}

/// Categories keep the table's order in env:charts' own output in both orientations:
/// horizontal bars top-down (label y and bar y ascending, the longest bar first as in the
/// data), columns left to right — in the SVG and in the PNG's pixels.
#[test]
fn categories_keep_the_data_order_in_svg_and_png_in_both_orientations() {
    let cats = ["Alpha", "Bravo", "Charlie", "Delta"];
    let values = [40.0, 10.0, 30.0, 20.0];
    for horizontal in [true, false] {
        let spec = ChartSpec::from_json(&json!({"type": "bar", "horizontal": horizontal, "legend": "none",
            "categories": cats, "series": [{"name": "n", "values": values}]}))
        .unwrap();
        let svg = to_svg(&spec, 640, 400).unwrap().svg;
        let along = |p: (f32, f32)| if horizontal { p.1 } else { p.0 };
        let at: Vec<f32> = cats.iter().map(|c| along(label_at(&svg, c))).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "horizontal={horizontal}: labels in table order {at:?}");
        let mut bars = rects(&svg, "#0072B2");
        assert_eq!(bars.len(), 4, "{svg}");
        bars.sort_by(|a, b| along((a.0, a.1)).total_cmp(&along((b.0, b.1))));
        let lengths: Vec<f32> = bars.iter().map(|b| if horizontal { b.2 } else { b.3 }).collect();
        for (i, v) in values.iter().enumerate() {
            let ratio = lengths[i] / lengths[0];
            assert!((ratio - (*v as f32 / 40.0)).abs() < 0.02, "horizontal={horizontal}: bar {i} {lengths:?}");
        }
        // The PNG: blue bands in drawing order carry the data's lengths.
        let p = render_png(&spec, 640, 400, 1.0).unwrap();
        let (w, h, px) = decode(&p.png);
        let blue = |x: u32, y: u32| {
            let i = ((y * w + x) * 4) as usize;
            count(&px[i..i + 4], BLUE) == 1
        };
        let (outer, inner) = if horizontal { (h, w) } else { (w, h) };
        let mut bands: Vec<u32> = Vec::new();
        let mut inside = false;
        for o in 0..outer {
            let n = (0..inner).filter(|i| if horizontal { blue(*i, o) } else { blue(o, *i) }).count() as u32;
            if n > 0 && !inside {
                bands.push(n);
            } else if n > 0 {
                let last = bands.len() - 1;
                bands[last] = bands[last].max(n);
            }
            inside = n > 0;
        }
        assert_eq!(bands.len(), 4, "horizontal={horizontal}: {bands:?}");
        let order: Vec<usize> = {
            let mut idx: Vec<usize> = (0..4).collect();
            idx.sort_by_key(|i| std::cmp::Reverse(bands[*i]));
            idx
        };
        assert_eq!(order, [0, 2, 3, 1], "horizontal={horizontal}: band lengths {bands:?} follow 40, 10, 30, 20");
    }
}

/// Bar value axes start at zero (volcano heights are not exaggerated); `yMin` moves the start.
#[test]
fn bar_axes_start_at_zero_unless_y_min_says_otherwise() {
    let heights = [5895.0, 6190.0, 5642.0];
    let ratio = |extra: Value| {
        let mut spec = json!({"type": "bar", "legend": "none", "categories": ["K", "C", "E"], "series": [{"name": "m", "values": heights}]});
        if let Value::Object(m) = extra {
            spec.as_object_mut().unwrap().extend(m);
        }
        let svg = to_svg(&ChartSpec::from_json(&spec).unwrap(), 640, 400).unwrap().svg;
        let hs: Vec<f32> = rects(&svg, "#0072B2").iter().map(|r| r.3).collect();
        hs[2] / hs[1]
    };
    let from_zero = ratio(json!({}));
    assert!((from_zero - (5642.0 / 6190.0) as f32).abs() < 0.02, "from zero: {from_zero}");
    let from_5000 = ratio(json!({"yMin": 5000}));
    assert!((from_5000 - (642.0 / 1190.0) as f32).abs() < 0.05, "from 5000: {from_5000}");
    assert!(
        ChartSpec::from_json(&json!({"type": "bar", "yMin": "low", "series": [{"name": "m", "values": [1]}]})).is_err()
    );
}
