//! The reader on the corpus' decks (described and extracted, or refused with a named error),
//! on our own deck (titles, bullets, notes; chrome excluded), and replaceText (only matched
//! parts rewritten, the rest copied byte for byte as stored).

use std::io::Read;

use folio_slides::{Deck, create, describe, extract, extract_text, outline, replace_text};
use serde_json::json;

use super::common::corpus;

#[test]
fn corpus_decks_are_read_or_refused_by_name() {
    let Some(dir) = corpus() else { return };
    let dir = dir.join("presentations");
    // (file, Ok(min slides) or Err(message part))
    let expect: &[(&str, Result<usize, &str>)] = &[
        ("charts-31-in-8-slides.pptx", Ok(8)),
        ("embedded-video.pptx", Ok(1)),
        ("speaker-notes.pptx", Ok(1)),
        ("real-deck-powerpoint-mac-4-slides.pptx", Ok(4)),
        ("tables-3-slides.pptx", Ok(3)),
        ("ole-embedded-object.pptx", Ok(1)),
        ("real-deck-23-slides-from-web.pptx", Ok(23)),
        ("legacy-ppt97-chinese-text.ppt", Err("legacy PowerPoint 97–2003")),
        ("apple-keynote-untitled.key", Err("Apple Keynote")),
    ];
    for (name, want) in expect {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        match (describe(name, &bytes), want) {
            (Ok(d), Ok(min)) => {
                assert_eq!(d.slides, *min, "{name}: {d:?}");
                let slides = extract(name, &bytes).unwrap();
                assert_eq!(slides.len(), d.slides);
                assert!(outline(name, &bytes).unwrap().starts_with("## Slide 1:"), "{name}");
                if *name == "speaker-notes.pptx" {
                    assert!(
                        slides.iter().any(|s| !s.notes.is_empty()),
                        "{name}: notes found through relationships: {slides:?}"
                    );
                }
                if *name == "tables-3-slides.pptx" {
                    assert!(slides.iter().any(|s| s.body.iter().any(|b| b.contains(" | "))), "{name}: table rows");
                }
                if *name == "charts-31-in-8-slides.pptx" {
                    assert!(d.charts >= 31, "{name}: {} charts", d.charts);
                }
                if *name == "embedded-video.pptx" {
                    assert!(d.media >= 1, "{name}: media listed");
                }
                if *name == "real-deck-powerpoint-mac-4-slides.pptx" {
                    assert!(d.titles.iter().filter(|t| !t.is_empty()).count() >= 3, "{name}: {:?}", d.titles);
                    assert!(d.words > 10);
                }
            }
            (Err(e), Err(part)) => {
                assert!(e.to_string().contains(part) && e.to_string().contains("hint"), "{name}: {e}")
            }
            (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }
}

fn our_deck() -> Vec<u8> {
    let spec = json!({"title": "Plan Q3", "footer": "Footer text", "slides": [
        {"title": "Goals for Q3", "bullets": ["Ship Q3 release", "  Q3 beta first"], "notes": "Say Q3 slowly."},
        {"title": "Budget", "body": "Nothing to change here."},
        {"title": "Numbers", "table": [["Item", "Cost"], ["Q3 ads", "1,000"]]}
    ]});
    create(&Deck::from_json(&spec).unwrap(), &|_: &str| Err("none".into())).unwrap().bytes
}

#[test]
fn our_deck_reads_back_without_chrome() {
    let bytes = our_deck();
    let s = extract("d.pptx", &bytes).unwrap();
    assert_eq!(s.len(), 4);
    assert_eq!(s[0].title, "Plan Q3");
    assert_eq!(s[1].title, "Goals for Q3");
    assert_eq!(s[1].body, vec!["Ship Q3 release", "Q3 beta first"]);
    assert_eq!(s[1].notes, "Say Q3 slowly.");
    assert_eq!(s[3].body, vec!["Item | Cost", "Q3 ads | 1,000"]);
    assert!(s.iter().all(|x| !x.body.iter().any(|b| b.contains("Footer text"))), "master chrome excluded");
    let d = describe("d.pptx", &bytes).unwrap();
    assert_eq!(d.titles, vec!["Plan Q3", "Goals for Q3", "Budget", "Numbers"]);
    assert_eq!(d.notes, 1);
    let text = extract_text(&bytes).unwrap();
    assert!(text.contains("## Slide 2: Goals for Q3") && text.contains("> Say Q3 slowly."), "{text}");
}

fn raw_entries(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..z.len())
        .map(|i| {
            let mut f = z.by_index_raw(i).unwrap();
            let name = f.name().unwrap().into_owned();
            let mut raw = Vec::new();
            f.read_to_end(&mut raw).unwrap();
            (name, raw)
        })
        .collect()
}

#[test]
fn replace_text_rewrites_only_matched_parts() {
    let bytes = our_deck();
    let (out, r) = replace_text(
        "d.pptx",
        &bytes,
        &[("Q3".into(), "Q4".into()), ("absent".into(), "x".into())],
        Some(&[2, 4]),
        true,
    )
    .unwrap();
    assert_eq!(r.replacements, 5, "{r:?}");
    assert_eq!(r.unmatched, vec!["absent"]);
    assert_eq!(r.slides.iter().map(|s| s.slide).collect::<Vec<_>>(), vec![2, 4]);
    assert_eq!(r.parts, 3, "slide 2, its notes, slide 4");
    let s = extract("d.pptx", &out).unwrap();
    assert_eq!(s[0].title, "Plan Q3", "slide 1 was not asked for");
    assert_eq!(s[1].title, "Goals for Q4");
    assert_eq!(s[1].notes, "Say Q4 slowly.");
    assert_eq!(s[3].body[1], "Q4 ads | 1,000");
    let (before, after) = (raw_entries(&bytes), raw_entries(&out));
    assert_eq!(before.len(), after.len());
    let mut changed: Vec<&str> = before.iter().zip(&after).filter(|(a, b)| a != b).map(|(a, _)| a.0.as_str()).collect();
    changed.sort();
    assert_eq!(
        changed,
        vec!["ppt/notesSlides/notesSlide2.xml", "ppt/slides/slide2.xml", "ppt/slides/slide4.xml"],
        "only matched parts differ"
    );
    let e = replace_text("d.pptx", &bytes, &[("nowhere".into(), "x".into())], None, true).unwrap_err().to_string();
    assert!(e.contains("none of the texts to replace were found (\"nowhere\")"), "{e}");
    let e = replace_text("d.pptx", &bytes, &[("Q3".into(), "x".into())], Some(&[9]), true).unwrap_err().to_string();
    assert!(e.contains("slide 9 does not exist"), "{e}");
}
