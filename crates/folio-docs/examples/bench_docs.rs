//! Prints the time of a 20-page PDF report (and the same spec as DOCX) written by env:documents'
//! native route. `cargo run -p folio-docs --example bench_docs --release [-- out.pdf]`.

use std::time::Instant;

use folio_docs::spec::Doc;
use serde_json::{Value, json};

fn report(pages: usize) -> Value {
    let mut content = vec![json!({"heading": "Quarterly report — Σύνοψη / Сводка", "level": 1})];
    for p in 0..pages {
        content.push(json!({"heading": format!("Section {} — Регион {}", p + 1, p + 1), "level": 2}));
        content.push(json!({"text": "Revenue grew in every region this quarter. Η ανάπτυξη ήταν σταθερή σε όλες τις περιοχές. Выручка выросла во всех регионах. ".repeat(3)}));
        content.push(json!({"bullets": ["North: ahead of plan", ["new accounts 14", "churn 2.1%"], "South: on plan"]}));
        let rows: Vec<Value> = (0..18)
            .map(|r| json!([format!("Item {r}"), format!("{}", 1200 + r * 37), format!("{:.1}%", r as f32 * 0.7)]))
            .collect();
        content.push(json!({"table": {"headers": ["Line", "Amount", "Change"], "rows": rows}}));
        content.push(json!({"pageBreak": true}));
    }
    json!({"title": "Quarterly report", "author": "Folio", "pageSize": "a4", "header": "ACME — Q3", "footer": "Confidential", "pageNumbers": true, "content": content})
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec = report(20);
    let doc = Doc::parse(&spec)?;
    let mut times = Vec::new();
    let mut bytes = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        bytes = folio_docs::pdfwrite::write_pdf(&doc)?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let pages = folio_docs::pdfops::describe("report.pdf", &bytes)?["pages"].clone();
    println!(
        "pdf.create, 20-page report: {pages} pages, {} bytes, p50 {:.1} ms, min {:.1} ms (5 runs)",
        bytes.len(),
        times[2],
        times[0]
    );
    let mut dt = Vec::new();
    let mut docx = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        docx = folio_docs::docxwrite::write_docx(&doc)?;
        dt.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    dt.sort_by(f64::total_cmp);
    println!("docx.create, same spec: {} bytes, p50 {:.1} ms", docx.len(), dt[2]);
    let t = Instant::now();
    let pairs = [("Revenue grew".to_string(), "Sales grew".to_string()), ("Item 3".to_string(), "Line 3".to_string())];
    let (_, replaced) = folio_docs::docxread::replace(
        "r.docx",
        docx,
        &pairs,
        folio_docs::docxread::Parts::All,
        "r2.docx",
        folio_docs::docxread::DEFAULT_CAP,
    )?;
    println!(
        "docx.replaceText: {} replacements in {:?}, {:.1} ms",
        replaced.replacements,
        replaced.parts,
        t.elapsed().as_secs_f64() * 1000.0
    );
    if let Some(out) = std::env::args().nth(1) {
        std::fs::write(&out, &bytes)?;
        println!("wrote {out}");
    }
    Ok(())
}
