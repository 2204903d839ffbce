//! Prints how long each chart type takes to draw as SVG and to rasterise as PNG (800×500 at
//! scale 2, median of 15 runs). With `FOLIO_CHARTS_OUT=<dir>` it also writes the PNGs there.

use std::time::Instant;

use folio_charts::{ChartSpec, render_png, to_svg};
use serde_json::json;

fn specs() -> Vec<(&'static str, serde_json::Value)> {
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let long: Vec<String> = (1..=14).map(|i| format!("Distribution centre number {i} (north)")).collect();
    vec![
        (
            "bar-long-labels",
            json!({"type":"bar","title":"Orders per distribution centre, a title long enough that it has to wrap onto a second line","categories":long,"series":[{"name":"Orders","values":[5,9,-3,12,7,8,4,11,6,10,3,9,2,8]}],"yTitle":"Orders"}),
        ),
        (
            "bar",
            json!({"type":"bar","title":"Revenue by region","categories":["North America","Europe, Middle East and Africa","Asia Pacific","Latin America"],"series":[{"name":"2024","values":[1250000,980000,-120000,310000]},{"name":"2025","values":[1400000,1010000,150000,null]}],"numberFormat":"$#,##0","yTitle":"USD"}),
        ),
        (
            "bar-horizontal-stacked",
            json!({"type":"bar","horizontal":true,"stacked":true,"categories":["Support","Engineering","Sales"],"series":[{"name":"Q1","values":[3,8,5]},{"name":"Q2","values":[4,9,6]}],"legend":"right"}),
        ),
        (
            "line",
            json!({"type":"line","title":"Monthly active users","categories":months,"series":[{"name":"Web","values":[12,14,13,17,19,22,21,24,26,25,28,31]},{"name":"Mobile","values":[8,9,11,12,14,15,null,19,21,24,27,29]}]}),
        ),
        (
            "area",
            json!({"type":"area","stacked":true,"categories":months,"series":[{"name":"A","values":[1,2,3,4,5,6,7,8,9,10,11,12]},{"name":"B","values":[2,2,2,3,3,3,4,4,4,5,5,5]}]}),
        ),
        (
            "pie",
            json!({"type":"pie","title":"Share of tickets","categories":["Billing","Login","Bugs","Other"],"series":[{"name":"Tickets","values":[42,23,19,16]}]}),
        ),
        (
            "scatter",
            json!({"type":"scatter","xTitle":"Price","yTitle":"Units","series":[{"name":"Stores","x":[1.5,2,2.5,3,3.5,4],"values":[90,80,71,55,42,30]}]}),
        ),
        (
            "combo",
            json!({"type":"combo","title":"Orders and conversion","categories":["Q1","Q2","Q3","Q4"],"series":[{"name":"Orders","values":[1200,1350,1600,1580]},{"name":"Conversion","type":"line","axis":"secondary","values":[0.021,0.024,0.027,0.025]}],"numberFormat":"#,##0"}),
        ),
    ]
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let out = std::env::var_os("FOLIO_CHARTS_OUT").map(std::path::PathBuf::from);
    println!("chart render time (800×500, PNG at scale 2; median of 15)");
    for (name, v) in specs() {
        let spec = match ChartSpec::from_json(&v) {
            Ok(s) => s,
            Err(e) => {
                println!("{name}: {e}");
                continue;
            }
        };
        let (mut svg_ms, mut png_ms, mut last) = (Vec::new(), Vec::new(), None);
        for _ in 0..15 {
            let t = Instant::now();
            let _ = to_svg(&spec, 800, 500);
            svg_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            last = render_png(&spec, 800, 500, 2.0).ok();
            png_ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let bytes = last.as_ref().map_or(0, |p| p.png.len());
        println!("{name:<24} svg {:>6.2} ms   png {:>7.2} ms   {bytes} B", median(svg_ms), median(png_ms));
        if let (Some(dir), Some(p)) = (&out, &last) {
            let _ = std::fs::create_dir_all(dir);
            let _ = std::fs::write(dir.join(format!("{name}.png")), &p.png);
        }
    }
}
