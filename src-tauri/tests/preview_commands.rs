//! The preview commands through Tauri's mock runtime (no display): registered, wired to the
//! shared preview state, and answering on the same IPC path the UI uses.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use folio_desktop::api::*;
use serde_json::json;

mod mock;
use mock::{app, call};

#[test]
fn previews_need_a_folder_then_describe_files_and_read_tables() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sales.csv"), "region,units\nNorth,12\nSouth,7\n").unwrap();
    std::fs::write(dir.path().join("notes.md"), "# Notes\n").unwrap();
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("no folder is open"), "{err}");
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/notes.md"}})).unwrap();
    assert_eq!((info.kind, info.size), (PreviewKind::Markdown, 8));
    let table: PreviewTableResponse =
        call(&app, "preview_table", json!({"params": {"path": "/sales.csv", "limit": 2}})).unwrap();
    assert_eq!((table.rows.len(), table.total_rows, table.truncated), (2, 3, true));
    let err =
        call::<PreviewPagesResponse>(&app, "preview_pages", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("only PDFs and Office documents have pages"), "{err}");
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/.env/x"}})).unwrap_err();
    assert!(err.contains("private settings zone"), "{err}");
}
