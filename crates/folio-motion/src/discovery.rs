//! Finding a Chromium-family browser: a pure function of (platform, environment, explicit
//! option), so the macOS and Windows candidate lists are tested on Linux.
//!
//! Order: the explicit option, `FOLIO_CHROMIUM_PATH`, `CHROME_PATH`, a
//! `PLAYWRIGHT_BROWSERS_PATH` scan, then the platform's usual places. On Linux the headless shell
//! comes first among the usual places: it is the one with `HeadlessExperimental.beginFrame`
//! (frames about twice as fast, a launch three to five times faster), and full Chromium paints
//! the same pixels through `Page.captureScreenshot`.

use std::path::{Path, PathBuf};

/// The platforms discovery knows: folio-media's, so the host maps its view of the machine once.
pub use folio_media::Platform;

/// The command that installs a browser Folio can drive on `platform`.
pub fn install_hint(platform: Platform) -> &'static str {
    match platform {
        Platform::Linux => "sudo apt-get install chromium-headless-shell",
        Platform::MacOs => "brew install --cask chromium (or install Google Chrome)",
        Platform::Windows => "winget install Google.Chrome",
    }
}

/// Where a candidate came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The host's explicit option.
    Option,
    /// `FOLIO_CHROMIUM_PATH` or `CHROME_PATH`.
    Env,
    /// A directory under `PLAYWRIGHT_BROWSERS_PATH`.
    Playwright,
    /// A directory on `PATH`.
    Path,
    /// The platform's usual install places.
    System,
}

/// A browser found on this host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The executable.
    pub path: PathBuf,
    /// Where it came from.
    pub source: Source,
    /// The old headless ("headless shell"), which has `HeadlessExperimental.beginFrame`.
    pub headless_shell: bool,
}

/// The sub-paths of a Playwright browser directory, full Chrome first.
pub const PLAYWRIGHT_SUBPATHS: &[&str] = &[
    "chrome-linux/chrome",
    "chrome-linux/headless_shell",
    "chrome-headless-shell-linux64/chrome-headless-shell",
    "chrome-mac/Chromium.app/Contents/MacOS/Chromium",
    "chrome-mac/headless_shell",
    "chrome-win/chrome.exe",
    "chrome-win/headless_shell.exe",
];

/// The executable names looked up on `PATH`, headless shell first.
pub fn path_names(platform: Platform) -> &'static [&'static str] {
    match platform {
        Platform::Linux => &[
            "chromium-headless-shell",
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
            "microsoft-edge",
        ],
        Platform::MacOs => &["chromium", "google-chrome"],
        Platform::Windows => &["chrome.exe", "msedge.exe"],
    }
}

/// The platform's usual places, in order (`env` reads an environment variable).
pub fn system_candidates(platform: Platform, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    match platform {
        Platform::Linux => [
            "/usr/bin/chromium-headless-shell",
            "/usr/lib/chromium/headless_shell",
            "/usr/bin/chromium",
            "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome",
            "/usr/bin/google-chrome-stable",
            "/snap/bin/chromium",
            "/usr/bin/microsoft-edge",
        ]
        .iter()
        .map(PathBuf::from)
        .collect(),
        Platform::MacOs => [
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
            "/Applications/Chromium.app/Contents/MacOS/Chromium",
            "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
            "/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
            "/opt/homebrew/bin/chromium",
        ]
        .iter()
        .map(PathBuf::from)
        .collect(),
        Platform::Windows => {
            let mut out = Vec::new();
            let chrome = r"Google\Chrome\Application\chrome.exe";
            let edge = r"Microsoft\Edge\Application\msedge.exe";
            for var in ["PROGRAMFILES", "PROGRAMFILES(X86)", "LOCALAPPDATA"] {
                if let Some(base) = env(var) {
                    out.push(PathBuf::from(format!(r"{base}\{chrome}")));
                }
            }
            for var in ["PROGRAMFILES", "PROGRAMFILES(X86)"] {
                if let Some(base) = env(var) {
                    out.push(PathBuf::from(format!(r"{base}\{edge}")));
                }
            }
            out
        }
    }
}

/// Every candidate in discovery order, without checking that any exists.
pub fn candidates(
    platform: Platform,
    explicit: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    list_dir: &dyn Fn(&Path) -> Vec<String>,
) -> Vec<(PathBuf, Source)> {
    let mut out = Vec::new();
    if let Some(p) = explicit {
        out.push((p.to_path_buf(), Source::Option));
    }
    for var in ["FOLIO_CHROMIUM_PATH", "CHROME_PATH"] {
        if let Some(v) = env(var).filter(|v| !v.is_empty()) {
            out.push((PathBuf::from(v), Source::Env));
        }
    }
    if let Some(root) = env("PLAYWRIGHT_BROWSERS_PATH").filter(|v| !v.is_empty()) {
        let root = PathBuf::from(root);
        let mut dirs: Vec<String> = list_dir(&root).into_iter().filter(|d| d.starts_with("chromium")).collect();
        // chromium-* (full) before chromium_headless_shell-*, newest first within each.
        dirs.sort_by(|a, b| a.contains("headless").cmp(&b.contains("headless")).then(b.cmp(a)));
        for d in dirs {
            for sub in PLAYWRIGHT_SUBPATHS {
                out.push((root.join(&d).join(sub), Source::Playwright));
            }
        }
    }
    if let Some(path) = env("PATH") {
        let sep = if platform == Platform::Windows { ';' } else { ':' };
        for dir in path.split(sep).filter(|d| !d.is_empty()) {
            for name in path_names(platform) {
                out.push((Path::new(dir).join(name), Source::Path));
            }
        }
    }
    out.extend(system_candidates(platform, env).into_iter().map(|p| (p, Source::System)));
    out
}

/// Why no browser was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotFound {
    /// `FOLIO_CHROMIUM_PATH` (or `CHROME_PATH`) names something that is not an executable:
    /// said, never silently replaced by another browser.
    Explicit {
        /// The variable.
        var: &'static str,
        /// What it names.
        path: PathBuf,
    },
    /// No candidate exists.
    Nowhere {
        /// What was tried, in words.
        tried: String,
    },
}

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotFound::Explicit { var, path } => write!(f, "{var} names {}, which does not exist", path.display()),
            NotFound::Nowhere { tried } => write!(f, "not found; looked at {tried}"),
        }
    }
}

/// The browser for `platform` with environment `env`, or why there is none; the usual install
/// places count only when `system` (a host's tests hide them).
pub fn locate(
    platform: Platform,
    explicit: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    system: bool,
) -> Result<Found, NotFound> {
    for var in ["FOLIO_CHROMIUM_PATH", "CHROME_PATH"] {
        if let Some(v) = env(var).filter(|v| !v.is_empty())
            && explicit.is_none()
            && !executable(Path::new(&v))
        {
            return Err(NotFound::Explicit { var, path: PathBuf::from(v) });
        }
    }
    if let Some(found) = find_in(platform, explicit, env, system) {
        return Ok(found);
    }
    let mut tried = Vec::new();
    if env("PATH").is_some() {
        tried.push(format!("{} on PATH", path_names(platform).join(", ")));
    }
    if system {
        tried.extend(system_candidates(platform, env).iter().map(|p| p.display().to_string()));
    }
    Err(NotFound::Nowhere { tried: if tried.is_empty() { "no candidate locations".into() } else { tried.join("; ") } })
}

/// Whether `path` names the old headless shell.
pub fn is_headless_shell(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.contains("headless-shell") || name.contains("headless_shell")
}

/// The first candidate that is an executable file on this host.
pub fn find(explicit: Option<&Path>) -> Option<Found> {
    let env = |k: &str| std::env::var(k).ok();
    find_in(Platform::current(), explicit, &env, true)
}

/// The first executable candidate for `platform` with environment `env`; the usual install
/// places count only when `system` (a host's tests hide them).
pub fn find_in(
    platform: Platform,
    explicit: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    system: bool,
) -> Option<Found> {
    let list = |p: &Path| -> Vec<String> {
        std::fs::read_dir(p)
            .map(|rd| rd.filter_map(|e| e.ok()).filter_map(|e| e.file_name().into_string().ok()).collect())
            .unwrap_or_default()
    };
    candidates(platform, explicit, env, &list)
        .into_iter()
        .filter(|(_, source)| system || *source != Source::System)
        .find(|(p, _)| executable(p))
        .map(|(path, source)| {
            let headless_shell = is_headless_shell(&path);
            Found { path, source, headless_shell }
        })
}

fn executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else { return false };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}
