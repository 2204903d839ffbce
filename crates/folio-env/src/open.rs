//! Building an [`Environment`]: the zones mounted over the folder, the script engine, the
//! gateway, then the startup steps that read the finished environment — `/std` and `/skills`
//! generated (`docs`), the module compatibility check (`compat`), shadowed folder entries and a
//! lost undo index reported as warnings.

use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use folio_script::{Engine, ModuleRegistry, ScriptLimits};
use folio_vfs::{MemTree, Overlay, OverlayOptions, Tree, VPath};

use crate::env::{EnvOptions, Environment};
use crate::error::{EnvError, Result};
use crate::gateway::{AcceptScripts, Gateway, ScriptValidator};
use crate::host_dir_tree::HostDirTree;
use crate::mounts::MountTree;
use crate::repeat::RepeatTracker;
use crate::runs::Scripts;
use crate::scripts::EngineValidator;
use crate::zone::Zone;

impl Environment {
    /// Builds an environment over `folder`. `/tmp` and `/.env` are kept under `state_dir` (so
    /// they persist across processes) or in memory when it is `None`; `/std` and `/skills` are
    /// regenerated in memory every time.
    pub fn new(folder: Arc<dyn Tree>, state_dir: Option<&Path>, opts: EnvOptions) -> Result<Environment> {
        let mut read_only = Vec::new();
        for raw in &opts.read_only_paths {
            if !raw.starts_with('/') {
                return Err(EnvError::Config(format!(
                    "read_only_paths entries must be absolute VFS paths, got \"{raw}\" — write it from the folder's root, like /{raw}"
                )));
            }
            let path = VPath::parse(raw)?;
            if path.is_root() {
                return Err(EnvError::Config(
                    "read_only_paths cannot contain \"/\" — that would leave the agent nowhere to work; open the whole folder read-only instead (EnvOptions::read_only_folder; `--read-only-folder` on folio run, verbs and ask)".to_owned(),
                ));
            }
            if !read_only.contains(&path) {
                read_only.push(path);
            }
        }
        let persistent = |name: &str, durable: bool| -> Result<Arc<dyn Tree>> {
            Ok(match state_dir {
                Some(dir) => Arc::new(HostDirTree::open(&dir.join(name))?.durable(durable)),
                None => Arc::new(MemTree::new()),
            })
        };
        let mut zones: Vec<(VPath, Arc<dyn Tree>)> = Vec::new();
        for zone in Zone::ALL {
            let tree = match zone.row().state_subdir {
                Some(sub) => persistent(sub, zone.row().durable)?,
                None => Arc::new(MemTree::new()),
            };
            zones.push((zone.root()?, tree));
        }
        let tree = Arc::new(MountTree::new(folder, zones));
        let scripts = (!opts.no_scripts).then(|| {
            let engine = opts.engine.clone().unwrap_or_else(|| {
                let limits = ScriptLimits {
                    run_timeout_ms: opts.limits.run_timeout_ms,
                    memory_mb: opts.limits.script_memory_mb,
                    ..ScriptLimits::default()
                };
                Arc::new(Engine::new(ModuleRegistry::with_builtins(), limits))
            });
            Scripts::new(engine)
        });
        let validator = match (&opts.validator, &scripts) {
            (Some(v), _) => v.clone(),
            (None, Some(s)) => Arc::new(EngineValidator::new(s.engine.clone())) as Arc<dyn ScriptValidator>,
            (None, None) => Arc::new(AcceptScripts),
        };
        let mut gateway = Gateway::new(tree, opts.limits.clone(), read_only, validator);
        gateway.set_folder_read_only(opts.read_only_folder);
        let gateway = Arc::new(gateway);
        let mut env = Environment {
            gateway,
            scripts,
            opts,
            overlay: None,
            repeat: Mutex::new(RepeatTracker::default()),
            presented: Mutex::new(Vec::new()),
            ids: AtomicU64::new(0),
            warnings: Vec::new(),
            provenance: crate::provenance::store::ProvenanceStore::memory(),
        };
        crate::docs::materialize(&env)?;
        let compat = crate::compat::check(&env)?;
        env.warnings.extend(compat);
        for (path, kind) in env.gateway.tree().shadowed() {
            let what = if kind == folio_vfs::Kind::Dir { "directory" } else { "file" };
            env.warnings.push(format!(
                "the folder has its own {what} `{path}`; the environment's {path} zone is mounted over it, so the agent cannot see or change it here (it stays untouched on disk) — rename it in the folder to make it visible"
            ));
        }
        if let Some(lost) = env.gateway.with_versions(|v, t| {
            v.ring(t, &VPath::root());
            v.lost.clone()
        }) {
            env.warnings.push(lost);
        }
        Ok(env)
    }

    /// Opens a real folder through a persisted [`Overlay`] (state under `opts.state_root`), with
    /// the zones in that folder's state directory. Pending edits, `/tmp`, undo history and
    /// checkpoints persist between processes. For a folder, `limits.max_vfs_bytes` is headroom:
    /// the cap becomes what the whole tree (zones included) held at open plus that many bytes.
    /// That count is the one full listing of the tree; later mutations adjust it by their deltas.
    pub fn open_folder(folder: &Path, opts: EnvOptions) -> Result<Environment> {
        let overlay = Arc::new(Overlay::open(
            folder,
            OverlayOptions { state_root: opts.state_root.clone(), ..Default::default() },
        )?);
        let state = overlay.state_dir().join("env");
        let headroom = opts.limits.max_vfs_bytes;
        let mut env = Environment::new(overlay.clone(), Some(&state), opts)?;
        let base = env.tree().total_size()?;
        let Some(gateway) = Arc::get_mut(&mut env.gateway) else {
            return Err(EnvError::Config(
                "the gateway was shared before the folder's size cap was set — this is a Folio bug; report it"
                    .to_owned(),
            ));
        };
        gateway.set_tree_cap(headroom.saturating_add(base));
        env.provenance = crate::provenance::store::ProvenanceStore::open(&overlay.state_dir().join("provenance"))?;
        env.overlay = Some(overlay);
        Ok(env)
    }
}
