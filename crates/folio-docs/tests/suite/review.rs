//! Documents under review (`../shared/corpus/documents`): tracked changes read as accepted by
//! default, rejected or marked up on request, moves not doubled, and a note that counts the
//! changes, comments and notes — through the Rust API, `grep`'s text and a real script.

use folio_docs::docxread::{self, DEFAULT_CAP};
use folio_docs::docxtext::Changes;
use serde_json::json;

use super::common::*;

/// (file, view, the body text expected).
const VIEWS: &[(&str, Changes, &str)] = &[
    // The first paragraph mark is an insertion and the second a deletion: accepted, " split"
    // joins "Paragraph."; rejected, "This is a" joins " split".
    ("tracked-insert-delete.docx", Changes::Accept, "This is a\n splitParagraph."),
    ("tracked-insert-delete.docx", Changes::Reject, "This is a split\nParagraph."),
    ("tracked-insert-delete.docx", Changes::Markup, "This is a[+¶+]\n split[-¶-]\nParagraph."),
    // The moved sentence appears once: at its destination, or at its source when rejected.
    (
        "tracked-move.docx",
        Changes::Accept,
        "Here is some text.\nHere is the text to be moved.\nHere is some more text.",
    ),
    (
        "tracked-move.docx",
        Changes::Reject,
        "Here is some text.\nHere is some more text.\nHere is the text to be moved.",
    ),
    (
        "tracked-move.docx",
        Changes::Markup,
        "Here is some text.\n[+Here is the text to be moved.+]\nHere is some more text.\n[-Here is the text to be moved.-]",
    ),
];

#[test]
fn tracked_changes_read_as_accepted_rejected_or_marked_and_moves_are_not_doubled() {
    let Some(dir) = corpus() else { return };
    for (file, changes, want) in VIEWS {
        let bytes = std::fs::read(dir.join("documents").join(file)).unwrap();
        let x = docxread::extract(file, bytes, DEFAULT_CAP, *changes).unwrap();
        assert_eq!(x.text, *want, "{file} {changes:?}");
        let note = x.note.unwrap_or_default();
        assert!(note.contains("tracked change"), "{file}: the note names the tracked changes: {note}");
    }
    // grep `documents: true` reads the accepted text.
    let bytes = std::fs::read(dir.join("documents/tracked-move.docx")).unwrap();
    let text = folio_docs::extract_text(&renderer(), "tracked-move.docx", &bytes).unwrap();
    assert_eq!(text.matches("Here is the text to be moved.").count(), 1, "{text}");
}

#[test]
fn comments_and_notes_are_counted_and_returned_beside_the_text() {
    let Some(dir) = corpus() else { return };
    let comments = std::fs::read(dir.join("documents/comments-5.docx")).unwrap();
    let notes = std::fs::read(dir.join("documents/footnote-and-endnote.docx")).unwrap();
    let moved = std::fs::read(dir.join("documents/tracked-move.docx")).unwrap();
    let (_, out) = run(
        &[("/in/c.docx", comments), ("/in/n.docx", notes), ("/in/m.docx", moved)],
        r#"
import { docx } from 'env:documents';
export default async function main() {
  const c = await docx.extractText('/in/c.docx');
  const n = await docx.extractText('/in/n.docx');
  const m = await docx.extractText('/in/m.docx');
  const r = await docx.extractText('/in/m.docx', { changes: 'reject' });
  const bad = await docx.extractText('/in/m.docx', { changes: 'final' }).catch(e => String(e));
  const d = await docx.describe('/in/m.docx');
  return { c, n, m, r, bad, d };
}
"#,
    );
    let v = out.unwrap();
    assert_eq!(v["c"]["review"]["comments"], 5, "{}", v["c"]);
    assert_eq!(v["c"]["comments"].as_array().unwrap().len(), 5);
    assert!(v["c"]["note"].as_str().unwrap().contains("5 comments"), "{}", v["c"]["note"]);
    assert_eq!(v["n"]["review"]["footnotes"], 1, "{}", v["n"]);
    assert_eq!(v["n"]["review"]["endnotes"], 1, "{}", v["n"]);
    assert!(!v["n"]["footnotes"][0].as_str().unwrap().is_empty());
    assert_eq!(v["m"]["review"]["moves"], 1, "{}", v["m"]);
    assert_eq!(v["m"]["review"]["insertions"], 0);
    assert!(v["m"]["note"].as_str().unwrap().contains("1 tracked change (1 move)"), "{}", v["m"]["note"]);
    assert!(v["r"]["note"].as_str().unwrap().contains("rejected"), "{}", v["r"]["note"]);
    assert!(v["bad"].as_str().unwrap().contains("'accept', 'reject' or 'markup'"), "{}", v["bad"]);
    assert_eq!(v["d"]["review"]["moves"], json!(1));
    assert_eq!(v["d"]["words"], json!(16), "{}", v["d"]);
}
