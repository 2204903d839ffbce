//! Pages: a deck with one slide's text changed marks exactly that slide; a PDF with one page
//! inserted has one added page and every other page unchanged; comparing is lazy.

use folio_diff::{PageDiff, PagePair, PageStatus};
use serde_json::json;

use super::{pages_pdf, renderer};

/// Compares every pair and returns the indexes of the changed ones.
fn changed_pairs(diff: &PageDiff) -> Vec<usize> {
    (0..diff.pairs().len()).filter(|&i| diff.compare(i, 50.0).unwrap().changed).collect()
}

fn deck(fourth_slide: &str) -> Vec<u8> {
    let slide = |title: &str, bullet: &str| json!({"title": title, "bullets": [bullet, "A second point that stays"]});
    let spec = json!({
        "title": "Quarterly review",
        "slides": [
            slide("Revenue", "Revenue grew in every region"),
            slide("Costs", "Costs fell by four percent"),
            slide("Outlook", fourth_slide),
            slide("Hiring", "Two analysts join in March"),
            slide("Next steps", "Board meeting on the 14th"),
        ],
    });
    let deck = folio_slides::Deck::from_json(&spec).unwrap();
    folio_slides::create(&deck, &|p| Err(format!("no image {p}"))).unwrap().bytes
}

#[test]
fn a_deck_with_slide_four_changed_marks_exactly_slide_four() {
    let r = renderer();
    let old = deck("The outlook is steady for the year");
    let new = deck("The outlook improved after the merger closed");
    let diff = PageDiff::open(&r, Some(old), Some(new), "/out/review.pptx").unwrap();
    assert_eq!((diff.old_pages(), diff.new_pages()), (6, 6));
    let both: Vec<PagePair> = (1..=6).map(|p| PagePair { old: Some(p), new: Some(p) }).collect();
    assert_eq!(diff.pairs(), &both[..]);
    assert_eq!(changed_pairs(&diff), vec![3], "only slide 4 differs");
    let four = diff.compare(3, 50.0).unwrap();
    assert!(four.changed_fraction > 0.0 && !four.changed_boxes.is_empty());
    assert!(four.old_png.unwrap().starts_with(b"\x89PNG") && four.new_png.unwrap().starts_with(b"\x89PNG"));
    let status: Vec<PageStatus> = (0..6).map(|i| diff.status(i).unwrap()).collect();
    assert_eq!(status.iter().filter(|s| **s == PageStatus::Changed).count(), 1);
    assert_eq!(status[3], PageStatus::Changed);
    assert!(diff.overview().notes.iter().any(|n| n.contains("LibreOffice")));
}

#[test]
fn a_pdf_with_one_page_inserted_has_one_added_page_and_the_rest_unchanged() {
    // "glaciers" uses only letters the other pages use, so the shared font subset is unchanged
    // and pages align by their objects; "jazzy quixotic waxwork" adds glyphs (the subset, and so
    // every page's objects, change) and pages align by their text.
    let r = renderer();
    for (inserted, aligned_by) in
        [("glaciers", folio_diff::ALIGNED_BY_OBJECTS), ("jazzy quixotic waxwork", folio_diff::ALIGNED_BY_TEXT)]
    {
        let names: Vec<String> = ["apples", "bridges", "copper", "dunes", "engines"].map(String::from).to_vec();
        let mut with = names.clone();
        with.insert(2, inserted.into());
        let diff = PageDiff::open(&r, Some(pages_pdf(&names)), Some(pages_pdf(&with)), "/out/report.pdf").unwrap();
        assert_eq!((diff.old_pages(), diff.new_pages()), (5, 6));
        assert!(diff.overview().notes.iter().any(|n| n == aligned_by), "{inserted}: {:?}", diff.overview().notes);
        let want = [
            (Some(1), Some(1)),
            (Some(2), Some(2)),
            (None, Some(3)),
            (Some(3), Some(4)),
            (Some(4), Some(5)),
            (Some(5), Some(6)),
        ]
        .map(|(old, new)| PagePair { old, new });
        assert_eq!(diff.pairs(), &want[..], "{inserted}");
        assert_eq!(diff.status(2).unwrap(), PageStatus::Added);
        assert_eq!(changed_pairs(&diff), vec![2], "{inserted}: only the added page counts as changed");
        let added = diff.compare(2, 50.0).unwrap();
        assert!(added.old_png.is_none() && added.new_png.is_some());
        for i in [0, 1, 3, 4, 5] {
            assert_eq!(diff.status(i).unwrap(), PageStatus::Unchanged, "{inserted}: pair {i}");
        }
    }
}

#[test]
fn pages_made_of_the_same_objects_are_unchanged_before_any_render() {
    // The third page's text changes using letters the others already use, so the font subset
    // (shared by every page) is the same and pages 1, 2 and 4 are byte-for-byte the same objects.
    let r = renderer();
    let names: Vec<String> = ["apples", "bridges", "copper", "dunes"].map(String::from).to_vec();
    let mut edited = names.clone();
    edited[2] = "coppers".into();
    let diff = PageDiff::open(&r, Some(pages_pdf(&names)), Some(pages_pdf(&edited)), "/out/report.pdf").unwrap();
    let before: Vec<PageStatus> = diff.overview().status;
    use PageStatus::{Changed, Unchanged, Unknown};
    assert_eq!(before, vec![Unchanged, Unchanged, Unknown, Unchanged], "known without rendering");
    assert!(diff.compare(2, 50.0).unwrap().changed);
    assert_eq!(diff.status(2).unwrap(), Changed);
    // And what the objects call unchanged, the pixels agree with.
    for i in [0, 1, 3] {
        assert!(!diff.compare(i, 50.0).unwrap().changed, "pair {i}");
    }
}

#[test]
fn a_page_edited_beside_an_inserted_one_still_meets_its_twin() {
    // Page 3 is edited AND a page is inserted before it: the shared words pair old 3 with new 4.
    let r = renderer();
    let names: Vec<String> = ["apples", "bridges", "copper", "dunes"].map(String::from).to_vec();
    let mut with = names.clone();
    with[2] = "copper and tin".into();
    with.insert(2, "glaciers".into());
    let diff = PageDiff::open(&r, Some(pages_pdf(&names)), Some(pages_pdf(&with)), "/out/report.pdf").unwrap();
    let want = [(Some(1), Some(1)), (Some(2), Some(2)), (None, Some(3)), (Some(3), Some(4)), (Some(4), Some(5))]
        .map(|(old, new)| PagePair { old, new });
    assert_eq!(diff.pairs(), &want[..]);
    assert_eq!(changed_pairs(&diff), vec![2, 3]);
}

#[test]
fn a_document_on_one_side_only_is_all_added_or_all_removed() {
    let r = renderer();
    let bytes = pages_pdf(&["one".into(), "two".into()]);
    let added = PageDiff::open(&r, None, Some(bytes.clone()), "/out/new.pdf").unwrap();
    assert_eq!(added.overview().status, vec![PageStatus::Added, PageStatus::Added]);
    let removed = PageDiff::open(&r, Some(bytes), None, "/out/old.pdf").unwrap();
    assert_eq!(removed.overview().status, vec![PageStatus::Removed, PageStatus::Removed]);
    let e = removed.compare(5, 50.0).unwrap_err().to_string();
    assert!(e.contains("page pair 5 does not exist") && e.contains("hint"), "{e}");
}

/// An Office document's conversions are one job of the caller's budget: progress before the
/// first (0 of 2, with an ETA from the rates) and after each, the rate learnt; a second open of
/// the same bytes converts nothing (LibreOffice's answers are kept), so it reports nothing.
#[test]
fn an_office_pair_reports_its_conversions_with_an_eta_and_a_cached_one_reports_none() {
    use std::sync::{Arc, Mutex};

    use folio_budget::{JobKind, JobProgress, Rates, RunBudget};

    let r = renderer();
    // Texts no other test converts, so neither side is in the conversion cache yet.
    let old = deck("A progress test's own outlook, before");
    let new = deck("A progress test's own outlook, after");
    let seen: Arc<Mutex<Vec<JobProgress>>> = Arc::default();
    let sink = seen.clone();
    let rates = Arc::new(Rates::in_memory());
    let budget = RunBudget::new(None, rates.clone())
        .with_progress(Arc::new(move |p: &JobProgress| sink.lock().unwrap().push(p.clone())));
    let diff = PageDiff::open_with(&r, Some(old.clone()), Some(new.clone()), "/out/progress.pptx", &budget).unwrap();
    assert_eq!(diff.pairs().len(), 6);
    let events = seen.lock().unwrap().clone();
    let counts: Vec<(u64, u64)> = events.iter().map(|p| (p.done, p.total)).collect();
    assert_eq!(counts.first(), Some(&(0, 2)), "{counts:?}");
    assert_eq!(counts.last(), Some(&(2, 2)), "{counts:?}");
    assert!(events[0].eta_ms.is_some() && events[0].job == "review /out/progress.pptx", "{:?}", events[0]);
    assert!(rates.measured(JobKind::OfficeConvert).is_some(), "the conversions taught the rate");

    seen.lock().unwrap().clear();
    PageDiff::open_with(&r, Some(old), Some(new), "/out/progress.pptx", &budget).unwrap();
    assert!(seen.lock().unwrap().is_empty(), "cached conversions report nothing");
}
