//! Rates measured on this host, one per [`JobKind`], kept in `<state root>/rates.json` and
//! refreshed after every job, so the next estimate is this machine's, not a guess.
//!
//! The file is small and rewritten whole (a temporary file, then a rename), so a crash leaves
//! either the old rates or the new ones. A torn or unreadable file is not fatal: the priors are
//! used, and the problem is kept in [`Rates::warnings`] for the shell to print.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::kind::JobKind;

/// How much one new measurement moves the rate (an exponentially weighted mean).
const WEIGHT: f64 = 0.3;

/// One kind's measured rate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    /// Milliseconds per cost unit.
    pub ms_per_unit: f64,
    /// Jobs measured so far.
    pub samples: u64,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    version: u32,
    rates: HashMap<String, Rate>,
}

#[derive(Default)]
struct State {
    rates: HashMap<JobKind, Rate>,
    warnings: Vec<String>,
}

/// The rates of this host. Shared by every run of a host; cheap to consult.
pub struct Rates {
    path: Option<PathBuf>,
    state: Mutex<State>,
}

impl Rates {
    /// Rates that live only in memory (tests, hosts without a state root).
    pub fn in_memory() -> Rates {
        Rates { path: None, state: Mutex::new(State::default()) }
    }

    /// Rates kept in `<state_dir>/rates.json`, loaded now.
    pub fn open(state_dir: &Path) -> Rates {
        let path = state_dir.join("rates.json");
        let mut state = State::default();
        match std::fs::read(&path) {
            Ok(bytes) => match serde_json::from_slice::<File>(&bytes) {
                Ok(file) => {
                    for (key, rate) in file.rates {
                        if let Some(kind) = JobKind::from_key(&key)
                            && rate.ms_per_unit.is_finite()
                            && rate.ms_per_unit >= 0.0
                        {
                            state.rates.insert(kind, rate);
                        }
                    }
                }
                Err(e) => state.warnings.push(format!(
                    "{}: the measured rates could not be read ({e}); estimates start again from defaults — hint: nothing to do, the file is rewritten after the next long job",
                    path.display()
                )),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => state.warnings.push(format!(
                "{}: the measured rates could not be read ({e}); estimates use defaults — hint: check the state directory's permissions",
                path.display()
            )),
        }
        Rates { path: Some(path), state: Mutex::new(state) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The measured rate of `kind`, if this host has measured it.
    pub fn measured(&self, kind: JobKind) -> Option<Rate> {
        self.lock().rates.get(&kind).copied()
    }

    /// Milliseconds per cost unit: measured, else the kind's prior.
    pub fn ms_per_unit(&self, kind: JobKind) -> f64 {
        self.measured(kind).map_or(kind.prior_ms(), |r| r.ms_per_unit)
    }

    /// Folds one finished job (`cost` units in `took`) into the rate and rewrites the file.
    pub fn record(&self, kind: JobKind, cost: f64, took: Duration) {
        if cost <= 0.0 || !cost.is_finite() {
            return;
        }
        let sample = took.as_secs_f64() * 1000.0 / cost;
        let mut state = self.lock();
        let rate = match state.rates.get(&kind) {
            Some(r) => Rate { ms_per_unit: r.ms_per_unit * (1.0 - WEIGHT) + sample * WEIGHT, samples: r.samples + 1 },
            None => Rate { ms_per_unit: sample, samples: 1 },
        };
        state.rates.insert(kind, rate);
        if let Some(path) = &self.path {
            let file = File { version: 1, rates: state.rates.iter().map(|(k, r)| (k.key().to_owned(), *r)).collect() };
            if let Err(e) = write_atomically(path, &file) {
                let warning = format!(
                    "{}: the measured rates could not be saved ({e}); the next start estimates from defaults — hint: check that the state directory is writable",
                    path.display()
                );
                if !state.warnings.contains(&warning) {
                    state.warnings.push(warning);
                }
            }
        }
    }

    /// Problems reading or writing the rates file, taken once.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut self.lock().warnings)
    }
}

fn write_atomically(path: &Path, file: &File) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    let bytes = serde_json::to_vec_pretty(file).map_err(std::io::Error::other)?;
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}
