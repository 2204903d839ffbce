//! The review panel's visual diffs in the real window: a folder whose script revises a deck, a
//! workbook, a clip, an image and an archive (`review_fixtures`); each change's diff opened in
//! the review panel shows what changed — slide 4 marked, the three cells and the added row
//! highlighted, frames 30–45, the painted square, the entry list — with a screenshot of each.

use std::time::{Duration, Instant};

use fantoccini::Locator;

use crate::harness::{App, enabled};
use crate::review_fixtures;

/// Waits (up to `secs`) until `css` matches: rendering pages through LibreOffice and decoding a
/// clip take longer than the harness's usual 20 s on a loaded machine.
async fn wait_long(app: &App, css: &str, secs: u64) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while app.c.find(Locator::Css(css)).await.is_err() {
        if Instant::now() >= deadline {
            let panel = app.js("return document.querySelector('.review')?.innerText ?? ''").await;
            panic!("no element matched {css} within {secs} s; the panel says: {panel}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn scroll_to(app: &App, css: &str) {
    let script = format!("document.querySelector(\"{css}\")?.scrollIntoView({{block: 'center'}}); return true;");
    app.js(&script).await;
}

async fn open_diff(app: &App, path: &str) {
    app.click(&format!(".change[data-path='{path}'] .diff-toggle")).await;
    app.wait_for(&format!(".diff-box[data-diff='{path}']")).await;
    scroll_to(app, &format!(".diff-box[data-diff='{path}']")).await;
}

async fn close_diff(app: &App, path: &str) {
    app.click(&format!(".change[data-path='{path}'] .diff-toggle")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_change_is_reviewed_visually_in_the_real_window() {
    if !enabled() {
        return;
    }
    let app = App::start(review_fixtures::fill, &[]).await;
    app.wait_text("#scripts", "Publishes the revised deck").await;
    app.shot("review-visual-0-opened.png").await;
    app.click(".script[data-path='/scripts/revise.js'] button.run").await;
    app.wait_text("#script-form", "takes no arguments").await;
    // The form opens below the second script, under the panel's fold: scrolled to, then clicked.
    scroll_to(&app, "#script-run").await;
    app.click("#script-run").await;
    app.wait_text("#run-state", "Finished").await;
    app.wait_text("#pending-count", "5 pending changes").await;
    app.click("#review-toggle").await;
    app.wait_for(".change[data-path='/deck.pptx']").await;

    // The deck: six pairs. Pages known unchanged from the summary (the same PDF objects) are
    // folded; the rest are compared as they scroll into view. Only slide 4 is changed.
    open_diff(&app, "/deck.pptx").await;
    // Both versions go through LibreOffice (seconds each): the wait shows that job's progress.
    wait_long(&app, ".visual-wait .job-bar[data-total='2']", 30).await;
    app.shot("review-visual-0-converting.png").await;
    wait_long(&app, ".pages-diff", 90).await;
    wait_long(&app, ".page-pair[data-pair='3']:not([data-state='unknown'])", 60).await;
    scroll_to(&app, ".page-pair[data-pair='3']").await;
    app.wait_text(".page-pair[data-pair='3'] .page-head", "compared in").await;
    app.wait_for(".page-pair[data-pair='3'] .change-box").await;
    app.shot("review-visual-1-deck.png").await;
    app.js("document.querySelectorAll('.page-fold').forEach(b => b.click()); return true;").await;
    for i in 0..6 {
        let pair = format!(".page-pair[data-pair='{i}']");
        wait_long(&app, &pair, 20).await;
        scroll_to(&app, &pair).await;
        wait_long(&app, &format!("{pair}:not([data-state='unknown'])"), 60).await;
    }
    let states = app.js("return [...document.querySelectorAll('.page-pair')].map(p => p.dataset.state)").await;
    let want = serde_json::json!(["unchanged", "unchanged", "unchanged", "changed", "unchanged", "unchanged"]);
    assert_eq!(states, want, "exactly slide 4 is marked changed");
    close_diff(&app, "/deck.pptx").await;

    // The workbook: the Sales tab; C3, B5 and D2 highlighted, row 8 marked added.
    open_diff(&app, "/book.xlsx").await;
    wait_long(&app, ".cells-diff .sheet-tab.current[data-tab='Sales']", 60).await;
    app.wait_for(".sheet-tab.same[data-tab='Notes']").await;
    for cell in ["C3", "B5", "D2"] {
        app.wait_for(&format!(".cell-grid td.changed[data-cell='{cell}']")).await;
    }
    let highlighted = app.js("return document.querySelectorAll('.cell-grid td.changed').length").await;
    assert_eq!(highlighted, serde_json::json!(3), "three cells highlighted, no more");
    app.wait_for(".cell-grid tr.added-row[data-row='8']").await;
    app.wait_text(".cell-grid td.changed[data-cell='C3']", "21").await;
    app.wait_text(".cell-grid td.changed[data-cell='D2']", "=B2+C2+1").await;
    app.wait_text(".sheet-facts", "1 added row").await;
    scroll_to(&app, ".cell-grid").await;
    app.shot("review-visual-2-workbook.png").await;
    close_diff(&app, "/book.xlsx").await;

    // The clip: frames 30–45, both sides' facts, four thumbnails.
    open_diff(&app, "/clip.mp4").await;
    let (first, last) = review_fixtures::CHANGED_FRAMES;
    wait_long(&app, &format!(".frame-range[data-range='{first}-{last}']"), 90).await;
    app.wait_text(".frame-range .range-head", &format!("frames {first}–{last} changed")).await;
    scroll_to(&app, ".frame-range .range-thumbs").await;
    app.wait_text(".video-sides", "h264").await;
    let ranges = app.js("return document.querySelectorAll('.frame-range').length").await;
    assert_eq!(ranges, serde_json::json!(1));
    let thumbs = app.js("return [...document.querySelectorAll('.range-thumbs img')].filter(i => i.complete && i.naturalWidth > 0).length").await;
    assert_eq!(thumbs, serde_json::json!(4), "four thumbnails load");
    app.shot("review-visual-3-clip.png").await;
    close_diff(&app, "/clip.mp4").await;

    // The image: before, after and the difference with its box; the slider blends it.
    open_diff(&app, "/chart.png").await;
    wait_long(&app, ".image-diff img.diff-layer", 30).await;
    let changed = app.wait_text("#image-changed", "pixels changed (4.00%)").await;
    let digits: String =
        changed.split(" pixels").next().unwrap_or_default().chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits, "1200", "{changed}");
    app.wait_text("#image-bbox", "50,40 size 40×30").await;
    scroll_to(&app, ".image-diff .before-after").await;
    app.shot("review-visual-4-image.png").await;
    close_diff(&app, "/chart.png").await;

    // The archive: one added, one removed, one changed.
    open_diff(&app, "/bundle.zip").await;
    wait_long(&app, ".archive-diff tr.entry.added[data-entry='d.txt']", 30).await;
    app.wait_for(".archive-diff tr.entry.removed[data-entry='c.txt']").await;
    app.wait_for(".archive-diff tr.entry.changed[data-entry='b.txt']").await;
    app.wait_text(".archive-diff .visual-summary", "1 unchanged").await;
    app.shot("review-visual-5-archive.png").await;
    app.close().await;
}
