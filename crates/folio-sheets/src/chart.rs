//! The shared chart spec (one shape for env:charts, a slide's chart and a workbook's native
//! chart) as a native Excel chart. In a workbook a series gives ranges (`values:
//! "Sheet1!$B$2:$B$13"`, `categories: "Sheet1!$A$2:$A$13"`); literal arrays are written to a
//! hidden sheet `_chartdata` and referenced from there, so the chart stays live in Excel.

use rust_xlsxwriter::{Chart, ChartLegendPosition, ChartType};
use serde_json::Value;

use crate::error::{Result, SheetError};

/// Where a chart goes and how big it is.
pub struct Placed {
    /// The chart.
    pub chart: Chart,
    /// Top-left cell (row, col), 0-based, when the spec says (`at: "F2"`).
    pub at: Option<(u32, u32)>,
}

/// The chart kinds of the shared spec.
pub const TYPES: &[&str] = &["bar", "line", "area", "pie", "scatter", "combo"];

fn kind(t: &str, horizontal: bool, stacked: bool) -> Result<ChartType> {
    Ok(match (t, horizontal, stacked) {
        ("bar" | "combo", false, false) => ChartType::Column,
        ("bar" | "combo", false, true) => ChartType::ColumnStacked,
        ("bar", true, false) => ChartType::Bar,
        ("bar", true, true) => ChartType::BarStacked,
        ("line", _, false) => ChartType::Line,
        ("line", _, true) => ChartType::LineStacked,
        ("area", _, false) => ChartType::Area,
        ("area", _, true) => ChartType::AreaStacked,
        ("pie", _, _) => ChartType::Pie,
        ("scatter", _, _) => ChartType::ScatterStraightWithMarkers,
        (other, _, _) => {
            return Err(SheetError::invalid(format!("chart type {other:?} — hint: one of {}", TYPES.join(", "))));
        }
    })
}

/// A range reference or literal values: a string is used as given, an array is placed by `place`.
fn range(v: &Value, what: &str, place: &mut dyn FnMut(&[Value]) -> String) -> Result<String> {
    match v {
        Value::String(s) if s.contains('!') => Ok(s.clone()),
        Value::String(s) => Err(SheetError::invalid(format!(
            "chart {what}: {s:?} has no sheet — hint: write it as \"Sheet1!$B$2:$B$13\""
        ))),
        Value::Array(a) => Ok(place(a)),
        other => Err(SheetError::invalid(format!(
            "chart {what} must be a range such as \"Sheet1!$B$2:$B$13\" or an array, not {other}"
        ))),
    }
}

/// Builds the chart of `spec`; `place` writes literal values somewhere and returns their range.
///
/// `may_be_negative` answers for a range reference whether any of its cells may hold a
/// negative number (a formula counts as "may"): the value axis of bars and areas is pinned at
/// zero only when none may, so no program that draws the chart starts it at 5,600 m and
/// exaggerates every difference, and no negative bar is cut off.
pub fn build(
    spec: &Value,
    place: &mut dyn FnMut(&[Value]) -> String,
    may_be_negative: &dyn Fn(&str) -> bool,
) -> Result<Placed> {
    let s = |k: &str| spec.get(k).and_then(Value::as_str);
    let b = |k: &str| spec.get(k).and_then(Value::as_bool).unwrap_or(false);
    let t =
        s("type").ok_or_else(|| SheetError::invalid(format!("a chart needs a type: one of {}", TYPES.join(", "))))?;
    let mut chart = Chart::new(kind(t, b("horizontal"), b("stacked"))?);
    let mut line = (t == "combo").then(|| Chart::new(ChartType::Line));
    let categories = spec.get("categories").map(|c| range(c, "categories", place)).transpose()?;
    let series = spec.get("series").and_then(Value::as_array).filter(|a| !a.is_empty()).ok_or_else(|| {
        SheetError::invalid(
            "a chart needs series: [{name, values}] — values a range such as \"Sheet1!$B$2:$B$13\" or numbers",
        )
    })?;
    let mut negative = false;
    for (i, one) in series.iter().enumerate() {
        negative |= match one.get("values") {
            Some(Value::Array(a)) => a.iter().any(|v| v.as_f64().is_none_or(|n| n < 0.0) && !v.is_null()),
            Some(Value::String(r)) => may_be_negative(r),
            _ => true,
        };
        let values = one
            .get("values")
            .ok_or_else(|| SheetError::invalid(format!("chart series {} has no values", i + 1)))
            .and_then(|v| range(v, "values", place))?;
        let as_line = t == "combo" && one.get("type").and_then(Value::as_str) == Some("line");
        let target = match (&mut line, as_line) {
            (Some(l), true) => l,
            _ => &mut chart,
        };
        let added = target.add_series();
        added.set_values(values.as_str());
        if t == "scatter" {
            if let Some(x) = one.get("x") {
                let x = range(x, "x", place)?;
                added.set_categories(x.as_str());
            }
        } else if let Some(c) = &categories {
            added.set_categories(c.as_str());
        }
        if let Some(name) = one.get("name").and_then(Value::as_str) {
            added.set_name(name);
        }
        if one.get("axis").and_then(Value::as_str) == Some("secondary") {
            added.set_secondary_axis(true);
        }
    }
    if let Some(l) = &line {
        chart.combine(l);
    }
    if let Some(title) = s("title") {
        chart.title().set_name(title);
    }
    if let Some(x) = s("xTitle") {
        chart.x_axis().set_name(x);
    }
    if let Some(y) = s("yTitle") {
        chart.y_axis().set_name(y);
    }
    // rust_xlsxwriter's x axis is the horizontal one: a horizontal bar chart's value axis.
    let horizontal = t == "bar" && b("horizontal");
    if let Some(fmt) = s("numberFormat") {
        if horizontal { chart.x_axis() } else { chart.y_axis() }.set_num_format(fmt);
    }
    let min = spec.get("yMin").and_then(Value::as_f64);
    if min.is_some() || (matches!(t, "bar" | "area" | "combo") && !negative) {
        if horizontal { chart.x_axis() } else { chart.y_axis() }.set_min(min.unwrap_or(0.0));
    }
    if horizontal {
        // Categories top-down in the table's order (the axis runs max to min).
        chart.y_axis().set_reverse();
    }
    match s("legend").unwrap_or("bottom") {
        "bottom" => {
            chart.legend().set_position(ChartLegendPosition::Bottom);
        }
        "right" => {
            chart.legend().set_position(ChartLegendPosition::Right);
        }
        "none" => {
            chart.legend().set_hidden();
        }
        other => return Err(SheetError::invalid(format!("chart legend {other:?} — hint: bottom, right or none"))),
    }
    let px = |k: &str, d: u32| spec.get(k).and_then(Value::as_u64).map_or(d, |v| v.clamp(100, 4000) as u32);
    chart.set_width(px("width", 640)).set_height(px("height", 360));
    let at = match spec.get("at").and_then(Value::as_str) {
        Some(a) => Some(
            crate::flat::parse_cell(a)
                .ok_or_else(|| SheetError::BadReference { what: "chart at".into(), reference: a.to_string() })?,
        ),
        None => None,
    };
    Ok(Placed { chart, at })
}
