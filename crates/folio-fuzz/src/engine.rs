//! The run loop: replay, then mutate until the time is up.
//!
//! A target runs on a worker thread of its own, which builds the target's state once (an
//! environment, a renderer) and then takes inputs over a channel. Every input runs under
//! `catch_unwind`; the calling thread waits for the answer at most [`Config::hang`] (2 s by
//! default), and an input that takes longer is a *hang*: it is saved, and the target's run ends
//! there, because the stuck worker cannot be stopped and may hold a lock the next input needs
//! (PDFium's, for one). A panic is a *crash*: saved once per panic location, after which the
//! worker rebuilds its state and the run goes on looking for others. A panic the product caught
//! itself (a thread or task that died while the input ran, turned into an error) is a crash
//! too: the workspace denies panics outside tests, so every one of them is a defect.
//!
//! The corpus starts as the committed seeds (`corpus/<target>/`) and the regression inputs
//! (`regressions/<target>/`), all replayed first — a regression input that crashes again fails
//! the run before any mutation. It then grows by *outcome*: a target answers each input with a
//! short signature (which error variant, which branch of the parse, roughly how big the result
//! was — a few such features), and an input with a feature never seen joins the corpus. That is the stable
//! toolchain's stand-in for coverage feedback: cheap, and enough to keep inputs that reached a
//! new part of a parser.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, PanicHookInfo, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use crate::mutate::{Pool, havoc};
use crate::rng::{Rng, fnv1a};

/// What a target runs for one input: it returns the outcome's signature — features separated
/// by `;`, an input with any unseen feature joins the corpus (see the module docs) — and panics
/// when an oracle is violated.
pub type Run = Box<dyn FnMut(&[u8]) -> String>;

/// One fuzz target: a row of [`crate::targets::TARGETS`].
#[derive(Clone, Copy)]
pub struct Target {
    /// The name: its corpus, regression and crash directories are called so.
    pub name: &'static str,
    /// What it feeds the bytes to.
    pub about: &'static str,
    /// Tokens the mutators insert (verb names, JSON keys, signatures).
    pub dictionary: fn() -> Vec<Vec<u8>>,
    /// Builds the target's state on its worker thread; `Err` ends the run as a setup failure.
    pub setup: fn() -> Result<Run, String>,
    /// Inputs never grow past this many bytes.
    pub max_len: usize,
}

/// How one run goes.
#[derive(Debug, Clone)]
pub struct Config {
    /// Seconds of mutation after the replay (0: replay only).
    pub secs: f64,
    /// The seed of the mutation sequence.
    pub seed: u64,
    /// Longer than this for one input is a hang.
    pub hang: Duration,
    /// The directory holding `corpus/`, `regressions/` and `crashes/`.
    pub root: PathBuf,
    /// Print each finding as it is found, with its reproducer.
    pub verbose: bool,
    /// Write every input to `crashes/<target>/.current` before running it, so an abort that
    /// takes the whole process (a stack overflow) leaves its input behind. Slow; for chasing one.
    pub write_current: bool,
    /// Print each outcome feature when it is first seen (for tuning a target's signatures).
    pub show_features: bool,
}

impl Config {
    /// The defaults: `secs` seconds, a 2 s hang bound, this crate's own directories, verbose.
    pub fn new(secs: f64, seed: u64) -> Config {
        Config {
            secs,
            seed,
            hang: Duration::from_secs(2),
            root: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
            verbose: true,
            write_current: false,
            show_features: false,
        }
    }
}

/// What kind of defect an input showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The target panicked (an oracle failed, or the code under test did).
    Crash,
    /// A panic happened while the input ran but was caught inside the product.
    Contained,
    /// One input took longer than the bound.
    Hang,
    /// The target could not build its state.
    Setup,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Crash => "CRASH",
            Kind::Contained => "CONTAINED PANIC",
            Kind::Hang => "HANG",
            Kind::Setup => "SETUP FAILED",
        }
    }
}

/// One defect found.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Crash, hang or setup failure.
    pub kind: Kind,
    /// The panic message with its location (or what took too long).
    pub message: String,
    /// The input.
    pub input: Vec<u8>,
    /// Where the input was saved.
    pub saved: Option<PathBuf>,
}

/// What one target's run did.
#[derive(Debug, Clone)]
pub struct Report {
    /// The target.
    pub name: &'static str,
    /// The seed the mutations came from.
    pub seed: u64,
    /// Inputs run (replayed ones included).
    pub execs: u64,
    /// Wall-clock seconds, replay included.
    pub secs: f64,
    /// Committed seeds replayed.
    pub seeds: usize,
    /// Regression inputs replayed.
    pub regressions: usize,
    /// Corpus size at the end.
    pub corpus: usize,
    /// Distinct outcome features seen.
    pub signatures: usize,
    /// Every defect, one per panic location.
    pub findings: Vec<Finding>,
}

impl Report {
    /// Crashes found (contained panics and setup failures included).
    pub fn crashes(&self) -> usize {
        self.findings.iter().filter(|f| f.kind != Kind::Hang).count()
    }
    /// Hangs found.
    pub fn hangs(&self) -> usize {
        self.findings.iter().filter(|f| f.kind == Kind::Hang).count()
    }
    /// Executions per second.
    pub fn rate(&self) -> f64 {
        if self.secs > 0.0 { self.execs as f64 / self.secs } else { 0.0 }
    }
}

// ---- panic capture ------------------------------------------------------------------------

/// While set, panics are recorded (not printed): a fuzz run is going on.
static CAPTURING: AtomicBool = AtomicBool::new(false);
/// The panics since the worker last cleared the list, first one first.
static PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());
static HOOK: Once = Once::new();

fn install_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
            if !CAPTURING.load(Ordering::SeqCst) {
                return previous(info);
            }
            let payload = info.payload();
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(a panic without a message)".to_owned());
            let at = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
            let thread = std::thread::current().name().unwrap_or("unnamed").to_owned();
            if let Ok(mut list) = PANICS.lock()
                && list.len() < 8
            {
                list.push(format!("thread '{thread}' panicked at {at}: {what}"));
            }
        }));
    });
}

fn take_panics() -> Vec<String> {
    PANICS.lock().map(|mut l| std::mem::take(&mut *l)).unwrap_or_default()
}

/// Where the first panic happened (`file:line:col`), the key crashes are told apart by.
fn location(message: &str) -> &str {
    message.split(" panicked at ").nth(1).and_then(|rest| rest.split(": ").next()).unwrap_or(message)
}

// ---- the worker ---------------------------------------------------------------------------

enum Answer {
    Ready,
    Done { signature: String, contained: Vec<String> },
    Panicked(String),
    SetupFailed(String),
}

enum Exec {
    Ok(String),
    Found(Kind, String),
    /// The worker is gone (its setup failed after a crash) or stuck.
    Stopped(String),
}

struct Worker {
    tx: Sender<Vec<u8>>,
    rx: Receiver<Answer>,
}

fn build(setup: fn() -> Result<Run, String>) -> Result<Run, String> {
    match catch_unwind(setup) {
        Ok(r) => r,
        Err(_) => Err(take_panics().join("\n")),
    }
}

impl Worker {
    fn spawn(target: &Target) -> Result<Worker, String> {
        let (tx, inputs) = mpsc::channel::<Vec<u8>>();
        let (answers, rx) = mpsc::channel::<Answer>();
        let setup = target.setup;
        std::thread::Builder::new()
            .name(format!("fuzz-{}", target.name))
            .spawn(move || {
                let mut run = match build(setup) {
                    Ok(run) => run,
                    Err(why) => return drop(answers.send(Answer::SetupFailed(why))),
                };
                let _ = answers.send(Answer::Ready);
                while let Ok(input) = inputs.recv() {
                    take_panics();
                    match catch_unwind(AssertUnwindSafe(|| run(&input))) {
                        Ok(signature) => {
                            let _ = answers.send(Answer::Done { signature, contained: take_panics() });
                        }
                        Err(_) => {
                            let _ = answers.send(Answer::Panicked(take_panics().join("\n")));
                            run = match build(setup) {
                                Ok(run) => run,
                                Err(why) => return drop(answers.send(Answer::SetupFailed(why))),
                            };
                            let _ = answers.send(Answer::Ready);
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start the worker thread: {e}"))?;
        let worker = Worker { tx, rx };
        match worker.rx.recv_timeout(Duration::from_secs(300)) {
            Ok(Answer::Ready) => Ok(worker),
            Ok(Answer::SetupFailed(why)) => Err(why),
            Ok(_) => Err("the worker answered before it was ready".into()),
            Err(_) => Err("the target's setup did not finish within 300 s".into()),
        }
    }

    fn exec(&self, input: &[u8], hang: Duration) -> Exec {
        if self.tx.send(input.to_vec()).is_err() {
            return Exec::Stopped("the worker thread has ended".into());
        }
        match self.rx.recv_timeout(hang) {
            Ok(Answer::Done { signature, contained }) if contained.is_empty() => Exec::Ok(signature),
            Ok(Answer::Done { contained, .. }) => Exec::Found(Kind::Contained, contained.join("\n")),
            Ok(Answer::Panicked(message)) => {
                // The worker rebuilds its state before it takes the next input.
                match self.rx.recv_timeout(Duration::from_secs(300)) {
                    Ok(Answer::Ready) => Exec::Found(Kind::Crash, message),
                    Ok(Answer::SetupFailed(why)) => {
                        Exec::Stopped(format!("{message}\n(and the target could not be rebuilt: {why})"))
                    }
                    _ => Exec::Stopped(format!("{message}\n(and the target did not come back)")),
                }
            }
            Ok(Answer::Ready) | Ok(Answer::SetupFailed(_)) => Exec::Stopped("the worker is out of step".into()),
            Err(RecvTimeoutError::Timeout) => Exec::Found(Kind::Hang, format!("one input ran longer than {hang:?}")),
            Err(RecvTimeoutError::Disconnected) => Exec::Stopped("the worker thread has ended".into()),
        }
    }
}

// ---- files --------------------------------------------------------------------------------

/// The files of `dir`, sorted by name (hidden ones, like `.gitkeep`, skipped); none when it
/// does not exist.
pub fn load_dir(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(read) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect();
    paths.sort();
    paths.into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect()
}

/// The input, escaped and cut to `max` bytes, for a reproducer line.
pub fn preview(input: &[u8], max: usize) -> String {
    let shown = &input[..input.len().min(max)];
    let mut s: String = shown.escape_ascii().to_string();
    if input.len() > max {
        s.push_str(&format!("… ({} more bytes)", input.len() - max));
    }
    s
}

fn save(cfg: &Config, target: &str, input: &[u8]) -> Option<PathBuf> {
    let dir = cfg.root.join("crashes").join(target);
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!("{:016x}", fnv1a(input)));
    std::fs::write(&path, input).ok()?;
    Some(path)
}

fn print_finding(cfg: &Config, target: &str, f: &Finding) {
    if !cfg.verbose {
        return;
    }
    eprintln!("fuzz[{target}]: {} — {}", f.kind.word(), f.message.replace('\n', "\n    "));
    eprintln!("  input ({} bytes): \"{}\"", f.input.len(), preview(&f.input, 300));
    if let Some(path) = &f.saved {
        let regressions = cfg.root.join("regressions").join(target);
        eprintln!("  saved: {}", path.display());
        eprintln!(
            "  reproduce: mkdir -p {dir} && cp {file} {dir}/ && FOLIO_FUZZ_TARGETS={target} FOLIO_FUZZ_SECS=0 cargo test -p folio-fuzz --test fuzz",
            dir = regressions.display(),
            file = path.display()
        );
    }
}

// ---- the run ------------------------------------------------------------------------------

/// Most inputs the corpus keeps (new signatures beyond it are counted, not kept).
pub const MAX_CORPUS: usize = 2048;

/// Replays `target`'s regression inputs and seeds, then mutates for `cfg.secs` seconds.
pub fn run_target(target: &Target, cfg: &Config) -> Report {
    install_hook();
    CAPTURING.store(true, Ordering::SeqCst);
    let report = run_inner(target, cfg);
    CAPTURING.store(false, Ordering::SeqCst);
    report
}

fn run_inner(target: &Target, cfg: &Config) -> Report {
    let started = Instant::now();
    let regressions = load_dir(&cfg.root.join("regressions").join(target.name));
    let seeds = load_dir(&cfg.root.join("corpus").join(target.name));
    let mut report = Report {
        name: target.name,
        seed: cfg.seed,
        execs: 0,
        secs: 0.0,
        seeds: seeds.len(),
        regressions: regressions.len(),
        corpus: 0,
        signatures: 0,
        findings: Vec::new(),
    };
    let worker = match Worker::spawn(target) {
        Ok(w) => w,
        Err(why) => {
            let f = Finding { kind: Kind::Setup, message: why, input: Vec::new(), saved: None };
            print_finding(cfg, target.name, &f);
            report.findings.push(f);
            report.secs = started.elapsed().as_secs_f64();
            return report;
        }
    };
    let mut corpus: Vec<Vec<u8>> = Vec::new();
    let mut signatures: HashSet<u64> = HashSet::new();
    let mut crash_sites: HashSet<String> = HashSet::new();
    let dictionary = (target.dictionary)();
    let mut rng = Rng::new(cfg.seed ^ fnv1a(target.name.as_bytes()));
    let replay = regressions.into_iter().chain(seeds).map(|(_, bytes)| bytes);
    let deadline = started + Duration::from_secs_f64(cfg.secs.max(0.0));
    let mut replaying = replay.peekable();
    loop {
        let (input, from_replay) = match replaying.next() {
            Some(bytes) => (bytes, true),
            None if Instant::now() >= deadline => break,
            None => {
                let pool = Pool { corpus: &corpus, dictionary: &dictionary, max_len: target.max_len };
                let base = rng.pick(&corpus).cloned().unwrap_or_default();
                (havoc(&base, &mut rng, &pool), false)
            }
        };
        if cfg.write_current {
            let dir = cfg.root.join("crashes").join(target.name);
            let _ = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(dir.join(".current"), &input));
        }
        report.execs += 1;
        match worker.exec(&input, cfg.hang) {
            Exec::Ok(signature) => {
                // Every feature is inserted (no short-circuit), so each is counted once seen.
                let new = signature.split(';').fold(false, |new, f| {
                    let fresh = signatures.insert(fnv1a(f.as_bytes()));
                    if fresh && cfg.show_features {
                        eprintln!("fuzz[{}]: new feature {f:?}", target.name);
                    }
                    fresh | new
                });
                if (new || from_replay) && corpus.len() < MAX_CORPUS {
                    corpus.push(input);
                }
            }
            Exec::Found(kind, message) => {
                let site = format!("{kind:?} {}", location(&message));
                if crash_sites.insert(site) {
                    let saved = save(cfg, target.name, &input);
                    let f = Finding { kind, message, input, saved };
                    print_finding(cfg, target.name, &f);
                    report.findings.push(f);
                }
                if kind == Kind::Hang {
                    break;
                }
            }
            Exec::Stopped(message) => {
                let saved = save(cfg, target.name, &input);
                let f = Finding { kind: Kind::Crash, message, input, saved };
                print_finding(cfg, target.name, &f);
                report.findings.push(f);
                break;
            }
        }
    }
    report.corpus = corpus.len();
    report.signatures = signatures.len();
    report.secs = started.elapsed().as_secs_f64();
    report
}
