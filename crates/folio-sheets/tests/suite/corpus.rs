//! Every workbook of the corpus (`spreadsheets/`, and the spreadsheet-like files of `hostile/`)
//! is described and read through env:spreadsheets, or refused with a named error — never a
//! panic or a hang. Writes `$FOLIO_RELIABILITY_DIR/spreadsheets.json` when that is set.

use std::sync::Arc;
use std::time::Instant;

use folio_vfs::{MemTree, Tree};
use serde_json::{Value, json};

use super::common::{corpus, run_with, vp};

const EXTS: &[&str] = &["xlsx", "xlsm", "xlsb", "xls", "ods", "csv", "tsv", "numbers"];

#[test]
fn every_corpus_workbook_is_described_and_read_or_refused_by_name() {
    let Some(dir) = corpus() else { return };
    let tree = Arc::new(MemTree::new());
    let mut paths = Vec::new();
    for sub in ["spreadsheets", "hostile"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        let mut names: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        names.sort();
        for p in names {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
            if !EXTS.contains(&ext.as_str()) {
                continue;
            }
            let tp = format!("/in/{sub}/{}", p.file_name().unwrap().to_string_lossy());
            tree.write(&vp(&tp), &std::fs::read(&p).unwrap()).unwrap();
            paths.push(tp);
        }
    }
    assert!(paths.len() >= 20, "{} corpus files", paths.len());
    let src = format!(
        r#"
        import {{ describe, read }} from 'env:spreadsheets';
        export default async function () {{
            const out = {{}};
            for (const p of {}) {{
                const t = Date.now();
                try {{
                    const d = await describe(p);
                    const r = await read(p, {{ limit: 20 }});
                    out[p] = {{ ok: true, sheets: d.sheets.length, rows: r.totalRows, first: r.rows[0] ?? null, ms: Date.now() - t }};
                }} catch (e) {{ out[p] = {{ ok: false, error: e.message, ms: Date.now() - t }}; }}
            }}
            return out;
        }}"#,
        serde_json::to_string(&paths).unwrap()
    );
    let started = Instant::now();
    let out = run_with(&tree, &src, Some(300_000)).unwrap();
    let secs = started.elapsed().as_secs_f64();
    let (mut read, mut refused) = (0, 0);
    let mut rows = Vec::new();
    for p in &paths {
        let r = &out[p];
        eprintln!("{p}: {r}");
        assert!(r["ms"].as_u64().unwrap() < 60_000, "{p} took {} ms", r["ms"]);
        if r["ok"] == true {
            read += 1;
        } else {
            refused += 1;
            let e = r["error"].as_str().unwrap();
            assert!(e.contains("hint:") && e.contains(p.as_str()), "{p}: an unnamed error: {e}");
            assert!(!e.contains("did not complete"), "{p}: the host call died: {e}");
        }
        rows.push(
            json!({"file": p, "ok": r["ok"], "ms": r["ms"], "error": r.get("error").cloned().unwrap_or(Value::Null)}),
        );
    }
    // The files a person would expect to open do open.
    for must in [
        "/in/spreadsheets/diamonds-53940-rows.xlsx",
        "/in/spreadsheets/formula-stress-every-function.xlsx",
        "/in/spreadsheets/formula-stress-every-function.ods",
        "/in/spreadsheets/formula-stress-every-function.xls",
        "/in/spreadsheets/formula-stress-every-function.xlsb",
        "/in/spreadsheets/vba-macros.xlsm",
        "/in/spreadsheets/merged-cells.ods",
    ] {
        if paths.iter().any(|p| p == must) {
            assert_eq!(out[must]["ok"], true, "{must}: {}", out[must]);
        }
    }
    if paths.iter().any(|p| p == "/in/spreadsheets/diamonds-53940-rows.xlsx") {
        assert_eq!(out["/in/spreadsheets/diamonds-53940-rows.xlsx"]["rows"], 53940);
    }
    for refused_file in [
        "/in/spreadsheets/password-protected-encrypted.xlsx",
        "/in/hostile/dos-repeated-cells.ods",
        "/in/hostile/text-named-xls.xls",
    ] {
        if paths.iter().any(|p| p == refused_file) {
            assert_eq!(out[refused_file]["ok"], false, "{refused_file} is refused: {}", out[refused_file]);
        }
    }
    eprintln!("corpus: {read} read, {refused} refused by name, in {secs:.1} s");
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let doc = json!({"area": "spreadsheets", "files": paths.len(), "read": read, "refused": refused, "panics": 0, "secs": secs, "results": rows});
        std::fs::write(dir.join("spreadsheets.json"), serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    }
}
