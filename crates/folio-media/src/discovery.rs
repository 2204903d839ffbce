//! Where ffmpeg and ffprobe are looked for. Listing the candidates is a pure function of
//! ([`Platform`], the environment, the explicit option), so the macOS and Windows lists are tested
//! on Linux; only [`Ffmpeg::discover`] and its `exists` check touch the real machine.
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

/// The two tools this crate runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// The encoder/filter program.
    Ffmpeg,
    /// The prober.
    Ffprobe,
}

impl Tool {
    /// The executable's base name.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Ffmpeg => "ffmpeg",
            Tool::Ffprobe => "ffprobe",
        }
    }

    /// The environment variable that names it.
    pub fn variable(self) -> &'static str {
        match self {
            Tool::Ffmpeg => "FOLIO_FFMPEG_PATH",
            Tool::Ffprobe => "FOLIO_FFPROBE_PATH",
        }
    }
}

/// Where a candidate came from, for the doctor's detail and for errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The caller's explicit option.
    Explicit,
    /// `FOLIO_FFMPEG_PATH` / `FOLIO_FFPROBE_PATH`.
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

/// The install command for ffmpeg (which brings ffprobe) on `platform`.
pub fn install_fix(platform: Platform) -> &'static str {
    match platform {
        Platform::MacOs => "brew install ffmpeg",
        Platform::Windows => "winget install Gyan.FFmpeg",
        Platform::Linux => "sudo apt-get install --no-install-recommends ffmpeg (or run scripts/install.sh)",
    }
}

/// The platform's usual install directories, most specific first.
pub fn usual_dirs(platform: Platform, env: &dyn Fn(&str) -> Option<OsString>) -> Vec<String> {
    let var = |k: &str| env(k).map(|v| v.to_string_lossy().into_owned()).filter(|v| !v.is_empty());
    match platform {
        Platform::MacOs => vec!["/opt/homebrew/bin".into(), "/usr/local/bin".into(), "/opt/local/bin".into()],
        Platform::Linux => vec!["/usr/bin".into(), "/usr/local/bin".into(), "/snap/bin".into()],
        Platform::Windows => {
            let mut dirs = Vec::new();
            if let Some(local) = var("LOCALAPPDATA") {
                dirs.push(format!("{local}\\Microsoft\\WinGet\\Links"));
            }
            let program_files = var("ProgramFiles").unwrap_or_else(|| "C:\\Program Files".into());
            dirs.push(format!("{program_files}\\Gyan\\FFmpeg\\bin"));
            dirs.push(format!("{program_files}\\ffmpeg\\bin"));
            if let Some(user) = var("USERPROFILE") {
                dirs.push(format!("{user}\\scoop\\shims"));
            }
            let data = var("ProgramData").unwrap_or_else(|| "C:\\ProgramData".into());
            dirs.push(format!("{data}\\chocolatey\\bin"));
            dirs.push("C:\\ffmpeg\\bin".into());
            dirs
        }
    }
}

/// Every candidate for `tool`, in order (the explicit option and the variable first; `sibling`
/// is the directory of an ffmpeg already found, for ffprobe).
pub fn candidates(
    platform: Platform,
    env: &dyn Fn(&str) -> Option<OsString>,
    tool: Tool,
    explicit: Option<&Path>,
    sibling: Option<&Path>,
) -> Vec<Candidate> {
    let exe = platform.exe(tool.name());
    let mut out = Vec::new();
    if let Some(p) = explicit {
        out.push(Candidate { path: p.to_path_buf(), source: Source::Explicit });
    }
    if let Some(v) = env(tool.variable()).filter(|v| !v.is_empty()) {
        out.push(Candidate { path: PathBuf::from(v), source: Source::Variable });
    }
    if let Some(dir) = sibling {
        out.push(Candidate { path: platform.join(&dir.to_string_lossy(), &exe), source: Source::Sibling });
    }
    if let Some(path) = env("PATH") {
        for dir in path.to_string_lossy().split(platform.path_sep()).filter(|d| !d.is_empty()) {
            out.push(Candidate { path: platform.join(dir, &exe), source: Source::Path });
        }
    }
    for dir in usual_dirs(platform, env) {
        let path = platform.join(&dir, &exe);
        if !out.iter().any(|c| c.path == path) {
            out.push(Candidate { path, source: Source::Usual });
        }
    }
    out
}

/// The first existing candidate. An explicit option or a variable that names a missing file is
/// an error (the person asked for that file), never skipped.
pub fn find(
    platform: Platform,
    env: &dyn Fn(&str) -> Option<OsString>,
    tool: Tool,
    explicit: Option<&Path>,
    sibling: Option<&Path>,
    exists: &dyn Fn(&Path) -> bool,
) -> Result<Candidate, MediaError> {
    let list = candidates(platform, env, tool, explicit, sibling);
    for c in &list {
        if exists(&c.path) {
            return Ok(c.clone());
        }
        match c.source {
            Source::Explicit => {
                return Err(MediaError::NotFound {
                    tool: tool.name(),
                    searched: format!("the {} option names {}, which does not exist", tool.name(), c.path.display()),
                    fix: format!("point the option at an existing {} executable, or leave it out", tool.name()),
                });
            }
            Source::Variable => {
                return Err(MediaError::NotFound {
                    tool: tool.name(),
                    searched: format!("{} names {}, which does not exist", tool.variable(), c.path.display()),
                    fix: format!("fix or unset {}", tool.variable()),
                });
            }
            _ => {}
        }
    }
    let dirs: Vec<String> = usual_dirs(platform, env);
    Err(MediaError::NotFound {
        tool: tool.name(),
        searched: format!("not on PATH, not in {}", dirs.join(", ")),
        fix: format!("{}, or set {}", install_fix(platform), tool.variable()),
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
        let env = |k: &str| std::env::var_os(k);
        Ffmpeg::discover_with(Platform::current(), &env, explicit, &|p: &Path| p.is_file())
    }

    /// [`Ffmpeg::discover`] with the platform, environment and existence check given.
    pub fn discover_with(
        platform: Platform,
        env: &dyn Fn(&str) -> Option<OsString>,
        explicit: Option<&Path>,
        exists: &dyn Fn(&Path) -> bool,
    ) -> Result<Ffmpeg, MediaError> {
        let ffmpeg = find(platform, env, Tool::Ffmpeg, explicit, None, exists)?.path;
        let dir = ffmpeg.parent().map(Path::to_path_buf);
        let ffprobe = find(platform, env, Tool::Ffprobe, None, dir.as_deref(), exists).ok().map(|c| c.path);
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
            fix: format!("{}, or set FOLIO_FFPROBE_PATH", install_fix(Platform::current())),
        })
    }
}
