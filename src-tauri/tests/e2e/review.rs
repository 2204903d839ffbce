//! Open a folder, run a script from the catalogue, review, commit a selection, discard the rest.

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
    app.shot("1-opened.png").await;

    // Run the script from the catalogue: progress, result, and pending changes.
    app.click(".script[data-path='/scripts/summarise.js'] button.run").await;
    app.wait_text("#run-state", "Finished").await;
    app.wait_text("#run-output", "step 3/3: done").await;
    app.wait_text("#run-result", "summarised 23 characters").await;
    // The new folder /out/ and the two files in it.
    app.wait_text("#pending-count", "3 pending changes").await;
    app.shot("2-script-ran.png").await;

    // Review: untick the scratch file and commit the summary only.
    app.click("#review-toggle").await;
    app.wait_for(".change[data-path='/out/summary.md']").await;
    app.click(".change[data-path='/out/scratch.txt'] input[type=checkbox]").await;
    app.shot("3-review.png").await;
    app.click("#commit-btn").await;
    app.wait_text("#summary", "Committed 1 change").await;
    app.wait_text("#pending-count", "1 pending change").await;
    assert_eq!(
        std::fs::read_to_string(folder.join("out/summary.md")).unwrap(),
        "# Summary\n\nBUY MILK\nCALL THE BANK\n"
    );
    assert!(!folder.join("out/scratch.txt").exists(), "the unticked change stayed pending");
    app.shot("4-committed.png").await;

    // Discard the rest: nothing pending, the folder untouched.
    app.click("#select-all").await;
    app.click("#discard-btn").await;
    app.wait_text("#summary", "Discarded 1 change").await;
    app.wait_text("#pending-count", "No pending changes").await;
    assert!(!folder.join("out/scratch.txt").exists());
    app.shot("5-discarded.png").await;
    app.close().await;
}
