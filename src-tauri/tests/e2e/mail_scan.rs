//! An Outlook message previewed as a card (from, to, date, subject, body, attachments) whose PDF
//! attachment opens in the preview when clicked, and an image-only scanned form shown with the
//! text env:ocr recognised beside the page. Both files come from the shared corpus (FOLIO_CORPUS);
//! the scan needs tesseract (scripts/install.sh).

use std::time::{Duration, Instant};

use crate::harness::{App, enabled};
use crate::media::image_loaded;

fn corpus(rel: &str) -> std::path::PathBuf {
    let root = std::env::var("FOLIO_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into());
    std::path::Path::new(&root).join(rel)
}

/// Waits up to `secs` for `css` to hold `want` (recognition takes seconds a page).
async fn wait_long(app: &App, css: &str, want: &str, secs: u64) -> String {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut last = serde_json::Value::Null;
    while Instant::now() < deadline {
        last = app.js(&format!("const e = document.querySelector(\"{css}\"); return e ? e.textContent : null;")).await;
        if last.as_str().is_some_and(|t| t.contains(want)) {
            return last.as_str().unwrap_or_default().to_string();
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let pane = app.js("return document.querySelector('#preview').innerText").await;
    panic!("{css} never held {want:?} within {secs} s; last {last}; pane: {pane}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_email_is_a_card_whose_attachment_opens_and_a_scan_shows_its_text_beside_the_page() {
    if !enabled() {
        return;
    }
    let app = App::start(
        |dir| {
            std::fs::copy(corpus("documents/outlook-email-with-pdf-attachment.msg"), dir.join("mail.msg")).unwrap();
            std::fs::copy(corpus("pdf/scanned-form-2pages-image-only.pdf"), dir.join("scan.pdf")).unwrap();
        },
        &[],
    )
    .await;

    app.click("#tree .row[data-path='/mail.msg']").await;
    app.wait_text("#preview .email-subject", "test email").await;
    let from = app.wait_text("#preview .email-from", "Nick Booth").await;
    assert!(from.contains("nick.booth@pof.com.au"), "{from}");
    let card = app.js("return document.querySelector('#preview .email-card').innerText").await;
    let card = card.as_str().unwrap_or_default();
    for needle in ["To", "Date", "smbprn.00009008.KdcPjl.pdf", "Test Attachment", "2 attachments"] {
        assert!(card.contains(needle), "{needle} missing from the card: {card}");
    }
    app.shot("mail-1-email-card.png").await;

    // The PDF attachment opens below the card, its first page drawn by PDFium.
    let index = app
        .js("return [...document.querySelectorAll('#preview button.email-attachment')].find(b => b.textContent.includes('.pdf')).dataset.index")
        .await;
    let index = index.as_str().unwrap().to_string();
    app.click(&format!("#preview button.email-attachment[data-index='{index}']")).await;
    app.wait_for("#preview .email-opened").await;
    assert_eq!(image_loaded(&app, "#preview .email-opened img.page[data-page='1']").await, 1200);
    tokio::time::sleep(Duration::from_secs(1)).await;
    app.shot("mail-2-email-attachment-opened.png").await;
    // The folder is unchanged: the copy lives in the scratch zone.
    assert!(!app.folder.path().join("tmp").exists());

    // The scan: the page, and beside it the text tesseract read from it.
    app.click("#tree .row[data-path='/scan.pdf']").await;
    assert_eq!(image_loaded(&app, "#preview .page-beside img.page[data-page='1']").await, 1200);
    let text = wait_long(&app, "#preview .scan-text .scan-ocr", "technical inspection", 180).await;
    assert!(text.contains("Certificate of periodic"), "{text}");
    let meta = app.js("return document.querySelector('#preview .scan-meta').textContent").await;
    eprintln!("scan text ({meta}): {}", text.chars().take(200).collect::<String>());
    tokio::time::sleep(Duration::from_secs(1)).await;
    app.shot("mail-3-scan-with-text.png").await;
    app.close().await;
}
