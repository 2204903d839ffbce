//! Scenarios are data: one JSON file each under `scenarios/`, compiled in. A scenario states the
//! outcome a person asks for (never the method), the turn limit, the artifacts it expects, the
//! deterministic checks and the questions a judge model may be asked. Its reference solution
//! (`<id>.js`) and a planted bad one (`<id>.bad.js`) sit beside it: `selfcheck` proves the
//! checks with them before any model is paid for.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::EvalError;

/// One scenario.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A short stable name (`csv-analysis`).
    pub id: String,
    /// One line for the list and the report.
    pub summary: String,
    /// What the person asks, with `{{truth.key}}` placeholders filled from the corpus.
    pub task: String,
    /// The agent's model-call limit.
    pub max_turns: u32,
    /// The files the run is expected to leave (the report links them).
    pub artifacts: Vec<String>,
    /// The deterministic checks, in order.
    pub checks: Vec<Check>,
    /// Questions for the judge model (tier 2); pure-fact scenarios ask none.
    #[serde(default)]
    pub questions: Vec<Question>,
    /// What the scenario needs from the machine (`libreoffice`, `chromium`, `ffmpeg`, `tesseract`).
    #[serde(default)]
    pub needs: Vec<String>,
    /// The reference solution (filled from `<id>.js`).
    #[serde(skip)]
    pub solution: &'static str,
    /// A planted bad solution every check set must catch (filled from `<id>.bad.js`).
    #[serde(skip)]
    pub bad_solution: &'static str,
}

/// A judge question.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// Its id in the verdicts.
    pub id: String,
    /// The question, answered PASS or FAIL from the task, the ground truth and the artifact.
    pub question: String,
}

/// The closed set of deterministic checks. Paths are folder paths (`/out/x.xlsx`); `truth`
/// names a key of the corpus's ground truth (`csv.total`).
// The fields are named in each variant's line: `path` is the artifact, `truth` a truth key.
#[allow(missing_docs)]
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// The file exists and is not empty.
    Exists { path: String },
    /// The artifact's text matches the pattern (placeholders filled from the truth).
    Text { path: String, name: String, pattern: String },
    /// The artifact's text does NOT match (a fabrication or a leftover).
    NotText { path: String, name: String, pattern: String },
    /// Every buried fact's value appears, each with its page cited near it.
    Facts { path: String },
    /// The distractor, if mentioned, is framed as settled.
    Distractor { path: String },
    /// A number at a JSON pointer of a JSON artifact equals the truth (within `tolerance`).
    JsonNumber {
        path: String,
        pointer: String,
        truth: String,
        #[serde(default)]
        tolerance: f64,
    },
    /// The truth's amount appears in the text in any usual money spelling (plain, grouped,
    /// 1.2M, 1.23M).
    Money { path: String, truth: String },
    /// The PDF's page count is within bounds.
    Pages { path: String, min: u32, max: u32 },
    /// The deck's slide count is within bounds.
    Slides { path: String, min: u32, max: u32 },
    /// Every slide after the title slide has speaker notes.
    Notes { path: String },
    /// Some cell of the sheet has a number format containing `contains`.
    NumberFormat { path: String, contains: String },
    /// The first row is bold.
    BoldHeader { path: String },
    /// Some column is at least `min` characters wide.
    ColumnWidth { path: String, min: f64 },
    /// The sheet's top `rows` rows are frozen.
    Frozen { path: String, rows: u32 },
    /// No cell holds a formula error, and no formula lacks its cached value.
    NoFormulaErrors { path: String },
    /// The workbook holds a native chart.
    Chart { path: String },
    /// The first sheet has this many data rows under its header.
    DataRows { path: String, truth: String },
    /// A cell holds the truth's value.
    CellValue { path: String, cell: String, truth: String },
    /// Against the corpus file `original`, only the truth's `allowed` cells changed (the visual
    /// review's cell diff).
    OnlyCells { path: String, original: String, allowed: String },
    /// A video whose frames move, of about `seconds`.
    Video { path: String, seconds: f64 },
}

impl Check {
    /// The check's name in reports.
    pub fn name(&self) -> String {
        match self {
            Check::Exists { path } => format!("exists {path}"),
            Check::Text { name, .. } | Check::NotText { name, .. } => name.clone(),
            Check::Facts { .. } => "buried facts with page citations".into(),
            Check::Distractor { .. } => "distractor framed as settled".into(),
            Check::JsonNumber { pointer, .. } => format!("number at {pointer}"),
            Check::Money { truth, .. } => format!("amount {truth}"),
            Check::Pages { min, max, .. } => format!("{min}–{max} pages"),
            Check::Slides { min, max, .. } => format!("{min}–{max} slides"),
            Check::Notes { .. } => "speaker notes on every content slide".into(),
            Check::NumberFormat { contains, .. } => format!("number format {contains}"),
            Check::BoldHeader { .. } => "bold header".into(),
            Check::ColumnWidth { min, .. } => format!("a column ≥ {min} wide"),
            Check::Frozen { rows, .. } => format!("{rows} frozen row(s)"),
            Check::NoFormulaErrors { .. } => "no formula errors".into(),
            Check::Chart { .. } => "native chart".into(),
            Check::DataRows { truth, .. } => format!("data rows = {truth}"),
            Check::CellValue { cell, .. } => format!("cell {cell}"),
            Check::OnlyCells { .. } => "nothing else changed".into(),
            Check::Video { .. } => "video that moves".into(),
        }
    }
}

macro_rules! scenarios {
    ($($id:literal),* $(,)?) => {
        &[$(($id, include_str!(concat!("../scenarios/", $id, ".json")), include_str!(concat!("../scenarios/", $id, ".js")), include_str!(concat!("../scenarios/", $id, ".bad.js")))),*]
    };
}

/// Modules the reference and bad solutions share, written beside them under `/scripts`.
pub const SOLUTION_LIBS: &[(&str, &str)] = &[("lib/sales.js", include_str!("../scenarios/lib/sales.js"))];

/// Every scenario's id, JSON, reference solution and bad solution.
const SOURCES: &[(&str, &str, &str, &str)] = scenarios![
    "pdf-review",
    "csv-analysis",
    "deck-build",
    "pdf-report",
    "styled-workbook",
    "messy-to-clean",
    "chart-memo",
    "motion-clip",
    "inbox-inventory",
    "edit-workbook",
];

/// Every scenario, in the order of the list.
pub fn all() -> Result<Vec<Scenario>, EvalError> {
    SOURCES
        .iter()
        .map(|(id, json, good, bad)| {
            let mut s: Scenario = serde_json::from_str(json)
                .map_err(|e| EvalError::Scenario(format!("scenarios/{id}.json does not parse: {e}")))?;
            if s.id != *id {
                return Err(EvalError::Scenario(format!("scenarios/{id}.json names itself {:?}", s.id)));
            }
            s.solution = good;
            s.bad_solution = bad;
            Ok(s)
        })
        .collect()
}

/// The scenarios named (all when `names` is empty); an unknown name is refused with the list.
pub fn select(names: &[String]) -> Result<Vec<Scenario>, EvalError> {
    let every = all()?;
    if names.is_empty() {
        return Ok(every);
    }
    names
        .iter()
        .map(|n| {
            every.iter().find(|s| &s.id == n).cloned().ok_or_else(|| {
                let ids: Vec<&str> = every.iter().map(|s| s.id.as_str()).collect();
                EvalError::Scenario(format!("no scenario is named {n:?} — the scenarios are: {}", ids.join(", ")))
            })
        })
        .collect()
}

/// A value of the truth by dotted key (`csv.by_region.North`).
pub fn truth_at<'a>(truth: &'a Value, key: &str) -> Option<&'a Value> {
    key.split('.').try_fold(truth, |v, part| match v {
        Value::Array(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => v.get(part),
    })
}

/// `text` with each `{{key}}` replaced by the truth's value (strings bare, numbers as JSON). Only
/// a dotted name counts as a key (`{{csv.total}}`), so JSX's `style={{ … }}` passes through.
pub fn fill(text: &str, truth: &Value) -> Result<String, EvalError> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let key = after.find("}}").map(|end| &after[..end]).filter(|k| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
        });
        match key {
            Some(key) => {
                let value = truth_at(truth, key)
                    .ok_or_else(|| EvalError::Scenario(format!("{{{{{key}}}}} names nothing in the corpus's truth")))?;
                match value {
                    Value::String(s) => out.push_str(s),
                    other => out.push_str(&other.to_string()),
                }
                rest = &after[key.len() + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_scenario_parses_and_its_placeholders_name_the_truth() {
        let corpus = crate::corpus::generate(1).unwrap();
        let all = super::all().unwrap();
        assert!(all.len() >= 10, "the issue asks for at least ten scenarios");
        for s in &all {
            super::fill(&s.task, &corpus.truth).unwrap_or_else(|e| panic!("{}: {e}", s.id));
            assert!(!s.checks.is_empty(), "{} has no checks", s.id);
            assert!(s.solution.contains("export default"), "{}: the reference solution is a script", s.id);
        }
    }

    #[test]
    fn an_unknown_scenario_is_refused_with_the_list() {
        let err = super::select(&["nope".into()]).unwrap_err().to_string();
        assert!(err.contains("csv-analysis"), "{err}");
    }
}
