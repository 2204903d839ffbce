//! Cell references inside formula text, and how a row or column insert/delete moves them —
//! the rules Excel applies, so [`crate::structure`] can shift every formula, defined name,
//! chart range, conditional format and validation of a workbook.
//!
//! # The rules
//!
//! Absolute (`$B$5`) and relative (`B5`) references both move with the cells they name. A
//! single reference into deleted lines becomes `#REF!`; a range loses the deleted lines and
//! becomes `#REF!` only when all of its lines are gone. Inserting inside a range (after its
//! first line) widens it; inserting at or before its first line moves it. Whole columns
//! (`A:A`) do not move for row edits, whole rows (`2:20`) do not move for column edits.
//!
//! # The scanner
//!
//! [`map_refs`] walks the formula text: string literals (`"…"`) are copied as they are, a
//! quoted (`'My sheet'!`) or plain (`Data!`) sheet prefix names the sheet of the reference
//! after it, a word followed by `(` is a function, and an external-workbook prefix (`[1]`)
//! or a structured reference (`Table1[Col]`) is copied without moving anything.

/// The last row of a sheet.
pub const MAX_ROW: u32 = 1_048_576;
/// The last column of a sheet (XFD).
pub const MAX_COL: u32 = 16_384;

/// Rows or columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// Rows (numbers).
    Rows,
    /// Columns (letters).
    Cols,
}

/// One structure edit: `count` lines inserted before line `at`, or lines `at..at+count`
/// deleted (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit {
    /// Rows or columns.
    pub axis: Axis,
    /// The first line inserted or deleted (1-based).
    pub at: u32,
    /// How many lines.
    pub count: u32,
    /// Delete (else insert).
    pub delete: bool,
}

impl Edit {
    fn max(&self) -> u32 {
        match self.axis {
            Axis::Rows => MAX_ROW,
            Axis::Cols => MAX_COL,
        }
    }

    /// Where line `i` (1-based) goes; `None` when it is deleted or pushed off the sheet.
    pub fn line(&self, i: u32) -> Option<u32> {
        if i < self.at {
            Some(i)
        } else if self.delete {
            (i >= self.at + self.count).then(|| i - self.count)
        } else {
            Some(i + self.count).filter(|n| *n <= self.max())
        }
    }

    /// Where the span of lines `a..=b` goes; `None` when every line of it is deleted.
    pub fn span(&self, a: u32, b: u32) -> Option<(u32, u32)> {
        let (a, b) = (a.min(b), a.max(b));
        if !self.delete {
            let na = self.line(a)?;
            let nb = self.line(b).unwrap_or(self.max());
            return Some((na, nb));
        }
        let end = self.at + self.count;
        let na = if a < self.at {
            a
        } else if a >= end {
            a - self.count
        } else {
            self.at
        };
        let nb = if b < self.at {
            b
        } else if b >= end {
            b - self.count
        } else {
            self.at - 1
        };
        (nb >= na && nb > 0).then_some((na, nb))
    }

    /// The reference after this edit; `None` when what it names is deleted.
    pub fn apply(&self, r: Ref) -> Option<Ref> {
        let mut r = r;
        let pick = |p: &Part| match self.axis {
            Axis::Rows => p.row,
            Axis::Cols => p.col,
        };
        let (Some(a), b) = (pick(&r.a), r.b.as_ref().map(pick)) else { return Some(r) };
        let set = |p: &mut Part, v: u32| match self.axis {
            Axis::Rows => p.row = Some((v, p.row.is_some_and(|x| x.1))),
            Axis::Cols => p.col = Some((v, p.col.is_some_and(|x| x.1))),
        };
        match (b, r.b.as_mut()) {
            (Some(Some(b)), Some(pb)) => {
                let (na, nb) = if a.0 <= b.0 {
                    self.span(a.0, b.0)?
                } else {
                    let (x, y) = self.span(b.0, a.0)?;
                    (y, x)
                };
                set(&mut r.a, na);
                set(pb, nb);
            }
            _ => {
                let n = self.line(a.0)?;
                set(&mut r.a, n);
            }
        }
        Some(r)
    }
}

/// One end of a reference: a column and/or a row, each with whether it is absolute (`$`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// Column (1-based) and `$`.
    pub col: Option<(u32, bool)>,
    /// Row (1-based) and `$`.
    pub row: Option<(u32, bool)>,
}

/// A cell (`B5`), a range (`B2:C20`), whole columns (`A:C`) or whole rows (`2:20`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ref {
    /// The first end.
    pub a: Part,
    /// The second end of a range.
    pub b: Option<Part>,
}

impl Ref {
    /// This reference moved by `dr` rows and `dc` columns where it is relative (a shared
    /// formula's copy); `None` when it leaves the sheet.
    pub fn offset(self, dr: i64, dc: i64) -> Option<Ref> {
        let mv = |p: Part| -> Option<Part> {
            let shift = |x: Option<(u32, bool)>, d: i64, max: u32| -> Option<Option<(u32, bool)>> {
                match x {
                    Some((v, false)) => {
                        let n = v as i64 + d;
                        (1..=max as i64).contains(&n).then_some(Some((n as u32, false)))
                    }
                    other => Some(other),
                }
            };
            Some(Part { col: shift(p.col, dc, MAX_COL)?, row: shift(p.row, dr, MAX_ROW)? })
        };
        Some(Ref {
            a: mv(self.a)?,
            b: match self.b {
                Some(b) => Some(mv(b)?),
                None => None,
            },
        })
    }
}

/// Column letters of a 1-based column.
fn letters(mut c: u32) -> String {
    let mut s = Vec::new();
    while c > 0 {
        let r = (c - 1) % 26;
        s.push(b'A' + r as u8);
        c = (c - 1) / 26;
    }
    s.reverse();
    String::from_utf8_lossy(&s).into_owned()
}

fn part_text(p: &Part) -> String {
    let mut s = String::new();
    if let Some((c, abs)) = p.col {
        if abs {
            s.push('$');
        }
        s.push_str(&letters(c));
    }
    if let Some((r, abs)) = p.row {
        if abs {
            s.push('$');
        }
        s.push_str(&r.to_string());
    }
    s
}

impl std::fmt::Display for Ref {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&part_text(&self.a))?;
        if let Some(b) = &self.b {
            write!(f, ":{}", part_text(b))?;
        }
        Ok(())
    }
}

/// A byte that continues a word (name, number, reference, unquoted sheet name).
fn wordy(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'$' || b == b'\\' || b >= 0x80
}

/// One end at `i`: `$?LETTERS$?DIGITS`, `$?LETTERS` or `$?DIGITS`.
fn part(s: &[u8], i: usize) -> Option<(Part, usize)> {
    let mut j = i;
    let abs1 = s.get(j) == Some(&b'$');
    if abs1 {
        j += 1;
    }
    let l0 = j;
    while j < s.len() && s[j].is_ascii_alphabetic() && j - l0 < 4 {
        j += 1;
    }
    let lets = &s[l0..j];
    let abs2 = !lets.is_empty() && s.get(j) == Some(&b'$');
    if abs2 {
        j += 1;
    }
    let d0 = j;
    while j < s.len() && s[j].is_ascii_digit() && j - d0 < 8 {
        j += 1;
    }
    let digits = &s[d0..j];
    if lets.len() > 3 || (lets.is_empty() && digits.is_empty()) || (abs2 && digits.is_empty()) {
        return None;
    }
    let col = if lets.is_empty() {
        None
    } else {
        let n = lets.iter().fold(0u32, |n, b| n * 26 + u32::from(b.to_ascii_uppercase() - b'A' + 1));
        if n > MAX_COL {
            return None;
        }
        Some((n, abs1))
    };
    let row = if digits.is_empty() {
        None
    } else {
        let n: u32 = std::str::from_utf8(digits).ok()?.parse().ok()?;
        if n == 0 || n > MAX_ROW {
            return None;
        }
        Some((n, if lets.is_empty() { abs1 } else { abs2 }))
    };
    Some((Part { col, row }, j))
}

/// A whole reference at `i` and where it ends.
fn reference(s: &[u8], i: usize) -> Option<(Ref, usize)> {
    let (a, mut j) = part(s, i)?;
    let mut b = None;
    if s.get(j) == Some(&b':')
        && let Some((p, k)) = part(s, j + 1)
        && p.col.is_some() == a.col.is_some()
        && p.row.is_some() == a.row.is_some()
    {
        b = Some(p);
        j = k;
    }
    let cell = a.col.is_some() && a.row.is_some();
    if !cell && b.is_none() {
        return None;
    }
    if s.get(j).is_some_and(|c| wordy(*c) || *c == b'(' || *c == b'!' || *c == b'[') {
        return None;
    }
    Some((Ref { a, b }, j))
}

/// `text` with every reference passed through `each(sheet, ref)` (sheet: the prefix's name,
/// unquoted; `None` without one). `None` from `each` writes `#REF!` in its place.
pub fn map_refs(text: &str, mut each: impl FnMut(Option<&str>, Ref) -> Option<Ref>) -> String {
    let s = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    // Set after `[…]`: the next reference belongs to another workbook or is structured.
    let mut foreign = false;
    // A reference to deleted cells is written `#REF!` without its sheet prefix (what
    // LibreOffice reads back as #REF!; `Data!#REF!` reads as #NAME?).
    let mut emit = |out: &mut String, prefix: &str, sheet: Option<&str>, r: Ref, foreign: bool| {
        if foreign {
            out.push_str(prefix);
            out.push_str(&r.to_string());
            return;
        }
        match each(sheet, r) {
            Some(n) => {
                out.push_str(prefix);
                out.push_str(&n.to_string());
            }
            None => out.push_str("#REF!"),
        }
    };
    while i < s.len() {
        let c = s[i];
        let prev_wordy = i > 0 && (wordy(s[i - 1]) || s[i - 1] == b':');
        if c == b'"' {
            let mut j = i + 1;
            while j < s.len() && s[j] != b'"' {
                j += 1;
            }
            let end = (j + 1).min(s.len());
            out.push_str(&text[i..end]);
            i = end;
        } else if c == b'[' {
            let mut depth = 0;
            let mut j = i;
            while j < s.len() {
                match s[j] {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            let end = (j + 1).min(s.len());
            out.push_str(&text[i..end]);
            foreign = true;
            i = end;
        } else if c == b'\'' {
            let mut j = i + 1;
            let mut name = String::new();
            while j < s.len() {
                if s[j] == b'\'' {
                    if s.get(j + 1) == Some(&b'\'') {
                        name.push('\'');
                        j += 2;
                        continue;
                    }
                    break;
                }
                let ch = text[j..].chars().next().unwrap_or('\u{fffd}');
                name.push(ch);
                j += ch.len_utf8().max(1);
            }
            let close = (j + 1).min(s.len());
            if s.get(close) == Some(&b'!')
                && let Some((r, end)) = reference(s, close + 1)
            {
                emit(&mut out, &text[i..close + 1], Some(&name), r, foreign);
                foreign = false;
                i = end;
            } else {
                out.push_str(&text[i..close]);
                i = close;
            }
        } else if (wordy(c) && c != b'.') && !prev_wordy {
            let mut j = i;
            while j < s.len() && wordy(s[j]) {
                j += 1;
            }
            if s.get(j) == Some(&b'!') {
                let name = &text[i..j];
                if let Some((r, end)) = reference(s, j + 1) {
                    emit(&mut out, &text[i..j + 1], Some(name), r, foreign);
                    foreign = false;
                    i = end;
                } else {
                    out.push_str(&text[i..j + 1]);
                    i = j + 1;
                }
            } else if let Some((r, end)) = reference(s, i) {
                emit(&mut out, "", None, r, foreign);
                foreign = false;
                i = end;
            } else {
                out.push_str(&text[i..j]);
                foreign = false;
                i = j;
            }
        } else {
            let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
            out.push(ch);
            foreign = false;
            i += ch.len_utf8().max(1);
        }
    }
    out
}

/// `formula` (on sheet `host`; `None` for a defined name or a chart) after `edit` of sheet
/// `target`; the count of references that became `#REF!`.
pub fn shift(formula: &str, host: Option<&str>, target: &str, edit: &Edit) -> (String, usize) {
    let mut lost = 0;
    let out = map_refs(formula, |sheet, r| {
        let on = match sheet.or(host) {
            Some(s) => s.eq_ignore_ascii_case(target),
            None => false,
        };
        if !on {
            return Some(r);
        }
        let n = edit.apply(r);
        if n.is_none() {
            lost += 1;
        }
        n
    });
    (out, lost)
}

/// A space-separated list of ranges (`sqref`) after `edit`; `None` when every range is gone.
pub fn shift_sqref(sqref: &str, edit: &Edit) -> Option<String> {
    let kept: Vec<String> = sqref
        .split_whitespace()
        .filter_map(|one| match reference(one.as_bytes(), 0) {
            Some((r, end)) if end == one.len() => edit.apply(r).map(|n| n.to_string()),
            _ => Some(one.to_string()),
        })
        .collect();
    (!kept.is_empty()).then(|| kept.join(" "))
}

/// A cell's `r` (`B5`) as (row, col), 1-based.
pub fn cell_at(r: &str) -> Option<(u32, u32)> {
    match reference(r.as_bytes(), 0) {
        Some((Ref { a: Part { col: Some((c, _)), row: Some((r0, _)) }, b: None }, end)) if end == r.len() => {
            Some((r0, c))
        }
        _ => None,
    }
}

/// The name of cell (row, col), 1-based.
pub fn cell_text(row: u32, col: u32) -> String {
    format!("{}{row}", letters(col))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEL5: Edit = Edit { axis: Axis::Rows, at: 5, count: 1, delete: true };
    const INS3: Edit = Edit { axis: Axis::Rows, at: 3, count: 2, delete: false };
    const DELC: Edit = Edit { axis: Axis::Cols, at: 2, count: 1, delete: true };

    #[test]
    fn formulas_shift_as_excel_shifts_them() {
        let cases: &[(&str, Option<&str>, Edit, &str)] = &[
            ("SUMIFS(C2:C20,A2:A20,\"B5\")", Some("Data"), DEL5, "SUMIFS(C2:C19,A2:A19,\"B5\")"),
            (
                "SUMIFS(Data!$C$2:$C$20,Data!A2:A20,\"x\")",
                Some("Other"),
                DEL5,
                "SUMIFS(Data!$C$2:$C$19,Data!A2:A19,\"x\")",
            ),
            ("Other!C20+C20", Some("Data"), DEL5, "Other!C20+C19"),
            ("B5*2+B6", Some("Data"), DEL5, "#REF!*2+B5"),
            ("'Data'!B5:B5", None, DEL5, "#REF!"),
            ("SUM(A:A)+SUM(4:9)", Some("Data"), DEL5, "SUM(A:A)+SUM(4:8)"),
            ("LOG10(B7)", Some("Data"), DEL5, "LOG10(B6)"),
            ("[1]Data!B7+B7", Some("Data"), DEL5, "[1]Data!B7+B6"),
            ("Table1[Amount]+B2", Some("Data"), DEL5, "Table1[Amount]+B2"),
            ("SUM(B2:B4)+B3", Some("Data"), INS3, "SUM(B2:B6)+B5"),
            ("SUM(B3:B4)", Some("Data"), INS3, "SUM(B5:B6)"),
            ("A1+B1+C1+SUM(A:C)", Some("Data"), DELC, "A1+#REF!+B1+SUM(A:B)"),
            ("1.5E3+2", Some("Data"), DEL5, "1.5E3+2"),
        ];
        for (f, host, edit, want) in cases {
            assert_eq!(shift(f, *host, "Data", edit).0, *want, "{f}");
        }
    }

    #[test]
    fn sqref_lists_lose_only_what_is_deleted() {
        assert_eq!(shift_sqref("C2:C20 E5", &DEL5).as_deref(), Some("C2:C19"));
        assert_eq!(shift_sqref("B5", &DEL5), None);
        assert_eq!(Ref { a: cell(2, 2), b: None }.offset(3, 1).map(|r| r.to_string()).as_deref(), Some("C5"));
    }

    fn cell(r: u32, c: u32) -> Part {
        Part { col: Some((c, false)), row: Some((r, false)) }
    }
}
