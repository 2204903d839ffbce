//! The gateway's side of the script pipeline: the validator hook every mutation producing a
//! `.js` under `/scripts` passes, what a passing check reports ([`ScriptCheck`]), and the derived
//! `.d.ts` sibling the gateway keeps in step with each script.
//!
//! The sibling is never versioned: it is regenerated from the script whenever the script's
//! content changes (write, edit, copy, move, undo, redo, mount) and removed whenever the script
//! goes away, so undo of the script is enough to keep both consistent.

use folio_vfs::{Kind, Tree, VPath};

use crate::error::{EnvError, Result};

/// What a passing script check learned; the gateway writes `dts` to the sibling path and the
/// verbs show `nudge`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptCheck {
    /// The `.d.ts` text for a runnable script (`None` for tests, libraries, or a validator that
    /// does not derive one — any stale sibling is then removed).
    pub dts: Option<String>,
    /// The first line of the JSDoc description (what `ls /scripts` shows).
    pub one_liner: Option<String>,
    /// A soft note for the model (no JSDoc), appended to the write's success text.
    pub nudge: Option<String>,
    /// True for a `*.test.js` file.
    pub test: bool,
}

/// Checks a script before it is stored. The environment wires one backed by the script engine
/// (parse, load, contract check, `.d.ts`); [`AcceptScripts`] lets everything through. Every write
/// of a `.js` file under `/scripts` — verbs, `mount`, `undo`, `cp`/`mv` destinations, scripts'
/// own `env:fs` writes — passes through it.
pub trait ScriptValidator: Send + Sync {
    /// `Ok` to store `source` at `path`; `Err(reason)` to refuse, the reason naming the fix.
    fn validate(&self, path: &VPath, source: &[u8], tree: &dyn Tree) -> std::result::Result<(), String>;

    /// Like [`ScriptValidator::validate`], and also reports what the gateway derives from the
    /// script. The default derives nothing.
    fn check(&self, path: &VPath, source: &[u8], tree: &dyn Tree) -> std::result::Result<ScriptCheck, String> {
        self.validate(path, source, tree).map(|()| ScriptCheck::default())
    }
}

/// The permissive validator: accepts every script and derives nothing.
pub struct AcceptScripts;

impl ScriptValidator for AcceptScripts {
    fn validate(&self, _: &VPath, _: &[u8], _: &dyn Tree) -> std::result::Result<(), String> {
        Ok(())
    }
}

fn scripts_root() -> VPath {
    VPath::parse("/scripts").unwrap_or_else(|_| VPath::root())
}

/// True for a `.js` file under `/scripts`, the paths the validator sees.
pub fn is_script(path: &VPath) -> bool {
    path.is_under(&scripts_root()) && path.extension() == Some("js")
}

/// True for a derived `.d.ts` under `/scripts` (never versioned, never transferred as such).
pub fn is_derived(path: &VPath) -> bool {
    path.is_under(&scripts_root()) && path.name().ends_with(".d.ts")
}

/// What to do with a script's sibling once the script's mutation lands.
pub(crate) struct DtsPlan {
    path: VPath,
    text: Option<String>,
}

impl DtsPlan {
    /// A plan that removes whatever file sits at `path`.
    pub fn removal(path: VPath) -> DtsPlan {
        DtsPlan { path, text: None }
    }

    /// The sibling's path and its new text (`None`: remove whatever file is there).
    pub fn into_parts(self) -> (VPath, Option<String>) {
        (self.path, self.text)
    }

    /// Bytes the plan adds to the tree (for the size check).
    pub fn growth(&self) -> i64 {
        self.text.as_ref().map_or(0, |t| t.len() as i64)
    }
}

/// Plans the sibling of `script` for content that passed `check` (`None`: the script is going
/// away). A directory in the way, or a sibling over the file cap, refuses the whole mutation.
pub(crate) fn plan(tree: &dyn Tree, script: &VPath, check: Option<&ScriptCheck>, cap: u64) -> Result<Option<DtsPlan>> {
    if !is_script(script) {
        return Ok(None);
    }
    let Some(path) = folio_script::dts_path(script) else { return Ok(None) };
    let text = check.and_then(|c| c.dts.clone());
    if text.is_some()
        && let Some(s) = tree.stat(&path)?
        && s.kind == Kind::Dir
    {
        return Err(EnvError::refused(format!(
            "cannot generate {path}: a directory exists at that path — move or remove that directory, then write {script} again"
        )));
    }
    if let Some(t) = &text
        && t.len() as u64 > cap
    {
        return Err(EnvError::FileTooLarge { path, size: t.len() as u64, cap });
    }
    Ok(Some(DtsPlan { path, text }))
}

/// Applies a plan: writes the sibling, or removes a stale one.
pub(crate) fn apply(tree: &dyn Tree, plan: Option<DtsPlan>) -> Result<()> {
    let Some(plan) = plan else { return Ok(()) };
    match plan.text {
        Some(text) => tree.write(&plan.path, text.as_bytes())?,
        None => {
            if tree.stat(&plan.path)?.is_some_and(|s| s.kind == Kind::File) {
                tree.rm(&plan.path)?;
            }
        }
    }
    Ok(())
}
