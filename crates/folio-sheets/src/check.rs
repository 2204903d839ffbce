//! `check(path)`: every formula error in a workbook (`#REF!`, `#DIV/0!`, `#NAME?`, `#VALUE!`,
//! `#N/A`, `#NUM!`, `#NULL!`) with its sheet and cell, and every formula cell without a cached
//! value (a reader that does not recalculate sees nothing there) — a formula whose value is the
//! empty string, an error or a boolean has one. A workbook is ready to hand
//! over when both lists are empty.

use calamine::Data;
use serde_json::{Value, json};

use crate::book::Book;
use crate::error::Result;
use crate::flat::cell_name;

/// The most cells listed in each list (the counts are always whole).
pub const LIST_CAP: usize = 200;

/// The check of an opened workbook.
pub fn check(book: &mut Book) -> Result<Value> {
    let mut errors = Vec::new();
    let mut uncached = Vec::new();
    let (mut n_errors, mut n_uncached, mut n_formulas) = (0usize, 0usize, 0usize);
    for sheet in book.worksheets() {
        let values = book.range(&sheet)?;
        let formulas = book.formulas(&sheet).ok();
        let formula_at = |r: u32, c: u32| -> Option<String> {
            let f = formulas.as_ref()?.get_value((r, c))?;
            (!f.is_empty()).then(|| if f.starts_with('=') { f.clone() } else { format!("={f}") })
        };
        if let Some(f) = &formulas {
            let (r0, c0) = f.start().unwrap_or((0, 0));
            for (r, row) in f.rows().enumerate() {
                for (c, text) in row.iter().enumerate() {
                    if text.is_empty() {
                        continue;
                    }
                    n_formulas += 1;
                    let (ar, ac) = (r0 + r as u32, c0 + c as u32);
                    let v = values.get_value((ar, ac));
                    // No `<v>` at all; an empty string, an error or a boolean is a value.
                    let missing = matches!(v, None | Some(Data::Empty));
                    if missing {
                        n_uncached += 1;
                        if uncached.len() < LIST_CAP {
                            uncached.push(
                                json!({"sheet": sheet, "cell": cell_name(ar, ac), "formula": formula_at(ar, ac)}),
                            );
                        }
                    }
                }
            }
        }
        let (r0, c0) = values.start().unwrap_or((0, 0));
        for (r, row) in values.rows().enumerate() {
            for (c, v) in row.iter().enumerate() {
                if let Data::Error(e) = v {
                    n_errors += 1;
                    let (ar, ac) = (r0 + r as u32, c0 + c as u32);
                    if errors.len() < LIST_CAP {
                        errors.push(json!({
                            "sheet": sheet, "cell": cell_name(ar, ac), "error": e.to_string(), "formula": formula_at(ar, ac)
                        }));
                    }
                }
            }
        }
    }
    let ok = n_errors == 0 && n_uncached == 0;
    let mut out = json!({
        "ok": ok,
        "formulas": n_formulas,
        "errorCount": n_errors,
        "errors": errors,
        "uncachedCount": n_uncached,
        "uncached": uncached,
    });
    if !ok {
        out["hint"] = json!(if n_errors > 0 {
            "fix each formula listed (a wrong reference, a division by an empty cell, a misspelt function), write it again, then recalculate and check until errors is empty"
        } else {
            "recalculate(path) stores a computed value in every formula cell; then check again"
        });
    }
    Ok(out)
}
