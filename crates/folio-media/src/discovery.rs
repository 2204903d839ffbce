//! Where ffmpeg and ffprobe are looked for. Listing the candidates is a pure function of
//! ([`Platform`], the environment, the explicit option), so the macOS and Windows lists are tested
//! on Linux; only [`Ffmpeg::discover`] and its `exists` check touch the real machine.
//!
//! The same rules serve every tool of [`Tool`] (ffmpeg, ffprobe, espeak-ng).
//!
//! ffmpeg, in order: the explicit option (it must exist: naming a missing file is an error, not a
//! reason to look elsewhere); `FOLIO_FFMPEG_PATH` (the same rule); `ffmpeg` on `PATH`; the
//! platform's usual places (macOS `/opt/homebrew/bin`, `/usr/local/bin`; Windows winget's
//! `Links` directory, Gyan's and Program Files' `ffmpeg\bin`, Chocolatey and Scoop shims; Linux
//! `/usr/bin`, `/usr/local/bin`). ffprobe: `FOLIO_FFPROBE_PATH`, then next to the ffmpeg found,
//! then the same list with `ffprobe`. A missing ffprobe is not fatal for encoding, only for
//! probing.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::MediaError;

/// The operating-system family whose conventions apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux and other Unix-likes.
    Linux,
    /// macOS (Homebrew).
    MacOs,
    /// Windows (winget, Program Files).
    Windows,
}

impl Platform {
    /// The platform this binary runs on.
    pub fn current() -> Platform {
        if cfg!(target_os = "macos") {
            Platform::MacOs
        } else if cfg!(windows) {
            Platform::Windows
        } else {
            Platform::Linux
        }
    }

    fn exe(self, name: &str) -> String {
        if self == Platform::Windows { format!("{name}.exe") } else { name.to_string() }
    }

    fn join(self, dir: &str, file: &str) -> PathBuf {
        let sep = if self == Platform::Windows { '\\' } else { '/' };
        PathBuf::from(format!("{}{sep}{file}", dir.trim_end_matches(['/', '\\'])))
    }

    fn path_sep(self) -> char {
        if self == Platform::Windows { ';' } else { ':' }
    }
}

/// The tools this crate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// The encoder/filter program.
    Ffmpeg,
    /// The prober.
    Ffprobe,
    /// The speech engine behind `speak`.
    Espeak,
}

impl Tool {
    /// Every tool, in the doctor's order.
    pub const ALL: [Tool; 3] = [Tool::Ffmpeg, Tool::Ffprobe, Tool::Espeak];

    /// The executable's base name, which is also its doctor row's name.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Ffmpeg => "ffmpeg",
            Tool::Ffprobe => "ffprobe",
            Tool::Espeak => "espeak-ng",
        }
    }

    /// The environment variable that names it.
    pub fn variable(self) -> &'static str {
        match self {
            Tool::Ffmpeg => "FOLIO_FFMPEG_PATH",
            Tool::Ffprobe => "FOLIO_FFPROBE_PATH",
            Tool::Espeak => "FOLIO_ESPEAK_PATH",
        }
    }

    /// The argument that prints its version on the first line.
    pub fn version_arg(self) -> &'static str {
        match self {
            Tool::Ffmpeg | Tool::Ffprobe => "-version",
            Tool::Espeak => "--version",
        }
    }

    /// The bare command that installs it on `platform` (ffprobe comes with ffmpeg).
    pub fn install_command(self, platform: Platform) -> &'static str {
        match (self, platform) {
            (Tool::Ffmpeg | Tool::Ffprobe, Platform::Linux) => "sudo apt-get install ffmpeg",
            (Tool::Ffmpeg | Tool::Ffprobe, Platform::MacOs) => "brew install ffmpeg",
            (Tool::Ffmpeg | Tool::Ffprobe, Platform::Windows) => "winget install Gyan.FFmpeg",
            (Tool::Espeak, Platform::Linux) => "sudo apt-get install --no-install-recommends espeak-ng",
            (Tool::Espeak, Platform::MacOs) => "brew install espeak-ng",
            (Tool::Espeak, Platform::Windows) => "winget install eSpeak-NG.eSpeak-NG",
        }
    }

    /// The fix when it is nowhere: the install, then the variable.
    pub fn fix(self, platform: Platform) -> String {
        format!("{} (or set {} to the executable)", self.install_command(platform), self.variable())
    }

    /// The fix when its variable names a missing file.
    pub fn fix_variable(self, platform: Platform) -> String {
        format!(
            "point {} at the {} executable, or unset it to search PATH; to install it: {}",
            self.variable(),
            self.name(),
            self.install_command(platform)
        )
    }
}

/// Where a candidate came from, for the doctor's detail and for errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The caller's explicit option.
    Explicit,
    /// `FOLIO_FFMPEG_PATH` / `FOLIO_FFPROBE_PATH` / `FOLIO_ESPEAK_PATH`.
    Variable,
    /// Next to the ffmpeg that was found.
    Sibling,
    /// A `PATH` entry.
    Path,
    /// The platform's usual install location.
    Usual,
}

/// One place to look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The file.
    pub path: PathBuf,
    /// Why it is on the list.
    pub source: Source,
}

/// What discovery looks at: everything it reads from the machine, so tests give their own.
pub struct Search<'a> {
    /// Whose conventions apply.
    pub platform: Platform,
    /// The environment variables.
    pub env: &'a dyn Fn(&str) -> Option<OsString>,
    /// Whether the platform's usual install locations are candidates.
    pub system: bool,
    /// Whether a file exists.
    pub exists: &'a dyn Fn(&Path) -> bool,
}

fn host_env(k: &str) -> Option<OsString> {
    std::env::var_os(k)
}

fn host_exists(p: &Path) -> bool {
    p.is_file()
}

impl Search<'static> {
    /// This machine.
    pub fn host() -> Search<'static> {
        Search { platform: Platform::current(), env: &host_env, system: true, exists: &host_exists }
    }
}

impl Search<'_> {
    fn var(&self, k: &str) -> Option<String> {
        (self.env)(k).map(|v| v.to_string_lossy().into_owned()).filter(|v| !v.is_empty())
    }
}

/// The install command for ffmpeg (which brings ffprobe) on `platform`.
pub fn install_fix(platform: Platform) -> &'static str {
    Tool::Ffmpeg.install_command(platform)
}

/// The platform's usual install directories for `tool`, most specific first.
pub fn usual_dirs(search: &Search<'_>, tool: Tool) -> Vec<String> {
    match search.platform {
        Platform::MacOs => vec!["/opt/homebrew/bin".into(), "/usr/local/bin".into(), "/opt/local/bin".into()],
        Platform::Linux => vec!["/usr/bin".into(), "/usr/local/bin".into(), "/snap/bin".into()],
        Platform::Windows => {
            let mut dirs = Vec::new();
            let program_files = search.var("PROGRAMFILES").unwrap_or_else(|| "C:\\Program Files".into());
            if tool == Tool::Espeak {
                dirs.push(format!("{program_files}\\eSpeak NG"));
                return dirs;
            }
            if let Some(local) = search.var("LOCALAPPDATA") {
                dirs.push(format!("{local}\\Microsoft\\WinGet\\Links"));
            }
            dirs.push(format!("{program_files}\\Gyan\\FFmpeg\\bin"));
            dirs.push(format!("{program_files}\\ffmpeg\\bin"));
            if let Some(user) = search.var("USERPROFILE") {
                dirs.push(format!("{user}\\scoop\\shims"));
            }
            let data = search.var("PROGRAMDATA").unwrap_or_else(|| "C:\\ProgramData".into());
            dirs.push(format!("{data}\\chocolatey\\bin"));
            dirs.push("C:\\ffmpeg\\bin".into());
            dirs
        }
    }
}

/// Every candidate for `tool`, in order (the explicit option and the variable first; `sibling`
/// is the directory of an ffmpeg already found, for ffprobe).
pub fn candidates(search: &Search<'_>, tool: Tool, explicit: Option<&Path>, sibling: Option<&Path>) -> Vec<Candidate> {
    let platform = search.platform;
    let exe = platform.exe(tool.name());
    let mut out: Vec<Candidate> = Vec::new();
    let mut push = |path: PathBuf, source: Source| {
        if !out.iter().any(|c| c.path == path) {
            out.push(Candidate { path, source });
        }
    };
    if let Some(p) = explicit {
        push(p.to_path_buf(), Source::Explicit);
    }
    if let Some(v) = search.var(tool.variable()) {
        push(PathBuf::from(v), Source::Variable);
    }
    if let Some(dir) = sibling {
        push(platform.join(&dir.to_string_lossy(), &exe), Source::Sibling);
    }
    if let Some(path) = search.var("PATH") {
        for dir in path.split(platform.path_sep()).filter(|d| !d.is_empty()) {
            push(platform.join(dir, &exe), Source::Path);
        }
    }
    if search.system {
        for dir in usual_dirs(search, tool) {
            push(platform.join(&dir, &exe), Source::Usual);
        }
    }
    out
}

/// The first existing candidate. An explicit option or a variable that names a missing file is
/// an error (the person asked for that file), never skipped.
pub fn find(
    search: &Search<'_>,
    tool: Tool,
    explicit: Option<&Path>,
    sibling: Option<&Path>,
) -> Result<Candidate, MediaError> {
    let list = candidates(search, tool, explicit, sibling);
    for c in &list {
        if (search.exists)(&c.path) {
            return Ok(c.clone());
        }
        match c.source {
            Source::Explicit => {
                return Err(MediaError::NotFound {
                    tool: tool.name(),
                    searched: format!("the option names {}, which does not exist", c.path.display()),
                    fix: format!("point the option at an existing {} executable, or leave it out", tool.name()),
                });
            }
            Source::Variable => {
                return Err(MediaError::NotFound {
                    tool: tool.name(),
                    searched: format!("{} names {}, which does not exist", tool.variable(), c.path.display()),
                    fix: tool.fix_variable(search.platform),
                });
            }
            _ => {}
        }
    }
    let mut looked = vec![format!("{} on PATH", search.platform.exe(tool.name()))];
    if search.system {
        looked.extend(usual_dirs(search, tool));
    }
    Err(MediaError::NotFound {
        tool: tool.name(),
        searched: format!("not found; looked at {}", looked.join(", ")),
        fix: tool.fix(search.platform),
    })
}

/// ffmpeg (and ffprobe when found) on this host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ffmpeg {
    ffmpeg: PathBuf,
    ffprobe: Option<PathBuf>,
}

impl Ffmpeg {
    /// Looks for ffmpeg (and ffprobe) on this machine; `explicit` is the caller's ffmpeg option.
    pub fn discover(explicit: Option<&Path>) -> Result<Ffmpeg, MediaError> {
        Ffmpeg::discover_with(&Search::host(), explicit)
    }

    /// [`Ffmpeg::discover`] looking at what `search` gives.
    pub fn discover_with(search: &Search<'_>, explicit: Option<&Path>) -> Result<Ffmpeg, MediaError> {
        let ffmpeg = find(search, Tool::Ffmpeg, explicit, None)?.path;
        let dir = ffmpeg.parent().map(Path::to_path_buf);
        let ffprobe = find(search, Tool::Ffprobe, None, dir.as_deref()).ok().map(|c| c.path);
        Ok(Ffmpeg { ffmpeg, ffprobe })
    }

    /// Both tools at known paths.
    pub fn from_paths(ffmpeg: PathBuf, ffprobe: Option<PathBuf>) -> Ffmpeg {
        Ffmpeg { ffmpeg, ffprobe }
    }

    /// The ffmpeg executable.
    pub fn path(&self) -> &Path {
        &self.ffmpeg
    }

    /// The ffprobe executable, when one was found.
    pub fn ffprobe(&self) -> Option<&Path> {
        self.ffprobe.as_deref()
    }

    /// ffprobe, or the error naming its install.
    pub fn require_ffprobe(&self) -> Result<&Path, MediaError> {
        self.ffprobe.as_deref().ok_or_else(|| MediaError::NotFound {
            tool: "ffprobe",
            searched: format!("not next to {}, not on PATH", self.ffmpeg.display()),
            fix: Tool::Ffprobe.fix(Platform::current()),
        })
    }
}

#[cfg(test)]
#[path = "discovery_tests.rs"]
mod tests;
