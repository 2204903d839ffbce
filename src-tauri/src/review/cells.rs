//! A workbook's (or CSV's) visual diff: folio-diff's cell diff per sheet, turned into what the
//! review panel draws — sheet tabs, the changed cells with their old and new values and
//! formulas, added and removed rows and columns — plus a window of the new version's values
//! around the changes (read again here, from A1, with calamine or the CSV reader the preview
//! uses), so the grid shows the changed cells in their context.

use std::io::Cursor;
use std::time::Instant;

use calamine::{Reader, open_workbook_auto_from_rs};
use folio_diff::{RowMatch, SheetStatus, WorkbookDiff};

use crate::api::*;
use crate::review::visual::{VISUAL_READ_LIMIT, diff_error, sides};
use crate::session::Session;

/// The most rows the grid window holds.
pub const GRID_ROWS: u32 = 40;

/// The most columns the grid window holds.
pub const GRID_COLS: u32 = 12;

/// `C7` → (row 6, column 2); `None` for a text that is not an A1 address.
pub fn parse_a1(address: &str) -> Option<(u32, u32)> {
    let split = address.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = address.split_at(split);
    if letters.is_empty() || !letters.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let col = letters
        .chars()
        .try_fold(0u32, |n, c| n.checked_mul(26)?.checked_add(c.to_ascii_uppercase() as u32 - 'A' as u32 + 1))?;
    let row: u32 = digits.parse().ok()?;
    (row >= 1 && col >= 1).then(|| (row - 1, col - 1))
}

/// `D` → 3.
fn column_index(letters: &str) -> Option<u32> {
    parse_a1(&format!("{letters}1")).map(|(_, c)| c)
}

fn sheet_state(s: SheetStatus) -> SheetState {
    match s {
        SheetStatus::Added => SheetState::Added,
        SheetStatus::Removed => SheetState::Removed,
        SheetStatus::Changed => SheetState::Changed,
        SheetStatus::Same => SheetState::Same,
    }
}

fn matched_by(m: &RowMatch) -> String {
    match m {
        RowMatch::Key { column } => format!("rows matched by the key column {column}"),
        RowMatch::Sequence => "rows matched by a sequence diff".to_string(),
        RowMatch::OneSide => "on one side only".to_string(),
    }
}

fn clamp(n: u64) -> u32 {
    n.min(u32::MAX as u64) as u32
}

/// The new version's values in rows `top..=bottom`, columns `0..width`, of one sheet.
type Window = Result<(Vec<Vec<String>>, Vec<String>), String>;

fn csv_window(name: &str, bytes: &[u8], top: u32, bottom: u32, width: u32) -> Window {
    let table = crate::preview::table::delimited(name, bytes, bottom as usize + 1)?;
    let cut = |row: &Vec<String>| row.iter().take(width as usize).cloned().collect::<Vec<_>>();
    let header = table.rows.first().map(cut).unwrap_or_default();
    Ok((table.rows.iter().skip(top as usize).map(cut).collect(), header))
}

fn workbook_window(bytes: &[u8], sheet: &str, top: u32, bottom: u32, width: u32) -> Window {
    let mut book = open_workbook_auto_from_rs(Cursor::new(bytes)).map_err(|e| e.to_string())?;
    let range = book.worksheet_range(sheet).map_err(|e| e.to_string())?;
    let cell = |r: u32, c: u32| {
        range
            .get_value((r, c))
            .filter(|v| !matches!(v, calamine::Data::Empty))
            .map(|v| v.to_string())
            .unwrap_or_default()
    };
    let row = |r: u32| (0..width).map(|c| cell(r, c)).collect::<Vec<_>>();
    Ok(((top..=bottom).map(row).collect(), row(0)))
}

/// The grid window of one sheet's diff: the rows of its changes (and one before), from column A.
fn grid(name: &str, new: Option<&[u8]>, csv: bool, sheet: &SheetDiff) -> Option<CellGrid> {
    let new = new?;
    let rows: Vec<u32> = sheet.cells.iter().map(|c| c.row).chain(sheet.added_rows.iter().map(|r| r.row)).collect();
    let cols: Vec<u32> = sheet
        .cells
        .iter()
        .map(|c| c.col)
        .chain(sheet.added_cols.iter().copied())
        .chain(sheet.added_rows.iter().map(|r| r.values.len().saturating_sub(1) as u32))
        .collect();
    let (first, last) = (*rows.iter().min()?, *rows.iter().max()?);
    let top = first.saturating_sub(1);
    let bottom = last.min(top + GRID_ROWS - 1);
    let widest = cols.iter().copied().max().unwrap_or(0);
    let width = (widest + 1).min(GRID_COLS);
    let window = if csv {
        csv_window(name, new, top, bottom, width)
    } else {
        std::panic::catch_unwind(|| workbook_window(new, &sheet.name, top, bottom, width))
            .unwrap_or_else(|_| Err("the workbook reader failed".into()))
    };
    // The grid is context; the list of changes stands without it.
    let (rows_read, header) = window.ok()?;
    Some(CellGrid { first_row: top, rows: rows_read, header, cut: last > bottom || widest >= GRID_COLS })
}

/// One sheet of folio-diff's answer as the panel draws it (without its grid).
fn sheet(s: &folio_diff::SheetDiff) -> SheetDiff {
    let cells = s
        .cells
        .iter()
        .map(|c| {
            let (row, col) = parse_a1(&c.new_address).or_else(|| parse_a1(&c.old_address)).unwrap_or((0, 0));
            CellChange {
                address: c.new_address.clone(),
                old_address: c.old_address.clone(),
                row,
                col,
                old: c.old_value.clone(),
                new: c.new_value.clone(),
                old_formula: c.old_formula.clone(),
                new_formula: c.new_formula.clone(),
            }
        })
        .collect();
    SheetDiff {
        name: s.name.clone(),
        state: sheet_state(s.status),
        cells,
        added_rows: s
            .added_rows
            .iter()
            .map(|r| AddedRow { row: r.row.saturating_sub(1), values: r.values.clone() })
            .collect(),
        removed_rows: s.removed_rows.iter().map(|r| r.row.saturating_sub(1)).collect(),
        added_cols: s.added_columns.iter().filter_map(|c| column_index(&c.column)).collect(),
        removed_cols: s.removed_columns.iter().filter_map(|c| column_index(&c.column)).collect(),
        changed_count: clamp(s.counts.changed_cells),
        left_out: clamp(s.left_out),
        matched_by: matched_by(&s.rows_matched_by),
        grid: None,
    }
}

/// folio-diff's workbook diff as the panel draws it, with each changed sheet's grid window read
/// from the new version (`new`).
pub fn response(path: &str, new: Option<&[u8]>, diff: &WorkbookDiff, ms: u32) -> ReviewCellsResponse {
    let lower = path.to_ascii_lowercase();
    let csv = [".csv", ".tsv", ".txt"].iter().any(|e| lower.ends_with(e));
    let sheets = diff
        .sheets
        .iter()
        .map(|s| {
            let mut out = sheet(s);
            if out.state != SheetState::Same && out.state != SheetState::Removed {
                out.grid = grid(path, new, csv, &out);
            }
            out
        })
        .collect();
    let note = (!diff.notes.is_empty()).then(|| diff.notes.join("; "));
    ReviewCellsResponse { path: path.to_string(), sheets, ms, note }
}

/// A workbook or CSV compared cell by cell with the folder's version.
pub fn cells(session: &Session, raw: &str) -> Result<ReviewCellsResponse, CommandError> {
    let start = Instant::now();
    let sides = sides(session, raw, VISUAL_READ_LIMIT)?;
    let name = sides.path.to_string();
    let diff = folio_diff::cells(sides.old.as_deref(), sides.new.as_deref(), &name).map_err(diff_error)?;
    let ms = start.elapsed().as_millis().min(u32::MAX as u128) as u32;
    Ok(response(&name, sides.new.as_deref(), &diff, ms))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a1_addresses_parse_to_rows_and_columns_from_zero() {
        let cases = [("A1", Some((0, 0))), ("C7", Some((6, 2))), ("AA10", Some((9, 26))), ("b2", Some((1, 1)))];
        for (text, want) in cases {
            assert_eq!(parse_a1(text), want, "{text}");
        }
        for bad in ["", "7", "A", "A0", "1A", "$A$1"] {
            assert_eq!(parse_a1(bad), None, "{bad}");
        }
        assert_eq!(column_index("D"), Some(3));
    }
}
