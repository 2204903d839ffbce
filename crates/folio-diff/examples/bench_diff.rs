//! `cargo run --release -p folio-diff --example bench_diff`: the review's two cost targets.
//!
//! 1. **First page diff of two 100-page PDFs** (target ≤ 0.5 s): two PDFs made by folio-docs
//!    (`BENCH_PAGES`, default 100; the new one with page 50's text edited and a page inserted
//!    at 70), then `PageDiff::open` (page counts, the pages' object hashes, the alignment) plus
//!    `compare(0, 100 dpi)` — what the review panel waits for before its first picture. Twice:
//!    edits in letters the document already uses (its font subset, so every other page's
//!    objects, unchanged: pages align by objects) and edits with new letters (every page's
//!    objects change: pages align by every page's text). Best of three, PDFium already loaded
//!    (its one-time load is printed apart).
//! 2. **Whole cell diff of two 50k-row workbooks** (target ≤ 2 s): two xlsx made by
//!    folio-sheets (`BENCH_ROWS`, default 50 000 rows × 8 columns, one a formula), the new one
//!    with 30 edited cells and 5 inserted rows, then `cells()` end to end (both reads and the
//!    comparison). Best of three.
//!
//! Prints the figures and checks the diffs found what was changed.
#![allow(clippy::panic, missing_docs)]

use std::time::{Duration, Instant};

use folio_diff::{PageDiff, cells};
use folio_render::{HostPaths, Renderer};
use serde_json::{Value, json};

/// Ends the benchmark with what went wrong, instead of a panic's backtrace.
fn or_fail<T, E: std::fmt::Display>(r: Result<T, E>, what: &str) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("bench_diff: {what}: {e}");
        std::process::exit(1)
    })
}

fn env_num(key: &str, default: usize) -> usize {
    std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The fastest of `runs` runs, with that run's value.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut out: Option<(Duration, T)> = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        let took = t.elapsed();
        if out.as_ref().is_none_or(|(b, _)| took < *b) {
            out = Some((took, v));
        }
    }
    out.unwrap_or_else(|| {
        eprintln!("bench_diff: no run");
        std::process::exit(1)
    })
}

fn pdf(pages: &[String]) -> Vec<u8> {
    let mut content = Vec::new();
    for (i, t) in pages.iter().enumerate() {
        if i > 0 {
            content.push(json!({"pageBreak": true}));
        }
        content.push(json!({"heading": format!("Chapter {}", i + 1)}));
        for k in 0..6 {
            content.push(json!({"text": format!("{t} — paragraph {k} of the chapter, with enough words to fill a few lines of the page and give PDFium some text to read, as a report page has.")}));
        }
    }
    let doc = or_fail(folio_docs::spec::Doc::parse(&json!({"content": content})), "the PDF spec");
    or_fail(folio_docs::pdfwrite::write_pdf(&doc), "writing the PDF")
}

fn workbook(rows: usize, edit: bool) -> Vec<u8> {
    let mut data: Vec<Value> =
        vec![json!(["id", "region", "product", "units", "price", "discount", "channel", "revenue"])];
    for i in 1..=rows {
        let mut units = (i * 7 % 101) as u64;
        let mut region = ["North", "South", "East", "West"][i % 4].to_string();
        if edit && i % (rows / 30).max(1) == 0 {
            units += 1;
            region.push('*');
        }
        let channel = ["web", "store"][i % 2];
        data.push(json!([
            i,
            region,
            format!("P{:04}", i % 997),
            units,
            (i % 50) as f64 + 0.5,
            0.1,
            channel,
            Value::Null
        ]));
        if edit && i % (rows / 5).max(1) == 0 {
            data.push(json!([rows + i, "New", "P0000", 1, 1.5, 0, "web", Value::Null]));
        }
    }
    for (r, row) in data.iter_mut().enumerate().skip(1) {
        row[7] = json!(format!("=D{n}*E{n}*(1-F{n})", n = r + 1));
    }
    let sheets =
        or_fail(folio_sheets::create::workbook(&json!({"sheets": [{"name": "Sales", "rows": data}]})), "the spec");
    or_fail(folio_sheets::create::write("/bench.xlsx", sheets), "writing the workbook").0
}

fn main() {
    let pages = env_num("BENCH_PAGES", 100);
    let rows = env_num("BENCH_ROWS", 50_000);
    let renderer = Renderer::new(HostPaths::from_host(None));
    let t = Instant::now();
    or_fail(renderer.pdfium(), "loading PDFium");
    println!("PDFium load (once per process): {:.1} ms", t.elapsed().as_secs_f64() * 1e3);

    let texts: Vec<String> = (0..pages).map(|i| format!("Page {i} discusses topic number {i}")).collect();
    // Two edits: page 50 rewritten and a page inserted at 70. With letters the document already
    // uses, the font subset is unchanged and pages align by their objects; with new letters
    // (capitals, symbols) the subset and every page's objects change and pages align by text.
    for (label, rewrite, insert) in [
        ("same letters", "Page 50 discusses a topic rewritten", "Page 70 discusses something inserted"),
        ("new letters", "REWRITTEN: Quarterly figures (Q3)", "INSERTED: Key risks & mitigations"),
    ] {
        let mut edited = texts.clone();
        if pages > 70 {
            edited[50] = rewrite.into();
            edited.insert(70, insert.into());
        }
        let (old, new) = (pdf(&texts), pdf(&edited));
        let (took, (opened, first)) = best(3, || {
            let diff =
                or_fail(PageDiff::open(&renderer, Some(old.clone()), Some(new.clone()), "/out/report.pdf"), "open");
            let first = or_fail(diff.compare(0, 100.0), "compare(0)");
            (diff.overview(), first)
        });
        let added = opened.status.iter().filter(|s| **s == folio_diff::PageStatus::Added).count();
        let unchanged = opened.status.iter().filter(|s| **s == folio_diff::PageStatus::Unchanged).count();
        println!(
            "first page diff of two {pages}-page PDFs ({label}): {:.1} ms (target ≤ 500) — open {} ms ({} pairs, {added} added, {unchanged} known unchanged before any render; {}), compare(0) at 100 dpi {} ms, page 1 changed: {}",
            took.as_secs_f64() * 1e3,
            opened.ms,
            opened.pairs.len(),
            opened.notes.join("; "),
            first.ms,
            first.changed
        );
        // (The edits are at pages 50 and 70: a smaller BENCH_PAGES has neither.)
        if (pages > 70 && added != 1) || first.changed {
            eprintln!(
                "bench_diff: expected one added page and page 1 unchanged, found {added} added, page 1 changed: {}",
                first.changed
            );
            std::process::exit(1);
        }
    }

    let t = Instant::now();
    let (a, b) = (workbook(rows, false), workbook(rows, true));
    println!(
        "(made two {rows}-row workbooks, {} and {} KiB, in {:.1} s)",
        a.len() / 1024,
        b.len() / 1024,
        t.elapsed().as_secs_f64()
    );
    let (took, diff) = best(3, || or_fail(cells(Some(&a), Some(&b), "/out/sales.xlsx"), "cells"));
    let s = &diff.sheets[0];
    println!(
        "whole cell diff of two {rows}-row workbooks: {:.1} ms (target ≤ 2000) — {} changed cells, {} added rows, {} removed, rows matched by {:?}",
        took.as_secs_f64() * 1e3,
        s.counts.changed_cells,
        s.counts.added_rows,
        s.counts.removed_rows,
        s.rows_matched_by
    );
    // Each edited row changes its region and units, and so its revenue's cached value: three cells.
    let edits = (rows / (rows / 30).max(1)) as u64;
    if s.counts.changed_cells != 3 * edits || s.counts.added_rows != 5 || s.counts.removed_rows != 0 {
        eprintln!("bench_diff: expected {} changed cells and 5 added rows, the diff found otherwise", 3 * edits);
        std::process::exit(1);
    }
}
