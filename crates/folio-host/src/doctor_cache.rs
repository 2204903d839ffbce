//! The doctor's version probes, remembered across starts. Every environment puts the doctor's
//! rows in `env:render` (its README and `capabilities()`), and each found tool's row needs the
//! tool's own `--version` — a process start each (`soffice --version` alone is ~0.1–0.2 s). A
//! tool that has not changed answers the same, so the answers are kept in
//! `<state root>/doctor-cache.json`, keyed by the executable's path, size and modification time:
//! a start with the same tools spawns nothing, a replaced or upgraded tool is probed again, and
//! `folio doctor` ([`Refresh::Always`]) always probes and rewrites the file.
//!
//! The file is a hint, never an authority: one that cannot be read or parsed is said (a
//! warning the shells print) and rewritten from fresh probes, not taken for an empty cache in
//! silence; one that cannot be written is said too, and the rows are still right.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::UNIX_EPOCH;

use folio_render::doctor::{Probe, RunProbe};
use serde::{Deserialize, Serialize};

/// The cache file's name under the state root.
pub const CACHE_FILE: &str = "doctor-cache.json";

/// The file's format; another number is read as "no cache" and rewritten, with a warning.
const FORMAT: u32 = 1;

/// When the probes run instead of being answered from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Refresh {
    /// Only for a tool whose path, size or modification time differ from the cached entry (how
    /// every environment starts).
    #[default]
    WhenChanged,
    /// Every time, rewriting the cache (`folio doctor`, the desktop's doctor panel).
    Always,
}

/// What identifies one version of an executable: where it is, how big, when it last changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    size: u64,
    /// Nanoseconds since the Unix epoch (a `u64` lasts until 2554).
    modified_ns: u64,
}

impl Stamp {
    /// The stamp of `program` (following symlinks), or `None` when it cannot be read — then the
    /// probe runs and its answer is not kept.
    fn of(program: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(program).ok()?;
        let modified_ns = u64::try_from(meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?.as_nanos()).ok()?;
        Some(Stamp { size: meta.len(), modified_ns })
    }
}

/// One remembered answer: `program arg` printed `version` (or failed with `error`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    program: PathBuf,
    arg: String,
    #[serde(flatten)]
    stamp: Stamp,
    outcome: Outcome,
}

/// A probe's answer, as [`Probe::version`] returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Outcome {
    /// The first line the tool printed.
    Version(String),
    /// Why it did not answer.
    Error(String),
}

impl Outcome {
    fn from_result(result: &Result<String, String>) -> Outcome {
        match result {
            Ok(v) => Outcome::Version(v.clone()),
            Err(e) => Outcome::Error(e.clone()),
        }
    }

    fn to_result(&self) -> Result<String, String> {
        match self {
            Outcome::Version(v) => Ok(v.clone()),
            Outcome::Error(e) => Err(e.clone()),
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    probes: Vec<Entry>,
}

/// A [`Probe`] that answers from `<state root>/doctor-cache.json` when the tool is unchanged and
/// asks `inner` (the real probe, or a test's counter) otherwise. Build it with [`ProbeCache::load`],
/// hand it to [`folio_render::doctor::capabilities_with`], then [`ProbeCache::save`].
pub struct ProbeCache<'a> {
    path: Option<PathBuf>,
    refresh: Refresh,
    inner: &'a dyn Probe,
    known: Vec<Entry>,
    /// Every answer given this time, hit or fresh: what the file holds afterwards.
    used: Mutex<Vec<Entry>>,
    /// True when the file must be rewritten (a fresh probe, a torn or missing file).
    dirty: Mutex<bool>,
    warnings: Vec<String>,
}

impl<'a> ProbeCache<'a> {
    /// Reads the cache under `state_root` (`None`: no state root is known, so nothing is kept).
    /// A file that cannot be read or parsed becomes a warning and is rewritten by [`save`](Self::save).
    pub fn load(state_root: Option<&Path>, refresh: Refresh, inner: &'a dyn Probe) -> ProbeCache<'a> {
        let path = state_root.map(|root| root.join(CACHE_FILE));
        let mut warnings = Vec::new();
        let known = match path.as_deref().map(read) {
            None | Some(Ok(None)) => Vec::new(),
            Some(Ok(Some(entries))) => entries,
            Some(Err(why)) => {
                warnings.push(format!(
                    "{} could not be read ({why}), so every tool's version was probed again — it is rewritten now; if this repeats, delete the file",
                    path.as_deref().map(Path::display).map(|d| d.to_string()).unwrap_or_default()
                ));
                Vec::new()
            }
        };
        let dirty = !warnings.is_empty();
        ProbeCache { path, refresh, inner, known, used: Mutex::new(Vec::new()), dirty: Mutex::new(dirty), warnings }
    }

    /// Writes what this start learnt, when it learnt anything, and returns every warning: the
    /// torn file [`load`](Self::load) found, and a file that cannot be written.
    pub fn save(self) -> Vec<String> {
        let mut warnings = self.warnings;
        let dirty = *self.dirty.lock().unwrap_or_else(PoisonError::into_inner);
        let (Some(path), true) = (self.path, dirty) else { return warnings };
        let mut probes = self.used.into_inner().unwrap_or_else(PoisonError::into_inner);
        probes.sort_by(|a, b| (&a.program, &a.arg).cmp(&(&b.program, &b.arg)));
        if let Err(why) = write(&path, &CacheFile { format: FORMAT, probes }) {
            warnings.push(format!(
                "{} could not be written ({why}), so the next start probes every tool again — hint: check that the state directory is writable",
                path.display()
            ));
        }
        warnings
    }

    /// Asks every `(program, arg)` this cache cannot answer yet, side by side, so the rows that
    /// then ask one after another find every answer here.
    pub fn prefetch(&self, wanted: &[(PathBuf, String)]) {
        std::thread::scope(|scope| {
            for (program, arg) in wanted {
                scope.spawn(move || {
                    let _ = self.version(program, arg);
                });
            }
        });
    }

    fn remember(&self, entry: Entry, fresh: bool) {
        self.used.lock().unwrap_or_else(PoisonError::into_inner).push(entry);
        if fresh {
            *self.dirty.lock().unwrap_or_else(PoisonError::into_inner) = true;
        }
    }
}

impl Probe for ProbeCache<'_> {
    fn version(&self, program: &Path, arg: &str) -> Result<String, String> {
        let Some(stamp) = Stamp::of(program) else { return self.inner.version(program, arg) };
        // Asked twice in one start (folio-render's and folio-media's rows both see ffmpeg): the
        // tool runs once.
        let asked = self
            .used
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|e| e.program == program && e.arg == arg && e.stamp == stamp)
            .map(|e| e.outcome.to_result());
        if let Some(answer) = asked {
            return answer;
        }
        if self.refresh == Refresh::WhenChanged
            && let Some(hit) = self.known.iter().find(|e| e.program == program && e.arg == arg && e.stamp == stamp)
        {
            self.remember(hit.clone(), false);
            return hit.outcome.to_result();
        }
        let result = self.inner.version(program, arg);
        let outcome = Outcome::from_result(&result);
        self.remember(Entry { program: program.to_path_buf(), arg: arg.to_string(), stamp, outcome }, true);
        result
    }
}

/// A [`Probe`] that runs nothing: it notes which versions were asked (each once) and answers
/// that it did not look — the dry pass before [`ProbeCache::prefetch`].
#[derive(Default)]
pub struct Wanted(Mutex<Vec<(PathBuf, String)>>);

impl Wanted {
    /// What was asked, in order.
    pub fn take(self) -> Vec<(PathBuf, String)> {
        self.0.into_inner().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Probe for Wanted {
    fn version(&self, program: &Path, arg: &str) -> Result<String, String> {
        let mut asked = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if !asked.iter().any(|(p, a)| p == program && a == arg) {
            asked.push((program.to_path_buf(), arg.to_string()));
        }
        Err("not probed (a dry pass)".into())
    }
}

/// The entries of the file at `path`: `None` when there is none yet (a first start).
fn read(path: &Path) -> Result<Option<Vec<Entry>>, String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let file: CacheFile = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    if file.format != FORMAT {
        return Err(format!("format {} where this Folio writes {FORMAT}", file.format));
    }
    Ok(Some(file.probes))
}

/// Writes `file` next to `path` and renames it into place, so a reader never sees half a file.
fn write(path: &Path, file: &CacheFile) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    }
    let text = serde_json::to_vec_pretty(file).map_err(|e| e.to_string())?;
    let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| e.to_string())?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        e.to_string()
    })
}

/// The real probe (runs the tool), for callers that want the default.
pub fn spawn_probe() -> &'static dyn Probe {
    &RunProbe
}
