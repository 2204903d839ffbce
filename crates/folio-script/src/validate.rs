//! Write-time validation: the hook the environment's gateway calls on every mutation producing a
//! `.js` file in the pipeline. It loads the module graph against the tree with the proposed text
//! laid over it, evaluates top-level code with a read-only `env:fs`, checks the contract and
//! derives the `.d.ts`.
//!
//! The gateway holds a borrowed `&dyn Tree` (often a view assembled for this one check), while
//! QuickJS's loader must own what it reads from. So the load runs on a scoped worker thread and
//! every read it makes is sent back to the calling thread, which answers from the borrowed tree
//! until the worker reports its result. No tree handle outlives the call.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use folio_vfs::{DirEntry, Stat, Tree, VPath};

use crate::console::Sink;
use crate::contract::{ScriptKind, Validation};
use crate::dts;
use crate::error::{FsError, ScriptError};
use crate::operation::{Done, Engine, Mode, Operation, current_thread_runtime};
use crate::script_fs::ScriptFs;

type Job = Box<dyn FnOnce(&dyn Tree) + Send>;

enum Msg {
    Call(Job),
    Done(Result<Validation, ScriptError>),
}

/// A read-only [`ScriptFs`] whose reads are answered by the thread that owns the tree.
struct RelayFs {
    tx: Mutex<mpsc::Sender<Msg>>,
    overlay: (VPath, Vec<u8>),
}

const NOT_NOW: &str = "is not available while a script is being validated — module top-level code runs during write_file/edit_file and must not change the tree. Do the work inside the default export instead.";

impl RelayFs {
    fn ask<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Tree) -> Result<T, FsError> + Send + 'static,
    ) -> Result<T, FsError> {
        let (reply_tx, reply_rx) = mpsc::channel();
        let job: Job = Box::new(move |tree| {
            let _ = reply_tx.send(f(tree));
        });
        let sent = self.tx.lock().map_err(|_| FsError::Gone("the validation relay failed"))?.send(Msg::Call(job));
        sent.map_err(|_| FsError::Gone("the validation has already ended"))?;
        reply_rx.recv().map_err(|_| FsError::Gone("the validation has already ended"))?
    }
}

impl ScriptFs for RelayFs {
    fn read(&self, path: &VPath) -> Result<Vec<u8>, FsError> {
        if path == &self.overlay.0 {
            return Ok(self.overlay.1.clone());
        }
        let p = path.clone();
        self.ask(move |t| t.read(&p).map_err(FsError::from))
    }
    fn write(&self, _: &VPath, _: &[u8]) -> Result<(), FsError> {
        Err(FsError::NotNow { op: "writeFile", why: NOT_NOW })
    }
    fn append(&self, _: &VPath, _: &[u8]) -> Result<(), FsError> {
        Err(FsError::NotNow { op: "appendFile", why: NOT_NOW })
    }
    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>, FsError> {
        let p = dir.clone();
        self.ask(move |t| t.list(&p).map_err(FsError::from))
    }
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, FsError> {
        let p = pattern.to_owned();
        self.ask(move |t| t.glob(&p).map_err(FsError::from))
    }
    fn stat(&self, path: &VPath) -> Result<Option<Stat>, FsError> {
        if path == &self.overlay.0 {
            let size = self.overlay.1.len() as u64;
            return Ok(Some(Stat { kind: folio_vfs::Kind::File, size, mtime_ms: 0 }));
        }
        let p = path.clone();
        self.ask(move |t| t.stat(&p).map_err(FsError::from))
    }
    fn mkdir(&self, _: &VPath) -> Result<(), FsError> {
        Err(FsError::NotNow { op: "mkdir", why: NOT_NOW })
    }
    fn rm(&self, _: &VPath) -> Result<(), FsError> {
        Err(FsError::NotNow { op: "rm", why: NOT_NOW })
    }
    fn mv(&self, _: &VPath, _: &VPath) -> Result<(), FsError> {
        Err(FsError::NotNow { op: "mv", why: NOT_NOW })
    }
    fn cp(&self, _: &VPath, _: &VPath) -> Result<(), FsError> {
        Err(FsError::NotNow { op: "cp", why: NOT_NOW })
    }
}

impl Engine {
    /// The write-time hook: validates `source` as the new content of `path`, reading everything
    /// else from `tree`. Blocks the calling thread for at most `limits.run_timeout_ms`; safe to
    /// call from inside a tokio runtime or from a script's own `env:fs` write.
    pub fn validate(&self, tree: &dyn Tree, path: &VPath, source: &str) -> Result<Validation, ScriptError> {
        let (tx, rx) = mpsc::channel::<Msg>();
        let fs = Arc::new(RelayFs { tx: Mutex::new(tx.clone()), overlay: (path.clone(), source.as_bytes().to_vec()) });
        std::thread::scope(|s| {
            s.spawn(move || {
                let result = match current_thread_runtime() {
                    Ok(rt) => {
                        let r = rt.block_on(self.validate_with(fs, path, source));
                        rt.shutdown_background();
                        r
                    }
                    Err(e) => Err(e),
                };
                let _ = tx.send(Msg::Done(result));
            });
            loop {
                match rx.recv() {
                    Ok(Msg::Call(job)) => job(tree),
                    Ok(Msg::Done(result)) => return result,
                    Err(_) => return Err(ScriptError::Engine("the validation thread ended without a result".into())),
                }
            }
        })
    }

    /// The async form of [`Engine::validate`] over a [`ScriptFs`] the caller already owns. The
    /// caller must make `fs` refuse mutations (and serve `source` at `path`, for `env:fs` reads
    /// of the file being written); the module loader overlays `source` itself.
    pub async fn validate_with(
        &self,
        fs: Arc<dyn ScriptFs>,
        path: &VPath,
        source: &str,
    ) -> Result<Validation, ScriptError> {
        if path.extension() != Some("js") {
            return Err(ScriptError::not_js(path));
        }
        let run_id = self.next_id();
        let sink = Arc::new(Sink::new(self.limits.console_cap_chars, run_id.clone(), path.to_string(), None));
        let op = Operation {
            fs,
            path: path.clone(),
            mode: Mode::Load,
            overlay: Some((path.clone(), source.to_owned())),
            timeout_ms: None,
            ceiling_ms: None,
            raise: None,
            cancel: Default::default(),
            sink,
            run_id,
            graph: Default::default(),
        };
        let kind = ScriptKind::of(path);
        match self.execute(op).await? {
            Done::Loaded(Some(loaded)) if kind == ScriptKind::Entry => {
                let d = dts::declare(path.as_str(), source, &loaded.default_name);
                let nudge = (!d.has_jsdoc).then(|| jsdoc_nudge(source));
                Ok(Validation { kind, dts: Some(d.dts), one_liner: d.one_liner, nudge })
            }
            _ => Ok(Validation { kind, dts: None, one_liner: None, nudge: None }),
        }
    }
}

/// What the write says when the default export has no JSDoc block of its own: where a block the
/// script does have sits and where it must go, or how to write one.
fn jsdoc_nudge(source: &str) -> String {
    let line_of = |start: &str| source.lines().position(|l| l.trim_start().starts_with(start)).map(|i| i + 1);
    match (line_of("/**"), line_of("export default")) {
        (Some(block), Some(export)) if block < export => format!(
            "saved, but the /** … */ block at line {block} is not the one directly above `export default` (line {export}), so `ls /scripts` shows no description and the .d.ts is untyped — which is how you (or the next session) will find and reuse it. Move that block to the line just above `export default`, after the imports."
        ),
        _ => "saved, but with no JSDoc block it has no description in `ls /scripts` and its .d.ts is untyped — which is how you (or the next session) will find and reuse it. Add one above the default export: /** What it does. @param {{ x: string }} args @returns {Promise<...>} */".to_owned(),
    }
}
