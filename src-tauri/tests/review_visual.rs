//! The review panel's visual diffs through Tauri's mock runtime, on real files made by the
//! project's own writers (see `review_fixtures`): a deck with slide 4 changed marks exactly that
//! page; a workbook with three edited cells and one added row lists exactly those; a clip
//! re-rendered with frames 30–45 changed reports that range; an image's painted square is its
//! box; an archive's entry list shows one added, one removed and one changed entry. Every picture
//! named is served by the `folio://` scheme's `?diff=` from the preview cache.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use folio_desktop::api::*;
use serde_json::json;

mod mock;
mod review_fixtures;
use mock::{App, app, call};

/// Opens the fixture folder and runs its revise script: five pending changes.
fn revised(app: &App) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    review_fixtures::fill(dir.path());
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let state = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview);
    let report =
        state.current().unwrap().environment().run_script("/scripts/revise.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    dir
}

fn params(path: &str) -> serde_json::Value {
    json!({"params": {"path": path}})
}

/// `review_pages`' arguments: the path and the channel its conversions' progress streams over
/// (the mock webview drops what it receives; folio-diff's tests read the progress itself).
fn pages_params(path: &str) -> serde_json::Value {
    json!({"params": {"path": path}, "onProgress": "__CHANNEL__:4242"})
}

/// The bytes `folio://localhost/?diff=<key>` serves.
fn served(app: &App, key: &str) -> Vec<u8> {
    use folio_desktop::preview::Previews;
    use std::sync::Arc;
    let state = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview);
    let session = state.current().unwrap();
    let previews: Arc<Previews> = tauri::Manager::state::<Arc<Previews>>(&app.webview).inner().clone();
    let request =
        tauri::http::Request::builder().uri(format!("folio://localhost/?diff={key}")).body(Vec::new()).unwrap();
    let response = folio_desktop::scheme::serve(Ok(&session), &previews, &request);
    assert_eq!(response.status(), 200, "{}", String::from_utf8_lossy(response.body()));
    assert_eq!(response.headers()["content-type"], "image/png");
    response.body().clone()
}

fn png_size(png: &[u8]) -> (u32, u32) {
    let img = image::load_from_memory(png).unwrap();
    (img.width(), img.height())
}

#[test]
fn each_change_says_its_shape_and_each_shape_shows_what_changed() {
    let app = app();
    let _dir = revised(&app);

    // review_diff says the shape; the panel asks the shape's own command.
    for (path, kind) in [
        ("/deck.pptx", DiffKind::Pages),
        ("/book.xlsx", DiffKind::Cells),
        ("/clip.mp4", DiffKind::Video),
        ("/chart.png", DiffKind::Image),
        ("/bundle.zip", DiffKind::Archive),
    ] {
        let diff: ReviewDiffResponse = call(&app, "review_diff", params(path)).unwrap();
        assert_eq!(diff.kind, kind, "{path}: {diff:?}");
    }

    // The deck: six aligned pairs, only slide 4 changed once rendered.
    let pages: ReviewPagesResponse = call(&app, "review_pages", pages_params("/deck.pptx")).unwrap();
    assert_eq!((pages.old_pages, pages.new_pages, pages.pairs.len()), (6, 6, 6), "{pages:?}");
    assert!(pages.pairs.iter().all(|p| p.old.is_some() && p.new.is_some()), "{pages:?}");
    let mut changed = Vec::new();
    for pair in &pages.pairs {
        let page: ReviewPageResponse =
            call(&app, "review_page", json!({"params": {"path": "/deck.pptx", "index": pair.index}})).unwrap();
        assert_ne!(page.state, PageState::Unknown);
        if page.state == PageState::Changed {
            changed.push(pair.new.unwrap());
            assert!(!page.boxes.is_empty() && page.changed_fraction > 0.0, "{page:?}");
            let b = page.boxes[0];
            assert!(b.x >= 0.0 && b.y >= 0.0 && b.x + b.w <= 1.001 && b.y + b.h <= 1.001, "boxes are fractions: {b:?}");
        }
        let (old, new) =
            (served(&app, page.old_png.as_deref().unwrap()), served(&app, page.new_png.as_deref().unwrap()));
        assert_eq!(png_size(&old), png_size(&new));
        assert!(png_size(&new).0 > 300, "a slide at 80 dpi is wider than 300 px: {:?}", png_size(&new));
    }
    assert_eq!(changed, [4], "exactly slide 4 is marked changed");
    let err = call::<ReviewPageResponse>(&app, "review_page", json!({"params": {"path": "/deck.pptx", "index": 6}}))
        .unwrap_err();
    assert!(err.contains("does not exist") && err.contains("hint:"), "{err}");

    // The workbook: C3, B5 and D2 (a formula) changed, row 8 added, Notes the same.
    let cells: ReviewCellsResponse = call(&app, "review_cells", params("/book.xlsx")).unwrap();
    let mut tabs: Vec<(&str, SheetState)> = cells.sheets.iter().map(|s| (s.name.as_str(), s.state)).collect();
    tabs.sort_by_key(|t| t.0);
    assert_eq!(tabs, [("Notes", SheetState::Same), ("Sales", SheetState::Changed)], "{cells:?}");
    let sales = cells.sheets.iter().find(|s| s.name == "Sales").unwrap();
    let mut addresses: Vec<&str> = sales.cells.iter().map(|c| c.address.as_str()).collect();
    addresses.sort();
    assert_eq!(addresses, ["B5", "C3", "D2"], "{sales:?}");
    let c3 = sales.cells.iter().find(|c| c.address == "C3").unwrap();
    assert_eq!((c3.row, c3.col, c3.old.as_deref(), c3.new.as_deref()), (2, 2, Some("18"), Some("21")));
    let d2 = sales.cells.iter().find(|c| c.address == "D2").unwrap();
    assert_eq!((d2.old_formula.as_deref(), d2.new_formula.as_deref()), (Some("=B2+C2"), Some("=B2+C2+1")), "{d2:?}");
    let added: Vec<(u32, &str)> = sales.added_rows.iter().map(|r| (r.row, r.values[0].as_str())).collect();
    assert_eq!(added, [(7, "Baltics")], "row 8 (from 0: 7) is the one added row");
    assert!(sales.removed_rows.is_empty() && sales.added_cols.is_empty() && sales.removed_cols.is_empty());
    assert_eq!((sales.changed_count, sales.left_out), (3, 0));
    let grid = sales.grid.as_ref().expect("the grid window of the changed region");
    assert_eq!(grid.header, ["region", "q1", "q2", "total"]);
    assert_eq!(grid.rows[(7 - grid.first_row) as usize][0], "Baltics", "{grid:?}");

    // The clip: frames 30–45, exactly, with both sides' facts and thumbnails.
    let video: ReviewVideoResponse = call(&app, "review_video", params("/clip.mp4")).unwrap();
    let ranges: Vec<(u64, u64)> = video.ranges.iter().map(|r| (r.first, r.last)).collect();
    assert_eq!(ranges, [review_fixtures::CHANGED_FRAMES], "{video:?}");
    let (old, new) = (video.old.as_ref().unwrap(), video.new.as_ref().unwrap());
    assert_eq!((old.codec.as_str(), old.frames, old.width, old.height), ("h264", 90, 160, 120), "{old:?}");
    assert_eq!((new.frames, new.fps.map(|f| f.round())), (90, Some(30.0)), "{new:?}");
    let run = &video.ranges[0];
    for key in [&run.old_first, &run.old_last, &run.new_first, &run.new_last] {
        let png = served(&app, key.as_deref().expect("a thumbnail on each side"));
        assert!(png_size(&png).0 > 0);
    }

    // The image: the painted square is the changed box.
    let img: ReviewImageResponse = call(&app, "review_image", params("/chart.png")).unwrap();
    let (x, y, w, h) = review_fixtures::SQUARE;
    assert_eq!((img.width, img.height, img.changed_pixels), (200, 150, u64::from(w * h)), "{img:?}");
    let b = img.bbox.unwrap();
    let px = |f: f32, of: u32| (f * of as f32).round() as u32;
    assert_eq!((px(b.x, 200), px(b.y, 150), px(b.w, 200), px(b.h, 150)), (x, y, w, h));
    assert_eq!(png_size(&served(&app, img.diff_png.as_deref().unwrap())), (200, 150));

    // The archive: one entry added, one removed, one changed, one the same.
    let zip: ReviewArchiveResponse = call(&app, "review_archive", params("/bundle.zip")).unwrap();
    let names = |v: &[ArchiveEntryChange]| v.iter().map(|e| e.path.clone()).collect::<Vec<_>>();
    assert_eq!(
        (names(&zip.added), names(&zip.removed), names(&zip.changed)),
        (vec!["d.txt".to_string()], vec!["c.txt".to_string()], vec!["b.txt".to_string()])
    );
    assert_eq!(zip.same_count, 1);
    let b = &zip.changed[0];
    assert_eq!((b.old_size, b.new_size), (Some(8), Some(16)));
    assert_ne!(b.old_hash, b.new_hash);
}

#[test]
fn a_visual_diff_fails_in_words_with_its_fix() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("data.xlsx"), b"PK\x03\x04 this workbook was cut short").unwrap();
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let state = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview);
    let env = state.current().unwrap().environment().clone();
    let wrote = env.call("write_file", json!({"path": "/data.xlsx", "content": "still not a workbook"}));
    assert_eq!(wrote.status, folio_env::Status::Success, "{}", wrote.message);
    let wrote = env.call("write_file", json!({"path": "/clip.mp4", "content": "not a video at all"}));
    assert_eq!(wrote.status, folio_env::Status::Success, "{}", wrote.message);

    let err = call::<ReviewCellsResponse>(&app, "review_cells", params("/data.xlsx")).unwrap_err();
    assert!(err.contains("/data.xlsx") && err.contains("hint:"), "{err}");
    let err = call::<ReviewVideoResponse>(&app, "review_video", params("/clip.mp4")).unwrap_err();
    assert!(err.contains("/clip.mp4") && err.contains("not a video") && err.contains("hint:"), "{err}");
    let err = call::<ReviewPagesResponse>(&app, "review_pages", pages_params("/nothing.pdf")).unwrap_err();
    assert!(err.contains("has no pending change") && err.contains("hint:"), "{err}");
    let err =
        call::<ReviewPageResponse>(&app, "review_page", json!({"params": {"path": "/x.pdf", "index": 0, "dpi": 900}}))
            .unwrap_err();
    assert!(err.contains("900") && err.contains("hint:"), "{err}");
}

/// Writes `/report.pdf` with env:documents: five short pages, or with a page inserted after the
/// second.
const REPORT: &str = r#"import { pdf } from 'env:documents';
/** Writes the report, with or without the inserted page. */
export default async function report({ inserted }) {
  const page = (n) => [{ heading: 'Section ' + n }, { text: 'Figures for section ' + n + ' are final.' }];
  const pages = [page(1), page(2), page(3), page(4)];
  if (inserted) pages.splice(2, 0, [{ heading: 'Late addition' }, { text: 'A page written after the review.' }]);
  const content = pages.flatMap((p, i) => (i === 0 ? p : [{ pageBreak: true }, ...p]));
  return await pdf.create('/report.pdf', { title: 'Report', content });
}
"#;

#[test]
fn a_pdf_with_an_inserted_page_shows_it_added_and_a_stamped_page_alone_needs_a_render() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let state = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview);
    let env = state.current().unwrap().environment().clone();
    let wrote = env.call("write_file", json!({"path": "/scripts/report.js", "content": REPORT}));
    assert_eq!(wrote.status, folio_env::Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/report.js", json!({"inserted": false}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    let _: CommitApplyResponse = call(&app, "commit_apply", json!({"params": {"paths": ["/report.pdf"]}})).unwrap();
    let report = env.run_script("/scripts/report.js", json!({"inserted": true}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);

    let pages: ReviewPagesResponse = call(&app, "review_pages", pages_params("/report.pdf")).unwrap();
    assert_eq!((pages.old_pages, pages.new_pages), (4, 5), "{pages:?}");
    let rows: Vec<(Option<u32>, Option<u32>, PageState)> =
        pages.pairs.iter().map(|p| (p.old, p.new, p.state)).collect();
    let added: Vec<_> = rows.iter().filter(|r| r.2 == PageState::Added).collect();
    assert_eq!(added, [&(None, Some(3), PageState::Added)], "one added page, the third: {rows:?}");
    assert!(
        rows.iter().all(|r| r.2 == PageState::Added || (r.2 != PageState::Changed && r.0.is_some() && r.1.is_some())),
        "nothing is changed before a render, and every other page meets its twin: {rows:?}"
    );
    for pair in &pages.pairs {
        let page: ReviewPageResponse =
            call(&app, "review_page", json!({"params": {"path": "/report.pdf", "index": pair.index, "dpi": 40}}))
                .unwrap();
        if pair.state == PageState::Added {
            assert_eq!((page.state, page.old_png.is_none(), page.new_png.is_some()), (PageState::Added, true, true));
        } else {
            assert_eq!(page.state, PageState::Unchanged, "{pair:?}: {page:?}");
        }
    }

    // Stamped on page 2 only, in place: the other pages keep their PDF objects, so the summary
    // knows them unchanged without rendering (the panel folds them); page 2 renders as changed.
    let _: CommitApplyResponse = call(&app, "commit_apply", json!({"params": {"paths": ["/report.pdf"]}})).unwrap();
    let stamp = "import { pdf } from 'env:documents';\n/** Stamps page 2. */\nexport default async function stamp() {\n  return await pdf.stamp('/report.pdf', '/report.pdf', { text: 'DRAFT', pages: [2] });\n}\n";
    let wrote = env.call("write_file", json!({"path": "/scripts/stamp.js", "content": stamp}));
    assert_eq!(wrote.status, folio_env::Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/stamp.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    let pages: ReviewPagesResponse = call(&app, "review_pages", pages_params("/report.pdf")).unwrap();
    let states: Vec<PageState> = pages.pairs.iter().map(|p| p.state).collect();
    use PageState::{Unchanged, Unknown};
    assert_eq!(states, [Unchanged, Unknown, Unchanged, Unchanged, Unchanged], "only page 2 needs a render");
    let page: ReviewPageResponse =
        call(&app, "review_page", json!({"params": {"path": "/report.pdf", "index": 1, "dpi": 40}})).unwrap();
    assert_eq!(page.state, PageState::Changed, "{page:?}");
}
