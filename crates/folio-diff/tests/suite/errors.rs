//! Errors: an encrypted PDF on one side, a truncated workbook, a non-video named .mp4 — each a
//! named error that says which version, what happened and the fix.

use std::process::Command;

use folio_diff::{DiffError, PageDiff, Side, cells, video};
use serde_json::json;

use super::{ffmpeg, pages_pdf, renderer, xlsx};

#[test]
fn an_encrypted_pdf_on_one_side_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, locked) = (dir.path().join("plain.pdf"), dir.path().join("locked.pdf"));
    std::fs::write(&plain, pages_pdf(&["one".into()])).unwrap();
    let status = Command::new("qpdf")
        .args(["--encrypt", "user-secret", "owner-secret", "256", "--"])
        .arg(&plain)
        .arg(&locked)
        .status()
        .expect("qpdf must be installed (scripts/install.sh installs it)");
    assert!(status.success());
    let e = PageDiff::open(
        &renderer(),
        Some(std::fs::read(&plain).unwrap()),
        Some(std::fs::read(&locked).unwrap()),
        "/out/q.pdf",
    )
    .unwrap_err();
    assert!(matches!(e, DiffError::Encrypted { side: Side::New, .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains("/out/q.pdf")
            && msg.contains("pending version")
            && msg.contains("hint: review an unprotected copy"),
        "{msg}"
    );
}

#[test]
fn a_truncated_workbook_is_refused_by_name() {
    let book = xlsx(json!({"sheets": [{"name": "S", "rows": [["a", "b"], [1, 2]]}]}));
    let cut = &book[..book.len() / 2];
    let e = cells(Some(cut), Some(&book), "/out/sales.xlsx").unwrap_err();
    assert!(matches!(e, DiffError::Workbook { side: Side::Old, .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("/out/sales.xlsx") && msg.contains("before") && msg.contains("hint"), "{msg}");
}

#[test]
fn a_file_named_mp4_that_is_not_video_is_refused_by_name() {
    let e = video(&ffmpeg(), Some(b"just some text, not a movie\n"), None, "/out/clip.mp4").unwrap_err();
    assert!(matches!(e, DiffError::NotVideo { side: Side::Old, .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("/out/clip.mp4") && msg.contains("not a video") && msg.contains("named .mp4"), "{msg}");
}

#[test]
fn nothing_on_either_side_is_a_named_mistake() {
    let e = cells(None, None, "/out/x.xlsx").unwrap_err().to_string();
    assert!(e.contains("nothing to compare") && e.contains("hint"), "{e}");
}
