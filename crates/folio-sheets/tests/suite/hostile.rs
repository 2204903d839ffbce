//! Hostile inputs get named errors: a zip bomb inside an xlsx, a renamed non-zip `.xlsx`, a
//! truncated workbook, a zip without a workbook, an ODS repeat bomb, an empty file; a 200k-row
//! sheet is read in pages, and a read that cannot finish in the run is refused up front.

use std::io::{Cursor, Write};
use std::sync::Arc;
use std::time::Instant;

use folio_vfs::{MemTree, Tree};
use serde_json::json;

use super::common::{run, run_with, vp};

fn xlsx(rows: usize) -> Vec<u8> {
    // Written straight with rust_xlsxwriter (built optimised), so the test spends its time reading.
    let mut book = rust_xlsxwriter::Workbook::new();
    let ws = book.add_worksheet();
    ws.set_name("Data").unwrap();
    for (c, h) in ["id", "region", "units", "price", "note"].iter().enumerate() {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    for i in 0..rows {
        let r = i as u32 + 1;
        ws.write_number(r, 0, i as f64).unwrap();
        ws.write_string(r, 1, ["north", "south", "east", "west"][i % 4]).unwrap();
        ws.write_number(r, 2, ((i * 7) % 101) as f64).unwrap();
        ws.write_number(r, 3, 2.5).unwrap();
        ws.write_string(r, 4, format!("row {i}")).unwrap();
    }
    book.save_to_buffer().unwrap()
}

/// A real workbook with one more part that inflates past the cap (zeros, deflated).
fn bomb() -> Vec<u8> {
    let base = xlsx(3);
    let mut src = zip::ZipArchive::new(Cursor::new(base)).unwrap();
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..src.len() {
        w.raw_copy_file(src.by_index_raw(i).unwrap()).unwrap();
    }
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1))
        .large_file(true);
    w.start_file("xl/media/padding.bin", opts).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..800 {
        w.write_all(&zeros).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        w.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn hostile_workbooks_are_refused_by_name() {
    let started = Instant::now();
    let bomb = bomb();
    eprintln!("bomb: {} KiB of zip made in {:?}", bomb.len() / 1024, started.elapsed());
    let good = xlsx(10);
    let ods = zip_of(&[
        ("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"),
        ("content.xml", b"<table:table><table:table-row table:number-rows-repeated=\"99999999\"/></table:table>"),
    ]);
    let files: Vec<(&str, Vec<u8>)> = vec![
        ("/in/bomb.xlsx", bomb),
        ("/in/renamed.xlsx", b"name,total\nAda,3\n".to_vec()),
        ("/in/truncated.xlsx", good[..good.len() / 2].to_vec()),
        ("/in/docs.xlsx", zip_of(&[("word/document.xml", b"<w:document/>")])),
        ("/in/repeats.ods", ods),
        ("/in/empty.xlsx", Vec::new()),
    ];
    let src = r#"
        import { describe, read } from 'env:spreadsheets';
        export default async function () {
            const out = {};
            for (const p of ['/in/bomb.xlsx', '/in/renamed.xlsx', '/in/truncated.xlsx', '/in/docs.xlsx', '/in/repeats.ods', '/in/empty.xlsx']) {
                try { await read(p); out[p] = 'read'; } catch (e) { out[p] = e.message; }
                try { await describe(p); out[p + ' describe'] = 'described'; } catch (e) { out[p + ' describe'] = e.message; }
            }
            return out;
        }"#;
    let t = Instant::now();
    let (_, out) = run(&files, src);
    let out = out.unwrap();
    eprintln!("refusals in {:?}", t.elapsed());
    let want = [
        ("/in/bomb.xlsx", "inflate to more than 768 MiB"),
        ("/in/renamed.xlsx", "neither a zip package"),
        ("/in/truncated.xlsx", "the workbook is damaged"),
        ("/in/docs.xlsx", "without a workbook part"),
        ("/in/repeats.ods", "repeats one cell or row 99999999 times"),
        ("/in/empty.xlsx", "the file is empty"),
    ];
    for (p, w) in want {
        for key in [p.to_string(), format!("{p} describe")] {
            let msg = out[&key].as_str().unwrap();
            assert!(msg.contains(w) && msg.contains("hint:") && msg.contains(p), "{key}: {msg:?} should say {w:?}");
        }
    }
}

#[test]
fn a_200k_row_sheet_is_read_in_pages_and_a_read_that_cannot_finish_is_refused_up_front() {
    let t = Instant::now();
    let big = xlsx(200_000);
    eprintln!("200k rows: {} KiB written in {:?}", big.len() / 1024, t.elapsed());
    let tree = Arc::new(MemTree::new());
    tree.write(&vp("/in/big.xlsx"), &big).unwrap();
    // The rows job is estimated before anything is parsed: 300 ms is too little.
    let src_one = r#"
        import { read } from 'env:spreadsheets';
        export default async function () { return (await read('/in/big.xlsx', { limit: 10 })).totalRows; }"#;
    let err = run_with(&tree, src_one, Some(300)).unwrap_err();
    assert!(err.contains("env:spreadsheets.read /in/big.xlsx") && err.contains("read fewer rows per call"), "{err}");
    let src = r#"
        import { read } from 'env:spreadsheets';
        export default async function () {
            const pages = []; let offset = 0; let last = null; let total = 0;
            while (offset !== null) {
                const p = await read('/in/big.xlsx', { offset, limit: 50000 });
                pages.push(p.rows.length); total = p.totalRows; last = p.rows[p.rows.length - 1]; offset = p.nextOffset;
            }
            let over = '';
            try { await read('/in/big.xlsx', { limit: 150000 }); } catch (e) { over = e.message; }
            return { pages, total, last, over };
        }"#;
    let t = Instant::now();
    let out = run_with(&tree, src, Some(120_000)).unwrap();
    eprintln!("200k rows read in 4 pages in {:?}", t.elapsed());
    assert_eq!(out["pages"], json!([50000, 50000, 50000, 50000]), "{out}");
    assert_eq!(out["total"], 200_000);
    assert_eq!(
        out["last"],
        json!({"id": 199_999, "region": "west", "units": (199_999 * 7) % 101, "price": 2.5, "note": "row 199999"})
    );
    assert!(out["over"].as_str().unwrap().contains("limit 150000 is over the 100000"), "{out}");
}
