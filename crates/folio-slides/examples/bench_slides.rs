//! Prints how long the six-slide deck (with a native chart and a chart image) takes to create,
//! and to read back (extract), median of 25 runs. With `FOLIO_SLIDES_OUT=<file.pptx>` it also
//! writes the deck there.

use std::time::Instant;

use folio_slides::{Deck, create, extract};
use serde_json::json;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let chart = json!({"type":"line","title":"Monthly revenue","categories":["Jan","Feb","Mar","Apr","May","Jun"],"series":[{"name":"Revenue","values":[1.2,1.4,1.3,1.7,1.9,2.2]}]});
    let t = Instant::now();
    let png = match folio_charts::chart_png(&chart, 800, 500) {
        Ok(p) => p,
        Err(e) => {
            println!("chart: {e}");
            return;
        }
    };
    println!("chart PNG 800×500: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let spec = json!({
        "title": "Quarterly Business Review", "subtitle": "Finance team · October", "footer": "Acme Corp · Confidential",
        "slides": [
            {"title": "Highlights", "bullets": ["Revenue grew nine percent", "  EMEA led the growth", "  APAC recovered", "Churn stayed flat"], "notes": "Open with the headline number."},
            {"title": "Revenue", "metric": {"value": "$4.2M", "caption": "Third quarter revenue"}},
            {"title": "Revenue by region", "chart": {"type": "combo", "categories": ["Americas", "Europe", "Pacific"], "series": [{"name": "Revenue", "values": [2100, 1400, 700]}, {"name": "Growth", "type": "line", "axis": "secondary", "values": [0.105, 0.077, 0.167]}], "numberFormat": "#,##0"}},
            {"title": "Regional detail", "table": [["Region", "Revenue", "Growth"], ["Americas", "2,100", "10.5%"], ["Europe", "1,400", "7.7%"], ["Pacific", "700", "16.7%"]]},
            {"title": "Trend", "bullets": ["Steady growth since January"], "image": "/out/trend.png"}
        ]
    });
    let deck = match Deck::from_json(&spec) {
        Ok(d) => d,
        Err(e) => {
            println!("deck: {e}");
            return;
        }
    };
    let (mut make, mut read, mut last) = (Vec::new(), Vec::new(), None);
    for _ in 0..25 {
        let t = Instant::now();
        let made = create(&deck, &|_: &str| Ok(png.clone()));
        make.push(t.elapsed().as_secs_f64() * 1e3);
        if let Ok(m) = made {
            let t = Instant::now();
            let _ = extract("qbr.pptx", &m.bytes);
            read.push(t.elapsed().as_secs_f64() * 1e3);
            last = Some(m);
        }
    }
    let Some(m) = last else {
        println!("deck creation failed");
        return;
    };
    println!(
        "deck creation ({} slides, {} native chart, {} B): {:.2} ms median; read back (extract): {:.2} ms",
        m.slides,
        m.charts,
        m.bytes.len(),
        median(make),
        median(read)
    );
    if let Some(out) = std::env::var_os("FOLIO_SLIDES_OUT") {
        let _ = std::fs::write(out, &m.bytes);
    }
}
