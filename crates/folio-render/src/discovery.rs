//! Where PDFium and LibreOffice are looked for. Listing the candidates is a pure function of
//! ([`Platform`], environment variables, known directories), so the macOS and Windows lists are
//! tested on Linux; only [`HostPaths::from_host`] and the `exists` checks touch the real machine.
//!
//! PDFium, in order: the explicit option; `FOLIO_PDFIUM_PATH` (a file, or a directory holding the
//! library); next to the executable and in the app bundle's resources (`Contents/Frameworks`,
//! `Contents/Resources` on macOS, `resources\` on Windows, `../lib/folio` and `../lib/Folio` on
//! Linux, the last being where the .deb and .rpm put their resources, `/usr/lib/<productName>`,
//! beside `/usr/bin/folio` and `/usr/bin/folio-desktop`); the state
//! directory's `pdfium/`; and the cache directory `scripts/get-pdfium.sh` fills
//! (`$FOLIO_PDFIUM_CACHE`, else `~/.cache/folio/pdfium`, `%LOCALAPPDATA%\folio\pdfium` on Windows).
//!
//! LibreOffice, in order: the explicit option; `FOLIO_SOFFICE_PATH`; `soffice` (then
//! `libreoffice`) on `PATH`; the platform's usual install locations.
//!
//! Chromium and ffmpeg are not this crate's: folio-motion and folio-media find them (each the one
//! crate that knows its tool), through the same [`HostPaths`] view of the machine.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use folio_kinds::OfficeApp;

/// The operating-system family whose conventions apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux and other Unix-likes using ELF shared objects.
    Linux,
    /// macOS: `.dylib`, app bundles.
    MacOs,
    /// Windows: `.dll`, backslashes, `%PROGRAMFILES%`.
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

    /// PDFium's library file name here.
    pub fn pdfium_file_name(self) -> &'static str {
        match self {
            Platform::Linux => "libpdfium.so",
            Platform::MacOs => "libpdfium.dylib",
            Platform::Windows => "pdfium.dll",
        }
    }

    fn sep(self) -> char {
        if self == Platform::Windows { '\\' } else { '/' }
    }

    fn list_sep(self) -> char {
        if self == Platform::Windows { ';' } else { ':' }
    }

    /// Joins path segments with this platform's separator, whatever platform runs the code.
    pub fn join(self, base: &str, parts: &[&str]) -> PathBuf {
        let mut out = base.trim_end_matches(['/', '\\']).to_string();
        for p in parts {
            out.push(self.sep());
            out.push_str(p);
        }
        PathBuf::from(out)
    }

    /// The command that installs PDFium here.
    pub fn pdfium_fix(self) -> String {
        let cache = match self {
            Platform::Windows => "%LOCALAPPDATA%\\folio\\pdfium",
            _ => "~/.cache/folio/pdfium",
        };
        format!(
            "run `bash scripts/get-pdfium.sh` from the Folio source tree (it puts the pinned {} from the pypdfium2 wheel in {cache}), or set FOLIO_PDFIUM_PATH to a PDFium library",
            self.pdfium_file_name()
        )
    }

    /// The command that installs LibreOffice with `apps` here. On Linux (Debian packages) it
    /// names one package per application; elsewhere the suite comes whole.
    pub fn office_fix(self, apps: &[OfficeApp]) -> String {
        match self {
            Platform::Linux => {
                let packages: Vec<&str> = apps.iter().map(|a| a.debian_package()).collect();
                format!(
                    "sudo apt-get install --no-install-recommends {} (or set FOLIO_SOFFICE_PATH to soffice)",
                    packages.join(" ")
                )
            }
            Platform::MacOs => "brew install --cask libreoffice (or set FOLIO_SOFFICE_PATH to soffice)".into(),
            Platform::Windows => {
                "winget install TheDocumentFoundation.LibreOffice (or set FOLIO_SOFFICE_PATH to soffice.exe)".into()
            }
        }
    }
}

/// The facts discovery works from. [`HostPaths::from_host`] reads them off this machine; tests
/// build them by hand.
#[derive(Debug, Clone)]
pub struct HostPaths {
    /// Whose conventions apply.
    pub platform: Platform,
    /// The environment variables discovery reads (`FOLIO_PDFIUM_PATH`, `FOLIO_PDFIUM_CACHE`,
    /// `FOLIO_SOFFICE_PATH`, `FOLIO_CHROMIUM_PATH`, `FOLIO_FFMPEG_PATH`, `PATH`, `HOME`,
    /// `LOCALAPPDATA`, `PROGRAMFILES`, `PROGRAMFILES(X86)`; for folio-media also
    /// `FOLIO_FFPROBE_PATH`, `FOLIO_ESPEAK_PATH`, `USERPROFILE`, `PROGRAMDATA`).
    pub env: BTreeMap<String, String>,
    /// The directory of the running executable.
    pub exe_dir: Option<PathBuf>,
    /// Folio's state directory (`--state-dir`, `FOLIO_STATE_DIR`, or the app-data directory).
    pub state_dir: Option<PathBuf>,
    /// Whether the platform's usual install locations are candidates too.
    pub system: bool,
}

const ENV_KEYS: &[&str] = &[
    "FOLIO_CHROMIUM_PATH",
    "FOLIO_FFMPEG_PATH",
    // folio-media's tools, found through these paths by folio-host.
    "FOLIO_FFPROBE_PATH",
    "FOLIO_ESPEAK_PATH",
    // folio-ocr's tesseract, found by folio-host.
    "FOLIO_TESSERACT",
    "USERPROFILE",
    "PROGRAMDATA",
    "FOLIO_PDFIUM_PATH",
    "FOLIO_PDFIUM_CACHE",
    "FOLIO_SOFFICE_PATH",
    "FOLIO_STATE_DIR",
    "PATH",
    "HOME",
    "LOCALAPPDATA",
    "PROGRAMFILES",
    "PROGRAMFILES(X86)",
];

impl HostPaths {
    /// This machine: its platform, environment, executable directory and state directory
    /// (`state_dir` if given, else `FOLIO_STATE_DIR`, else the OS app-data directory + `folio`).
    pub fn from_host(state_dir: Option<PathBuf>) -> HostPaths {
        let env: BTreeMap<String, String> =
            ENV_KEYS.iter().filter_map(|k| std::env::var(k).ok().map(|v| ((*k).to_string(), v))).collect();
        let state_dir = state_dir
            .or_else(|| env.get("FOLIO_STATE_DIR").map(PathBuf::from))
            .or_else(|| dirs::data_dir().map(|d| d.join("folio")));
        let exe_dir = std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf));
        HostPaths { platform: Platform::current(), env, exe_dir, state_dir, system: true }
    }

    /// Nothing at all: no environment, no executable or state directory, no system locations.
    /// Only explicit options are found — how tests hide a tool.
    pub fn isolated(platform: Platform) -> HostPaths {
        HostPaths { platform, env: BTreeMap::new(), exe_dir: None, state_dir: None, system: false }
    }

    fn var(&self, key: &str) -> Option<&str> {
        self.env.get(key).map(String::as_str).filter(|v| !v.is_empty())
    }
}

/// One place a tool may be, and why it is on the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The file that would be used.
    pub path: PathBuf,
    /// Where the candidate came from (`option`, `FOLIO_PDFIUM_PATH`, `beside the executable`, …).
    pub source: &'static str,
}

fn push(out: &mut Vec<Candidate>, path: PathBuf, source: &'static str) {
    if !out.iter().any(|c| c.path == path) {
        out.push(Candidate { path, source });
    }
}

/// The directory under `/usr/lib` where the Linux packages put their resources: Tauri's bundler
/// names it after the app's `productName` (src-tauri/tauri.conf.json; a test there checks the two
/// agree).
pub const PACKAGE_RESOURCES: &str = "Folio";

/// The PDFium libraries to try, in order. A candidate naming a directory is completed with the
/// platform's library file name.
pub fn pdfium_candidates(explicit: Option<&Path>, host: &HostPaths) -> Vec<Candidate> {
    let p = host.platform;
    let lib = p.pdfium_file_name();
    let file_or_dir = |raw: &str| -> PathBuf {
        let looks_like_file = raw.ends_with(".so") || raw.ends_with(".dylib") || raw.ends_with(".dll");
        if looks_like_file { PathBuf::from(raw) } else { p.join(raw, &[lib]) }
    };
    let mut out = Vec::new();
    if let Some(e) = explicit {
        push(&mut out, file_or_dir(&e.to_string_lossy()), "option");
    }
    if let Some(v) = host.var("FOLIO_PDFIUM_PATH") {
        push(&mut out, file_or_dir(v), "FOLIO_PDFIUM_PATH");
    }
    if let Some(dir) = &host.exe_dir {
        let d = dir.to_string_lossy();
        push(&mut out, p.join(&d, &[lib]), "beside the executable");
        match p {
            Platform::MacOs => {
                push(&mut out, p.join(&d, &["..", "Frameworks", lib]), "app bundle Contents/Frameworks");
                push(&mut out, p.join(&d, &["..", "Resources", lib]), "app bundle Contents/Resources");
            }
            Platform::Windows => push(&mut out, p.join(&d, &["resources", lib]), "app resources"),
            Platform::Linux => {
                push(&mut out, p.join(&d, &["resources", lib]), "app resources");
                push(&mut out, p.join(&d, &["..", "lib", "folio", lib]), "app lib directory");
                push(&mut out, p.join(&d, &["..", "lib", PACKAGE_RESOURCES, lib]), "package resources");
            }
        }
    }
    if let Some(dir) = &host.state_dir {
        push(&mut out, p.join(&dir.to_string_lossy(), &["pdfium", lib]), "state directory");
    }
    if let Some(v) = host.var("FOLIO_PDFIUM_CACHE") {
        push(&mut out, p.join(v, &[lib]), "FOLIO_PDFIUM_CACHE");
    }
    let cache = match p {
        Platform::Windows => host.var("LOCALAPPDATA").map(|l| p.join(l, &["folio", "pdfium", lib])),
        _ => host.var("HOME").map(|h| p.join(h, &[".cache", "folio", "pdfium", lib])),
    };
    if let Some(c) = cache {
        push(&mut out, c, "install cache");
    }
    out
}

/// The LibreOffice executables to try, in order.
pub fn soffice_candidates(explicit: Option<&Path>, host: &HostPaths) -> Vec<Candidate> {
    let p = host.platform;
    let mut out = Vec::new();
    if let Some(e) = explicit {
        push(&mut out, e.to_path_buf(), "option");
    }
    if let Some(v) = host.var("FOLIO_SOFFICE_PATH") {
        push(&mut out, PathBuf::from(v), "FOLIO_SOFFICE_PATH");
    }
    let names: &[&str] = if p == Platform::Windows { &["soffice.exe"] } else { &["soffice", "libreoffice"] };
    if let Some(path) = host.var("PATH") {
        for name in names {
            for dir in path.split(p.list_sep()).filter(|d| !d.is_empty()) {
                push(&mut out, p.join(dir, &[name]), "PATH");
            }
        }
    }
    if host.system {
        match p {
            Platform::Linux => {
                for c in [
                    "/usr/bin/soffice",
                    "/usr/lib/libreoffice/program/soffice",
                    "/opt/libreoffice/program/soffice",
                    "/snap/bin/libreoffice",
                ] {
                    push(&mut out, PathBuf::from(c), "usual install location");
                }
            }
            Platform::MacOs => push(
                &mut out,
                PathBuf::from("/Applications/LibreOffice.app/Contents/MacOS/soffice"),
                "usual install location",
            ),
            Platform::Windows => {
                for var in ["PROGRAMFILES", "PROGRAMFILES(X86)"] {
                    if let Some(base) = host.var(var) {
                        push(
                            &mut out,
                            p.join(base, &["LibreOffice", "program", "soffice.exe"]),
                            "usual install location",
                        );
                    }
                }
            }
        }
    }
    out
}

/// The first candidate that is an existing file.
pub fn first_existing(candidates: &[Candidate]) -> Option<&Candidate> {
    candidates.iter().find(|c| c.path.is_file())
}

/// `a (option), b (PATH)` — how error messages list what was tried.
pub fn describe_tried(candidates: &[Candidate]) -> String {
    if candidates.is_empty() {
        return "no candidate locations: no option, no environment variable, no system locations".into();
    }
    candidates.iter().map(|c| format!("{} ({})", c.path.display(), c.source)).collect::<Vec<_>>().join(", ")
}
