//! `rm`, `mv` and `cp`: one path each, never a pattern.

use folio_vfs::{Kind, Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{Reply, is_pattern};
use crate::env::Environment;
use crate::error::{EnvError, Result};

/// Tool description of `rm`.
pub const RM_DOC: &str = "Remove a file, or a directory with everything in it. Takes one path, not a pattern. Each removed file can be brought back with `undo` on its path.";
/// Tool description of `mv`.
pub const MV_DOC: &str =
    "Move or rename a file or directory. Give the full destination path. Undo per file with `undo`.";
/// Tool description of `cp`.
pub const CP_DOC: &str = "Copy a file or directory to a full destination path. Copying out of a read-only area into /tmp is how you work on reference material.";

/// Arguments of `rm`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RmArgs {
    /// The file or directory to remove.
    pub path: String,
}

/// Arguments of `mv` and `cp`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransferArgs {
    /// The source path.
    pub from: String,
    /// The full destination path (not just its directory).
    pub to: String,
}

/// "1 file", "2 files".
fn files(n: usize) -> String {
    if n == 1 { "1 file".to_owned() } else { format!("{n} files") }
}

/// `rm`.
pub fn rm(env: &Environment, args: RmArgs) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    let is_dir = env.tree().stat(&path)?.map(|s| s.kind == Kind::Dir);
    match env.gateway.rm(&path) {
        Ok(_) if is_dir == Some(false) => Ok(Reply::text(format!("removed {path}"))),
        Ok(0) => Ok(Reply::text(format!("removed {path} (an empty directory)"))),
        Ok(n) => Ok(Reply::text(format!("removed {} under {path}", files(n)))),
        Err(EnvError::Vfs(VfsError::NoSuchEntry(_))) if is_pattern(&args.path) => {
            Err(EnvError::Pattern { op: "remove", path: args.path, recipe: "await fs.rm(p);" })
        }
        Err(err) => Err(err),
    }
}

/// `mv` (`is_move`) and `cp`.
pub fn transfer(env: &Environment, args: TransferArgs, is_move: bool) -> Result<Reply> {
    let from = VPath::parse(&args.from)?;
    let to = VPath::parse(&args.to)?;
    let (word, past) = if is_move { ("move", "moved") } else { ("copy", "copied") };
    let source = env.tree().stat(&from)?;
    if source.is_none() {
        if is_move {
            env.gateway.check(&from, "move")?;
        }
        env.gateway.check(&to, if is_move { "move to" } else { "copy to" })?;
        if is_pattern(&args.from) {
            let recipe = if is_move {
                "await fs.mv(p, '/tmp/' + p.split('/').pop());"
            } else {
                "await fs.cp(p, '/tmp/' + p.split('/').pop());"
            };
            return Err(EnvError::Pattern { op: word, path: args.from, recipe });
        }
        return Err(VfsError::NoSuchEntry(from).into());
    }
    if source.map(|s| s.kind) == Some(Kind::File)
        && let Some(s) = env.tree().stat(&to)?
        && s.kind == Kind::Dir
    {
        return Err(EnvError::refused(format!(
            "destination {to} is a directory — give the full target path, like {}",
            to.join(from.name()).map(|p| p.to_string()).unwrap_or_default()
        )));
    }
    let n = env.gateway.transfer(&from, &to, is_move)?;
    if source.map(|s| s.kind) == Some(Kind::File) {
        Ok(Reply::text(format!("{past} {from} -> {to}")))
    } else {
        Ok(Reply::text(format!("{past} {} from {from} to {to}", files(n))))
    }
}
