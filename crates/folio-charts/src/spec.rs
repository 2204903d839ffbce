//! The chart spec shared by env:charts, a slide's native chart and a workbook's chart, parsed
//! strictly from JSON: an unknown field or type is refused with the list of valid ones, lengths
//! that disagree are refused, and an empty value (`null`, `NaN` as a script sends it) is kept as
//! a gap the drawing skips with a warning naming the series and the point.

use serde_json::{Map, Value};

use crate::error::{ChartError, FIELDS, Result, SERIES_FIELDS, TYPES};

/// What kind of chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartType {
    /// Bars per category (vertical by default; `horizontal`, `stacked`).
    Bar,
    /// Lines through the categories.
    Line,
    /// Filled areas (`stacked` stacks them).
    Area,
    /// Slices of the first series over the categories.
    Pie,
    /// Points at (x, y) per series.
    Scatter,
    /// Bars and lines on shared categories, with an optional secondary axis.
    Combo,
}

impl ChartType {
    /// The type named in a spec.
    pub fn from_name(name: &str) -> Option<ChartType> {
        Some(match name {
            "bar" | "column" => ChartType::Bar,
            "line" => ChartType::Line,
            "area" => ChartType::Area,
            "pie" => ChartType::Pie,
            "scatter" => ChartType::Scatter,
            "combo" => ChartType::Combo,
            _ => return None,
        })
    }
    /// The spec's name of this type.
    pub fn name(self) -> &'static str {
        match self {
            ChartType::Bar => "bar",
            ChartType::Line => "line",
            ChartType::Area => "area",
            ChartType::Pie => "pie",
            ChartType::Scatter => "scatter",
            ChartType::Combo => "combo",
        }
    }
}

/// How one series of a combo chart is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesKind {
    /// Bars.
    Bar,
    /// A line.
    Line,
}

/// Where the legend goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Legend {
    /// Under the plot (the default).
    Bottom,
    /// Right of the plot.
    Right,
    /// No legend.
    None,
}

/// One series.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its name (legend).
    pub name: String,
    /// Its values, `None` where empty.
    pub values: Vec<Option<f64>>,
    /// Scatter: the x of each value.
    pub x: Option<Vec<Option<f64>>>,
    /// Combo: bars or a line (bars by default).
    pub kind: SeriesKind,
    /// Combo: plotted against the right-hand axis.
    pub secondary: bool,
}

/// A parsed chart spec.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSpec {
    /// The chart type.
    pub kind: ChartType,
    /// A title over the chart.
    pub title: Option<String>,
    /// Category labels (every type but scatter).
    pub categories: Vec<String>,
    /// The series.
    pub series: Vec<Series>,
    /// Bars run left to right.
    pub horizontal: bool,
    /// Bars or areas stack.
    pub stacked: bool,
    /// The horizontal axis' title.
    pub x_title: Option<String>,
    /// The vertical axis' title.
    pub y_title: Option<String>,
    /// The legend's place.
    pub legend: Legend,
    /// The values' number format (`#,##0`, `0.0%`, `$#,##0.00`, …), as given.
    pub number_format: Option<String>,
    /// Where the value axis starts (`yMin`); bars, columns and areas start at zero without it.
    pub y_min: Option<f64>,
}

fn text(map: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(other) => Err(ChartError::Spec(format!("{at}{key} must be a string, not {}", kind_of(other)))),
    }
}

fn flag(map: &Map<String, Value>, key: &str) -> Result<bool> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(ChartError::Spec(format!("{key} must be true or false, not {}", kind_of(other)))),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn numbers(v: &Value, at: &str) -> Result<Vec<Option<f64>>> {
    let Value::Array(items) = v else {
        let hint = if v.is_string() {
            " (a range like \"Sheet1!$B$2:$B$13\" only works in a workbook's chart; here give the numbers)"
        } else {
            ""
        };
        return Err(ChartError::Spec(format!("{at} must be an array of numbers, not {}{hint}", kind_of(v))));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::Null => Ok(None),
            Value::Number(n) => Ok(n.as_f64().filter(|f| f.is_finite())),
            other => Err(ChartError::Spec(format!(
                "{at}[{i}] must be a number (or null for an empty point), not {} {other}",
                kind_of(other)
            ))),
        })
        .collect()
}

fn check_keys(map: &Map<String, Value>, valid: &str, at: &str) -> Result<()> {
    for key in map.keys() {
        if !valid.split(", ").any(|v| v.split(' ').next() == Some(key.as_str())) {
            return Err(ChartError::Spec(format!("{at}unknown field {key:?} — valid fields are: {valid}")));
        }
    }
    Ok(())
}

impl ChartSpec {
    /// Parses and checks a spec.
    pub fn from_json(v: &Value) -> Result<ChartSpec> {
        let Value::Object(map) = v else {
            return Err(ChartError::Spec(format!(
                "the spec must be an object like {{type: 'bar', categories: [...], series: [{{name, values}}]}}, not {}",
                kind_of(v)
            )));
        };
        check_keys(map, FIELDS, "")?;
        let kind = match map.get("type") {
            Some(Value::String(t)) => ChartType::from_name(t)
                .ok_or_else(|| ChartError::Spec(format!("unknown chart type {t:?} — valid types are: {TYPES}")))?,
            None => return Err(ChartError::Spec(format!("type is missing — valid types are: {TYPES}"))),
            Some(other) => {
                return Err(ChartError::Spec(format!(
                    "type must be a string, not {} — valid types are: {TYPES}",
                    kind_of(other)
                )));
            }
        };
        let categories = match map.get("categories") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|c| match c {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    other => other.to_string(),
                })
                .collect(),
            Some(other) => {
                let hint = if other.is_string() { " (a range only works in a workbook's chart)" } else { "" };
                return Err(ChartError::Spec(format!(
                    "categories must be an array of labels, not {}{hint}",
                    kind_of(other)
                )));
            }
        };
        let Some(Value::Array(raw_series)) = map.get("series") else {
            return Err(ChartError::Spec(format!(
                "series must be an array of {{name, values}} — a series has: {SERIES_FIELDS}"
            )));
        };
        if raw_series.is_empty() {
            return Err(ChartError::NoData("series is empty".into()));
        }
        let mut series = Vec::with_capacity(raw_series.len());
        for (i, s) in raw_series.iter().enumerate() {
            let Value::Object(sm) = s else {
                return Err(ChartError::Spec(format!("series[{i}] must be an object with: {SERIES_FIELDS}")));
            };
            let at = format!("series[{i}].");
            check_keys(sm, SERIES_FIELDS, &at)?;
            let name = text(sm, "name", &at)?.unwrap_or_else(|| format!("Series {}", i + 1));
            let values = numbers(
                sm.get("values").ok_or_else(|| ChartError::Spec(format!("{at}values is missing")))?,
                &format!("{at}values"),
            )?;
            let x = match sm.get("x") {
                None | Some(Value::Null) => None,
                Some(v) => Some(numbers(v, &format!("{at}x"))?),
            };
            let series_kind = match text(sm, "type", &at)?.as_deref() {
                None | Some("bar") | Some("column") => SeriesKind::Bar,
                Some("line") => SeriesKind::Line,
                Some(o) => return Err(ChartError::Spec(format!("{at}type {o:?} is not bar or line"))),
            };
            let secondary = match text(sm, "axis", &at)?.as_deref() {
                None | Some("primary") => false,
                Some("secondary") => true,
                Some(o) => return Err(ChartError::Spec(format!("{at}axis {o:?} is not primary or secondary"))),
            };
            if kind == ChartType::Scatter {
                if let Some(x) = x.as_ref().filter(|x| x.len() != values.len()) {
                    return Err(ChartError::Spec(format!(
                        "{at}x has {} numbers but values has {} — give one x per value",
                        x.len(),
                        values.len()
                    )));
                }
            } else if !categories.is_empty() && values.len() != categories.len() {
                return Err(ChartError::Spec(format!(
                    "{at}values has {} numbers but there are {} categories — give one value per category",
                    values.len(),
                    categories.len()
                )));
            }
            series.push(Series { name, values, x, kind: series_kind, secondary });
        }
        let legend = match text(map, "legend", "")?.as_deref() {
            None | Some("bottom") => Legend::Bottom,
            Some("right") => Legend::Right,
            Some("none") => Legend::None,
            Some(o) => return Err(ChartError::Spec(format!("legend {o:?} is not one of: bottom, right, none"))),
        };
        let mut spec = ChartSpec {
            kind,
            title: text(map, "title", "")?,
            categories,
            series,
            horizontal: flag(map, "horizontal")?,
            stacked: flag(map, "stacked")?,
            x_title: text(map, "xTitle", "")?,
            y_title: text(map, "yTitle", "")?,
            legend,
            number_format: text(map, "numberFormat", "")?,
            y_min: match map.get("yMin") {
                None | Some(Value::Null) => None,
                Some(Value::Number(n)) => n.as_f64().filter(|f| f.is_finite()),
                Some(other) => {
                    return Err(ChartError::Spec(format!(
                        "yMin must be a number (where the value axis starts), not {}",
                        kind_of(other)
                    )));
                }
            },
        };
        if spec.categories.is_empty() && kind != ChartType::Scatter {
            let n = spec.series.iter().map(|s| s.values.len()).max().unwrap_or(0);
            spec.categories = (1..=n).map(|i| i.to_string()).collect();
        }
        if kind != ChartType::Combo && spec.series.iter().any(|s| s.secondary) {
            return Err(ChartError::Spec("axis: 'secondary' only works in a combo chart — use type: 'combo'".into()));
        }
        if spec.series.iter().all(|s| s.values.iter().all(Option::is_none)) {
            return Err(ChartError::NoData("every value of every series is empty (null or NaN)".into()));
        }
        if kind == ChartType::Pie {
            let first = &spec.series[0];
            if let Some(i) = first.values.iter().position(|v| v.is_some_and(|v| v < 0.0)) {
                return Err(ChartError::Spec(format!(
                    "a pie cannot show the negative value {} of {:?} (category {:?}) — hint: use a bar chart for values below zero",
                    first.values[i].unwrap_or_default(),
                    first.name,
                    spec.categories.get(i).cloned().unwrap_or_default()
                )));
            }
            if first.values.iter().flatten().sum::<f64>() <= 0.0 {
                return Err(ChartError::NoData(format!("the pie's series {:?} sums to zero", first.name)));
            }
        }
        for t in spec.texts() {
            let missing = folio_fonts::Face::Sans.missing(t);
            if !missing.is_empty() {
                return Err(ChartError::Glyphs { text: t.to_string(), chars: folio_fonts::describe_chars(&missing) });
            }
        }
        Ok(spec)
    }

    /// Every label the chart draws.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.title
            .iter()
            .chain(self.x_title.iter())
            .chain(self.y_title.iter())
            .map(String::as_str)
            .chain(self.categories.iter().map(String::as_str))
            .chain(self.series.iter().map(|s| s.name.as_str()))
    }
}
