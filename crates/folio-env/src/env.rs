//! [`Environment`]: the mount table, the gateway and the host's seams, held together, and what
//! every part of the crate asks of it. Building one (the zones, the engine, the generated
//! documentation, the compatibility check) is `open.rs`, so that this module imports none of the
//! modules that read an environment.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use folio_vfs::{Overlay, VPath};

use crate::error::{EnvError, Result};
use folio_script::{Engine, OnProgress};

use crate::gateway::{Gateway, Limits, ScriptValidator};
use crate::mounts::MountTree;
use crate::provenance::{Provenance, ProvenanceRecord};
use crate::repeat::RepeatTracker;
use crate::runs::Scripts;
use crate::seams::{Asker, FileHandler, OnVerb, Presented, Presenter};

/// How to build an [`Environment`].
#[derive(Clone, Default)]
pub struct EnvOptions {
    /// Size and response limits.
    pub limits: Limits,
    /// Absolute paths the agent may read but never change (host reference material).
    pub read_only_paths: Vec<String>,
    /// The whole folder read-only: the agent reads everything and changes nothing in it (its
    /// scratch zone `/tmp` still works); nothing becomes pending.
    pub read_only_folder: bool,
    /// Where [`Environment::open_folder`] keeps per-folder state (`None`: the default state root).
    pub state_root: Option<PathBuf>,
    /// Replaces the script-validation hook (default: the script engine's own validation, which
    /// also derives each script's `.d.ts`).
    pub validator: Option<Arc<dyn ScriptValidator>>,
    /// The script engine (default: one over [`ModuleRegistry::with_builtins`] with limits from
    /// `limits.run_timeout_ms` and `limits.script_memory_mb`). Supply one to add adapters.
    pub engine: Option<Arc<Engine>>,
    /// Turns scripts off: no validation beyond `validator`, no `run_script`/`run_tests`.
    pub no_scripts: bool,
    /// Receives scripts' console lines in batches while they run (stdout and stderr, tagged with
    /// the run id and script path). A panic inside it is contained.
    pub on_progress: Option<OnProgress>,
    /// How a person raises the run budget in this shell (`--run-budget-ms on folio run, verbs
    /// and ask`, the app's setting), named by every budget refusal; `None`: the CLI's option.
    pub budget_raise: Option<Arc<str>>,
    /// Modules that claim file formats, in priority order.
    pub handlers: Vec<Arc<dyn FileHandler>>,
    /// Wires `present` into the tool set.
    pub presenter: Option<Arc<dyn Presenter>>,
    /// Wires `ask_user` into the tool set.
    pub asker: Option<Arc<dyn Asker>>,
    /// Wires `view_image` into the tool set.
    pub vision: Option<Arc<dyn crate::seams::Vision>>,
    /// Telemetry: called once per verb call. A panic inside it is contained.
    pub on_verb: Option<OnVerb>,
    /// Skills the host's modules bring, `(name, summary, body)`, written under `/skills` beside
    /// the built-in ones (the host passes only those of modules it registered).
    pub skills: Vec<(&'static str, &'static str, &'static str)>,
}

/// The agent's working environment over one folder.
pub struct Environment {
    pub(crate) gateway: Arc<Gateway>,
    pub(crate) scripts: Option<Scripts>,
    pub(crate) opts: EnvOptions,
    pub(crate) overlay: Option<Arc<Overlay>>,
    pub(crate) repeat: Mutex<RepeatTracker>,
    pub(crate) presented: Mutex<Vec<Presented>>,
    pub(crate) ids: AtomicU64,
    pub(crate) warnings: Vec<String>,
    /// Where this folder's deliverables came from (`provenance/`).
    pub(crate) provenance: crate::provenance::store::ProvenanceStore,
}

impl Environment {
    /// The mutation gateway (for scripts' `env:fs`, adapters and the host's guarded writes).
    pub fn gateway(&self) -> &Gateway {
        &self.gateway
    }

    /// The raw composite tree, for reads.
    pub fn tree(&self) -> &MountTree {
        self.gateway.tree()
    }

    /// The overlay when the environment was opened over a real folder.
    pub fn overlay(&self) -> Option<&Arc<Overlay>> {
        self.overlay.as_ref()
    }

    /// Problems found at startup, for the host (the orientation file repeats them to the agent).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Files presented since the last call, oldest first.
    pub fn take_presented(&self) -> Vec<Presented> {
        std::mem::take(&mut *self.presented.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Stores a file the host dropped in (see [`Gateway::mount`]) and reports where it landed.
    pub fn mount(&self, dir: &str, name: &str, data: &[u8]) -> Result<VPath> {
        self.gateway.mount(&VPath::parse(dir)?, name, data)
    }

    /// Cancels every script run in flight (whichever call started it): each stops within the
    /// engine's interrupt interval and its verb returns a cancellation error. Runs started later
    /// are unaffected. Returns how many runs were signalled.
    pub fn cancel_runs(&self) -> usize {
        self.scripts.as_ref().map_or(0, Scripts::cancel_all)
    }

    /// Every provenance record kept for `path`, newest first.
    pub fn provenance_records(&self, path: &str) -> Result<Vec<ProvenanceRecord>> {
        let path = VPath::parse(path)?;
        self.provenance.for_path(path.as_str())
    }

    /// Where the file at `path` came from, and whether it is stale (`provenance/`). Refuses a path
    /// with no file (naming it); a file no run made is `Standing::Unknown`, not an error.
    pub fn provenance(&self, path: &str) -> Result<Provenance> {
        crate::provenance::standing(self.tree(), &self.provenance, path)
    }

    /// The script engine, when scripts are on.
    pub fn engine(&self) -> Option<&Arc<Engine>> {
        self.scripts.as_ref().map(|s| &s.engine)
    }

    /// A fresh id for `/tmp/run-<id>.*` files.
    pub fn next_run_id(&self) -> String {
        let n = self.ids.fetch_add(1, Ordering::SeqCst);
        format!("{}{n}", crate::format::now_ms() % 1_000_000_000)
    }

    /// Fits `text` into `share` of the response budget. When it does not fit, the whole text is
    /// written to `/tmp/run-<id>.<ext>` through the gateway and the reply names that file.
    pub fn spill(&self, text: &str, share: f64, ext: &str) -> String {
        let target = format!("/tmp/run-{}.{ext}", self.next_run_id());
        self.spill_to(text, share, &target).0
    }

    /// [`Environment::spill`] to a named file; also returns the file when the text was spilled.
    pub fn spill_to(&self, text: &str, share: f64, target: &str) -> (String, Option<String>) {
        let limits = self.gateway.limits();
        let lines = ((limits.max_tool_response_lines as f64 * share) as usize).max(10);
        let chars = ((limits.max_tool_response_bytes as f64 * share) as usize).max(1000);
        let fitted = crate::format::fit(text, lines, chars);
        if !fitted.truncated {
            return (text.to_owned(), None);
        }
        let cut = fitted.cut();
        let size = crate::format::fmt_bytes(text.len() as u64);
        // Where reading on starts: the first line not shown, or — when a shown line was
        // clipped — that line's first byte, for a script to slice.
        let resume =
            match text.split('\n').take(fitted.shown).position(|l| l.chars().count() > crate::format::LINE_CLIP) {
                Some(line) => {
                    let at: usize = text.split('\n').take(line).map(|l| l.len() + 1).sum();
                    let shown: usize = text[at..].chars().take(crate::format::LINE_CLIP).map(char::len_utf8).sum();
                    format!(
                        "read on with read_file {target} start_byte={} (line {} was clipped after its first {} chars)",
                        at + shown,
                        line + 1,
                        crate::format::LINE_CLIP
                    )
                }
                None => format!("read_file {target} with start_line={}", fitted.shown + 1),
            };
        let cap = (8 * 1024 * 1024).min(limits.max_file_bytes as usize);
        let mut body = text.as_bytes().to_vec();
        if body.len() > cap {
            let mut cut = cap.saturating_sub(64);
            while cut > 0 && !text.is_char_boundary(cut) {
                cut -= 1;
            }
            body.truncate(cut);
            body.extend_from_slice("\n… [spill truncated]\n".as_bytes());
        }
        let written = VPath::parse(target)
            .map_err(EnvError::from)
            .and_then(|p| self.gateway.write(&p, &body, crate::gateway::WriteMode::Replace, None));
        match written {
            Ok(_) => {
                self.gateway.count_spillover();
                (
                    format!(
                        "{}\n… [{cut} — the whole text ({size}) is in {target}: {resume}, or grep it]",
                        fitted.text
                    ),
                    Some(target.to_owned()),
                )
            }
            Err(err) => (format!("{}\n… [{cut} — could not spill to {target}: {err}]", fitted.text), None),
        }
    }
}
