//! The writing bindings: `write`, `writeSheets`, `create`, `append`, `update`, `toCsv`,
//! `fromCsv`. Every write goes through the tree and drops the file's cached sheets.

use serde_json::{Map, Value, json};

use crate::book::{Book, Format, detect, extension};
use crate::create::{SheetIn, record_headers};
use crate::error::{Result, SheetError};
use crate::ops::{Call, opts_arg, path_arg};
use crate::patch::{Edits, NewCell};
use crate::refs::{Axis, Edit};

fn rows_arg(args: &[Value], i: usize) -> Result<Vec<Value>> {
    match args.get(i) {
        Some(Value::Array(a)) => Ok(a.clone()),
        _ => Err(SheetError::invalid(format!(
            "argument {} must be the rows: records [{{name: 'Ada', total: 3}}] or arrays [['name', 'total'], ['Ada', 3]]",
            i + 1
        ))),
    }
}

/// Refuses a target this module does not write.
fn xlsx_target(path: &str) -> Result<()> {
    match extension(path).as_str() {
        "xlsx" => Ok(()),
        "csv" | "tsv" => Ok(()),
        other => Err(SheetError::Unsupported {
            path: path.into(),
            detail: format!("workbooks are written as .xlsx, and .{other} was asked for"),
            hint: "name the file .xlsx (or .csv for plain text)".into(),
        }),
    }
}

/// The spec of one sheet written from rows with `write`'s options.
fn sheet_spec(rows: &[Value], o: &Map<String, Value>) -> Value {
    let mut spec = json!({"rows": rows});
    if let Some(h) = o.get("headers") {
        spec["columns"] = h.clone();
    }
    if o.get("noHeader").and_then(Value::as_bool) == Some(true) {
        spec["header"] = json!(false);
    }
    spec
}

fn csv_rows(rows: &[Value], o: &Map<String, Value>) -> Vec<Vec<Value>> {
    let records = rows.iter().any(Value::is_object);
    if !records {
        return rows.iter().map(|r| r.as_array().cloned().unwrap_or_default()).collect();
    }
    let heads = record_headers(rows, o.get("headers").and_then(Value::as_array).map(Vec::as_slice));
    let mut out = Vec::with_capacity(rows.len() + 1);
    if o.get("noHeader").and_then(Value::as_bool) != Some(true) {
        out.push(heads.iter().map(|(_, h)| Value::String(h.clone())).collect());
    }
    for r in rows {
        out.push(heads.iter().map(|(k, _)| r.get(k).cloned().unwrap_or(Value::Null)).collect());
    }
    out
}

fn write_model(call: &Call<'_>, path: &str, sheets: Vec<SheetIn>, rows: u64) -> Result<Value> {
    let mut job = call.rows_job(path, rows, &format!("writing {rows} rows"))?;
    let (bytes, created) = crate::create::write(path, sheets)?;
    job.step(rows)?;
    call.write_bytes(path, &bytes)?;
    job.finish();
    let mut out = serde_json::to_value(&created).unwrap_or(Value::Null);
    out["path"] = json!(path);
    out["bytes"] = json!(bytes.len());
    if !created.uncached.is_empty() {
        out["hint"] = json!(
            "the formulas listed have no cached value yet — recalculate(path) fills them (LibreOffice), then check(path)"
        );
    }
    Ok(out)
}

/// `write(path, rows, {sheet, headers, noHeader})`.
pub fn write(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "output")?;
    let rows = rows_arg(args, 1)?;
    let o = opts_arg(args, 2)?;
    xlsx_target(&path)?;
    if matches!(extension(&path).as_str(), "csv" | "tsv") {
        let delim = crate::csvio::delimiter_opt(o.get("delimiter"))?.unwrap_or(if extension(&path) == "tsv" {
            b'\t'
        } else {
            b','
        });
        let bytes = crate::csvio::write(&csv_rows(&rows, &o), delim)?;
        call.write_bytes(&path, &bytes)?;
        return Ok(json!({"path": path, "rows": rows.len(), "bytes": bytes.len()}));
    }
    let name = o.get("sheet").and_then(Value::as_str).unwrap_or("Sheet1");
    let sheet = crate::create::sheet(name, &sheet_spec(&rows, &o))?;
    write_model(call, &path, vec![sheet], rows.len() as u64)
}

/// `writeSheets(path, {Name: rows, ...})`.
pub fn write_sheets(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "output")?;
    let Some(Value::Object(m)) = args.get(1) else {
        return Err(SheetError::invalid("argument 2 must be {SheetName: rows, ...}"));
    };
    let o = opts_arg(args, 2)?;
    if extension(&path) != "xlsx" {
        return Err(SheetError::Unsupported {
            path,
            detail: "several sheets need a workbook".into(),
            hint: "name the file .xlsx".into(),
        });
    }
    let mut sheets = Vec::new();
    let mut rows = 0u64;
    for (name, r) in m {
        let r = r
            .as_array()
            .cloned()
            .ok_or_else(|| SheetError::invalid(format!("sheet {name:?}: its rows must be an array")))?;
        rows += r.len() as u64;
        sheets.push(crate::create::sheet(name, &sheet_spec(&r, &o))?);
    }
    if sheets.is_empty() {
        return Err(SheetError::invalid("writeSheets needs at least one sheet"));
    }
    write_model(call, &path, sheets, rows)
}

/// `create(path, spec)`.
pub fn create(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "output")?;
    let spec = args.get(1).cloned().unwrap_or(Value::Null);
    if extension(&path) != "xlsx" {
        return Err(SheetError::Unsupported {
            path,
            detail: "create writes workbooks".into(),
            hint: "name the file .xlsx".into(),
        });
    }
    let sheets = crate::create::workbook(&spec)?;
    let rows: u64 = sheets.iter().map(|s| s.cells.keys().map(|k| k.0 + 1).max().unwrap_or(0) as u64).sum();
    write_model(call, &path, sheets, rows)
}

fn exists(call: &Call<'_>, path: &str) -> Result<bool> {
    Ok(call.fs.stat(path).map_err(SheetError::Tree)?.is_some())
}

/// `append(path, rows, {sheet})`: follows the sheet's header order; creates the file if missing.
pub fn append(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let rows = rows_arg(args, 1)?;
    let o = opts_arg(args, 2)?;
    if !exists(call, &path)? {
        let mut out = write(call, args)?;
        out["created"] = json!(true);
        out["appended"] = json!(rows.len());
        return Ok(out);
    }
    let (flat, format, _) = call.flat(&path, o.get("sheet"), false)?;
    let mut headers: Vec<String> = flat.headers(1);
    let records = rows.iter().any(Value::is_object);
    let mut added = Vec::new();
    if records {
        for (k, _) in record_headers(&rows, None) {
            if !headers.contains(&k) {
                headers.push(k.clone());
                added.push(k);
            }
        }
    }
    let grid: Vec<Vec<Value>> = rows
        .iter()
        .map(|r| match r {
            Value::Object(m) => headers.iter().map(|h| m.get(h).cloned().unwrap_or(Value::Null)).collect(),
            Value::Array(a) => a.clone(),
            other => vec![other.clone()],
        })
        .collect();
    let first = flat.rows.len() as u32;
    match format {
        Format::Csv => {
            let bytes = call.read_bytes(&path)?;
            let (text, _) = crate::csvio::decode(&bytes);
            let delim = crate::csvio::delimiter(&path, &text);
            if !added.is_empty() {
                return Err(SheetError::invalid(format!(
                    "{path}: the rows have columns the CSV lacks ({}) — hint: rewrite the file with write, which takes every column",
                    added.join(", ")
                )));
            }
            let mut text = text;
            if !text.is_empty() && !text.ends_with('\n') && !text.ends_with('\r') {
                text.push('\n');
            }
            let more = crate::csvio::write(&grid, delim)?;
            let mut bytes = text.into_bytes();
            bytes.extend_from_slice(&more);
            call.write_bytes(&path, &bytes)?;
        }
        f if f.editable() => {
            let mut edits = Edits::new();
            for (i, name) in added.iter().enumerate() {
                let c = (headers.len() - added.len() + i) as u32;
                edits.entry(0).or_default().insert(c, NewCell::Value(Value::String(name.clone())));
            }
            for (i, row) in grid.iter().enumerate() {
                let cells = edits.entry(first + i as u32).or_default();
                for (c, v) in row.iter().enumerate() {
                    if v.is_null() {
                        continue;
                    }
                    cells.insert(c as u32, new_cell(v));
                }
            }
            let mut job = call.rows_job(&path, rows.len() as u64, &format!("appending {} rows", rows.len()))?;
            let bytes = call.read_bytes(&path)?;
            let patched = crate::patch::apply(&path, &bytes, &flat.name, &edits)?;
            job.step(rows.len() as u64)?;
            call.write_bytes(&path, &patched)?;
            job.finish();
        }
        other => return Err(not_editable(&path, other)),
    }
    Ok(json!({
        "path": path, "sheet": flat.name, "appended": rows.len(),
        "firstRow": first + 1, "lastRow": first + rows.len() as u32, "addedColumns": added,
    }))
}

fn new_cell(v: &Value) -> NewCell {
    match v {
        Value::String(s) if s.len() > 1 && s.starts_with('=') => NewCell::Formula(s.clone()),
        Value::Object(o) if o.contains_key("formula") => {
            NewCell::Formula(o.get("formula").and_then(Value::as_str).unwrap_or_default().to_string())
        }
        other => NewCell::Value(other.clone()),
    }
}

fn not_editable(path: &str, format: Format) -> SheetError {
    SheetError::Unsupported {
        path: path.into(),
        detail: format!("cells are edited in place in .xlsx and .xlsm files, and this is {}", format.name()),
        hint: "read it and write it again as .xlsx (read, then create), then edit that".into(),
    }
}

/// `update(path, {sheet, cells: {A1: value | "=F()" | {formula}}})`: edits cells in place, keeping every style.
pub fn update(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let o = opts_arg(args, 1)?;
    let cells = o.get("cells").and_then(Value::as_object).ok_or_else(|| {
        SheetError::invalid("update needs {cells: {B2: 42, C9: '=SUM(C2:C8)'}} (and optionally sheet)")
    })?;
    let bytes = call.read_bytes(&path)?;
    let format = detect(&path, &bytes)?;
    if !format.editable() {
        return Err(not_editable(&path, format));
    }
    let book = Book::open(&path, &bytes, format)?;
    let sheet = book.resolve(o.get("sheet"))?;
    let edits = crate::patch::edits_of(cells)?;
    let patched = crate::patch::apply(&path, &bytes, &sheet, &edits)?;
    call.write_bytes(&path, &patched)?;
    let formulas = edits.values().flat_map(|r| r.values()).filter(|c| matches!(c, NewCell::Formula(_))).count();
    let mut out = json!({"path": path, "sheet": sheet, "updated": cells.len(), "formulas": formulas});
    if formulas > 0 {
        out["hint"] = json!("formulas written in place have no cached value until recalculate(path); then check(path)");
    }
    Ok(out)
}

/// `insertRows(path, {sheet, at, count})`: `count` rows inserted before row `at`.
pub fn insert_rows(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    structure_edit(call, args, Axis::Rows, false)
}

/// `deleteRows(path, {sheet, at, count})`: rows `at..at+count` deleted.
pub fn delete_rows(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    structure_edit(call, args, Axis::Rows, true)
}

/// `insertColumns(path, {sheet, at: 'C' | 3, count})`.
pub fn insert_columns(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    structure_edit(call, args, Axis::Cols, false)
}

/// `deleteColumns(path, {sheet, at: 'C' | 3, count})`.
pub fn delete_columns(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    structure_edit(call, args, Axis::Cols, true)
}

/// The line `at` names: a 1-based number, or column letters for columns.
fn line_arg(v: Option<&Value>, axis: Axis, op: &str) -> Result<u32> {
    let max = match axis {
        Axis::Rows => crate::refs::MAX_ROW,
        Axis::Cols => crate::refs::MAX_COL,
    };
    let n = match v {
        Some(Value::Number(n)) => n.as_u64().map(|n| n as u32),
        Some(Value::String(s)) if axis == Axis::Cols && !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()) => {
            crate::refs::cell_at(&format!("{}1", s.to_ascii_uppercase())).map(|(_, c)| c)
        }
        _ => None,
    };
    let what = if axis == Axis::Rows {
        "a row number (1-based), such as 5"
    } else {
        "a column letter or number, such as 'C' or 3"
    };
    n.filter(|n| (1..=max).contains(n)).ok_or_else(|| {
        SheetError::invalid(format!("{op}: at must be {what}, not {}", v.map_or("missing".into(), Value::to_string)))
    })
}

fn structure_edit(call: &Call<'_>, args: &[Value], axis: Axis, delete: bool) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let o = opts_arg(args, 1)?;
    let at = line_arg(o.get("at"), axis, call.op)?;
    let count = match o.get("count") {
        None | Some(Value::Null) => 1,
        Some(v) => v
            .as_u64()
            .filter(|n| *n >= 1 && *n <= u64::from(crate::refs::MAX_ROW))
            .ok_or_else(|| SheetError::invalid(format!("{}: count must be a whole number ≥ 1, not {v}", call.op)))?
            as u32,
    };
    let bytes = call.read_bytes(&path)?;
    let format = detect(&path, &bytes)?;
    if !format.editable() {
        return Err(not_editable(&path, format));
    }
    let book = Book::open(&path, &bytes, format)?;
    let sheet = book.resolve(o.get("sheet"))?;
    let edit = Edit { axis, at, count, delete };
    let (done, report) = crate::structure::apply(&path, &bytes, &sheet, edit)?;
    call.write_bytes(&path, &done)?;
    let unit = if axis == Axis::Rows { "rows" } else { "columns" };
    let name = |n: u32| if axis == Axis::Rows { n.to_string() } else { crate::flat::column_letter(n - 1) };
    let span = format!("{}:{}", name(at), name(at + count - 1));
    let mut out = serde_json::to_value(&report).unwrap_or(Value::Null);
    out["path"] = json!(path);
    out["sheet"] = json!(sheet);
    out[if delete { "deleted" } else { "inserted" }] = json!({ unit: span });
    if !report.ref_errors.is_empty() {
        out["warning"] = json!(format!(
            "{} reference(s) named only deleted cells and now read #REF!: {} — fix those formulas with update",
            report.ref_errors.len(),
            report.ref_errors.iter().take(10).cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    if report.uncached > 0 {
        out["hint"] =
            json!("formula values are from before the edit and were dropped: recalculate(path), then check(path)");
    }
    Ok(out)
}

/// `toCsv(in, out, {sheet, delimiter})`.
pub fn to_csv(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let input = path_arg(args, 0, "workbook")?;
    let output = path_arg(args, 1, "CSV")?;
    let o = opts_arg(args, 2)?;
    let delim = crate::csvio::delimiter_opt(o.get("delimiter"))?.unwrap_or(b',');
    let (flat, _, _) = call.flat(&input, o.get("sheet"), false)?;
    let bytes = crate::csvio::write(&flat.rows, delim)?;
    call.write_bytes(&output, &bytes)?;
    Ok(json!({"path": output, "sheet": flat.name, "rows": flat.rows.len(), "bytes": bytes.len()}))
}

/// A file stem as a sheet name Excel accepts: at most 31 characters, none of `[]:*?/\`.
fn sheet_name(stem: &str) -> String {
    let clean: String = stem.chars().map(|c| if "[]:*?/\\".contains(c) { '_' } else { c }).take(31).collect();
    if clean.trim().is_empty() { "Sheet1".into() } else { clean }
}

/// `fromCsv(in, out, {sheet, delimiter})`: text starting with `=` stays text (no formula injection).
pub fn from_csv(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let input = path_arg(args, 0, "CSV")?;
    let output = path_arg(args, 1, "workbook")?;
    let o = opts_arg(args, 2)?;
    if extension(&output) != "xlsx" {
        return Err(SheetError::Unsupported {
            path: output,
            detail: "fromCsv writes a workbook".into(),
            hint: "name it .xlsx".into(),
        });
    }
    let bytes = call.read_bytes(&input)?;
    let delim = crate::csvio::delimiter_opt(o.get("delimiter"))?;
    let flat = crate::csvio::read(&input, &bytes, delim)?;
    let rows: Vec<Value> = flat
        .rows
        .iter()
        .map(|r| {
            Value::Array(
                r.iter()
                    .map(|v| match v {
                        Value::String(s) if s.starts_with('=') => json!({"value": s}),
                        other => other.clone(),
                    })
                    .collect(),
            )
        })
        .collect();
    let name =
        o.get("sheet").and_then(Value::as_str).map_or_else(|| sheet_name(&crate::csvio::stem(&input)), str::to_string);
    let mut sheet_spec = json!({"rows": rows, "freeze": "A2"});
    if !rows.is_empty() {
        sheet_spec["styles"] =
            json!({ format!("A1:{}1", crate::flat::column_letter(flat.width().max(1) as u32 - 1)): {"bold": true} });
    }
    let sheet = crate::create::sheet(&name, &sheet_spec)?;
    write_model(call, &output, vec![sheet], flat.rows.len() as u64)
}
