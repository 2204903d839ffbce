//! `folio eval run`: models × scenarios × repetitions, each in a fresh folder and a fresh state
//! directory, through folio-workspace's `Folder::turn` — the loop, tools and provider a person's
//! `folio ask` uses. Before each run its cost is estimated from the scenario's turn limit and the
//! model's price and checked against the budget; a run that could pass it is not started, so a
//! budget too small for one run refuses before any request is sent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use folio_agent::{AgentEvent, FinishReason, ToolCallStatus};
use folio_workspace::{FolderOptions, Overrides, ProviderName, Shell, TurnEvent, TurnRequest, Workspace};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::EvalError;
use crate::check::{Ctx, Outcome, Readers};
use crate::corpus::Corpus;
use crate::scenario::{Scenario, fill};

/// A fresh folder made from the corpus, with its own state directory, removed when dropped.
pub struct Trial {
    dir: tempfile::TempDir,
    folder: PathBuf,
}

impl Trial {
    /// A new folder holding the corpus's files.
    pub fn new(corpus: &Corpus) -> Result<Trial, EvalError> {
        Trial::with_files(&corpus.files)
    }

    /// A new folder holding `files` (paths relative to it).
    pub fn with_files(files: &[(String, Vec<u8>)]) -> Result<Trial, EvalError> {
        let dir = tempfile::Builder::new()
            .prefix("folio-eval-")
            .tempdir()
            .map_err(|e| EvalError::io(&std::env::temp_dir(), e))?;
        let folder = dir.path().join("folder");
        std::fs::create_dir_all(&folder).map_err(|e| EvalError::io(&folder, e))?;
        for (path, bytes) in files {
            let target = folder.join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| EvalError::io(parent, e))?;
            }
            std::fs::write(&target, bytes).map_err(|e| EvalError::io(&target, e))?;
        }
        Ok(Trial { dir, folder })
    }

    /// The folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The state directory.
    pub fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    /// The folder opened through the workspace layer with `overrides`, writable.
    pub fn open(&self, overrides: Overrides) -> Result<Opened, EvalError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| EvalError::Io { path: "tokio runtime".into(), detail: e.to_string() })?;
        let ws = Workspace::open(Some(self.state()), Overrides { read_only_folder: Some(false), ..overrides })?;
        let folder = ws.open_folder(
            self.folder(),
            FolderOptions { shell: Some(Shell::Cli), ..FolderOptions::default() },
            runtime.handle(),
        )?;
        Ok(Opened { folder, runtime })
    }
}

/// A folder open for one trial, with the runtime its turn runs on.
pub struct Opened {
    /// The folder.
    pub folder: folio_workspace::Folder,
    /// The runtime (dropped after the folder).
    pub runtime: tokio::runtime::Runtime,
}

impl Opened {
    /// Writes every pending change to the folder, as a person committing all would.
    pub fn commit(&self) -> Result<(), EvalError> {
        if let Some(overlay) = self.folder.environment().overlay() {
            overlay
                .commit(&folio_vfs::Selection::All, &[])
                .map_err(|e| EvalError::Artifact(format!("the run's changes could not be committed: {e}")))?;
        }
        Ok(())
    }
}

/// Prices in USD per million tokens.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Price {
    /// Prompt tokens.
    pub input: f64,
    /// Generated tokens.
    pub output: f64,
}

/// Prompt tokens assumed per model call when estimating (the system prompt, the tools and the
/// growing history of a working turn; measured turns run 6k–30k).
pub const TOKENS_IN_PER_CALL: f64 = 24_000.0;
/// Generated tokens assumed per model call.
pub const TOKENS_OUT_PER_CALL: f64 = 1_500.0;

/// The most a run of `scenario` can cost at `price`: every allowed call at the assumed sizes.
pub fn estimate(scenario: &Scenario, price: Price) -> f64 {
    f64::from(scenario.max_turns) * (TOKENS_IN_PER_CALL * price.input + TOKENS_OUT_PER_CALL * price.output) / 1e6
}

/// Who is evaluated.
#[derive(Debug, Clone)]
pub struct Model {
    /// The provider.
    pub provider: ProviderName,
    /// The model id.
    pub model: String,
    /// A base URL (a local server, a proxy).
    pub base_url: Option<String>,
}

/// What one run measured.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Record {
    /// `provider/model`.
    pub model: String,
    /// The scenario.
    pub scenario: String,
    /// The repetition (1-based).
    pub rep: u32,
    /// What the turn measured.
    #[serde(flatten)]
    pub turn: Turned,
    /// USD the judge's call cost (0 without a judge).
    #[serde(default)]
    pub judge_cost: f64,
    /// Seconds of wall time.
    pub seconds: f64,
    /// Each check's outcome.
    pub checks: Vec<Outcome>,
}

impl Record {
    /// Complete: finished and every check held.
    pub fn complete(&self) -> bool {
        self.turn.stop == "finished" && self.checks.iter().all(|c| c.passed)
    }
}

/// What a person set for an evaluation.
pub struct Plan {
    /// The models.
    pub models: Vec<Model>,
    /// The scenarios.
    pub scenarios: Vec<Scenario>,
    /// Repetitions of each pair.
    pub reps: u32,
    /// The spend limit for the agent's calls, USD.
    pub budget: f64,
    /// Prices when the provider's are unknown.
    pub price: Option<Price>,
    /// The corpus seed.
    pub seed: u64,
    /// The judge model for the scenarios' questions (tier 2), when one is wanted.
    pub judge: Option<Model>,
    /// The spend limit for the judge's calls, USD (apart from the agent's).
    pub judge_budget: f64,
    /// The judge's prices when its provider's are unknown.
    pub judge_price: Option<Price>,
}

/// Prompt tokens assumed for one judge call (the clipped artifact, the truth, the rules).
pub const JUDGE_TOKENS_IN: f64 = 7_000.0;
/// Generated tokens assumed for one judge call.
pub const JUDGE_TOKENS_OUT: f64 = 800.0;

/// A judge ready to be asked: its client and price.
pub struct Judge {
    client: folio_agent::ModelClient,
    price: Price,
}

impl Judge {
    /// The judge `model` names, through a workspace at `state` (its key, its boundary).
    pub fn open(model: &Model, state: PathBuf, price: Option<Price>) -> Result<Judge, EvalError> {
        let ws = Workspace::open(
            Some(state),
            Overrides {
                provider: Some(model.provider),
                model: Some(model.model.clone()),
                base_url: model.base_url.clone(),
                ..Overrides::default()
            },
        )?;
        let settings = ws.settings()?;
        let provider = ws.provider(&settings, None)?;
        let price = match (price, provider.pricing) {
            (Some(p), _) => p,
            (None, Some(p)) => Price { input: p.input, output: p.output },
            (None, None) => {
                return Err(EvalError::Budget(format!(
                    "the judge's price ({}/{}) is not known — hint: pass --judge-price INPUT,OUTPUT in USD per million tokens",
                    model.provider.as_str(),
                    model.model
                )));
            }
        };
        let client = folio_agent::ModelClient::new(provider)
            .map_err(|e| EvalError::Budget(format!("the judge cannot be set up: {e}")))?
            .with_boundary(ws.global_boundary()?);
        Ok(Judge { client, price })
    }

    /// The most one call can cost.
    pub fn estimate(&self) -> f64 {
        (JUDGE_TOKENS_IN * self.price.input + JUDGE_TOKENS_OUT * self.price.output) / 1e6
    }

    /// Asks the questions about `artifact`; returns the verdicts and the cost.
    pub fn ask(
        &self,
        runtime: &tokio::runtime::Runtime,
        task: &str,
        truth: &serde_json::Value,
        artifact: &str,
        questions: &[crate::scenario::Question],
    ) -> (Vec<Outcome>, f64) {
        let request = crate::judge::request(task, truth, artifact, questions);
        let (verdicts, cost) =
            runtime.block_on(crate::judge::judge(&self.client, &request, questions, &CancellationToken::new()));
        (verdicts, cost.unwrap_or_else(|| self.estimate()))
    }
}

/// The text of a scenario's artifacts in `folder`, each under a line naming it.
pub fn artifact_text(scenario: &Scenario, folder: &Path, readers: &Readers) -> String {
    let mut out = String::new();
    for path in &scenario.artifacts {
        let file = folder.join(path.trim_start_matches('/'));
        let text = match std::fs::read(&file) {
            Ok(bytes) => {
                crate::read::text(&readers.renderer, &file, &bytes).unwrap_or_else(|e| format!("(unreadable: {e})"))
            }
            Err(_) => "(missing)".to_owned(),
        };
        out.push_str(&format!("=== {path} ===\n{text}\n"));
    }
    out
}

/// Progress as runs start and end.
#[allow(missing_docs)]
pub enum Progress<'a> {
    /// A run starts: its index, the total, and the estimated seconds left.
    Starting { index: usize, total: usize, model: &'a str, scenario: &'a str, eta_seconds: Option<f64> },
    /// A run ended.
    Finished(&'a Record),
}

/// The price of `model`: `given`, else its provider's list price.
pub fn price_of(model: &Model, given: Option<Price>, ws: &Workspace) -> Result<Price, EvalError> {
    if let Some(p) = given {
        return Ok(p);
    }
    let settings = ws.settings()?;
    let provider = ws.provider(&settings, None)?;
    provider.pricing.map(|p| Price { input: p.input, output: p.output }).ok_or_else(|| {
        EvalError::Budget(format!(
            "the price of {}/{} is not known, so a budget cannot be checked — hint: pass --price INPUT,OUTPUT in USD per million tokens (as the provider lists it)",
            model.provider.as_str(),
            model.model
        ))
    })
}

/// Runs the plan; stops before the first run the budget cannot cover, or when `cancel` fires.
pub fn run(
    plan: &Plan,
    cancel: &CancellationToken,
    mut progress: impl FnMut(Progress<'_>),
) -> Result<Vec<Record>, EvalError> {
    let corpus = crate::corpus::generate(plan.seed)?;
    let readers = Readers::new(None);
    let total = plan.models.len() * plan.scenarios.len() * plan.reps as usize;
    let mut records = Vec::new();
    let mut spent = 0.0;
    let started = Instant::now();
    let mut index = 0;
    let judge_state = tempfile::tempdir().map_err(|e| EvalError::io(&std::env::temp_dir(), e))?;
    let judge =
        plan.judge.as_ref().map(|m| Judge::open(m, judge_state.path().to_path_buf(), plan.judge_price)).transpose()?;
    let mut judge_spent = 0.0;
    for model in &plan.models {
        for scenario in &plan.scenarios {
            for rep in 1..=plan.reps {
                if cancel.is_cancelled() {
                    return Ok(records);
                }
                let trial = Trial::new(&corpus)?;
                let overrides = Overrides {
                    provider: Some(model.provider),
                    model: Some(model.model.clone()),
                    base_url: model.base_url.clone(),
                    max_turns: Some(scenario.max_turns),
                    ..Overrides::default()
                };
                let opened = trial.open(overrides)?;
                let price = price_of(model, plan.price, opened.folder.workspace())?;
                let worst = estimate(scenario, price);
                if spent + worst > plan.budget {
                    return Err(EvalError::Budget(format!(
                        "the next run ({}/{} on {}) could cost up to ${worst:.2} ({} calls at ~{}k tokens in and {}k out); ${spent:.2} of the ${:.2} budget is spent, so it was not started — hint: raise --budget to at least ${:.2}, or lower the scenario count or --reps",
                        model.provider.as_str(),
                        model.model,
                        scenario.id,
                        scenario.max_turns,
                        TOKENS_IN_PER_CALL / 1000.0,
                        TOKENS_OUT_PER_CALL / 1000.0,
                        plan.budget,
                        spent + worst
                    )));
                }
                index += 1;
                let eta = (index > 1)
                    .then(|| started.elapsed().as_secs_f64() / (index - 1) as f64 * (total - index + 1) as f64);
                let name = format!("{}/{}", model.provider.as_str(), model.model);
                progress(Progress::Starting { index, total, model: &name, scenario: &scenario.id, eta_seconds: eta });
                let mut record = one(&opened, &trial, &corpus, scenario, rep, &name, price, &readers, cancel)?;
                spent += record.turn.cost;
                if let Some(judge) = judge.as_ref().filter(|_| !scenario.questions.is_empty()) {
                    if judge_spent + judge.estimate() > plan.judge_budget {
                        return Err(EvalError::Budget(format!(
                            "the judge's next call could cost up to ${:.3}; ${judge_spent:.3} of its ${:.2} budget is spent, so it was not asked — hint: raise --judge-budget",
                            judge.estimate(),
                            plan.judge_budget
                        )));
                    }
                    let task = fill(&scenario.task, &corpus.truth)?;
                    let text = artifact_text(scenario, trial.folder(), &readers);
                    let (verdicts, cost) = judge.ask(&opened.runtime, &task, &corpus.truth, &text, &scenario.questions);
                    judge_spent += cost;
                    record.judge_cost = cost;
                    record.checks.extend(verdicts);
                }
                progress(Progress::Finished(&record));
                records.push(record);
            }
        }
    }
    Ok(records)
}

#[allow(clippy::too_many_arguments)]
fn one(
    opened: &Opened,
    trial: &Trial,
    corpus: &Corpus,
    scenario: &Scenario,
    rep: u32,
    name: &str,
    price: Price,
    readers: &Readers,
    cancel: &CancellationToken,
) -> Result<Record, EvalError> {
    let task = fill(&scenario.task, &corpus.truth)?;
    let started = Instant::now();
    let t = turn(opened, task, price, cancel)?;
    opened.commit()?;
    let checks = scenario
        .checks
        .iter()
        .map(|c| crate::check::run(c, &Ctx { folder: trial.folder(), corpus, readers }))
        .collect();
    Ok(Record {
        model: name.to_owned(),
        scenario: scenario.id.clone(),
        rep,
        turn: t,
        judge_cost: 0.0,
        seconds: started.elapsed().as_secs_f64(),
        checks,
    })
}

/// What one agent turn measured.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Turned {
    /// `finished`, `max-turns`, `cancelled` or `error`.
    pub stop: String,
    /// The loop's error.
    pub error: Option<String>,
    /// Model calls.
    pub turns: u32,
    /// Tool calls.
    pub tool_calls: u32,
    /// Failed tool calls, each `name: first line`.
    pub tool_errors: Vec<String>,
    /// Prompt tokens, cache included.
    pub tokens_in: u64,
    /// Generated tokens.
    pub tokens_out: u64,
    /// USD.
    pub cost: f64,
}

/// Runs one agent turn on `task` in the opened folder.
pub fn turn(opened: &Opened, task: String, price: Price, cancel: &CancellationToken) -> Result<Turned, EvalError> {
    let mut turns = 0u32;
    let mut tool_calls = 0u32;
    let mut tool_errors = Vec::new();
    let (mut tokens_in, mut tokens_out, mut cost, mut priced) = (0u64, 0u64, 0.0, false);
    let mut stopped_on: Option<String> = None;
    let mut on_event = |event: TurnEvent| {
        let TurnEvent::Agent(event) = event else { return };
        match event {
            AgentEvent::Usage { usage, cost_usd, .. } => {
                turns += 1;
                tokens_in += usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens;
                tokens_out += usage.output_tokens;
                if let Some(c) = cost_usd {
                    cost += c;
                    priced = true;
                }
            }
            AgentEvent::ToolCallFinished { name, status, output, .. } => {
                tool_calls += 1;
                if status != ToolCallStatus::Success {
                    let first = output.lines().next().unwrap_or("").chars().take(300).collect::<String>();
                    tool_errors.push(format!("{name}: {first}"));
                }
            }
            AgentEvent::Error { message } => stopped_on = Some(message),
            _ => {}
        }
    };
    let request = TurnRequest { conversation: None, text: Some(task) };
    let outcome = opened.runtime.block_on(opened.folder.turn(request, cancel, &mut on_event))?;
    let (stop, error) = match outcome.result {
        Ok(FinishReason::Done) => ("finished", None),
        Ok(FinishReason::MaxTurns) => ("max-turns", None),
        Ok(FinishReason::Cancelled) => ("cancelled", None),
        Err(e) => ("error", Some(stopped_on.unwrap_or_else(|| e.to_string()))),
    };
    if !priced {
        cost = (tokens_in as f64 * price.input + tokens_out as f64 * price.output) / 1e6;
    }
    Ok(Turned { stop: stop.to_owned(), error, turns, tool_calls, tool_errors, tokens_in, tokens_out, cost })
}

/// Failed checks across records, by name, most frequent first.
pub fn failed_checks(records: &[&Record]) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for r in records {
        for c in r.checks.iter().filter(|c| !c.passed) {
            *counts.entry(c.name.clone()).or_default() += 1;
        }
    }
    let mut out: Vec<(String, usize)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// Every verbatim tool error, by frequency (the friction table).
pub fn friction(records: &[Record]) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in records.iter().flat_map(|r| &r.turn.tool_errors) {
        *counts.entry(e.clone()).or_default() += 1;
    }
    let mut out: Vec<(String, usize)> = counts.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}
