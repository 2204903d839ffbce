//! `folio eval selfcheck`: every scenario solved by its reference script inside the real
//! environment, then checked by the real checks — which must all pass — and solved again by a
//! planted bad script, which at least one check must catch. No model, no cost: this is what
//! proves a check before a model's score depends on it.

use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use crate::EvalError;
use crate::check::{Ctx, Outcome, Readers};
use crate::corpus::Corpus;
use crate::runner::Trial;
use crate::scenario::Scenario;

/// One solution's run and its checks.
#[derive(Debug, Clone, Serialize)]
pub struct Attempt {
    /// The script's error, when it failed.
    pub error: Option<String>,
    /// Each check's outcome.
    pub checks: Vec<Outcome>,
    /// Milliseconds for the run and the checks.
    pub ms: u64,
    /// The artifacts' text (what a judge would be shown).
    #[serde(skip)]
    pub text: String,
}

impl Attempt {
    /// Whether every check passed and the script did not fail.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.checks.iter().all(|c| c.passed)
    }
}

/// A scenario's selfcheck.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The scenario.
    pub scenario: String,
    /// The reference solution (must pass).
    pub good: Attempt,
    /// The planted bad solution (must fail a check).
    pub bad: Attempt,
}

impl Row {
    /// Whether the checks told the good solution from the bad one.
    pub fn ok(&self) -> bool {
        self.good.passed() && self.bad.checks.iter().any(|c| !c.passed)
    }
}

/// Runs `script` as the scenario's solution in a fresh folder made from `corpus`, commits what
/// it left, and runs the checks.
pub fn attempt(scenario: &Scenario, corpus: &Corpus, script: &str, readers: &Readers) -> Result<Attempt, EvalError> {
    let started = Instant::now();
    let trial = Trial::new(corpus)?;
    let script_path = format!("scripts/{}.js", scenario.id);
    let on_disk = trial.folder().join(&script_path);
    if let Some(parent) = on_disk.parent() {
        std::fs::create_dir_all(parent).map_err(|e| EvalError::io(parent, e))?;
    }
    for (name, text) in crate::scenario::SOLUTION_LIBS {
        let lib = trial.folder().join("scripts").join(name);
        if let Some(parent) = lib.parent() {
            std::fs::create_dir_all(parent).map_err(|e| EvalError::io(parent, e))?;
        }
        std::fs::write(&lib, text).map_err(|e| EvalError::io(&lib, e))?;
    }
    // A solution may name the truth as the task does (`{{budget.new}}`).
    let script = crate::scenario::fill(script, &corpus.truth)?;
    std::fs::write(&on_disk, script).map_err(|e| EvalError::io(&on_disk, e))?;
    let opened = trial.open(folio_workspace::Overrides::default())?;
    let env = opened.folder.environment();
    let error = match env.run_script(&format!("/{script_path}"), json!({}), None, None) {
        Ok(report) if report.ok => None,
        Ok(report) => Some(report.error.unwrap_or_else(|| "the script failed".into())),
        Err(e) => Some(e.to_string()),
    };
    opened.commit()?;
    let checks = scenario
        .checks
        .iter()
        .map(|c| crate::check::run(c, &Ctx { folder: trial.folder(), corpus, readers }))
        .collect();
    let text = crate::runner::artifact_text(scenario, trial.folder(), readers);
    Ok(Attempt { error, checks, ms: started.elapsed().as_millis() as u64, text })
}

/// Selfchecks `scenarios`, calling `on_row` as each finishes.
pub fn selfcheck(scenarios: &[Scenario], seed: u64, mut on_row: impl FnMut(&Row)) -> Result<Vec<Row>, EvalError> {
    let corpus = crate::corpus::generate(seed)?;
    let readers = Readers::new(None);
    let mut rows = Vec::new();
    for scenario in scenarios {
        let good = attempt(scenario, &corpus, scenario.solution, &readers)?;
        let bad = attempt(scenario, &corpus, scenario.bad_solution, &readers)?;
        let row = Row { scenario: scenario.id.clone(), good, bad };
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// A row as one line for a terminal.
pub fn line(row: &Row) -> String {
    let failed_good: Vec<String> =
        row.good.checks.iter().filter(|c| !c.passed).map(|c| format!("{}: {}", c.name, c.detail)).collect();
    let caught: Vec<&str> = row.bad.checks.iter().filter(|c| !c.passed).map(|c| c.name.as_str()).collect();
    if row.ok() {
        format!(
            "ok    {:<18} reference passes {} checks ({} ms); bad solution caught by: {}",
            row.scenario,
            row.good.checks.len(),
            row.good.ms,
            caught.join(", ")
        )
    } else if !row.good.passed() {
        format!(
            "FAIL  {:<18} the reference solution fails: {}{}",
            row.scenario,
            row.good.error.as_deref().map(|e| format!("script error: {e}; ")).unwrap_or_default(),
            failed_good.join("; ")
        )
    } else {
        format!("FAIL  {:<18} no check catches the planted bad solution", row.scenario)
    }
}

/// A scenario as the judge saw it: (its id, the verdicts on the reference deliverable, the
/// verdicts on the planted bad one).
pub type Judged = (String, Vec<Outcome>, Vec<Outcome>);

/// `judgecheck`: the judge must pass every question on the reference solution's artifacts and
/// fail at least one on the planted bad solution's, for each scenario that asks questions.
/// Returns one [`Judged`] per questioned scenario.
pub fn judgecheck(scenarios: &[Scenario], seed: u64, judge: &crate::runner::Judge) -> Result<Vec<Judged>, EvalError> {
    let corpus = crate::corpus::generate(seed)?;
    let readers = Readers::new(None);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| EvalError::Io { path: "tokio runtime".into(), detail: e.to_string() })?;
    let mut out = Vec::new();
    for scenario in scenarios.iter().filter(|s| !s.questions.is_empty()) {
        let task = crate::scenario::fill(&scenario.task, &corpus.truth)?;
        let good = attempt(scenario, &corpus, scenario.solution, &readers)?;
        let bad = attempt(scenario, &corpus, scenario.bad_solution, &readers)?;
        let (good_v, _) = judge.ask(&runtime, &task, &corpus.truth, &good.text, &scenario.questions);
        let (bad_v, _) = judge.ask(&runtime, &task, &corpus.truth, &bad.text, &scenario.questions);
        out.push((scenario.id.clone(), good_v, bad_v));
    }
    Ok(out)
}
