//! Every PDF and DOCX of the corpus is described and read, or refused with a named error.

use folio_docs::{DocsError, docxread, pdftext};

use super::common::*;

#[test]
fn every_corpus_document_is_described_and_read_or_refused_by_name() {
    let Some(dir) = corpus() else { return };
    let r = renderer();
    let engine = r.pdfium().map_err(|e| eprintln!("text extraction skipped: {e}")).ok();
    let mut seen = 0;
    let mut lines = Vec::new();
    for sub in ["pdf", "documents", "hostile"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
            if !matches!(ext.as_str(), "pdf" | "docx") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            seen += 1;
            let started = std::time::Instant::now();
            let result: Result<String, DocsError> = if ext == "pdf" {
                folio_docs::ops::describe_pdf(&r, &name, &bytes).and_then(|d| match &engine {
                    Some(e) if d["needsPassword"] != true => {
                        let pages = d["pages"].as_u64().unwrap_or(0).min(5) as u32;
                        let want: Vec<u32> = (1..=pages).collect();
                        pdftext::extract(e, &name, &bytes, Some(&want))
                            .map(|t| format!("{} pages, first 5 {}", d["pages"], t.kind))
                    }
                    _ => Ok(format!(
                        "{} pages, encrypted {}, needs a password {}",
                        d["pages"], d["encrypted"], d["needsPassword"]
                    )),
                })
            } else {
                docxread::describe(&name, bytes, docxread::DEFAULT_CAP)
                    .map(|d| format!("{} paragraphs, {} words", d.paragraphs, d.words))
            };
            let ms = started.elapsed().as_millis();
            match result {
                Ok(summary) => lines.push(format!("{sub}/{name}: {summary} ({ms} ms)")),
                Err(e) => {
                    let named = matches!(
                        e,
                        DocsError::Encrypted { .. }
                            | DocsError::Damaged { .. }
                            | DocsError::Refused { .. }
                            | DocsError::Render(_)
                    );
                    let msg = e.to_string();
                    assert!(
                        named && (msg.contains(" — hint: ") || matches!(e, DocsError::Render(_))),
                        "{sub}/{name}: unnamed error {msg}"
                    );
                    lines.push(format!("{sub}/{name}: refused: {msg}"));
                }
            }
        }
    }
    for l in &lines {
        eprintln!("{l}");
    }
    let refused = lines.iter().filter(|l| l.contains(": refused: ")).count();
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let figure = serde_json::json!({
            "area": "documents",
            "corpus": {"files": seen, "described_and_read": seen - refused, "refused_with_named_error": refused, "unnamed_errors": 0},
        });
        std::fs::write(dir.join("documents.json"), serde_json::to_vec_pretty(&figure).unwrap()).unwrap();
    }
    assert!(seen >= 20, "the corpus holds at least 20 PDFs and DOCX files, saw {seen}");
}

/// Words as a multiset.
fn words(text: &str) -> std::collections::BTreeMap<String, usize> {
    let mut m = std::collections::BTreeMap::new();
    for w in text.split_whitespace() {
        *m.entry(w.to_string()).or_insert(0) += 1;
    }
    m
}

#[test]
fn a_rotated_scans_ocr_layer_is_read_whole_heading_included() {
    let Some(dir) = corpus() else { return };
    let Some(pdftotext) = tool("pdftotext") else { return };
    let path = dir.join("pdf/copier-scan-ccitt-ocr-rotate270.pdf");
    let bytes = std::fs::read(&path).unwrap();
    let engine = renderer().pdfium().unwrap();
    let got = pdftext::extract(&engine, "scan.pdf", &bytes, None).unwrap().text;
    let poppler = output(&pdftotext, &[path.to_str().unwrap(), "-"]);
    let (mine, theirs) = (words(&got), words(&poppler));
    let missing: Vec<_> = theirs.iter().filter(|(w, n)| mine.get(*w).copied().unwrap_or(0) < **n).collect();
    let total: usize = theirs.values().sum();
    let lost: usize = missing.iter().map(|(w, n)| **n - mine.get(*w).copied().unwrap_or(0)).sum();
    eprintln!("pdftotext {total} words, PDFium misses {lost}: {missing:?}");
    assert!(
        got.contains("Helvetica") && got.contains("Lorem ipsum dolor sit amet"),
        "the heading and first line: {got}"
    );
    assert!(lost * 20 <= total, "PDFium misses {lost} of pdftotext's {total} words: {missing:?}");
    // grep `documents: true` reads the same text, heading included.
    let grep = folio_docs::extract_text(&renderer(), "scan.pdf", &bytes).unwrap();
    assert!(grep.contains("Helvetica") && grep.contains("Lorem ipsum dolor sit amet"), "grep's text: {grep}");
}
