//! A sheet flattened to rows of JSON values, addressed as the sheet is (row 1 is index 0, column
//! A is index 0), and the reference's header rules over it: a blank header becomes its column
//! letter, a repeated one gets `_2`, `_3`; wholly empty rows are not records.

use std::collections::BTreeMap;

use calamine::{Data, Range};
use serde_json::{Map, Value};

/// One sheet's values (and, when asked for, its formulas by cell).
#[derive(Debug, Clone, Default)]
pub struct Flat {
    /// The sheet's name.
    pub name: String,
    /// Rows from row 1, each trimmed of trailing empty cells.
    pub rows: Vec<Vec<Value>>,
    /// Formula text (with `=`) by (row, column), 0-based; `None` when not read.
    pub formulas: Option<BTreeMap<(u32, u32), String>>,
}

impl Flat {
    /// A sheet from rows.
    pub fn new(name: String, rows: Vec<Vec<Value>>) -> Flat {
        let mut rows = rows;
        for row in &mut rows {
            trim(row);
        }
        Flat { name, rows, formulas: None }
    }

    /// A sheet from calamine's range (offset to its absolute position).
    pub fn from_range(name: &str, range: &Range<Data>) -> Flat {
        let (r0, c0) = range.start().map_or((0, 0), |(r, c)| (r as usize, c as usize));
        let mut rows: Vec<Vec<Value>> = vec![Vec::new(); r0];
        for row in range.rows() {
            let mut out = Vec::with_capacity(c0 + row.len());
            out.resize(c0, Value::Null);
            out.extend(row.iter().map(crate::book::json));
            trim(&mut out);
            rows.push(out);
        }
        while rows.last().is_some_and(Vec::is_empty) {
            rows.pop();
        }
        Flat { name: name.to_string(), rows, formulas: None }
    }

    /// Adds the formulas of calamine's formula range.
    pub fn with_formulas(mut self, range: &Range<String>) -> Flat {
        let (r0, c0) = range.start().unwrap_or((0, 0));
        let mut map = BTreeMap::new();
        for (r, row) in range.rows().enumerate() {
            for (c, f) in row.iter().enumerate() {
                if !f.is_empty() {
                    let text = if f.starts_with('=') { f.clone() } else { format!("={f}") };
                    map.insert((r0 + r as u32, c0 + c as u32), text);
                }
            }
        }
        self.formulas = Some(map);
        self
    }

    /// Cells held (for the cache's bound).
    pub fn cells(&self) -> usize {
        self.rows.iter().map(|r| r.len().max(1)).sum()
    }

    /// The widest row.
    pub fn width(&self) -> usize {
        self.rows.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Headers from row `header_row` (1-based; 0: none, every column named by its letter).
    pub fn headers(&self, header_row: usize) -> Vec<String> {
        let width = self.width();
        let raw: &[Value] =
            if header_row == 0 { &[] } else { self.rows.get(header_row - 1).map_or(&[], Vec::as_slice) };
        let mut out: Vec<String> = Vec::with_capacity(width);
        for c in 0..width {
            let text = raw.get(c).map(text).unwrap_or_default();
            let base = if text.trim().is_empty() { column_letter(c as u32) } else { text.trim().to_string() };
            let mut name = base.clone();
            let mut n = 2;
            while out.contains(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            out.push(name);
        }
        out
    }

    /// The indexes of the data rows after `header_row` that hold anything.
    pub fn data_rows(&self, header_row: usize) -> Vec<usize> {
        (header_row..self.rows.len()).filter(|i| self.rows[*i].iter().any(|v| !v.is_null())).collect()
    }

    /// Row `i` as a record over `headers`.
    pub fn record(&self, i: usize, headers: &[String]) -> Value {
        let row = &self.rows[i];
        let mut m = Map::with_capacity(headers.len());
        for (c, h) in headers.iter().enumerate() {
            m.insert(h.clone(), row.get(c).cloned().unwrap_or(Value::Null));
        }
        Value::Object(m)
    }

    /// Row `i`'s formulas over `headers` (only the cells that have one).
    pub fn record_formulas(&self, i: usize, headers: &[String]) -> Value {
        let mut m = Map::new();
        if let Some(f) = &self.formulas {
            for ((_, c), text) in f.range((i as u32, 0)..(i as u32 + 1, 0)) {
                if let Some(h) = headers.get(*c as usize) {
                    m.insert(h.clone(), Value::String(text.clone()));
                }
            }
        }
        Value::Object(m)
    }
}

fn trim(row: &mut Vec<Value>) {
    while row.last().is_some_and(Value::is_null) {
        row.pop();
    }
}

/// `0` → `A`, `26` → `AA`.
pub fn column_letter(mut c: u32) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (c % 26) as u8);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    s.reverse();
    String::from_utf8_lossy(&s).into_owned()
}

/// `(row, col)` 0-based as `B3`.
pub fn cell_name(row: u32, col: u32) -> String {
    format!("{}{}", column_letter(col), row + 1)
}

/// `B3` / `$B$3` → `(2, 1)`, 0-based.
pub fn parse_cell(s: &str) -> Option<(u32, u32)> {
    let s = s.trim().replace('$', "");
    let split = s.find(|c: char| c.is_ascii_digit())?;
    let (letters, digits) = s.split_at(split);
    if letters.is_empty() || letters.len() > 3 || !letters.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let mut col: u32 = 0;
    for ch in letters.chars() {
        col = col * 26 + (ch.to_ascii_uppercase() as u32 - 'A' as u32 + 1);
    }
    let row: u32 = digits.parse().ok()?;
    if row == 0 || row as u64 > crate::book::MAX_ROWS || col as u64 > crate::book::MAX_COLUMNS {
        return None;
    }
    Some((row - 1, col - 1))
}

/// `A1:D10` (or one cell) → ((r0, c0), (r1, c1)), ordered.
pub fn parse_range(s: &str) -> Option<((u32, u32), (u32, u32))> {
    let (a, b) = s.split_once(':').unwrap_or((s, s));
    let (ra, ca) = parse_cell(a)?;
    let (rb, cb) = parse_cell(b)?;
    Some(((ra.min(rb), ca.min(cb)), (ra.max(rb), ca.max(cb))))
}

/// A value as CSV text.
pub fn text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => {
            if *b {
                "TRUE".into()
            } else {
                "FALSE".into()
            }
        }
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}
