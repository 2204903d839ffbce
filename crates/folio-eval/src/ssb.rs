//! SpreadsheetBench as a suite: `folio eval spreadsheetbench DIR` over a directory laid out as the
//! benchmark's release — `DIR/dataset.json` (a list of `{id, instruction, instruction_type,
//! answer_position, …}`) and `DIR/spreadsheet/<id>/<k>_<id>_input.xlsx` with its
//! `<k>_<id>_answer.xlsx` for each test case k. The solver's output for a case is
//! `<k>_<id>_output.xlsx`; it is scored by the benchmark's own rules: each cell of
//! `answer_position` (ranges separated by commas, each optionally `'Sheet'!A1:B9`, else the
//! answer's first sheet) is compared by its cached value after recalculation — numbers rounded to
//! two places, a number written as text read as that number, date-times as whole Excel serials,
//! times as `HH:MM`, an empty string equal to an empty cell, and otherwise type and value equal.
//! A task's soft score is the share of its cases that hold; its hard score is 1 only when all do.

use std::path::{Path, PathBuf};

use calamine::{Data, Reader};
use serde::{Deserialize, Serialize};

use crate::EvalError;
use crate::runner::{Model, Price, Trial, Turned};

/// The published leaderboard line the report sets a score beside (issue 33: Copilot in Excel's
/// agent mode, 57.2% on the whole benchmark).
pub const LEADERBOARD: &[(&str, f64)] = &[("Copilot in Excel (agent mode)", 57.2)];

/// One task of `dataset.json`.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Task {
    /// The task's id (also its directory name). Numbers and strings both occur.
    #[serde(deserialize_with = "id_text")]
    pub id: String,
    /// What the user asked.
    pub instruction: String,
    /// `Cell-Level Manipulation` or `Sheet-Level Manipulation`.
    pub instruction_type: String,
    /// Where the answer is.
    pub answer_position: String,
}

fn id_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    Ok(match v {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    })
}

/// The tasks of a release directory, checked for their files.
pub fn load(dir: &Path) -> Result<Vec<Task>, EvalError> {
    let path = dir.join("dataset.json");
    let text = std::fs::read_to_string(&path).map_err(|e| {
        EvalError::Bench(format!(
            "{} could not be read ({e}) — hint: DIR is the benchmark's data directory, the one holding dataset.json and spreadsheet/",
            path.display()
        ))
    })?;
    let tasks: Vec<Task> = serde_json::from_str(&text)
        .map_err(|e| EvalError::Bench(format!("{} is not the benchmark's task list: {e}", path.display())))?;
    for t in &tasks {
        if cases(dir, t).is_empty() {
            return Err(EvalError::Bench(format!(
                "task {} has no test case: expected {}",
                t.id,
                dir.join("spreadsheet").join(&t.id).join(format!("1_{}_input.xlsx", t.id)).display()
            )));
        }
    }
    Ok(tasks)
}

/// A deterministic sample of `n` tasks for `seed` (all when `n` ≥ the count).
pub fn sample(tasks: Vec<Task>, n: Option<usize>, seed: u64) -> Vec<Task> {
    let Some(n) = n.filter(|n| *n < tasks.len()) else { return tasks };
    let mut rng = crate::corpus::Seeded::new(seed);
    let mut keyed: Vec<(u64, Task)> = tasks.into_iter().map(|t| (rng.next_u64(), t)).collect();
    keyed.sort_by_key(|(k, _)| *k);
    keyed.into_iter().take(n).map(|(_, t)| t).collect()
}

/// The test cases present for a task: (k, input, answer).
pub fn cases(dir: &Path, task: &Task) -> Vec<(u32, PathBuf, PathBuf)> {
    let base = dir.join("spreadsheet").join(&task.id);
    (1..=9)
        .map(|k| {
            (k, base.join(format!("{k}_{}_input.xlsx", task.id)), base.join(format!("{k}_{}_answer.xlsx", task.id)))
        })
        .filter(|(_, i, a)| i.is_file() && a.is_file())
        .collect()
}

/// A cell's value as the benchmark compares it.
#[derive(Debug, Clone, PartialEq)]
pub enum Compared {
    /// Empty (an empty string counts as empty).
    Empty,
    /// A number rounded to two places.
    Number(f64),
    /// Text.
    Text(String),
    /// A boolean.
    Bool(bool),
    /// An error value.
    Error(String),
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The benchmark's normalisation of one cell.
pub fn normalise(cell: &Data) -> Compared {
    match cell {
        Data::Empty => Compared::Empty,
        Data::String(s) if s.is_empty() => Compared::Empty,
        Data::String(s) => match s.trim().parse::<f64>() {
            Ok(v) => Compared::Number(round2(v)),
            Err(_) => Compared::Text(s.clone()),
        },
        Data::Float(v) => Compared::Number(round2(*v)),
        Data::Int(v) => Compared::Number(round2(*v as f64)),
        Data::Bool(b) => Compared::Bool(*b),
        Data::DateTime(dt) => {
            let serial = dt.as_f64();
            if serial < 1.0 {
                // A time of day: HH:MM.
                let minutes = (serial * 24.0 * 60.0).round() as i64;
                Compared::Text(format!("{:02}:{:02}", minutes / 60, minutes % 60))
            } else {
                Compared::Number(serial.round())
            }
        }
        Data::DateTimeIso(s) | Data::DurationIso(s) => Compared::Text(s.clone()),
        Data::Error(e) => Compared::Error(format!("{e:?}")),
    }
}

fn column(letters: &str) -> Option<u32> {
    letters.bytes().try_fold(0u32, |acc, b| {
        b.is_ascii_alphabetic().then(|| acc * 26 + u32::from(b.to_ascii_uppercase() - b'A' + 1))
    })
}

fn cell_ref(text: &str) -> Option<(u32, u32)> {
    let t = text.trim().replace('$', "");
    let split = t.find(|c: char| c.is_ascii_digit())?;
    let col = column(&t[..split])?;
    let row: u32 = t[split..].parse().ok()?;
    Some((row.checked_sub(1)?, col.checked_sub(1)?))
}

/// One range of `answer_position`: its sheet (`None`: the answer's first), first and last cell
/// as (row, column) from 0.
pub type Position = (Option<String>, (u32, u32), (u32, u32));

/// `answer_position` as its ranges.
pub fn positions(answer_position: &str) -> Result<Vec<Position>, EvalError> {
    answer_position
        .split(',')
        .map(|part| {
            let part = part.trim();
            let (sheet, range) = match part.rsplit_once('!') {
                Some((s, r)) => (Some(s.trim().trim_matches('\'').to_owned()), r.trim().trim_matches('\'')),
                None => (None, part.trim_matches('\'')),
            };
            let (a, b) = range.split_once(':').unwrap_or((range, range));
            match (cell_ref(a), cell_ref(b)) {
                (Some(a), Some(b)) => Ok((sheet, a, b)),
                _ => Err(EvalError::Bench(format!(
                    "answer_position {answer_position:?} has a range that is not A1:B2 ({part:?})"
                ))),
            }
        })
        .collect()
}

fn open(path: &Path) -> Result<calamine::Xlsx<std::io::BufReader<std::fs::File>>, String> {
    calamine::open_workbook(path).map_err(|e| format!("{} cannot be opened: {e}", path.display()))
}

/// Compares an output workbook with the answer over `answer_position`; `Err` says the first
/// difference (the benchmark's message).
pub fn compare(answer: &Path, output: &Path, answer_position: &str) -> Result<(), String> {
    if !output.is_file() {
        return Err("File not exist".into());
    }
    let mut gt = open(answer)?;
    let mut out = open(output)?;
    let first = gt.sheet_names().first().cloned().ok_or("the answer has no sheet")?;
    for (sheet, (r0, c0), (r1, c1)) in positions(answer_position).map_err(|e| e.to_string())? {
        let sheet = sheet.unwrap_or_else(|| first.clone());
        if !out.sheet_names().contains(&sheet) {
            return Err(format!("worksheet {sheet:?} not found"));
        }
        let g = gt.worksheet_range(&sheet).map_err(|e| e.to_string())?;
        let o = out.worksheet_range(&sheet).map_err(|e| e.to_string())?;
        for col in c0..=c1 {
            for row in r0..=r1 {
                let a = normalise(g.get_value((row, col)).unwrap_or(&Data::Empty));
                let b = normalise(o.get_value((row, col)).unwrap_or(&Data::Empty));
                if a != b {
                    return Err(format!(
                        "Value difference at cell {}: answer has {a:?}, output has {b:?}",
                        name(row, col)
                    ));
                }
            }
        }
    }
    Ok(())
}

fn name(row: u32, col: u32) -> String {
    let mut n = col + 1;
    let mut letters = String::new();
    while n > 0 {
        let r = (n - 1) % 26;
        letters.insert(0, (b'A' + r as u8) as char);
        n = (n - 1) / 26;
    }
    format!("{letters}{}", row + 1)
}

/// One task's score.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    /// The task.
    pub id: String,
    /// Cell- or sheet-level.
    pub instruction_type: String,
    /// Each case: passed, or the first difference.
    pub cases: Vec<Result<(), String>>,
    /// Share of cases that held.
    pub soft: f64,
    /// 1 when every case held.
    pub hard: u8,
}

/// Scores a task whose outputs sit in `outputs` as `<k>_<id>_output.xlsx`.
pub fn score(dir: &Path, task: &Task, outputs: &Path) -> Scored {
    let cases: Vec<Result<(), String>> = cases(dir, task)
        .into_iter()
        .map(|(k, _, answer)| {
            compare(&answer, &outputs.join(format!("{k}_{}_output.xlsx", task.id)), &task.answer_position)
        })
        .collect();
    let held = cases.iter().filter(|c| c.is_ok()).count();
    Scored {
        id: task.id.clone(),
        instruction_type: task.instruction_type.clone(),
        soft: held as f64 / cases.len().max(1) as f64,
        hard: u8::from(held == cases.len() && !cases.is_empty()),
        cases,
    }
}

/// The request a model gets for a task in a Folio folder holding its inputs under `/inbox`.
pub fn prompt(task: &Task, ks: &[u32]) -> String {
    let files: Vec<String> =
        ks.iter().map(|k| format!("/inbox/{k}_{}_input.xlsx → /out/{k}_{}_output.xlsx", task.id, task.id)).collect();
    format!(
        "{}\n\nApply this to each workbook below and save each result as the named output, leaving everything else as it was. The answer belongs at {} ({}). Cached values must be current.\n{}",
        task.instruction.trim(),
        task.answer_position,
        task.instruction_type,
        files.join("\n")
    )
}

/// How a model is run on the tasks.
pub struct Solving<'a> {
    /// The model.
    pub model: &'a Model,
    /// The spend limit, USD.
    pub budget: f64,
    /// Prices when the provider's are unknown.
    pub price: Option<Price>,
    /// Model calls per task.
    pub max_turns: u32,
    /// Where `<k>_<id>_output.xlsx` are written.
    pub outputs: &'a Path,
}

/// Runs each task through the model in a fresh folder holding its inputs under `/inbox`,
/// commits what it left and copies each `/out/<k>_<id>_output.xlsx` to `outputs`. A task whose
/// worst case would pass the budget is not started. Calls `progress(index, total, id, turned)`.
pub fn solve(
    dir: &Path,
    tasks: &[Task],
    how: &Solving<'_>,
    cancel: &tokio_util::sync::CancellationToken,
    mut progress: impl FnMut(usize, usize, &str, Option<&Turned>),
) -> Result<Vec<Turned>, EvalError> {
    std::fs::create_dir_all(how.outputs).map_err(|e| EvalError::io(how.outputs, e))?;
    let mut spent = 0.0;
    let mut out = Vec::new();
    for (i, task) in tasks.iter().enumerate() {
        if cancel.is_cancelled() {
            break;
        }
        let ks: Vec<(u32, PathBuf, PathBuf)> = cases(dir, task);
        let mut files = Vec::new();
        for (k, input, _) in &ks {
            let bytes = std::fs::read(input).map_err(|e| EvalError::io(input, e))?;
            files.push((format!("inbox/{k}_{}_input.xlsx", task.id), bytes));
        }
        let trial = Trial::with_files(&files)?;
        let opened = trial.open(folio_workspace::Overrides {
            provider: Some(how.model.provider),
            model: Some(how.model.model.clone()),
            base_url: how.model.base_url.clone(),
            max_turns: Some(how.max_turns),
            ..folio_workspace::Overrides::default()
        })?;
        let price = crate::runner::price_of(how.model, how.price, opened.folder.workspace())?;
        let worst = f64::from(how.max_turns)
            * (crate::runner::TOKENS_IN_PER_CALL * price.input + crate::runner::TOKENS_OUT_PER_CALL * price.output)
            / 1e6;
        if spent + worst > how.budget {
            return Err(EvalError::Budget(format!(
                "task {} could cost up to ${worst:.2}; ${spent:.2} of the ${:.2} budget is spent, so it was not started — hint: raise --budget or lower --sample",
                task.id, how.budget
            )));
        }
        progress(i + 1, tasks.len(), &task.id, None);
        let ids: Vec<u32> = ks.iter().map(|(k, _, _)| *k).collect();
        let turned = crate::runner::turn(&opened, prompt(task, &ids), price, cancel)?;
        opened.commit()?;
        for k in &ids {
            let name = format!("{k}_{}_output.xlsx", task.id);
            let made = trial.folder().join("out").join(&name);
            if made.is_file() {
                let target = how.outputs.join(&name);
                std::fs::copy(&made, &target).map_err(|e| EvalError::io(&target, e))?;
            }
        }
        spent += turned.cost;
        progress(i + 1, tasks.len(), &task.id, Some(&turned));
        out.push(turned);
    }
    Ok(out)
}
