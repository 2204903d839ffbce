//! Cells: a workbook (xlsx, xlsm, xlsb, xls, ods) or a CSV/TSV, read through folio-sheets'
//! readers (calamine, with its bomb and encryption refusals), compared sheet by sheet.
//!
//! Sheets are matched by name (tabs added, removed, changed, same). Within a sheet, columns are
//! matched by their header when the first row is a header, else by position; rows by a key when
//! the first column is one (a header row, and values unique on both sides), else by a sequence
//! diff of row fingerprints — so one inserted row is one added row, not every later row
//! changed. Rows the sequence diff leaves unmatched are paired by their most similar neighbour
//! before the rest count as added or removed. Changed cells are listed with their A1 address on
//! each side, value and formula, up to a cap; the rest are counted.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use folio_sheets::flat::{cell_name, column_letter};
use serde::Serialize;

use crate::error::{DiffError, Result, Side};
use crate::formula::relative;
use crate::seq::{self, Pair};
use crate::sheetread::{self, Sheet};

/// How a sheet compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SheetStatus {
    /// Only in the new workbook.
    Added,
    /// Only in the old workbook.
    Removed,
    /// In both, with a difference.
    Changed,
    /// In both, identical values and formulas.
    Same,
}

/// How a sheet's rows were matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "by")]
pub enum RowMatch {
    /// By the value in a key column (named by its header on the new side).
    Key {
        /// The key column's header.
        column: String,
    },
    /// By a sequence diff of whole rows.
    Sequence,
    /// Nothing to match: the sheet is on one side only.
    OneSide,
}

/// One changed cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellChange {
    /// The cell's address on the old side (`B7`).
    pub old_address: String,
    /// The cell's address on the new side (differs when rows or columns moved).
    pub new_address: String,
    /// The old value as text (`None`: empty).
    pub old_value: Option<String>,
    /// The new value as text.
    pub new_value: Option<String>,
    /// The old formula with `=` (`None`: a constant).
    pub old_formula: Option<String>,
    /// The new formula.
    pub new_formula: Option<String>,
}

/// One added or removed row: its number on its side and its values as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowChange {
    /// The row number (1-based) on the side it is on.
    pub row: u32,
    /// Its values as text (empty cells as `""`), at most 64.
    pub values: Vec<String>,
}

/// One added or removed column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ColumnChange {
    /// Its letter on the side it is on (`D`).
    pub column: String,
    /// Its header, when the sheet has a header row.
    pub header: Option<String>,
}

/// How much changed in a sheet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellCounts {
    /// Cells whose value or formula changed in matched rows and columns.
    pub changed_cells: u64,
    /// Rows only on the new side.
    pub added_rows: u64,
    /// Rows only on the old side.
    pub removed_rows: u64,
    /// Columns only on the new side.
    pub added_columns: u64,
    /// Columns only on the old side.
    pub removed_columns: u64,
    /// Matched rows with at least one changed cell.
    pub changed_rows: u64,
}

/// One sheet's diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SheetDiff {
    /// The sheet's name (a CSV's one sheet is named after the file).
    pub name: String,
    /// Added, removed, changed or the same.
    pub status: SheetStatus,
    /// Rows and columns used on the old side (0 when it has none).
    pub old_size: (u32, u32),
    /// Rows and columns used on the new side.
    pub new_size: (u32, u32),
    /// How rows were matched.
    pub rows_matched_by: RowMatch,
    /// Counts (exact, whatever the caps left out).
    pub counts: CellCounts,
    /// Changed cells, in new-side row order, up to the cap.
    pub cells: Vec<CellChange>,
    /// Rows only on the new side, up to the cap.
    pub added_rows: Vec<RowChange>,
    /// Rows only on the old side, up to the cap.
    pub removed_rows: Vec<RowChange>,
    /// Columns only on the new side.
    pub added_columns: Vec<ColumnChange>,
    /// Columns only on the old side.
    pub removed_columns: Vec<ColumnChange>,
    /// Changed cells and rows counted but not listed (the cap).
    pub left_out: u64,
}

/// A whole workbook's diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkbookDiff {
    /// One entry per sheet, in the new workbook's order, removed sheets after.
    pub sheets: Vec<SheetDiff>,
    /// Remarks (caps reached, a header row assumed…).
    pub notes: Vec<String>,
    /// What reading and comparing cost, in milliseconds.
    pub ms: u64,
}

/// Caps on what a workbook diff lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellOptions {
    /// Changed cells, added and removed rows listed in the whole workbook (default 5 000); the
    /// rest are counted in `left_out`.
    pub max_listed: usize,
}

impl Default for CellOptions {
    fn default() -> CellOptions {
        CellOptions { max_listed: 5_000 }
    }
}

/// Compares two versions of a workbook or CSV (`None`: the file does not exist on that side)
/// with the default caps. A side that is not a workbook, is truncated or encrypted is refused
/// with [`DiffError::Workbook`], naming the side.
pub fn cells(old: Option<&[u8]>, new: Option<&[u8]>, name: &str) -> Result<WorkbookDiff> {
    cells_with(old, new, name, &CellOptions::default())
}

/// [`cells`] with explicit caps.
pub fn cells_with(old: Option<&[u8]>, new: Option<&[u8]>, name: &str, options: &CellOptions) -> Result<WorkbookDiff> {
    let started = Instant::now();
    if old.is_none() && new.is_none() {
        return Err(DiffError::NothingToCompare { name: name.to_string() });
    }
    // The two sides are read at once, each on its own thread: reading is most of the cost.
    let (old, new) = std::thread::scope(|scope| {
        let other = scope.spawn(|| old.map(|b| sheetread::read(name, Side::Old, b)).transpose());
        let new = new.map(|b| sheetread::read(name, Side::New, b)).transpose();
        let old = other.join().unwrap_or_else(|_| {
            Err(DiffError::Internal { name: name.to_string(), what: "reading the folder's version".into() })
        });
        (old, new)
    });
    let (old, new) = (old?.unwrap_or_default(), new?.unwrap_or_default());
    let mut budget = options.max_listed;
    let mut sheets = Vec::new();
    for n in &new {
        let o = old.iter().find(|o| o.name == n.name);
        sheets.push(diff_sheet(o, Some(n), &mut budget));
    }
    for o in old.iter().filter(|o| !new.iter().any(|n| n.name == o.name)) {
        sheets.push(diff_sheet(Some(o), None, &mut budget));
    }
    let mut notes = Vec::new();
    let left_out: u64 = sheets.iter().map(|s| s.left_out).sum();
    if left_out > 0 {
        notes.push(format!(
            "{left_out} changed cell(s) and row(s) are counted but not listed (the first {} are)",
            options.max_listed
        ));
    }
    for s in &sheets {
        if let RowMatch::Key { column } = &s.rows_matched_by {
            notes.push(format!("sheet {}: rows matched by their {column:?} value", s.name));
        }
    }
    Ok(WorkbookDiff { sheets, notes, ms: started.elapsed().as_millis() as u64 })
}

/// Values listed per added or removed row.
const ROW_VALUES: usize = 64;

/// A 64-bit fingerprint of some texts.
fn print<'a>(parts: impl Iterator<Item = &'a str>) -> u64 {
    // FNV-1a: fast, and collisions only cost a missed match that the cell comparison catches.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0x1f]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The header row, when row 1 looks like one: at least one cell, every filled cell text that is
/// not a number, and more rows below it.
fn header(s: &Sheet) -> Option<&[String]> {
    let first = s.rows.first()?;
    let filled: Vec<&String> = first.iter().filter(|c| !c.is_empty()).collect();
    let is_text = |c: &&String| c.trim().parse::<f64>().is_err();
    (s.rows.len() > 1 && !filled.is_empty() && filled.iter().all(is_text) && s.formulas.keys().all(|k| k.0 != 0))
        .then_some(first.as_slice())
}

fn row_values(s: &Sheet, r: usize) -> RowChange {
    let values = s.rows.get(r).map(|row| row.iter().take(ROW_VALUES).cloned().collect()).unwrap_or_default();
    RowChange { row: r as u32 + 1, values }
}

fn size(s: Option<&Sheet>) -> (u32, u32) {
    s.map_or((0, 0), |s| (s.rows.len() as u32, s.width() as u32))
}

/// One sheet compared; `budget` is what the whole workbook may still list.
fn diff_sheet(old: Option<&Sheet>, new: Option<&Sheet>, budget: &mut usize) -> SheetDiff {
    let name = new.or(old).map(|s| s.name.clone()).unwrap_or_default();
    let mut out = SheetDiff {
        name,
        status: SheetStatus::Same,
        old_size: size(old),
        new_size: size(new),
        rows_matched_by: RowMatch::OneSide,
        counts: CellCounts::default(),
        cells: Vec::new(),
        added_rows: Vec::new(),
        removed_rows: Vec::new(),
        added_columns: Vec::new(),
        removed_columns: Vec::new(),
        left_out: 0,
    };
    let (o, n) = match (old, new) {
        (Some(o), Some(n)) => (o, n),
        (Some(o), None) => {
            out.status = SheetStatus::Removed;
            out.counts.removed_rows = o.rows.len() as u64;
            return out;
        }
        (None, Some(n)) => {
            out.status = SheetStatus::Added;
            out.counts.added_rows = n.rows.len() as u64;
            return out;
        }
        (None, None) => return out,
    };
    let headers = header(o).zip(header(n));
    let columns = match_columns(o, n, headers, &mut out);
    let first_data = usize::from(headers.is_some());
    let (rows, by) = match_rows(o, n, &columns, first_data, headers);
    out.rows_matched_by = by;
    for (i, j) in rows {
        match (i, j) {
            (Some(i), Some(j)) => {
                let mut row_changed = false;
                for &(co, cn) in &columns {
                    let (vo, vn) = (o.cell(i, co), n.cell(j, cn));
                    let (fo, fn_) = (o.formula(i, co), n.formula(j, cn));
                    let same_formula = match (fo, fn_) {
                        (Some(a), Some(b)) => {
                            a == b || relative(a, i as u32, co as u32) == relative(b, j as u32, cn as u32)
                        }
                        (a, b) => a == b,
                    };
                    if vo == vn && same_formula {
                        continue;
                    }
                    row_changed = true;
                    out.counts.changed_cells += 1;
                    if *budget == 0 {
                        out.left_out += 1;
                        continue;
                    }
                    *budget -= 1;
                    let text = |v: &str| (!v.is_empty()).then(|| v.to_string());
                    out.cells.push(CellChange {
                        old_address: cell_name(i as u32, co as u32),
                        new_address: cell_name(j as u32, cn as u32),
                        old_value: text(vo),
                        new_value: text(vn),
                        old_formula: fo.map(str::to_string),
                        new_formula: fn_.map(str::to_string),
                    });
                }
                out.counts.changed_rows += u64::from(row_changed);
            }
            (None, Some(j)) => {
                out.counts.added_rows += 1;
                if *budget == 0 {
                    out.left_out += 1;
                } else {
                    *budget -= 1;
                    out.added_rows.push(row_values(n, j));
                }
            }
            (Some(i), None) => {
                out.counts.removed_rows += 1;
                if *budget == 0 {
                    out.left_out += 1;
                } else {
                    *budget -= 1;
                    out.removed_rows.push(row_values(o, i));
                }
            }
            (None, None) => {}
        }
    }
    let c = out.counts;
    if c.changed_cells + c.added_rows + c.removed_rows + c.added_columns + c.removed_columns > 0 {
        out.status = SheetStatus::Changed;
    }
    out
}

/// Matched columns as (old, new) indexes; added and removed ones recorded in `out`. By header
/// when both sides have one (unmatched headers pair up in order, so a renamed header is one
/// changed cell), else by position.
fn match_columns(
    o: &Sheet,
    n: &Sheet,
    headers: Option<(&[String], &[String])>,
    out: &mut SheetDiff,
) -> Vec<(usize, usize)> {
    let (wo, wn) = (o.width(), n.width());
    let pairs: Vec<(Option<usize>, Option<usize>)> = match headers {
        Some((ho, hn)) => {
            let key = |h: &[String], i: usize| print(std::iter::once(h.get(i).map_or("", String::as_str)));
            let a: Vec<u64> = (0..wo).map(|i| key(ho, i)).collect();
            let b: Vec<u64> = (0..wn).map(|i| key(hn, i)).collect();
            seq::align(&a, &b, &mut |_, _| 1)
        }
        None => (0..wo.max(wn)).map(|c| ((c < wo).then_some(c), (c < wn).then_some(c))).collect(),
    };
    let header_of = |h: Option<&[String]>, c: usize| h.and_then(|h| h.get(c)).filter(|t| !t.is_empty()).cloned();
    let mut matched = Vec::new();
    for (i, j) in pairs {
        match (i, j) {
            (Some(i), Some(j)) => matched.push((i, j)),
            (None, Some(j)) => {
                out.counts.added_columns += 1;
                out.added_columns
                    .push(ColumnChange { column: column_letter(j as u32), header: header_of(headers.map(|h| h.1), j) });
            }
            (Some(i), None) => {
                out.counts.removed_columns += 1;
                out.removed_columns
                    .push(ColumnChange { column: column_letter(i as u32), header: header_of(headers.map(|h| h.0), i) });
            }
            (None, None) => {}
        }
    }
    matched
}

/// Matched rows as (old, new) indexes (the header row first when there is one), and how they
/// were matched: by the first column's value when both sides have a header and that column is
/// filled and unique on both, else by a sequence diff of the rows' fingerprints.
fn match_rows(
    o: &Sheet,
    n: &Sheet,
    columns: &[(usize, usize)],
    first: usize,
    headers: Option<(&[String], &[String])>,
) -> (Vec<Pair>, RowMatch) {
    let mut out: Vec<Pair> = Vec::new();
    if first == 1 {
        out.push((Some(0), Some(0)));
    }
    if let (Some((_, hn)), Some(&(0, 0))) = (headers, columns.first())
        && let (Some(ko), Some(_)) = (keys(o, first), keys(n, first))
    {
        for j in first..n.rows.len() {
            out.push((ko.get(n.cell(j, 0)).copied(), Some(j)));
        }
        let seen: HashSet<usize> = out.iter().filter_map(|p| p.0).collect();
        out.extend((first..o.rows.len()).filter(|i| !seen.contains(i)).map(|i| (Some(i), None)));
        let column = hn.first().cloned().unwrap_or_else(|| "A".into());
        return (out, RowMatch::Key { column });
    }
    // Formulas count by meaning (relative to their cell), so rows moved by an insert still match.
    let fp = |s: &Sheet, r: usize, side_new: bool| {
        let mut formulas = String::new();
        for &(co, cn) in columns {
            let c = if side_new { cn } else { co };
            if let Some(f) = s.formula(r, c) {
                formulas.push_str(&relative(f, r as u32, c as u32));
            }
            formulas.push('\u{1f}');
        }
        let values = columns.iter().map(|&(co, cn)| s.cell(r, if side_new { cn } else { co }));
        print(values.chain(std::iter::once(formulas.as_str())))
    };
    let a: Vec<u64> = (first..o.rows.len()).map(|r| fp(o, r, false)).collect();
    let b: Vec<u64> = (first..n.rows.len()).map(|r| fp(n, r, true)).collect();
    let width = columns.len();
    let mut similar = |i: usize, j: usize| {
        let same = columns.iter().filter(|&&(co, cn)| o.cell(i + first, co) == n.cell(j + first, cn)).count();
        // Narrow rows pair whenever they meet in a run; wider ones need a third of their cells equal.
        if width <= 2 {
            1 + same as u32
        } else if same * 3 >= width {
            same as u32
        } else {
            0
        }
    };
    out.extend(seq::align(&a, &b, &mut similar).into_iter().map(|(i, j)| (i.map(|i| i + first), j.map(|j| j + first))));
    (out, RowMatch::Sequence)
}

/// The first column's values of the data rows by row, when every one is filled and unique and
/// there are at least two.
fn keys(s: &Sheet, first: usize) -> Option<HashMap<&str, usize>> {
    let mut map = HashMap::with_capacity(s.rows.len());
    for r in first..s.rows.len() {
        let k = s.cell(r, 0);
        if k.is_empty() || map.insert(k, r).is_some() {
            return None;
        }
    }
    (map.len() >= 2).then_some(map)
}
