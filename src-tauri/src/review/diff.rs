//! The diff of one pending change: the folder's version now (read from disk) against what a
//! commit would write (read through the working environment), computed with `similar`. Text gets
//! unified hunks; a file folio-diff compares visually (pages, cells, an image, a video, an
//! archive, by folio-kinds' table) is answered with its shape only, and the panel asks the
//! shape's own command ([`super::visual`]); large files are capped with a note.

use folio_diff::Shape;
use folio_vfs::{ChangeKind, Kind, Tree, VPath};
use similar::{ChangeTag, TextDiff};

use crate::api::{DiffHunk, DiffKind, DiffLine, LineTag, ReviewDiffResponse};
use crate::review::disk::{self, DIFF_READ_LIMIT, DiskSide};
use crate::session::Session;

/// The most diff lines sent to the UI for one file; the rest is summarised in the note.
pub const MAX_DIFF_LINES: usize = 2000;

/// Lines of unchanged context around each change.
const CONTEXT: usize = 3;

/// A line diff of two texts: hunks (capped at [`MAX_DIFF_LINES`] lines), lines added and removed,
/// and a note when lines were left out.
pub fn text_diff(old: &str, new: &str) -> (Vec<DiffHunk>, u32, u32, Option<String>) {
    let diff = TextDiff::configure().timeout(std::time::Duration::from_secs(2)).diff_lines(old, new);
    let mut hunks = Vec::new();
    let (mut added, mut removed, mut shown, mut left_out) = (0u32, 0u32, 0usize, 0usize);
    for group in diff.grouped_ops(CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else { continue };
        let (old_start, new_start) = (first.old_range().start, first.new_range().start);
        let (old_len, new_len) = (last.old_range().end - old_start, last.new_range().end - new_start);
        let header = format!("@@ -{},{old_len} +{},{new_len} @@", old_start + 1, new_start + 1);
        let mut lines = Vec::new();
        for op in &group {
            for change in diff.iter_changes(op) {
                let tag = match change.tag() {
                    ChangeTag::Equal => LineTag::Context,
                    ChangeTag::Insert => {
                        added += 1;
                        LineTag::Added
                    }
                    ChangeTag::Delete => {
                        removed += 1;
                        LineTag::Removed
                    }
                };
                if shown >= MAX_DIFF_LINES {
                    left_out += 1;
                    continue;
                }
                shown += 1;
                let text = change.value().trim_end_matches(['\n', '\r']).to_string();
                let number = |i: Option<usize>| i.map(|i| i as u32 + 1);
                lines.push(DiffLine {
                    tag,
                    old_line: number(change.old_index()),
                    new_line: number(change.new_index()),
                    text,
                });
            }
        }
        if !lines.is_empty() {
            hunks.push(DiffHunk { header, lines });
        }
    }
    let note = (left_out > 0)
        .then(|| format!("the diff is long: {left_out} more lines are not shown — open the file to see all of it"));
    (hunks, added, removed, note)
}

fn as_text(bytes: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(bytes).ok()?;
    (!text.contains('\0')).then_some(text)
}

fn too_big(size: u64) -> String {
    format!(
        "the file is {:.1} MB, more than the {} MB Folio diffs — compare it by opening both versions",
        size as f64 / 1_048_576.0,
        DIFF_READ_LIMIT / 1_048_576
    )
}

/// The diff of the pending change at `raw`.
pub fn diff(session: &Session, raw: &str) -> Result<ReviewDiffResponse, String> {
    let path = VPath::parse(raw).map_err(|e| format!("`{raw}` is not a path in the folder: {e}"))?;
    let env = session.environment();
    let overlay = env.overlay().ok_or("this folder has no pending changes")?;
    let changes = overlay.pending().map_err(|e| format!("the pending changes could not be read: {e}"))?;
    let change = changes.iter().find(|c| c.path == path).ok_or_else(|| {
        format!("{path} has no pending change (it was committed or discarded meanwhile) — reopen the review panel")
    })?;
    let before_path = match &change.kind {
        ChangeKind::Renamed { from } => from.clone(),
        _ => path.clone(),
    };
    let before = disk::read(overlay, &before_path)?;
    let (before_size, before_bytes) = match &before {
        DiskSide::File { size, bytes } => (Some(*size), bytes.as_deref()),
        DiskSide::Absent | DiskSide::Dir => (None, None),
    };
    let mut after_size = None;
    let mut after_bytes = None;
    let mut after_dir = false;
    if !matches!(change.kind, ChangeKind::Deleted) {
        let stat = env.tree().stat(&path).map_err(|e| format!("{path} could not be read: {e}"))?;
        match stat {
            Some(s) if s.kind == Kind::Dir => after_dir = true,
            Some(s) => {
                after_size = Some(s.size);
                if s.size <= DIFF_READ_LIMIT {
                    after_bytes = Some(env.tree().read(&path).map_err(|e| format!("{path} could not be read: {e}"))?);
                }
            }
            None => {}
        }
    }
    let extension = path.extension().map(|e| e.to_string());
    let sniff = after_bytes.as_deref().or(before_bytes).unwrap_or_default();
    // A file too large to read whole here is sniffed by its first bytes.
    let head = match (sniff.is_empty(), after_size) {
        (true, Some(_)) => crate::preview::read_range(session, &path, 0, 8192).unwrap_or_default(),
        _ => sniff[..sniff.len().min(8192)].to_vec(),
    };
    let media_type = folio_env::media_type(extension.as_deref(), sniff);
    let mut response = ReviewDiffResponse {
        path: path.to_string(),
        before_path: before_path.to_string(),
        kind: DiffKind::Binary,
        media_type,
        before_size,
        after_size,
        hunks: Vec::new(),
        added: 0,
        removed: 0,
        note: None,
    };
    if change.is_dir || after_dir || before == DiskSide::Dir {
        response.kind = DiffKind::Dir;
        return Ok(response);
    }
    let visual = match folio_diff::shape_of(path.as_str(), &head) {
        Shape::Pages => Some(DiffKind::Pages),
        Shape::Cells => Some(DiffKind::Cells),
        Shape::Image => Some(DiffKind::Image),
        Shape::Video => Some(DiffKind::Video),
        Shape::Archive => Some(DiffKind::Archive),
        Shape::Text | Shape::Binary => None,
    };
    if let Some(kind) = visual {
        response.kind = kind;
        return Ok(response);
    }
    let too_large = [before_size, after_size].into_iter().flatten().find(|s| *s > DIFF_READ_LIMIT);
    if let Some(size) = too_large {
        response.note = Some(too_big(size));
        return Ok(response);
    }
    let old = match before_bytes {
        Some(b) => as_text(b),
        None => Some(""),
    };
    let new = match after_bytes.as_deref() {
        Some(b) => as_text(b),
        None => Some(""),
    };
    if let (Some(old), Some(new)) = (old, new) {
        let (hunks, added, removed, note) = text_diff(old, new);
        response.kind = DiffKind::Text;
        response.hunks = hunks;
        response.added = added;
        response.removed = removed;
        response.note = note;
    } else {
        response.note = Some("binary content: only the sizes are compared — open the file to look at it".into());
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn tags(hunks: &[DiffHunk]) -> Vec<(LineTag, Option<u32>, Option<u32>, &str)> {
        hunks.iter().flat_map(|h| &h.lines).map(|l| (l.tag, l.old_line, l.new_line, l.text.as_str())).collect()
    }

    #[test]
    fn a_changed_line_shows_removed_then_added_with_line_numbers() {
        let (hunks, added, removed, note) = text_diff("a\nb\nc\n", "a\nB\nc\nd\n");
        assert_eq!((added, removed, note), (2, 1, None));
        assert_eq!(hunks.len(), 1);
        assert_eq!(hunks[0].header, "@@ -1,3 +1,4 @@");
        assert_eq!(
            tags(&hunks),
            [
                (LineTag::Context, Some(1), Some(1), "a"),
                (LineTag::Removed, Some(2), None, "b"),
                (LineTag::Added, None, Some(2), "B"),
                (LineTag::Context, Some(3), Some(3), "c"),
                (LineTag::Added, None, Some(4), "d"),
            ]
        );
    }

    #[test]
    fn far_apart_changes_make_separate_hunks_and_new_files_are_all_added() {
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new: String = (1..=20)
            .map(|i| match i {
                2 => "two\n".to_string(),
                19 => "nineteen\n".to_string(),
                i => format!("{i}\n"),
            })
            .collect();
        let (hunks, added, removed, _) = text_diff(&old, &new);
        assert_eq!((hunks.len(), added, removed), (2, 2, 2));
        let (hunks, added, removed, _) = text_diff("", "x\ny\n");
        assert_eq!((added, removed), (2, 0));
        assert!(tags(&hunks).iter().all(|t| t.0 == LineTag::Added));
    }

    #[test]
    fn long_diffs_are_capped_with_a_note() {
        let new: String = (0..MAX_DIFF_LINES + 50).map(|i| format!("line {i}\n")).collect();
        let (hunks, added, _, note) = text_diff("", &new);
        let shown: usize = hunks.iter().map(|h| h.lines.len()).sum();
        assert_eq!(shown, MAX_DIFF_LINES);
        assert_eq!(added as usize, MAX_DIFF_LINES + 50, "the counts cover every line");
        assert!(note.unwrap().contains("50 more lines"));
    }
}
