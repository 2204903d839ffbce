//! Workbooks from a spec or from records, written with rust_xlsxwriter. The spec is read into a
//! model first (cells with their merged style, widths, freeze panes, filter, merges, charts), so
//! formulas can be evaluated against the whole workbook ([`crate::eval`]) and written with their
//! cached values; a formula the evaluator does not compute is written without one and listed,
//! for `recalculate` to fill.
//!
//! A string that starts with `=` is a formula (as in Excel's formula bar), as is `{formula}`;
//! `{value}` forces text. Records become a bold header row and one row each, in the order of
//! `columns` (or of first appearance).

use std::collections::{BTreeMap, HashMap, HashSet};

use rust_xlsxwriter::{Formula, Workbook};
use serde_json::Value;

use crate::error::{Result, SheetError};
use crate::eval::{Cells, Eval, V};
use crate::flat::{cell_name, column_letter, parse_cell, parse_range};
use crate::style::Style;

/// One cell of the model.
#[derive(Debug, Clone, Default)]
pub struct CellIn {
    /// Its value (not a formula).
    pub value: Value,
    /// Its formula, with `=`.
    pub formula: Option<String>,
    /// Its merged style.
    pub style: Style,
}

/// One sheet of the model.
#[derive(Default)]
pub struct SheetIn {
    /// Its name.
    pub name: String,
    /// Cells by (row, col), 0-based.
    pub cells: BTreeMap<(u32, u32), CellIn>,
    widths: BTreeMap<u32, f64>,
    freeze: Option<(u32, u32)>,
    filter: Option<((u32, u32), (u32, u32))>,
    merges: Vec<((u32, u32), (u32, u32))>,
    charts: Vec<Value>,
    hidden: bool,
    autofit: bool,
}

/// What `create` wrote.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    /// Sheets with their sizes.
    pub sheets: Vec<Value>,
    /// Formula cells in all.
    pub formulas: usize,
    /// Formula cells written with a computed cached value.
    pub cached: usize,
    /// Formula cells written without one (`Sheet!B4: why`), at most 20 shown.
    pub uncached: Vec<String>,
    /// Native charts.
    pub charts: usize,
}

fn cell_in(v: &Value) -> Result<CellIn> {
    match v {
        Value::String(s) if s.len() > 1 && s.starts_with('=') => {
            Ok(CellIn { formula: Some(s.clone()), ..CellIn::default() })
        }
        Value::Object(o) if o.contains_key("formula") || o.contains_key("value") || o.contains_key("style") => {
            let mut c = CellIn::default();
            if let Some(f) = o.get("formula") {
                let f = f.as_str().ok_or_else(|| {
                    SheetError::invalid(format!("formula must be text such as \"=SUM(B2:B9)\", not {f}"))
                })?;
                c.formula = Some(if f.starts_with('=') { f.to_string() } else { format!("={f}") });
            }
            c.value = o.get("value").cloned().unwrap_or(Value::Null);
            if let Some(s) = o.get("style") {
                c.style = Style::parse(s)?;
            }
            if let Some(n) = o.get("numFmt").and_then(Value::as_str) {
                c.style.merge(&Style::num_fmt(n));
            }
            Ok(c)
        }
        Value::Object(_) | Value::Array(_) => Err(SheetError::invalid(format!(
            "a cell is a number, text, boolean, null, \"=FORMULA\" or {{formula, value, style}}, not {v}"
        ))),
        other => Ok(CellIn { value: other.clone(), ..CellIn::default() }),
    }
}

/// The header names of `rows` (records): `columns` when given, else the keys in first-seen order.
pub fn record_headers(rows: &[Value], columns: Option<&[Value]>) -> Vec<(String, String)> {
    if let Some(cols) = columns {
        return cols
            .iter()
            .map(|c| match c {
                Value::String(s) => (s.clone(), s.clone()),
                other => {
                    let key =
                        other.get("key").or_else(|| other.get("header")).and_then(Value::as_str).unwrap_or_default();
                    let header = other.get("header").and_then(Value::as_str).unwrap_or(key);
                    (key.to_string(), header.to_string())
                }
            })
            .collect();
    }
    let mut seen: Vec<(String, String)> = Vec::new();
    for r in rows {
        if let Some(o) = r.as_object() {
            for k in o.keys() {
                if !seen.iter().any(|(s, _)| s == k) {
                    seen.push((k.clone(), k.clone()));
                }
            }
        }
    }
    seen
}

/// Reads one sheet spec into the model.
pub fn sheet(name: &str, spec: &Value) -> Result<SheetIn> {
    let mut s = SheetIn { name: name.to_string(), autofit: true, ..SheetIn::default() };
    let columns = spec.get("columns").and_then(Value::as_array).map(Vec::as_slice);
    let rows = spec.get("rows").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let records = rows.iter().any(Value::is_object) && !rows.iter().any(Value::is_array);
    let mut r: u32 = 0;
    if records {
        let heads = record_headers(rows, columns);
        if spec.get("header").and_then(Value::as_bool) != Some(false) {
            let hs = match spec.get("headerStyle") {
                Some(v) => Style::parse(v)?,
                None => Style::bold(),
            };
            for (c, (_, h)) in heads.iter().enumerate() {
                s.cells.insert(
                    (0, c as u32),
                    CellIn { value: Value::String(h.clone()), style: hs.clone(), ..CellIn::default() },
                );
            }
            r = 1;
        }
        for row in rows {
            for (c, (k, _)) in heads.iter().enumerate() {
                if let Some(v) = row.get(k).filter(|v| !v.is_null()) {
                    s.cells.insert((r, c as u32), cell_in(v)?);
                }
            }
            r += 1;
        }
    } else {
        for row in rows {
            let row = row.as_array().ok_or_else(|| {
                SheetError::invalid(format!("rows must be all records (objects) or all arrays; row {} is {row}", r + 1))
            })?;
            for (c, v) in row.iter().enumerate() {
                if !v.is_null() {
                    s.cells.insert((r, c as u32), cell_in(v)?);
                }
            }
            r += 1;
        }
    }
    if let Some(cells) = spec.get("cells").and_then(Value::as_object) {
        for (at, v) in cells {
            let pos = parse_cell(at).ok_or_else(|| SheetError::BadReference {
                what: format!("sheet {name:?} cells"),
                reference: at.clone(),
            })?;
            let mut c = cell_in(v)?;
            if let Some(old) = s.cells.get(&pos) {
                let mut st = old.style.clone();
                st.merge(&c.style);
                c.style = st;
            }
            s.cells.insert(pos, c);
        }
    }
    // Column layers: widths and number formats by column, under every other style.
    if let Some(cols) = columns {
        for (c, col) in cols.iter().enumerate() {
            if let Some(w) = col.get("width").and_then(Value::as_f64) {
                s.widths.insert(c as u32, w);
            }
            let mut st = Style::default();
            if let Some(n) = col.get("numFmt").and_then(Value::as_str) {
                st = Style::num_fmt(n);
            }
            if let Some(v) = col.get("style") {
                st.merge(&Style::parse(v)?);
            }
            if !st.is_plain() {
                let first = u32::from(records && spec.get("header").and_then(Value::as_bool) != Some(false));
                for ((row, cc), cell) in s.cells.range_mut((first, 0)..) {
                    if *cc == c as u32 && *row >= first {
                        let mut merged = st.clone();
                        merged.merge(&cell.style);
                        cell.style = merged;
                    }
                }
            }
        }
    }
    if let Some(widths) = spec.get("widths").and_then(Value::as_object) {
        for (col, w) in widths {
            let c = parse_cell(&format!("{col}1"))
                .ok_or_else(|| SheetError::BadReference { what: "widths".into(), reference: col.clone() })?
                .1;
            s.widths.insert(c, w.as_f64().unwrap_or(10.0));
        }
    }
    styles(&mut s, spec.get("styles"))?;
    s.freeze = match spec.get("freeze") {
        None | Some(Value::Null) => None,
        Some(Value::String(at)) => Some(
            parse_cell(at).ok_or_else(|| SheetError::BadReference { what: "freeze".into(), reference: at.clone() })?,
        ),
        Some(v) => Some((
            v.get("rows").and_then(Value::as_u64).unwrap_or(0) as u32,
            v.get("columns").and_then(Value::as_u64).unwrap_or(0) as u32,
        )),
    };
    s.filter = match spec.get("autoFilter").or_else(|| spec.get("filter")) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => None,
        Some(Value::Bool(true)) => {
            let last_row = s.cells.keys().map(|k| k.0).max().unwrap_or(0);
            let last_col = s.cells.keys().filter(|k| k.0 == 0).map(|k| k.1).max().unwrap_or(0);
            Some(((0, 0), (last_row, last_col)))
        }
        Some(Value::String(r)) => Some(
            parse_range(r)
                .ok_or_else(|| SheetError::BadReference { what: "autoFilter".into(), reference: r.clone() })?,
        ),
        Some(v) => {
            return Err(SheetError::invalid(format!("autoFilter is a range such as \"A1:D20\" or true, not {v}")));
        }
    };
    for m in spec.get("merge").and_then(Value::as_array).into_iter().flatten() {
        let text = m.as_str().unwrap_or_default();
        let r = parse_range(text)
            .ok_or_else(|| SheetError::BadReference { what: "merge".into(), reference: text.into() })?;
        if r.0 == r.1 {
            return Err(SheetError::invalid(format!(
                "merge {text:?} is a single cell — hint: give a range such as \"A1:D1\""
            )));
        }
        s.merges.push(r);
    }
    s.charts = spec.get("charts").and_then(Value::as_array).cloned().unwrap_or_default();
    s.hidden = spec.get("hidden").and_then(Value::as_bool).unwrap_or(false);
    Ok(s)
}

fn styles(s: &mut SheetIn, spec: Option<&Value>) -> Result<()> {
    let list: Vec<(String, Value)> = match spec {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                let range = v.get("range").and_then(Value::as_str).unwrap_or_default().to_string();
                let mut st = v.clone();
                if let Some(o) = st.as_object_mut() {
                    o.remove("range");
                }
                (range, st)
            })
            .collect(),
        Some(v) => {
            return Err(SheetError::invalid(format!(
                "styles is {{\"A1:D1\": {{bold: true}}}} or [{{range, ...style}}], not {v}"
            )));
        }
    };
    for (range, st) in list {
        let ((r0, c0), (r1, c1)) = parse_range(&range)
            .ok_or_else(|| SheetError::BadReference { what: "styles".into(), reference: range.clone() })?;
        if (r1 - r0 + 1) as u64 * (c1 - c0 + 1) as u64 > 2_000_000 {
            return Err(SheetError::invalid(format!(
                "styles {range:?} covers more than two million cells — hint: style only the used range"
            )));
        }
        let st = Style::parse(&st)?;
        for r in r0..=r1 {
            for c in c0..=c1 {
                s.cells.entry((r, c)).or_default().style.merge(&st);
            }
        }
    }
    Ok(())
}

/// The sheets of a workbook spec: `{sheets: [{name, ...}]}` or `{sheets: {Name: {...}}}`.
pub fn workbook(spec: &Value) -> Result<Vec<SheetIn>> {
    let sheets = match spec.get("sheets") {
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let name =
                    s.get("name").and_then(Value::as_str).map_or_else(|| format!("Sheet{}", i + 1), str::to_string);
                sheet(&name, s)
            })
            .collect::<Result<Vec<_>>>()?,
        Some(Value::Object(m)) => m.iter().map(|(n, s)| sheet(n, s)).collect::<Result<Vec<_>>>()?,
        _ => {
            return Err(SheetError::invalid(
                "a workbook spec needs sheets: [{name, rows, columns, cells, styles, ...}]",
            ));
        }
    };
    if sheets.is_empty() {
        return Err(SheetError::invalid("a workbook spec needs at least one sheet"));
    }
    Ok(sheets)
}

/// A cell's computed value, or why there is none.
type Computed = std::result::Result<V, Eval>;

/// The model as the evaluator reads it, memoising computed formula cells.
struct Model<'a> {
    sheets: &'a [SheetIn],
    current: std::cell::Cell<usize>,
    memo: std::cell::RefCell<HashMap<(usize, u32, u32), Computed>>,
}

impl Model<'_> {
    fn sheet_index(&self, name: Option<&str>) -> Option<usize> {
        match name {
            None => Some(self.current.get()),
            Some(n) => self.sheets.iter().position(|s| s.name.eq_ignore_ascii_case(n)),
        }
    }

    fn eval_at(
        &self,
        si: usize,
        r: u32,
        c: u32,
        seen: &mut HashSet<(String, u32, u32)>,
    ) -> std::result::Result<V, Eval> {
        if let Some(done) = self.memo.borrow().get(&(si, r, c)) {
            return done.clone();
        }
        let Some(cell) = self.sheets[si].cells.get(&(r, c)) else { return Ok(V::Empty) };
        let out = match &cell.formula {
            None => Ok(match &cell.value {
                Value::Null => V::Empty,
                Value::Bool(b) => V::Bool(*b),
                Value::Number(n) => V::Num(n.as_f64().unwrap_or(0.0)),
                Value::String(s) => V::Str(s.clone()),
                _ => V::Err("#VALUE!"),
            }),
            Some(f) => {
                let key = (self.sheets[si].name.clone(), r, c);
                if !seen.insert(key.clone()) {
                    return Err(Eval::Unknown("a circular reference".into()));
                }
                let before = self.current.replace(si);
                let v = crate::eval::evaluate(f, self, seen);
                self.current.set(before);
                seen.remove(&key);
                v
            }
        };
        self.memo.borrow_mut().insert((si, r, c), out.clone());
        out
    }
}

impl Cells for Model<'_> {
    fn value(
        &self,
        sheet: Option<&str>,
        row: u32,
        col: u32,
        seen: &mut HashSet<(String, u32, u32)>,
    ) -> std::result::Result<V, Eval> {
        let si = self.sheet_index(sheet).ok_or_else(|| Eval::Unknown(format!("sheet {sheet:?}")))?;
        self.eval_at(si, row, col, seen)
    }
}

/// Whether a range `Sheet!$B$2:$B$9` may hold a negative number: a negative literal, a
/// formula (not known here), or a sheet or range that cannot be resolved.
fn may_be_negative(sheets: &[SheetIn], range: &str) -> bool {
    let Some((sheet, cells)) = range.rsplit_once('!') else { return true };
    let name = sheet.trim_matches('\'').replace("''", "'");
    let (Some(s), Some(((r0, c0), (r1, c1)))) = (sheets.iter().find(|s| s.name == name), parse_range(cells)) else {
        return true;
    };
    s.cells.range((r0, 0)..=(r1, u32::MAX)).any(|(&(_, c), cell)| {
        (c0..=c1).contains(&c) && (cell.formula.is_some() || cell.value.as_f64().is_some_and(|n| n < 0.0))
    })
}

/// Writes the model as xlsx bytes.
pub fn write(path: &str, mut sheets: Vec<SheetIn>) -> Result<(Vec<u8>, Created)> {
    let werr = |e: rust_xlsxwriter::XlsxError| {
        SheetError::Write {
        path: path.into(),
        detail: e.to_string(),
        hint: "sheet names are at most 31 characters without : \\ / ? * [ ], unique; a sheet holds 1,048,576 rows and 16,384 columns".into(),
    }
    };
    // Literal chart data goes to a hidden sheet, so the charts stay live.
    let mut data = SheetIn { name: "_chartdata".into(), hidden: true, ..SheetIn::default() };
    let mut placed = Vec::new();
    for (si, s) in sheets.iter().enumerate() {
        for spec in &s.charts {
            let mut place = |vals: &[Value]| {
                let col = data.cells.keys().map(|k| k.1 + 1).max().unwrap_or(0);
                for (r, v) in vals.iter().enumerate() {
                    data.cells.insert((r as u32, col), CellIn { value: v.clone(), ..CellIn::default() });
                }
                let l = column_letter(col);
                format!("'_chartdata'!${l}$1:${l}${}", vals.len().max(1))
            };
            let may_be_negative = |r: &str| may_be_negative(&sheets, r);
            placed.push((si, crate::chart::build(spec, &mut place, &may_be_negative)?));
        }
    }
    if !data.cells.is_empty() {
        sheets.push(data);
    }
    let model = Model { sheets: &sheets, current: std::cell::Cell::new(0), memo: Default::default() };
    let mut book = Workbook::new();
    let mut created =
        Created { sheets: Vec::new(), formulas: 0, cached: 0, uncached: Vec::new(), charts: placed.len() };
    let mut uncached = 0usize;
    let mut no_value: BTreeMap<usize, HashSet<String>> = BTreeMap::new();
    for (si, s) in sheets.iter().enumerate() {
        let ws = book.add_worksheet();
        ws.set_name(&s.name).map_err(werr)?;
        ws.set_formula_result_default("");
        let mut widths: BTreeMap<u32, usize> = BTreeMap::new();
        for (&(r, c), cell) in &s.cells {
            let fmt = cell.style.format();
            let plain = cell.style.is_plain();
            if let Some(f) = &cell.formula {
                created.formulas += 1;
                let mut seen = HashSet::new();
                let mut formula = Formula::new(f.as_str());
                match model.eval_at(si, r, c, &mut seen) {
                    Ok(v) => {
                        created.cached += 1;
                        formula = formula.set_result(v.result_text());
                    }
                    Err(Eval::Unknown(why)) => {
                        uncached += 1;
                        no_value.entry(si).or_default().insert(cell_name(r, c));
                        if created.uncached.len() < 20 {
                            created.uncached.push(format!("{}!{}: {why}", s.name, cell_name(r, c)));
                        }
                    }
                }
                ws.write_formula_with_format(r, c as u16, formula, &fmt).map_err(werr)?;
                continue;
            }
            let res = match &cell.value {
                Value::Null if plain => continue,
                Value::Null => ws.write_blank(r, c as u16, &fmt),
                Value::Bool(b) => ws.write_boolean_with_format(r, c as u16, *b, &fmt),
                Value::Number(n) => {
                    widths.entry(c).and_modify(|w| *w = (*w).max(n.to_string().len())).or_insert(n.to_string().len());
                    ws.write_number_with_format(r, c as u16, n.as_f64().unwrap_or(0.0), &fmt)
                }
                Value::String(t) => {
                    let len = t.chars().count();
                    widths.entry(c).and_modify(|w| *w = (*w).max(len)).or_insert(len);
                    ws.write_string_with_format(r, c as u16, t, &fmt)
                }
                other => ws.write_string_with_format(r, c as u16, other.to_string(), &fmt),
            };
            res.map_err(werr)?;
        }
        for &((r0, c0), (r1, c1)) in &s.merges {
            let top = s.cells.get(&(r0, c0));
            let text = top.map(|c| crate::csvio::text(&c.value)).unwrap_or_default();
            let fmt = top.map(|c| c.style.format()).unwrap_or_default();
            ws.merge_range(r0, c0 as u16, r1, c1 as u16, &text, &fmt).map_err(werr)?;
            if let Some(top) = top
                && let Value::Number(n) = &top.value
            {
                ws.write_number_with_format(r0, c0 as u16, n.as_f64().unwrap_or(0.0), &fmt).map_err(werr)?;
            }
        }
        if s.autofit {
            for (c, w) in &widths {
                if !s.widths.contains_key(c) {
                    ws.set_column_width(*c as u16, ((*w).clamp(6, 60) as f64) * 1.1 + 2.0).map_err(werr)?;
                }
            }
        }
        for (c, w) in &s.widths {
            ws.set_column_width(*c as u16, *w).map_err(werr)?;
        }
        if let Some((r, c)) = s.freeze {
            ws.set_freeze_panes(r, c as u16).map_err(werr)?;
        }
        if let Some(((r0, c0), (r1, c1))) = s.filter {
            ws.autofilter(r0, c0 as u16, r1, c1 as u16).map_err(werr)?;
        }
        if s.hidden {
            ws.set_hidden(true);
        }
        let width = s.cells.keys().map(|k| k.1 + 1).max().unwrap_or(0);
        let height = s.cells.keys().map(|k| k.0 + 1).max().unwrap_or(0);
        let mut next_row = 1u32;
        for (_, p) in placed.iter().filter(|(i, _)| *i == si) {
            let (r, c) = p.at.unwrap_or((next_row, width + 1));
            ws.insert_chart(r, c as u16, &p.chart).map_err(werr)?;
            next_row = r + 20;
        }
        if !s.hidden {
            created.sheets.push(serde_json::json!({"name": s.name, "rows": height, "columns": width}));
        }
    }
    if uncached > created.uncached.len() {
        created.uncached.push(format!("… and {} more", uncached - created.uncached.len()));
    }
    let bytes = book.save_to_buffer().map_err(werr)?;
    let bytes = drop_empty_results(path, bytes, &no_value)?;
    Ok((bytes, created))
}

/// rust_xlsxwriter writes every formula with a `<v>` — an empty one for a formula nobody
/// computed, which a reader cannot tell from a formula whose value is the empty string. The
/// cells `create` could not compute lose that `<v></v>`, so "no value" and "the empty string"
/// stay two different facts in the file (`check` lists only the first).
fn drop_empty_results(path: &str, bytes: Vec<u8>, cells: &BTreeMap<usize, HashSet<String>>) -> Result<Vec<u8>> {
    if cells.is_empty() {
        return Ok(bytes);
    }
    let err = |e: String| SheetError::Write { path: path.into(), detail: e, hint: "report this as a bug".into() };
    let mut zin = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| err(e.to_string()))?;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for i in 0..zin.len() {
        let name =
            zin.by_index_raw(i).map_err(|e| err(e.to_string()))?.name().map_err(|e| err(e.to_string()))?.to_string();
        let sheet = name
            .strip_prefix("xl/worksheets/sheet")
            .and_then(|n| n.strip_suffix(".xml"))
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| cells.get(&(n.saturating_sub(1))));
        let Some(refs) = sheet else {
            w.raw_copy_file(zin.by_index_raw(i).map_err(|e| err(e.to_string()))?).map_err(|e| err(e.to_string()))?;
            continue;
        };
        let mut xml = String::new();
        std::io::Read::read_to_string(&mut zin.by_index(i).map_err(|e| err(e.to_string()))?, &mut xml)
            .map_err(|e| err(e.to_string()))?;
        let mut out = String::with_capacity(xml.len());
        let mut rest = xml.as_str();
        while let Some(i) = rest.find("<c r=\"") {
            let (head, tail) = rest.split_at(i);
            out.push_str(head);
            let Some(end) = tail.find("</c>").filter(|e| tail[1..*e].find("<c r=\"").is_none()) else {
                out.push_str(&tail[..6]);
                rest = &tail[6..];
                continue;
            };
            let cell = &tail[..end + 4];
            let r = cell[6..].split('"').next().unwrap_or_default();
            if refs.contains(r) && cell.ends_with("<v></v></c>") {
                out.push_str(&cell[..cell.len() - 11]);
                out.push_str("</c>");
            } else {
                out.push_str(cell);
            }
            rest = &tail[end + 4..];
        }
        out.push_str(rest);
        let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file(name.as_str(), opts).map_err(|e| err(e.to_string()))?;
        std::io::Write::write_all(&mut w, out.as_bytes()).map_err(|e| err(e.to_string()))?;
    }
    Ok(w.finish().map_err(|e| err(e.to_string()))?.into_inner())
}
