//! `folio eval`: the evaluation harness (folio-eval) on the command line — list the scenarios,
//! prove the checks (`selfcheck`), run models through them with a spend budget (`run`), render a
//! report again (`report`) and score SpreadsheetBench tasks (`spreadsheetbench`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, anyhow, bail};
use folio_eval::runner::{Model, Plan, Price, Progress};
use folio_eval::{report, runner, scenario, selfcheck, ssb};
use folio_workspace::ProviderName;
use tokio_util::sync::CancellationToken;

/// `folio eval …`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum EvalCommand {
    /// The scenarios: id, turn limit, what each asks.
    List,
    /// Solve every scenario with its reference script inside the environment and run the real
    /// checks (all must pass), then with a planted bad script (a check must catch it). No model.
    Selfcheck {
        /// Only these scenarios (repeatable).
        #[arg(long = "scenario", value_name = "ID")]
        scenarios: Vec<String>,
        /// The corpus seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Run each model on each scenario REPS times, each in a fresh folder, through the real agent
    /// loop; writes report.json and report.html under --out.
    Run(RunArgs),
    /// Make the judge model tell each questioned scenario's reference deliverable (every answer
    /// must pass) from its planted bad one (one answer must fail), before its verdicts count.
    Judgecheck {
        #[command(flatten)]
        judge: JudgeArgs,
        /// The corpus seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Write report.html again from a report.json.
    Report {
        /// The report.json (or the directory holding it).
        path: PathBuf,
    },
    /// Score SpreadsheetBench tasks from DIR (the release's data directory: dataset.json and
    /// spreadsheet/): the outputs in --outputs, or a model's, run here.
    Spreadsheetbench(BenchArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct RunArgs {
    /// PROVIDER:MODEL to evaluate (repeatable), e.g. anthropic:claude-sonnet-4-5.
    #[arg(long = "model", value_name = "PROVIDER:MODEL", required = true)]
    models: Vec<String>,
    /// Another endpoint speaking the provider's API (a local server, a proxy).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Only these scenarios (repeatable; default all).
    #[arg(long = "scenario", value_name = "ID")]
    scenarios: Vec<String>,
    /// Repetitions of each model × scenario.
    #[arg(long, default_value_t = 1)]
    reps: u32,
    /// The most the agent's model calls may cost, in USD. A run that could pass it is not started.
    #[arg(long, value_name = "USD")]
    budget: f64,
    /// Prices when the provider does not list the model's: INPUT,OUTPUT in USD per million tokens.
    #[arg(long, value_name = "IN,OUT")]
    price: Option<String>,
    /// The corpus seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where report.json and report.html go.
    #[arg(long, value_name = "DIR", default_value = "folio-eval-report")]
    out: PathBuf,
    #[command(flatten)]
    judge: JudgeArgs,
}

#[derive(Debug, clap::Args)]
pub(crate) struct JudgeArgs {
    /// The judge for the scenarios' questions, PROVIDER:MODEL (tier 2; without it only the
    /// deterministic checks count).
    #[arg(long, value_name = "PROVIDER:MODEL")]
    judge: Option<String>,
    /// The judge's endpoint, when not its provider's.
    #[arg(long, value_name = "URL")]
    judge_base_url: Option<String>,
    /// The most the judge's calls may cost, in USD (apart from --budget).
    #[arg(long, value_name = "USD", default_value_t = 1.0)]
    judge_budget: f64,
    /// The judge's prices when its provider does not list them: INPUT,OUTPUT per million tokens.
    #[arg(long, value_name = "IN,OUT")]
    judge_price: Option<String>,
}

/// The judge, with the scratch state directory it was opened in (removed when dropped).
fn open_judge(args: &JudgeArgs) -> Result<Option<(tempfile::TempDir, runner::Judge)>> {
    let Some(raw) = &args.judge else { return Ok(None) };
    let model = parse_model(raw, args.judge_base_url.as_ref())?;
    let state = tempfile::Builder::new()
        .prefix("folio-eval-judge-")
        .tempdir()
        .map_err(|e| anyhow!("the judge's scratch state directory could not be made in the temp directory: {e}"))?;
    let price = args.judge_price.as_deref().map(parse_price).transpose()?;
    let judge = runner::Judge::open(&model, state.path().to_path_buf(), price)?;
    Ok(Some((state, judge)))
}

#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    /// The benchmark's data directory.
    dir: PathBuf,
    /// Score the outputs already in this directory (`<k>_<id>_output.xlsx`); with --model, where
    /// the model's outputs are written (default: ./spreadsheetbench-outputs).
    #[arg(long, value_name = "DIR")]
    outputs: Option<PathBuf>,
    /// Run this model on each task first, PROVIDER:MODEL.
    #[arg(long, value_name = "PROVIDER:MODEL")]
    model: Option<String>,
    /// The model's endpoint, when not its provider's.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The most the model's calls may cost, in USD (with --model).
    #[arg(long, value_name = "USD")]
    budget: Option<f64>,
    /// Prices when the provider does not list the model's: INPUT,OUTPUT per million tokens.
    #[arg(long, value_name = "IN,OUT")]
    price: Option<String>,
    /// Model calls per task.
    #[arg(long, default_value_t = 12)]
    max_turns: u32,
    /// Score N tasks sampled with --seed (default: all).
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// The sample's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn parse_price(raw: &str) -> Result<Price> {
    let (i, o) = raw
        .split_once(',')
        .ok_or_else(|| anyhow!("--price takes INPUT,OUTPUT (USD per million tokens), like --price 3,15"))?;
    let parse = |s: &str| {
        s.trim().parse::<f64>().map_err(|_| anyhow!("--price {raw:?}: {s:?} is not a number — like --price 3,15"))
    };
    Ok(Price { input: parse(i)?, output: parse(o)? })
}

fn parse_model(raw: &str, base_url: Option<&String>) -> Result<Model> {
    let (p, m) = raw.split_once(':').ok_or_else(|| {
        anyhow!("--model {raw:?} names no provider — write PROVIDER:MODEL, like anthropic:claude-sonnet-4-5")
    })?;
    Ok(Model { provider: ProviderName::parse(p)?, model: m.to_owned(), base_url: base_url.cloned() })
}

/// Cancels `token` on Ctrl-C (Stop), from a thread of its own.
fn stop_on_ctrl_c(token: CancellationToken) {
    std::thread::spawn(move || {
        if let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() {
            rt.block_on(async {
                if tokio::signal::ctrl_c().await.is_ok() {
                    eprintln!("folio eval: stopping — the current run is cancelled and no further run starts; the report covers the runs so far");
                    token.cancel();
                }
            });
        }
    });
}

pub(crate) fn run(command: EvalCommand) -> Result<ExitCode> {
    match command {
        EvalCommand::List => {
            for s in scenario::all()? {
                println!("{:<18} {:>2} turns  {}", s.id, s.max_turns, s.summary);
            }
            Ok(ExitCode::SUCCESS)
        }
        EvalCommand::Selfcheck { scenarios, seed } => {
            let chosen = scenario::select(&scenarios)?;
            let total = chosen.len();
            let mut done = 0;
            let started = std::time::Instant::now();
            let rows = selfcheck::selfcheck(&chosen, seed, |row| {
                done += 1;
                let left = started.elapsed().as_secs_f64() / done as f64 * (total - done) as f64;
                println!("[{done}/{total}, ~{left:.0} s left] {}", selfcheck::line(row));
            })?;
            let bad = rows.iter().filter(|r| !r.ok()).count();
            println!(
                "selfcheck: {} of {total} scenarios proven ({:.0} s)",
                total - bad,
                started.elapsed().as_secs_f64()
            );
            Ok(if bad == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        EvalCommand::Run(args) => run_models(args),
        EvalCommand::Judgecheck { judge: args, seed } => {
            let Some((_state, judge)) = open_judge(&args)? else {
                bail!("name the judge: --judge PROVIDER:MODEL (its key as for `folio ask`)");
            };
            let mut wrong = 0;
            for (id, good, bad) in selfcheck::judgecheck(&scenario::all()?, seed, &judge)? {
                let good_ok = good.iter().all(|v| v.passed);
                let bad_caught = bad.iter().any(|v| !v.passed);
                wrong += usize::from(!(good_ok && bad_caught));
                let say = |vs: &[folio_eval::check::Outcome]| {
                    vs.iter()
                        .map(|v| format!("{} {} ({})", v.name, if v.passed { "PASS" } else { "FAIL" }, v.detail))
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                println!(
                    "{} {id}: reference — {}; bad — {}",
                    if good_ok && bad_caught { "ok   " } else { "WRONG" },
                    say(&good),
                    say(&bad)
                );
            }
            println!(
                "judgecheck: {}",
                if wrong == 0 {
                    "the judge tells good from bad".to_owned()
                } else {
                    format!("{wrong} scenario(s) judged wrongly — do not trust this judge's verdicts")
                }
            );
            Ok(if wrong == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        EvalCommand::Report { path } => {
            let file = if path.is_dir() { path.join("report.json") } else { path };
            let text =
                std::fs::read_to_string(&file).map_err(|e| anyhow!("{} could not be read: {e}", file.display()))?;
            let value: serde_json::Value = serde_json::from_str(&text)?;
            let records: Vec<runner::Record> = serde_json::from_value(value["records"].clone())
                .map_err(|e| anyhow!("{} is not a folio eval report: {e}", file.display()))?;
            let r = report::Report {
                when: value["when"].as_str().unwrap_or("").to_owned(),
                seed: value["seed"].as_u64().unwrap_or(0),
                records: &records,
            };
            let dir = file.parent().unwrap_or(Path::new("."));
            println!("{}", report::write(dir, &r)?.display());
            Ok(ExitCode::SUCCESS)
        }
        EvalCommand::Spreadsheetbench(args) => bench(args),
    }
}

fn run_models(args: RunArgs) -> Result<ExitCode> {
    if args.budget.is_nan() || args.budget <= 0.0 {
        bail!("--budget must be a positive amount in USD, like --budget 2.50");
    }
    let models = args.models.iter().map(|m| parse_model(m, args.base_url.as_ref())).collect::<Result<Vec<_>>>()?;
    let plan = Plan {
        models,
        scenarios: scenario::select(&args.scenarios)?,
        reps: args.reps.max(1),
        budget: args.budget,
        price: args.price.as_deref().map(parse_price).transpose()?,
        seed: args.seed,
        judge: args.judge.judge.as_deref().map(|j| parse_model(j, args.judge.judge_base_url.as_ref())).transpose()?,
        judge_budget: args.judge.judge_budget,
        judge_price: args.judge.judge_price.as_deref().map(parse_price).transpose()?,
    };
    let cancel = CancellationToken::new();
    stop_on_ctrl_c(cancel.clone());
    let mut spent = 0.0;
    let result = runner::run(&plan, &cancel, |p| match p {
        Progress::Starting { index, total, model, scenario, eta_seconds } => {
            let eta = eta_seconds.map(|s| format!(", ~{:.0} min left", s / 60.0)).unwrap_or_default();
            eprintln!("[{index}/{total}{eta}] {model} on {scenario} …");
        }
        Progress::Finished(r) => {
            spent += r.turn.cost;
            let failed: Vec<&str> = r.checks.iter().filter(|c| !c.passed).map(|c| c.name.as_str()).collect();
            eprintln!(
                "    {} — {} turns, {} tool errors, ${:.4} (${spent:.4} of ${:.2}){}",
                if r.complete() { "complete" } else { r.turn.stop.as_str() },
                r.turn.turns,
                r.turn.tool_errors.len(),
                r.turn.cost,
                plan.budget,
                if failed.is_empty() { String::new() } else { format!("; failed: {}", failed.join(", ")) }
            );
        }
    });
    let records = result?;
    let when = report::now_utc();
    let html = report::write(&args.out, &report::Report { when, seed: plan.seed, records: &records })?;
    let complete = records.iter().filter(|r| r.complete()).count();
    println!("{complete} of {} runs complete; report: {}", records.len(), html.display());
    Ok(ExitCode::SUCCESS)
}

fn bench(args: BenchArgs) -> Result<ExitCode> {
    let tasks = ssb::sample(ssb::load(&args.dir)?, args.sample, args.seed);
    let outputs = match (&args.model, &args.outputs) {
        (Some(raw), outputs) => {
            let model = parse_model(raw, args.base_url.as_ref())?;
            let Some(budget) = args.budget else {
                bail!("--model needs --budget (USD for the model's calls), like --budget 5");
            };
            let outputs = outputs.clone().unwrap_or_else(|| PathBuf::from("spreadsheetbench-outputs"));
            let how = ssb::Solving {
                model: &model,
                budget,
                price: args.price.as_deref().map(parse_price).transpose()?,
                max_turns: args.max_turns,
                outputs: &outputs,
            };
            let cancel = CancellationToken::new();
            stop_on_ctrl_c(cancel.clone());
            let started = std::time::Instant::now();
            ssb::solve(&args.dir, &tasks, &how, &cancel, |i, n, id, done| match done {
                None => {
                    let eta = (i > 1).then(|| started.elapsed().as_secs_f64() / (i - 1) as f64 * (n - i + 1) as f64);
                    eprintln!(
                        "[{i}/{n}{}] task {id} …",
                        eta.map(|s| format!(", ~{:.0} min left", s / 60.0)).unwrap_or_default()
                    );
                }
                Some(t) => eprintln!("    {} — {} turns, ${:.4}", t.stop, t.turns, t.cost),
            })?;
            outputs
        }
        (None, Some(outputs)) => outputs.clone(),
        (None, None) => bail!(
            "say whose answers to score: --outputs DIR (files named <k>_<id>_output.xlsx), or --model PROVIDER:MODEL --budget USD to run one here"
        ),
    };
    let outputs = &outputs;
    let scored: Vec<ssb::Scored> = tasks.iter().map(|t| ssb::score(&args.dir, t, outputs)).collect();
    let n = scored.len().max(1) as f64;
    let soft = scored.iter().map(|s| s.soft).sum::<f64>() / n * 100.0;
    let hard = scored.iter().map(|s| f64::from(s.hard)).sum::<f64>() / n * 100.0;
    if args.json {
        println!(
            "{}",
            serde_json::json!({"tasks": scored, "soft": soft, "hard": hard, "leaderboard": ssb::LEADERBOARD})
        );
    } else {
        for s in &scored {
            let why = s.cases.iter().find_map(|c| c.as_ref().err()).map(|e| format!(" — {e}")).unwrap_or_default();
            println!(
                "{:<12} {:<26} {}/{} cases{why}",
                s.id,
                s.instruction_type,
                s.cases.iter().filter(|c| c.is_ok()).count(),
                s.cases.len()
            );
        }
        println!("\n{} tasks: soft {soft:.1}%, hard {hard:.1}%", scored.len());
        for (who, score) in ssb::LEADERBOARD {
            println!("  published: {who} {score:.1}% (the whole benchmark)");
        }
    }
    Ok(ExitCode::SUCCESS)
}
