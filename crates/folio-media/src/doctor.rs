//! The doctor's rows for this crate's tools: `ffmpeg`, `ffprobe` and `espeak-ng` (the speech
//! engine behind `speak`), each `{name, ok, required, detail, fix}` with the platform's install
//! line — the rows `folio doctor` prints, the desktop shows and `env:media` writes into its
//! "On this host" section. None is required: a missing tool refuses only the calls that need it.
//!
//! A found tool's version comes through `version` (folio-host answers it from its cache keyed
//! by the executable's path, size and modification time), so a start does not run the tools.

use std::path::Path;

use serde::Serialize;

use crate::discovery::{Search, Tool, find};
use crate::error::MediaError;

/// One row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The tool (`ffmpeg`, `ffprobe`, `espeak-ng`).
    pub name: String,
    /// True when it is there and runs.
    pub ok: bool,
    /// Always false: media tools are optional.
    pub required: bool,
    /// The path and version, or what is wrong.
    pub detail: String,
    /// What fixes it (empty when ok).
    pub fix: String,
}

/// What each tool gives `env:media`, for the detail of a found one.
fn gives(tool: Tool) -> &'static str {
    match tool {
        Tool::Ffmpeg => "env:media can cut, join, convert and mix audio and video",
        Tool::Ffprobe => "env:media can describe media",
        Tool::Espeak => "env:media.speak can turn text into speech",
    }
}

/// What is lost without it.
fn lost(tool: Tool) -> &'static str {
    match tool {
        Tool::Ffmpeg => "optional: without it every env:media call except describe is refused",
        Tool::Ffprobe => "optional: without it env:media cannot read media at all",
        Tool::Espeak => "optional: without it env:media.speak is refused",
    }
}

/// The rows, in order, looking where `search` says; `version(program, arg)` gives a found
/// tool's first version line.
pub fn rows(search: &Search<'_>, version: &(dyn Fn(&Path, &str) -> Result<String, String> + Sync)) -> Vec<Row> {
    let ffmpeg = find(search, Tool::Ffmpeg, None, None).ok().map(|c| c.path);
    Tool::ALL
        .into_iter()
        .map(|tool| {
            let sibling = if tool == Tool::Ffprobe { ffmpeg.as_deref().and_then(Path::parent) } else { None };
            row(tool, find(search, tool, None, sibling).map(|c| c.path), search, version)
        })
        .collect()
}

fn row(
    tool: Tool,
    found: Result<std::path::PathBuf, MediaError>,
    search: &Search<'_>,
    version: &(dyn Fn(&Path, &str) -> Result<String, String> + Sync),
) -> Row {
    let name = tool.name().to_string();
    match found {
        Ok(path) => match version(&path, tool.version_arg()).map(|v| short(&v)) {
            Ok(v) => Row {
                name,
                ok: true,
                required: false,
                detail: format!("{} ({v}) — {}", path.display(), gives(tool)),
                fix: String::new(),
            },
            Err(why) => Row {
                name,
                ok: false,
                required: false,
                detail: format!("{} is there but does not run: {why}", path.display()),
                fix: tool.fix(search.platform),
            },
        },
        Err(MediaError::NotFound { searched, fix, .. }) => {
            // A variable naming nothing is said as it is (the fix is to re-point or unset it).
            let named = (search.env)(tool.variable()).is_some_and(|v| !v.is_empty());
            let detail = if named { searched } else { format!("{searched} ({})", lost(tool)) };
            Row { name, ok: false, required: false, detail, fix }
        }
        Err(other) => {
            Row { name, ok: false, required: false, detail: other.to_string(), fix: tool.fix(search.platform) }
        }
    }
}

/// A version line without what follows it (espeak-ng adds `  Data at: <dir>`).
fn short(line: &str) -> String {
    line.split("  Data at:").next().unwrap_or(line).trim().to_string()
}
