//! Every file of the real-world corpus (`shared/corpus`, or `FOLIO_CORPUS`) through the diff its
//! kind gets in the review panel, against itself and against nothing: a file compared with
//! itself shows no change, a new file shows all of it added, and a file the readers refuse is a
//! named error with its fix — never a panic, never a silent "no change" for a file that was
//! not read.
//!
//! PDFs go through `PageDiff` (PDFium; Office documents would need LibreOffice and are left to
//! the review tests), workbooks and CSV through `cells`, images through `image`, archives
//! through `archive`, clips through `video` (ffmpeg).

use std::path::{Path, PathBuf};

use folio_diff::{DiffError, PageDiff, PageStatus, Shape, archive, cells, image, shape_of, video};

use super::{ffmpeg, renderer};

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: the corpus is not at {} (set FOLIO_CORPUS)", dir.display());
        None
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e != "md") && !path.ends_with("SHA256SUMS") {
            out.push(path);
        }
    }
}

/// What one file gave: `Ok(note)` when its diffs held, `Err(why)` when they did not.
fn check(path: &Path, bytes: &[u8]) -> Result<String, String> {
    let name = format!("/inbox/{}", path.file_name().unwrap().to_string_lossy());
    let refused = |e: DiffError| -> Result<String, String> {
        let msg = e.to_string();
        match e {
            DiffError::Internal { .. } => Err(format!("a reader panicked: {msg}")),
            _ if msg.contains("hint") => Ok(format!("refused, named: {msg}")),
            _ => Err(format!("refused without a fix: {msg}")),
        }
    };
    match shape_of(&name, &bytes[..bytes.len().min(4096)]) {
        Shape::Pages if name.ends_with(".pdf") => {
            let diff = match PageDiff::open(&renderer(), Some(bytes.to_vec()), Some(bytes.to_vec()), &name) {
                Ok(d) => d,
                Err(e) => return refused(e),
            };
            let overview = diff.overview();
            if overview.status.is_empty() {
                return Err("no pages".into());
            }
            // Pages lopdf cannot read are not known unchanged before a render: each is
            // rendered and compared, and must come out the same.
            for (i, status) in overview.status.iter().enumerate() {
                match status {
                    PageStatus::Unchanged => {}
                    PageStatus::Unknown => {
                        let page = diff.compare(i, 30.0).map_err(|e| format!("compare({i}): {e}"))?;
                        if page.changed {
                            return Err(format!("page pair {i} compared with itself changed"));
                        }
                    }
                    other => return Err(format!("compared with itself, page pair {i} is {other:?}")),
                }
            }
            let first = diff.compare(0, 40.0).map_err(|e| format!("compare(0): {e}"))?;
            if first.changed {
                return Err("page 1 compared with itself changed".into());
            }
            let added = PageDiff::open(&renderer(), None, Some(bytes.to_vec()), &name).map_err(|e| e.to_string())?;
            if added.overview().status.iter().any(|s| *s != PageStatus::Added) {
                return Err("a new file's pages are not all added".into());
            }
            let unknown = overview.status.iter().filter(|s| **s == PageStatus::Unknown).count();
            Ok(format!("{} pages unchanged ({unknown} rendered to know it)", overview.status.len()))
        }
        Shape::Cells => {
            let same = match cells(Some(bytes), Some(bytes), &name) {
                Ok(d) => d,
                Err(e) => return refused(e),
            };
            for s in &same.sheets {
                let c = &s.counts;
                if c.changed_cells + c.added_rows + c.removed_rows + c.added_columns + c.removed_columns > 0 {
                    return Err(format!("sheet {} compared with itself: {c:?}", s.name));
                }
            }
            let new = cells(None, Some(bytes), &name).map_err(|e| e.to_string())?;
            let rows: u64 = new.sheets.iter().map(|s| s.counts.added_rows).sum();
            let size: u64 = same.sheets.iter().map(|s| u64::from(s.new_size.0)).sum();
            if rows != size {
                return Err(format!("a new workbook of {size} rows shows {rows} added"));
            }
            Ok(format!("{} sheet(s), {rows} rows", same.sheets.len()))
        }
        Shape::Image => {
            let same = match image(Some(bytes), Some(bytes), &name) {
                Ok(d) => d,
                Err(e) => return refused(e),
            };
            if same.changed_pixels != 0 || same.bbox.is_some() {
                return Err(format!("compared with itself: {} pixels changed", same.changed_pixels));
            }
            Ok(format!("{}×{} unchanged", same.width, same.height))
        }
        Shape::Archive => {
            let same = match archive(Some(bytes), Some(bytes), &name) {
                Ok(d) => d,
                Err(e) => return refused(e),
            };
            if !same.added.is_empty() || !same.removed.is_empty() || !same.changed.is_empty() {
                return Err("compared with itself, entries differ".into());
            }
            let new = archive(None, Some(bytes), &name).map_err(|e| e.to_string())?;
            if new.added.len() as u64 != same.same_count {
                return Err(format!("{} entries, {} shown added", same.same_count, new.added.len()));
            }
            Ok(format!("{} entries", same.same_count))
        }
        Shape::Video => {
            let same = match video(&ffmpeg(), Some(bytes), Some(bytes), &name) {
                Ok(d) => d,
                Err(e) => return refused(e),
            };
            if !same.changed.is_empty() {
                return Err(format!("compared with itself: {:?}", same.changed));
            }
            Ok("no frames changed".into())
        }
        other => Ok(format!("{other:?}: not compared here")),
    }
}

#[test]
fn every_corpus_file_compared_with_itself_shows_no_change_or_a_named_refusal() {
    let Some(dir) = corpus() else { return };
    let mut all = Vec::new();
    files(&dir, &mut all);
    let mut failures = Vec::new();
    for path in &all {
        let bytes = std::fs::read(path).unwrap();
        let outcome =
            std::panic::catch_unwind(|| check(path, &bytes)).unwrap_or_else(|_| Err("the diff panicked".into()));
        let shown = path.strip_prefix(&dir).unwrap_or(path).display().to_string();
        match outcome {
            Ok(note) => eprintln!("{shown}: {note}"),
            Err(why) => failures.push(format!("{shown}: {why}")),
        }
    }
    assert!(all.len() > 100, "the corpus has {} files", all.len());
    assert!(failures.is_empty(), "{} file(s):\n{}", failures.len(), failures.join("\n"));
}
