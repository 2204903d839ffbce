//! Open a folder, run a script from the catalogue, review, commit a selection, discard the rest;
//! diffs, conflicts resolved by take-theirs and by overwrite, drops into /inbox, the tree filter,
//! and a script run with arguments from its form.

use crate::common;
use crate::harness::{App, enabled};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_run_review_commit_and_discard_in_the_real_window() {
    if !enabled() {
        return;
    }
    let app = App::start(common::write, &[]).await;
    let folder = app.folder.path().to_path_buf();

    // The folder from the command line is open: its name, the tree and the catalogue show.
    app.wait_text("#folder-name", &folder.file_name().unwrap().to_string_lossy()).await;
    app.wait_for("#tree .row[data-path='/notes.txt']").await;
    app.wait_text("#scripts", "Summarises notes.txt").await;
    app.wait_text("#pending-count", "No pending changes").await;
    app.click("#tree .row[data-path='/report.md']").await;
    app.wait_text("#preview-text", "Revenue grew.").await;
    app.shot("review-1-opened.png").await;

    // Run the script from the catalogue: progress, result, and pending changes.
    app.click(".script[data-path='/scripts/summarise.js'] button.run").await;
    app.wait_text("#script-form", "takes no arguments").await;
    app.click("#script-run").await;
    app.wait_text("#run-state", "Finished").await;
    app.wait_text("#run-output", "step 3/3: done").await;
    app.wait_text("#run-result", "summarised 23 characters").await;
    // The new folder /out/ and the two files in it.
    app.wait_text("#pending-count", "3 pending changes").await;
    app.shot("review-2-script-ran.png").await;

    // Review: untick the scratch file and commit the summary only.
    app.click("#review-toggle").await;
    app.wait_for(".change[data-path='/out/summary.md']").await;
    app.click(".change[data-path='/out/scratch.txt'] input[type=checkbox]").await;
    app.shot("review-3-review.png").await;
    app.click("#commit-btn").await;
    app.wait_text("#summary", "Committed 1 change").await;
    app.wait_text("#pending-count", "1 pending change").await;
    assert_eq!(
        std::fs::read_to_string(folder.join("out/summary.md")).unwrap(),
        "# Summary\n\nBUY MILK\nCALL THE BANK\n"
    );
    assert!(!folder.join("out/scratch.txt").exists(), "the unticked change stayed pending");
    app.shot("review-4-committed.png").await;

    // Discard the rest: nothing pending, the folder untouched.
    app.click("#select-all").await;
    app.click("#discard-btn").await;
    app.wait_text("#summary", "Discarded 1 change").await;
    app.wait_text("#pending-count", "No pending changes").await;
    assert!(!folder.join("out/scratch.txt").exists());
    app.shot("review-5-discarded.png").await;
    app.close().await;
}

/// A script that edits two files the folder has, taking the new text of notes.txt as an argument.
const EDIT: &str = r#"import * as fs from 'env:fs';

/**
 * Rewrites the notes and the report.
 * @param {{ line: string, times?: number }} args
 */
export default async function edit({ line, times }) {
  await fs.writeFile('/notes.txt', 'buy milk\n' + line.repeat(times ?? 1) + '\n');
  await fs.writeFile('/report.md', '# Q3 report\n\nRevenue fell.\n');
  return 'edited';
}
"#;

fn fill(dir: &std::path::Path) {
    common::write(dir);
    std::fs::write(dir.join("scripts/edit.js"), EDIT).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diffs_conflicts_drops_and_the_tree_filter_in_the_real_window() {
    if !enabled() {
        return;
    }
    let app = App::start(fill, &[]).await;
    let folder = app.folder.path().to_path_buf();
    app.wait_text("#scripts", "Rewrites the notes").await;

    // Run a script with arguments from the form its .d.ts gives.
    app.click(".script[data-path='/scripts/edit.js'] button.run").await;
    app.wait_for("#script-form input[data-field='line']").await;
    app.wait_for("#script-form input[data-field='times']").await;
    app.c
        .find(fantoccini::Locator::Css("#script-form input[data-field='line']"))
        .await
        .unwrap()
        .send_keys("call mum")
        .await
        .unwrap();
    app.shot("review-6-script-form.png").await;
    app.click("#script-run").await;
    app.wait_text("#run-state", "Finished").await;
    app.wait_text("#pending-count", "2 pending changes").await;

    // Open the diff of the notes: the removed and the added line show.
    app.click("#review-toggle").await;
    app.wait_for(".change[data-path='/notes.txt']").await;
    app.click(".change[data-path='/notes.txt'] .diff-toggle").await;
    app.wait_text(".diff-box[data-diff='/notes.txt'] tr.removed", "call the bank").await;
    app.wait_text(".diff-box[data-diff='/notes.txt'] tr.added", "call mum").await;
    app.wait_text(".diff-box[data-diff='/notes.txt'] .diff-head", "+1").await;
    app.shot("review-7-diff.png").await;

    // The person edits both files on disk: reopening the review shows two conflicts and choices.
    std::fs::write(folder.join("notes.txt"), "theirs: buy bread\n").unwrap();
    std::fs::write(folder.join("report.md"), "# Q3 report (edited by hand)\n").unwrap();
    app.click("#review-toggle").await;
    app.click("#review-toggle").await;
    app.wait_for(".change.conflict[data-path='/notes.txt'] .take-theirs").await;
    app.wait_for(".change.conflict[data-path='/report.md'] .overwrite").await;
    app.wait_text("#review-panel", "edited outside Folio").await;
    app.shot("review-8-conflicts.png").await;

    // Take theirs for the notes: the folder keeps the outside edit.
    app.click(".change[data-path='/notes.txt'] .take-theirs").await;
    app.wait_text("#summary", "Took the folder's version of /notes.txt").await;
    app.wait_text("#pending-count", "1 pending change").await;
    assert_eq!(std::fs::read_to_string(folder.join("notes.txt")).unwrap(), "theirs: buy bread\n");
    // Overwrite (asked twice) for the report: the agent's version replaces the outside edit.
    app.click(".change[data-path='/report.md'] .overwrite").await;
    app.wait_text(".change[data-path='/report.md'] .overwrite", "Confirm overwrite").await;
    app.click(".change[data-path='/report.md'] .overwrite").await;
    app.wait_text("#summary", "Overwrote the folder's version of /report.md").await;
    app.wait_text("#pending-count", "No pending changes").await;
    assert_eq!(std::fs::read_to_string(folder.join("report.md")).unwrap(), "# Q3 report\n\nRevenue fell.\n");
    app.shot("review-9-resolved.png").await;
    app.click("#review-toggle").await;

    // A drop: the handler's own path (WebDriver cannot make an OS drop) copies into /inbox.
    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("notes.txt"), "dropped").unwrap();
    let dropped = host.path().join("notes.txt").display().to_string();
    let script = format!("return await window.__folioDrop([{dropped:?}, {dropped:?}, '/no/such/file.csv']);");
    let reply = app.js(&script).await;
    assert_eq!(reply["added"], 2, "{reply}");
    app.wait_text("#drop-results", "/inbox/notes.txt").await;
    app.wait_text("#drop-results", "/inbox/notes-2.txt").await;
    app.wait_text("#drop-results", "refused").await;
    // The new /inbox folder and the two files in it.
    app.wait_text("#pending-count", "3 pending changes").await;
    app.shot("review-10-dropped.png").await;

    // Filter the tree: matches anywhere in the folder, badged.
    app.c.find(fantoccini::Locator::Css("#tree-filter")).await.unwrap().send_keys("notes").await.unwrap();
    app.wait_for("#tree-found .row[data-path='/inbox/notes-2.txt'] .badge.added").await;
    app.wait_for("#tree-found .row[data-path='/notes.txt']").await;
    let rows = app.js("return document.querySelectorAll('#tree-found .row').length").await;
    assert_eq!(rows, 3, "only the three notes files match");
    app.shot("review-11-filtered.png").await;

    // Keyboard: Ctrl+Shift+R opens the review, Ctrl+Shift+Enter commits the ticked changes.
    let key = |k: &str| {
        format!("window.dispatchEvent(new KeyboardEvent('keydown', {{key: '{k}', ctrlKey: true, shiftKey: true}}))")
    };
    app.js(&key("R")).await;
    app.wait_for(".change[data-path='/inbox/notes-2.txt']").await;
    app.js(&key("Enter")).await;
    app.wait_text("#summary", "Committed 3 changes").await;
    app.wait_text("#pending-count", "No pending changes").await;
    assert_eq!(std::fs::read_to_string(folder.join("inbox/notes-2.txt")).unwrap(), "dropped");
    app.shot("review-12-committed-by-keyboard.png").await;
    app.close().await;
}

/// 48×32 PNGs, red (the folder's picture) and blue (what the script writes over it).
const RED_PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 48, 0, 0, 0, 32, 8, 2, 0, 0, 0, 219, 182,
    108, 75, 0, 0, 0, 49, 73, 68, 65, 84, 120, 218, 237, 206, 49, 13, 0, 0, 8, 3, 176, 201, 153, 127, 61, 136, 193, 5,
    225, 104, 82, 1, 205, 180, 175, 68, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 72, 232, 210, 2,
    134, 96, 8, 106, 130, 222, 154, 12, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];
const BLUE_PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 48, 0, 0, 0, 32, 8, 2, 0, 0, 0, 219, 182,
    108, 75, 0, 0, 0, 49, 73, 68, 65, 84, 120, 218, 237, 206, 65, 9, 0, 0, 8, 4, 176, 139, 99, 28, 251, 99, 24, 91,
    136, 143, 193, 2, 44, 213, 243, 74, 132, 132, 132, 132, 132, 132, 132, 132, 132, 132, 132, 132, 132, 132, 132, 132,
    132, 46, 45, 149, 89, 248, 106, 120, 25, 211, 188, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

const RECOLOUR: &str = r#"import * as fs from 'env:fs';

/**
 * Recolours the picture.
 */
export default async function recolour() {
  await fs.writeFile('/pic.png', await fs.readBytes('/blue.png'));
  return 'recoloured';
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_image_change_shows_the_folder_version_beside_the_agent_version() {
    if !enabled() {
        return;
    }
    let app = App::start(
        |dir| {
            common::write(dir);
            std::fs::write(dir.join("pic.png"), RED_PNG).unwrap();
            std::fs::write(dir.join("blue.png"), BLUE_PNG).unwrap();
            std::fs::write(dir.join("scripts/recolour.js"), RECOLOUR).unwrap();
        },
        &[],
    )
    .await;
    app.click(".script[data-path='/scripts/recolour.js'] button.run").await;
    app.click("#script-run").await;
    app.wait_text("#run-state", "Finished").await;
    app.wait_text("#pending-count", "1 pending change").await;
    app.click("#review-toggle").await;
    app.click(".change[data-path='/pic.png'] .diff-toggle").await;
    app.wait_for(".diff-box[data-diff='/pic.png'] img.before").await;
    // Both sides load through the folio:// scheme: the folder's bytes (version=base) and the agent's.
    let loaded = "const imgs = [...document.querySelectorAll(\".diff-box[data-diff='/pic.png'] img.before, .diff-box[data-diff='/pic.png'] img.after\")];
        return imgs.length === 2 && imgs.every(i => i.complete && i.naturalWidth === 48)";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while app.js(loaded).await != serde_json::json!(true) {
        assert!(std::time::Instant::now() < deadline, "the before/after images never loaded");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // The two sides differ: the folder's is red, the agent's blue. (A canvas refuses pixels of a
    // cross-origin <img>, so each image's URL is fetched and decoded again to sample it.)
    let colours = app
        .js("return await Promise.all([...document.querySelectorAll(\".diff-box[data-diff='/pic.png'] img.before, .diff-box[data-diff='/pic.png'] img.after\")].map(async i => {
            const bitmap = await createImageBitmap(await (await fetch(i.src)).blob());
            const c = document.createElement('canvas'); c.width = 1; c.height = 1;
            const g = c.getContext('2d'); g.drawImage(bitmap, 0, 0);
            return [...g.getImageData(0, 0, 1, 1).data.slice(0, 3)]; }))")
        .await;
    assert_eq!(colours, serde_json::json!([[220, 40, 40], [40, 80, 220]]));
    app.shot("review-13-image-before-after.png").await;
    app.close().await;
}
