//! `checkpoint`: fork, restore, list and drop named copies of the tree (see [`crate::checkpoint`]).

use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::checkpoint;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::fmt_bytes;

/// Tool description of `checkpoint`.
pub const CHECKPOINT_DOC: &str = "Save the whole tree under a name before a risky change (`fork`), put it back exactly (`restore`), `list` or `drop` saved ones. The run log is never rolled back.";

/// Arguments of `checkpoint`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckpointArgs {
    /// fork, restore, list (default) or drop.
    pub action: Option<String>,
    /// The checkpoint's name (letters, digits, - and _); not needed for list.
    pub name: Option<String>,
}

/// `checkpoint`.
pub fn checkpoint(env: &Environment, args: CheckpointArgs) -> Result<Reply> {
    let action = args.action.as_deref().unwrap_or("list");
    if !matches!(action, "fork" | "restore" | "list" | "drop") {
        return Err(EnvError::refused(format!(
            "unknown checkpoint action \"{action}\" — use fork, restore, list or drop"
        )));
    }
    if action == "list" {
        let lines = checkpoint::list(env);
        if lines.is_empty() {
            return Ok(Reply::text(
                "no checkpoints yet — checkpoint({action:'fork', name:'before-refactor'}) saves the tree as it is now",
            ));
        }
        return Ok(Reply::text(lines.join("\n")));
    }
    let Some(name) = args.name else {
        return Err(EnvError::args(
            "checkpoint",
            format!(
                "checkpoint {action} needs {{ name }} — for example checkpoint({{action:'{action}', name:'before-refactor'}})"
            ),
        ));
    };
    Ok(Reply::text(match action {
        "fork" => {
            let (files, bytes) = checkpoint::fork(env, &name)?;
            format!(
                "saved checkpoint \"{name}\": {files} file(s), {}. checkpoint({{action:'restore', name:'{name}'}}) puts the tree back exactly as it is now.",
                fmt_bytes(bytes)
            )
        }
        "restore" => {
            let r = checkpoint::restore(env, &name)?;
            let cleared = if r.forgotten > 0 {
                format!("Per-file undo history was cleared for the {} file(s) this changed. ", r.forgotten)
            } else {
                String::new()
            };
            format!(
                "restored \"{name}\": {} file(s) put back, {} created since then removed. {cleared}Run history is unchanged — it records what actually ran.",
                r.put_back, r.removed
            )
        }
        _ => {
            checkpoint::drop(env, &name)?;
            format!("dropped checkpoint \"{name}\"")
        }
    }))
}
