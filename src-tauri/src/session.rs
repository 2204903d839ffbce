//! One open folder: the folder as folio-workspace opens it for the app, and everything the
//! commands do with it. Nothing here but the runtime handle knows Tauri, so the logic is tested
//! with plain function calls.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use folio_env::{Environment, OnProgress, ProgressLine, Stream, Zone};
use folio_vfs::{Change, ChangeKind, Kind, Selection, Tree, VPath};
use folio_workspace::{Asking, Folder, FolderOptions, Overrides, Shell, Workspace};

use crate::api::*;

/// The largest text the preview pane shows.
pub const PREVIEW_LIMIT: usize = 256 * 1024;

/// What a budget refusal in the app tells a person to change.
pub const BUDGET_RAISE: &str = "raise Settings → Script run budget (it applies to folders opened after it is saved)";

/// Where a running script's console lines go.
pub type ProgressSink = Box<dyn Fn(ScriptProgressNotification) + Send>;

/// An open folder.
pub struct Session {
    /// The folder as folio-workspace opened it: the environment with the stored vision, budget,
    /// MCP servers and read-only choice applied, the agent's event queue, its turns.
    opened: Arc<Folder>,
    progress: Arc<Mutex<Option<ProgressSink>>>,
}

fn vpath(raw: &str) -> Result<VPath, String> {
    VPath::parse(raw)
        .map_err(|e| format!("`{raw}` is not a path in the folder: {e} — use an absolute path like /out/report.md"))
}

fn kind_name(kind: &ChangeKind) -> (ChangeKindName, Option<String>) {
    match kind {
        ChangeKind::Added => (ChangeKindName::Added, None),
        ChangeKind::Modified => (ChangeKindName::Modified, None),
        ChangeKind::Deleted => (ChangeKindName::Deleted, None),
        ChangeKind::Renamed { from } => (ChangeKindName::Renamed, Some(from.to_string())),
    }
}

fn pending_change(change: &Change) -> PendingChange {
    let (kind, from) = kind_name(&change.kind);
    PendingChange {
        path: change.path.to_string(),
        kind,
        from,
        is_dir: change.is_dir,
        size: change.size,
        base_size: change.base_size,
        conflict: change.conflict.as_ref().map(|c| c.to_string()),
    }
}

/// The tree's badge for a pending change: a conflict first, then its kind.
pub(crate) fn badge(change: &Change) -> Badge {
    if change.conflict.is_some() {
        return Badge::Conflict;
    }
    match change.kind {
        ChangeKind::Added | ChangeKind::Renamed { .. } => Badge::Added,
        ChangeKind::Modified => Badge::Modified,
        ChangeKind::Deleted => Badge::Deleted,
    }
}

/// The tree's mark on the root of an environment zone the tree shows; `None` for everything else.
pub(crate) fn tree_zone(path: &VPath) -> Option<TreeZone> {
    Zone::at(path)
        .filter(|z| z.in_tree())
        .map(|z| TreeZone { holds: z.holds().to_string(), writable: z.agent_writable() })
}

/// Whether a file directly in `/scripts` is one `run_script` runs: a `.js` module that is not a
/// test (`.d.ts` siblings, data and notes are not).
fn is_runnable(name: &str) -> bool {
    name.ends_with(".js") && !name.ends_with(".test.js")
}

fn is_below(path: &str, dir: &str) -> bool {
    dir == "/" || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

impl Session {
    /// Opens `folder` in the workspace under `state_dir` (`None`: the default state directory)
    /// with what it stores for the folder; tests and the corpus suite open sessions so.
    pub fn open(folder: &Path, state_dir: Option<PathBuf>) -> Result<Session, String> {
        let ws = Workspace::open(state_dir, Overrides::default()).map_err(|e| e.to_string())?;
        Session::open_in(&ws, folder, None)
    }

    /// Opens `folder` through `ws` (folio-workspace applies the stored vision model, script run
    /// budget, MCP servers and — unless `read_only` says — the remembered read-only choice), the
    /// agent's questions answered through the transcript, a budget refusal naming Settings →
    /// Script run budget, and script console lines also sent to the catalogue's sink.
    pub fn open_in(ws: &Workspace, folder: &Path, read_only: Option<bool>) -> Result<Session, String> {
        if !folder.is_dir() {
            return Err(format!(
                "{} is not a folder Folio can open — choose an existing folder with Open Folder",
                folder.display()
            ));
        }
        let progress: Arc<Mutex<Option<ProgressSink>>> = Arc::new(Mutex::new(None));
        let sink = progress.clone();
        let on_progress: OnProgress = Arc::new(move |batch: &[ProgressLine]| {
            let guard = sink.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(send) = guard.as_ref() {
                for line in batch {
                    send(ScriptProgressNotification {
                        run_id: line.run_id.clone(),
                        is_error: matches!(line.stream, Stream::Stderr),
                        text: line.text.clone(),
                        job: line.job.as_ref().map(JobProgressNotice::from),
                    });
                }
            }
        });
        let options = FolderOptions {
            on_progress: Some(on_progress),
            asking: Asking::Events,
            budget_raise: Some(BUDGET_RAISE.to_owned()),
            shell: Some(Shell::App),
            read_only,
        };
        let tauri::async_runtime::RuntimeHandle::Tokio(handle) = tauri::async_runtime::handle();
        let opened = ws.open_folder(folder, options, &handle).map_err(|e| e.to_string())?;
        Ok(Session { opened: Arc::new(opened), progress })
    }

    /// The folder as folio-workspace opened it (its turns run through [`Folder::turn`]).
    pub fn opened_folder(&self) -> &Arc<Folder> {
        &self.opened
    }

    /// The working environment (the agent loop shares it).
    pub fn environment(&self) -> &Arc<Environment> {
        self.opened.environment()
    }

    /// env:motion as this folder's host found it (browser, encoder).
    pub fn motion(&self) -> &Arc<folio_motion::modules::MotionHost> {
        self.opened.motion()
    }

    /// The queue between the environment and an agent turn (script lines, hand-offs, questions).
    pub fn agent_events(&self) -> &folio_agent::HostEvents {
        self.opened.events()
    }

    /// True when the folder is open read-only.
    pub fn read_only(&self) -> bool {
        self.opened.read_only()
    }

    /// The folder's absolute path.
    pub fn folder(&self) -> &Path {
        self.opened.root()
    }

    /// What opening the folder found: the workspace's warnings (a vision model without a key,
    /// a server that did not mount, a torn cache) and, apart, what crash recovery did.
    pub fn opened(&self) -> FolderOpenResponse {
        let folder = self.folder();
        let recovery = self.environment().overlay().and_then(|o| o.recovery()).map(|r| r.to_string());
        FolderOpenResponse {
            folder: folder.display().to_string(),
            name: folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "/".into()),
            warnings: self.opened.warnings().iter().filter(|w| Some(*w) != recovery.as_ref()).cloned().collect(),
            recovery,
            read_only: self.read_only(),
        }
    }

    fn changes(&self) -> Result<Vec<Change>, String> {
        match self.environment().overlay() {
            Some(overlay) => overlay.pending().map_err(|e| format!("the pending changes could not be read: {e}")),
            None => Ok(Vec::new()),
        }
    }

    /// Every pending change.
    pub fn status(&self) -> Result<StatusGetResponse, String> {
        let changes: Vec<PendingChange> = self.changes()?.iter().map(pending_change).collect();
        let conflicts = changes.iter().filter(|c| c.conflict.is_some()).count() as u32;
        Ok(StatusGetResponse {
            folder: Some(self.folder().display().to_string()),
            changes,
            conflicts,
            notice: None,
            opened: None,
            read_only: self.read_only(),
        })
    }

    /// One directory of the agent's view, with badges; zones the tree does not show (`/.env`)
    /// are hidden, the others' roots are marked (`zone`), and files the agent deleted stay
    /// listed (badged) until the deletion is committed or discarded.
    pub fn list(&self, dir: &str) -> Result<TreeListResponse, String> {
        let at = vpath(dir)?;
        let dir = at.to_string();
        let entries = self.environment().tree().list(&at).map_err(|e| format!("{dir} could not be listed: {e}"))?;
        let changes = self.changes()?;
        let mut rows: Vec<TreeEntry> = entries
            .into_iter()
            .filter(|e| !(dir == "/" && Zone::ALL.iter().any(|z| z.name() == e.name && !z.in_tree())))
            .map(|e| {
                let path = if dir == "/" { format!("/{}", e.name) } else { format!("{dir}/{}", e.name) };
                let is_dir = e.kind == Kind::Dir;
                let own = changes.iter().find(|c| c.path.as_str() == path).map(badge);
                let below = is_dir && changes.iter().any(|c| is_below(c.path.as_str(), &path));
                let badge = own.or(if below { Some(Badge::Modified) } else { None });
                let zone = VPath::parse(&path).ok().and_then(|p| tree_zone(&p));
                TreeEntry { name: e.name, path, is_dir, size: e.size, badge, zone }
            })
            .collect();
        for change in changes.iter().filter(|c| matches!(c.kind, ChangeKind::Deleted)) {
            let path = change.path.to_string();
            if parent(&path) == dir && !rows.iter().any(|r| r.path == path) {
                let name = path.rsplit('/').next().unwrap_or_default().to_string();
                let size = change.base_size.unwrap_or(0);
                rows.push(TreeEntry {
                    name,
                    path,
                    is_dir: change.is_dir,
                    size,
                    badge: Some(badge(change)),
                    zone: None,
                });
            }
        }
        rows.sort_by(|a, b| b.is_dir.cmp(&a.is_dir).then_with(|| a.name.cmp(&b.name)));
        Ok(TreeListResponse { path: dir, entries: rows })
    }

    /// A file's text for the preview pane.
    pub fn read(&self, raw: &str) -> Result<FileReadResponse, String> {
        let at = vpath(raw)?;
        let bytes = self.environment().tree().read(&at).map_err(|e| format!("{at} could not be read: {e}"))?;
        let name = at.to_string();
        let extension = name.rsplit_once('.').map(|(_, ext)| ext).filter(|ext| !ext.contains('/'));
        let media_type = folio_env::media_type(extension, &bytes);
        let size = bytes.len() as u64;
        let cut = &bytes[..bytes.len().min(PREVIEW_LIMIT)];
        let text = match std::str::from_utf8(cut) {
            Ok(text) => Some(text.to_string()),
            // A cut through a multi-byte character: keep the valid part.
            Err(e) if e.error_len().is_none() => Some(String::from_utf8_lossy(&cut[..e.valid_up_to()]).into_owned()),
            Err(_) => None,
        };
        let text = text.filter(|t| !t.contains('\0'));
        Ok(FileReadResponse {
            path: at.to_string(),
            size,
            media_type,
            truncated: text.is_some() && cut.len() < bytes.len(),
            text,
        })
    }

    /// The script catalogue: `ls /scripts` with each script's one-liner.
    pub fn scripts(&self) -> Result<ScriptsListResponse, String> {
        let dir = vpath("/scripts")?;
        if !self.environment().tree().exists(&dir).map_err(|e| format!("/scripts could not be read: {e}"))? {
            return Ok(ScriptsListResponse { scripts: Vec::new() });
        }
        let entries = self.environment().tree().list(&dir).map_err(|e| format!("/scripts could not be listed: {e}"))?;
        // `ls` carries each script's one-liner; the tree decides what is a script, so a `.d.ts`
        // sibling, a test or a data file never shows as runnable.
        let reply = self.environment().call("ls", serde_json::json!({"path": "/scripts"}));
        let summaries: std::collections::HashMap<String, String> = reply
            .message
            .lines()
            .skip(1)
            .filter_map(|line| {
                let (head, summary) = line.split_once(" — ")?;
                let name = head.split(" (").next().unwrap_or(head).trim();
                Some((name.to_string(), summary.trim().to_string()))
            })
            .collect();
        let scripts = entries
            .into_iter()
            .filter(|e| e.kind == Kind::File && is_runnable(&e.name))
            .map(|e| ScriptInfo {
                path: format!("/scripts/{}", e.name),
                summary: summaries.get(&e.name).cloned().unwrap_or_default(),
                name: e.name,
            })
            .collect();
        Ok(ScriptsListResponse { scripts })
    }

    /// Runs a script, sending its console lines to `progress` while it runs. Blocks until the
    /// script ends; call it off the UI thread.
    pub fn run_script(&self, params: ScriptsRunParams, progress: ProgressSink) -> Result<ScriptsRunResponse, String> {
        let args = params.args.unwrap_or_else(|| serde_json::json!({}));
        if !args.is_object() {
            return Err(format!(
                "a script's arguments must be a JSON object, got {args} — wrap it, like {{\"value\": {args}}}"
            ));
        }
        *self.progress.lock().unwrap_or_else(PoisonError::into_inner) = Some(progress);
        let report = self.environment().run_script(&params.path, args, None, None);
        *self.progress.lock().unwrap_or_else(PoisonError::into_inner) = None;
        let report = report.map_err(|e| format!("{} could not run: {e}", params.path))?;
        let pending = self.changes()?.len() as u32;
        Ok(ScriptsRunResponse {
            path: report.script,
            ok: report.error.is_none(),
            result_text: report.result_text,
            error: report.error,
            duration_ms: report.duration_ms,
            pending,
        })
    }

    fn selection(paths: &[String], what: &str) -> Result<Selection, String> {
        if paths.is_empty() {
            return Err(format!("nothing was selected to {what} — tick the changes to {what} in the review panel"));
        }
        Ok(Selection::Paths(paths.iter().map(|p| vpath(p)).collect::<Result<_, _>>()?))
    }

    /// Writes the selected changes into the folder.
    pub fn commit(&self, params: &CommitApplyParams) -> Result<CommitApplyResponse, String> {
        let overlay = self.environment().overlay().ok_or("this folder has no pending changes to commit")?;
        let selection = Self::selection(&params.paths, "commit")?;
        let overwrite: Vec<VPath> = params.overwrite.iter().map(|p| vpath(p)).collect::<Result<_, _>>()?;
        let report = overlay.commit(&selection, &overwrite).map_err(|e| {
            format!("the commit stopped: {e} — nothing half-written is left; fix the cause and commit again")
        })?;
        Ok(CommitApplyResponse {
            written: report.written.iter().map(|p| p.to_string()).collect(),
            removed: report.removed.iter().map(|p| p.to_string()).collect(),
            skipped: report
                .conflicts
                .iter()
                .map(|(path, conflict)| SkippedChange { path: path.to_string(), reason: conflict.to_string() })
                .collect(),
            pending_left: report.pending_left as u32,
        })
    }

    /// Throws the selected changes away; the folder is not touched.
    pub fn discard(&self, params: &DiscardApplyParams) -> Result<DiscardApplyResponse, String> {
        let overlay = self.environment().overlay().ok_or("this folder has no pending changes to discard")?;
        let selection = Self::selection(&params.paths, "discard")?;
        let dropped = overlay.discard(&selection).map_err(|e| format!("the discard stopped: {e}"))?;
        Ok(DiscardApplyResponse { discarded: dropped.iter().map(|p| p.to_string()).collect() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open() -> (Session, tempfile::TempDir, tempfile::TempDir) {
        let folder = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("notes.txt"), "buy milk\n").unwrap();
        std::fs::write(folder.path().join("logo.bin"), [0u8, 159, 146, 150, 0, 1]).unwrap();
        let session = Session::open(folder.path(), Some(state.path().to_path_buf())).unwrap();
        (session, folder, state)
    }

    #[test]
    fn paths_below_and_parents() {
        assert!(is_below("/out/a.md", "/out"));
        assert!(is_below("/out/a.md", "/"));
        assert!(!is_below("/outside.md", "/out"));
        assert!(!is_below("/out", "/out"));
        assert_eq!(parent("/a.md"), "/");
        assert_eq!(parent("/out/a.md"), "/out");
    }

    #[test]
    fn a_deleted_file_stays_listed_with_its_badge_until_committed() {
        let (session, folder, _state) = open();
        let reply = session.environment().call("rm", serde_json::json!({"path": "/notes.txt"}));
        assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
        let tree = session.list("/").unwrap();
        let row = tree.entries.iter().find(|e| e.name == "notes.txt").unwrap();
        assert_eq!(row.badge, Some(Badge::Deleted));
        assert!(folder.path().join("notes.txt").exists(), "nothing reaches the folder before a commit");
        let status = session.status().unwrap();
        assert_eq!(status.changes[0].kind, ChangeKindName::Deleted);
        assert_eq!(status.changes[0].base_size, Some(9));
        session.commit(&CommitApplyParams { paths: vec!["/notes.txt".into()], overwrite: vec![] }).unwrap();
        assert!(!folder.path().join("notes.txt").exists());
        assert!(session.list("/").unwrap().entries.iter().all(|e| e.name != "notes.txt"));
    }

    #[test]
    fn binary_files_have_no_text_preview_and_bad_paths_say_how_to_write_them() {
        let (session, _folder, _state) = open();
        let file = session.read("/logo.bin").unwrap();
        assert_eq!((file.text, file.size), (None, 6));
        let err = session.read("notes.txt").unwrap_err();
        assert!(err.contains("use an absolute path"), "{err}");
        let err = session.read("/missing.txt").unwrap_err();
        assert!(err.contains("/missing.txt"), "{err}");
    }

    #[test]
    fn the_catalogue_lists_runnable_scripts_only_with_their_one_liners() {
        let (session, _folder, _state) = open();
        assert!(session.scripts().unwrap().scripts.is_empty(), "no /scripts yet: an empty catalogue");
        let write = |path: &str, content: &str| {
            let reply = session.environment().call("write_file", serde_json::json!({"path": path, "content": content}));
            assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
        };
        write("/scripts/tally.js", "/** Sums a column. */\nexport default async function () { return 1; }\n");
        write("/scripts/tally.test.js", "export default async function () {}\n");
        write("/scripts/README.md", "notes\n");
        assert!(session.environment().tree().exists(&vpath("/scripts/tally.d.ts").unwrap()).unwrap());
        let scripts = session.scripts().unwrap().scripts;
        let listed: Vec<(&str, &str)> = scripts.iter().map(|s| (s.path.as_str(), s.summary.as_str())).collect();
        assert_eq!(listed, [("/scripts/tally.js", "Sums a column.")]);
    }

    #[test]
    fn script_arguments_must_be_an_object() {
        let (session, _folder, _state) = open();
        let params = ScriptsRunParams { path: "/scripts/x.js".into(), args: Some(serde_json::json!(3)) };
        let err = session.run_script(params, Box::new(|_| {})).unwrap_err();
        assert!(err.contains("must be a JSON object"), "{err}");
    }
}
