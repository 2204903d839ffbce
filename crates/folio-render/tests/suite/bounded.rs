//! Long work under a run's budget: refused up front when the estimate does not fit, progress
//! per page, cancel within one page, and LibreOffice bounded by the run, capped in memory and
//! never left running — one slow file must never stall the next.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_budget::{JobKind, JobProgress, Rates, RunBudget};
use folio_render::{Pages, RasterOptions};

use super::office::{xlsx, zip};
use super::pdfgen::{Page, pdf, text};
use super::renderer;

fn pages(n: usize) -> Vec<u8> {
    let list: Vec<Page> =
        (0..n).map(|i| Page::new(300.0, 300.0, &format!("0 0 1 rg {} 10 50 50 re f", i % 200))).collect();
    pdf(&list, "many")
}

fn within(ms: u64) -> RunBudget {
    RunBudget::new(Some(Instant::now() + Duration::from_millis(ms)), Arc::new(Rates::in_memory()))
}

/// An ODS whose one cell is repeated 999,999,999 × 999,999,999 times: 1.3 KB that LibreOffice
/// tries to lay out, growing by about 100 MB a second (`hostile/dos-repeated-cells.ods`, made here).
fn repeated_cells_ods() -> Vec<u8> {
    zip(&[
        ("mimetype", "application/vnd.oasis.opendocument.spreadsheet".into()),
        ("META-INF/manifest.xml", r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#.into()),
        ("content.xml", r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row table:number-rows-repeated="999999999"><table:table-cell table:number-columns-repeated="999999999" office:value-type="string"><text:p>X</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"#.into()),
    ])
}

/// LibreOffice processes started with `profile` that are still alive.
fn soffice_alive(profile: &std::path::Path) -> usize {
    let needle = profile.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            String::from_utf8_lossy(&cmd).contains(&needle) && !stat.contains(") Z ")
        })
        .count()
}

#[test]
fn a_render_over_what_is_left_is_refused_before_any_page() {
    let r = renderer();
    let budget = within(2_000);
    // This host renders a page in about 1 s (as measured before): 40 pages cannot fit in 2 s.
    for _ in 0..3 {
        budget.rates().record(JobKind::PdfPage, 1.0, Duration::from_millis(1000));
    }
    let mut written = 0;
    let err = r
        .rasterize_within("/in/forty.pdf", &pages(40), &RasterOptions::default(), &budget, |_| {
            written += 1;
            Ok(())
        })
        .unwrap_err()
        .to_string();
    assert_eq!(written, 0);
    assert!(err.starts_with("/in/forty.pdf: rendering 40 pages takes about "), "{err}");
    assert!(err.contains("measured over 3 jobs here"), "{err}");
    assert!(err.contains("left of this run's budget — nothing was done — hint: render fewer pages per call (pages: [1, 2, 3, …]), or raise the run budget (--run-budget-ms on folio run, verbs and ask)"), "{err}");
}

#[test]
fn a_render_reports_each_page_and_refreshes_the_rate() {
    let r = renderer();
    let seen: Arc<Mutex<Vec<JobProgress>>> = Arc::default();
    let sink = seen.clone();
    let budget = within(60_000).with_progress(Arc::new(move |p: &JobProgress| sink.lock().unwrap().push(p.clone())));
    let before = budget.rates().measured(JobKind::PdfPage);
    let done =
        r.rasterize_within("/in/twelve.pdf", &pages(12), &RasterOptions::default(), &budget, |_| Ok(())).unwrap();
    assert_eq!(done.page_count, 12);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.first().map(|p| (p.done, p.total)), Some((0, 12)));
    assert_eq!(seen.last().map(|p| (p.done, p.total)), Some((12, 12)));
    assert_eq!(seen.last().unwrap().text(), "/in/twelve.pdf: 12/12 pages");
    assert!(before.is_none());
    // Two samples: the one-page probe that calibrated the fresh host, and the job itself.
    assert_eq!(budget.rates().measured(JobKind::PdfPage).map(|r| r.samples), Some(2));
}

#[test]
fn cancel_stops_a_render_within_one_page_and_writes_nothing_after() {
    let r = renderer();
    let cancelled = Arc::new(AtomicBool::new(false));
    let flag = cancelled.clone();
    let budget = within(60_000).with_cancel(Arc::new(move || flag.load(Ordering::SeqCst)));
    let written = AtomicUsize::new(0);
    let err = r
        .rasterize_within(
            "/in/many.pdf",
            &pages(40),
            &RasterOptions { pages: Pages::All, ..RasterOptions::default() },
            &budget,
            |_| {
                if written.fetch_add(1, Ordering::SeqCst) + 1 == 3 {
                    cancelled.store(true, Ordering::SeqCst);
                }
                Ok(())
            },
        )
        .unwrap_err()
        .to_string();
    assert_eq!(written.load(Ordering::SeqCst), 3, "no page may be written after the cancel");
    assert_eq!(err, "/in/many.pdf: cancelled after 3 of 40 pages; nothing more is written");
}

fn soffice_or_skip(r: &folio_render::Renderer) -> bool {
    let found = folio_render::office::find_soffice(None, &r.host).is_ok();
    assert!(
        found || !std::path::Path::new("/etc/debian_version").exists(),
        "scripts/install.sh installs LibreOffice on Debian"
    );
    found
}

#[test]
fn a_libreoffice_bomb_is_stopped_at_the_run_budget_and_the_next_file_still_renders() {
    let mut r = renderer();
    if !soffice_or_skip(&r) {
        return;
    }
    let profile = tempfile::tempdir().unwrap();
    r.office_profile = profile.path().join("lo");
    let started = Instant::now();
    let err = r
        .rasterize_within("/in/dos.ods", &repeated_cells_ods(), &RasterOptions::default(), &within(4_000), |_| Ok(()))
        .unwrap_err()
        .to_string();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(6), "the run had 4 s; the call took {took:?}");
    assert!(
        err.starts_with("/in/dos.ods: the run's budget ran out after 0 of 1 file — hint: render it in a run of its own, or raise the run budget"),
        "{err}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(soffice_alive(profile.path()), 0, "LibreOffice outlived the run");
    // The same profile serves the next conversion at once.
    let next = Instant::now();
    // Content no other test converts, so the conversion cache cannot answer for LibreOffice.
    let unique = format!("{}", std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos());
    let rows = [["Region", "Q1", "Q2"], ["North", "10", unique.as_str()]];
    let ok = r.rasterize_within("/in/ok.xlsx", &xlsx(&rows), &RasterOptions::default(), &within(60_000), |_| Ok(()));
    assert!(ok.is_ok(), "{ok:?}");
    assert!(next.elapsed() < Duration::from_secs(30), "{:?}", next.elapsed());
}

#[test]
fn a_libreoffice_bomb_is_stopped_at_its_memory_cap() {
    let mut r = renderer();
    if !soffice_or_skip(&r) {
        return;
    }
    let profile = tempfile::tempdir().unwrap();
    r.office_profile = profile.path().join("lo");
    r.office_memory_mb = 400;
    let err = r
        .rasterize_within("/in/dos.ods", &repeated_cells_ods(), &RasterOptions::default(), &within(60_000), |_| Ok(()))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("/in/dos.ods: LibreOffice could not convert it to PDF: LibreOffice grew past its memory cap of 400 MB converting it (it had reached "), "{err}");
    assert!(err.contains("— hint: the document expands to far more than its size on disk"), "{err}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(soffice_alive(profile.path()), 0, "LibreOffice outlived the job");
}

/// Fifty US-letter pages of text and shapes: what a report looks like to PDFium and the encoder.
fn report(n: usize) -> Vec<u8> {
    let list: Vec<Page> = (0..n)
        .map(|i| {
            let mut content = String::new();
            for line in 0..40 {
                content.push_str(&text(
                    50.0,
                    740.0 - line as f32 * 17.0,
                    11.0,
                    &format!("Page {i} line {line}: quarterly revenue by region, restated"),
                ));
            }
            content.push_str(&format!("0.2 0.4 0.8 rg 60 60 {} 120 re f", 100 + (i % 7) * 50));
            Page::new(612.0, 792.0, &content)
        })
        .collect();
    pdf(&list, "report")
}

#[test]
fn a_fresh_state_directory_refuses_a_50_page_300_dpi_render_in_1s_before_any_page() {
    let r = renderer();
    let state = tempfile::tempdir().unwrap();
    let rates = Arc::new(Rates::open(state.path()));
    assert!(rates.measured(JobKind::PdfPage).is_none(), "a fresh state directory has no rates");
    // The prior alone (1 ms a megapixel: 50 × 8.4 MP ≈ 0.4 s) would let this start.
    assert!(JobKind::PdfPage.prior_ms() * 50.0 * 8.5 * 11.0 * 300.0 * 300.0 / 1e6 < 1000.0);
    let budget = RunBudget::new(Some(Instant::now() + Duration::from_millis(1000)), rates);
    let opts = RasterOptions { size: Some(folio_render::Size::Dpi(300.0)), ..RasterOptions::default() };
    let mut written = 0;
    let err = r
        .rasterize_within("/in/report.pdf", &report(50), &opts, &budget, |_| {
            written += 1;
            Ok(())
        })
        .unwrap_err()
        .to_string();
    assert_eq!(written, 0, "refused before any page: {err}");
    assert!(err.starts_with("/in/report.pdf: rendering 50 pages takes about "), "{err}");
    assert!(err.contains("measured over 1 job here") && err.contains("nothing was done"), "{err}");
    // The probe's rate is this host's, kept in the state directory for the next start.
    let kept = std::fs::read_to_string(state.path().join("rates.json")).unwrap();
    assert!(kept.contains("pdf-page"), "{kept}");
    let again = Rates::open(state.path()).measured(JobKind::PdfPage).unwrap();
    assert!(again.ms_per_unit > JobKind::PdfPage.prior_ms(), "{again:?}");
}

#[test]
fn pages_that_will_not_fit_the_tree_are_refused_before_the_first_write() {
    let r = renderer();
    let budget = within(600_000);
    let opts = RasterOptions {
        size: Some(folio_render::Size::Dpi(300.0)),
        room: Some((200_000, 1_000_000)),
        ..RasterOptions::default()
    };
    let mut written = 0;
    let err = r
        .rasterize_within("/in/report.pdf", &report(50), &opts, &budget, |_| {
            written += 1;
            Ok(())
        })
        .unwrap_err()
        .to_string();
    assert_eq!(written, 0, "nothing written: {err}");
    assert!(err.starts_with("/in/report.pdf: rendering 50 pages needs about "), "{err}");
    assert!(
        err.contains("(page 1 alone encodes to ")
            && err.contains("but only 195.3 KB of its 976.6 KB size budget is left — nothing was written"),
        "{err}"
    );
    assert!(err.contains("raise the tree's size budget (limits.max_vfs_bytes)"), "{err}");
    // With room enough, the same pages render (the check is no false alarm).
    let roomy = RasterOptions { room: Some((u64::MAX / 8, u64::MAX / 4)), pages: Pages::List(vec![1, 2]), ..opts };
    let done = r.rasterize_within("/in/report.pdf", &report(50), &roomy, &budget, |_| Ok(())).unwrap();
    assert_eq!(done.page_count, 50);
}
