//! What env:motion can do on this host, computed once per start: the rows `folio doctor` prints
//! (the browser, the headless shell, the bundled React and Reanimated; ffmpeg's rows are
//! folio-media's), the facts
//! `capabilities()` returns, and the "On this host" section of `/std/motion/README.md`. No host
//! path reaches the agent-visible docs.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::discovery::{Found, NotFound, Platform};
use crate::scripts::asset;

/// One doctor row (the same shape every doctor row has).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Row {
    /// `chromium`, `headless-shell`, `react`, `reanimated`.
    pub name: &'static str,
    /// Works here.
    pub ok: bool,
    /// Folio is not ready without it (never, for motion: a missing browser refuses env:motion only).
    pub required: bool,
    /// What was found, or what is wrong.
    pub detail: String,
    /// The command that fixes it (empty when ok).
    pub fix: String,
}

/// The versions of the vendored libraries (`vendor/VERSIONS`: `name version` lines).
pub fn vendored(name: &str) -> Option<String> {
    let text = String::from_utf8_lossy(asset("VERSIONS")?).into_owned();
    text.lines().find_map(|l| {
        let mut parts = l.split_whitespace();
        (parts.next() == Some(name)).then(|| parts.next().unwrap_or("").to_string())
    })
}

/// The rows for a host whose browser search gave `browser` (ffmpeg has its own rows,
/// folio-media's).
pub fn rows(browser: &Result<Found, NotFound>, platform: Platform) -> Vec<Row> {
    let mut out = Vec::new();
    match browser {
        Ok(b) => out.push(Row {
            name: "chromium",
            ok: true,
            required: false,
            detail: format!("{} — env:motion renders with it", b.path.display()),
            fix: String::new(),
        }),
        Err(e @ NotFound::Explicit { var, .. }) => out.push(Row {
            name: "chromium",
            ok: false,
            required: false,
            detail: e.to_string(),
            fix: format!(
                "point {var} at the chromium executable, or unset it to search PATH; to install it: {}",
                crate::discovery::install_hint(platform)
            ),
        }),
        Err(e @ NotFound::Nowhere { .. }) => out.push(Row {
            name: "chromium",
            ok: false,
            required: false,
            detail: format!("{e} — env:motion cannot render"),
            fix: format!("{} (or set FOLIO_CHROMIUM_PATH to the executable)", crate::discovery::install_hint(platform)),
        }),
    }
    let shell = browser.as_ref().is_ok_and(|b| b.headless_shell);
    out.push(Row {
        name: "headless-shell",
        ok: shell,
        required: false,
        detail: if shell {
            "frames are captured with HeadlessExperimental.beginFrame (fast, deterministic)".into()
        } else if browser.is_err() {
            "not found (and no other Chromium-family browser either)".into()
        } else {
            "not found — frames use Page.captureScreenshot (the same pixels, about half as fast)".into()
        },
        fix: if shell || platform != Platform::Linux {
            String::new()
        } else {
            "sudo apt-get install chromium-headless-shell".into()
        },
    });
    let react = vendored("react");
    out.push(Row {
        name: "react",
        ok: react.is_some(),
        required: false,
        detail: match &react {
            Some(v) => format!("React {v} bundled with Folio — no install needed"),
            None => "the bundled React is missing from this build".into(),
        },
        fix: if react.is_some() { String::new() } else { "rebuild Folio after running scripts/vendor-js.sh".into() },
    });
    let reanimated = vendored("react-native-reanimated");
    let worklets = asset("worklets.html").is_some() && asset("@babel/standalone/babel.min.js").is_some();
    out.push(Row {
        name: "reanimated",
        ok: reanimated.is_some() && worklets,
        required: false,
        detail: match (&reanimated, worklets) {
            (Some(v), true) => format!("Reanimated {v} with react-native-web and the worklets transform bundled — React Native motion code renders here"),
            (Some(_), false) => "Reanimated is bundled but the worklets transform is missing, so animated styles would never update".into(),
            (None, _) => "Reanimated is not bundled in this build — write scenes with folio/motion or remotion".into(),
        },
        fix: if reanimated.is_some() && worklets { String::new() } else { "rebuild Folio after running scripts/vendor-js.sh".into() },
    });
    out.push(emoji_row(emoji_font(&font_dirs(platform)).as_deref(), platform));
    out
}

/// Font file names (lower-case, without extension) that are colour emoji fonts: Noto Color Emoji
/// (Linux), Apple Color Emoji (macOS), Segoe UI Emoji (Windows), and the common alternatives.
const EMOJI_FONTS: &[&str] = &["notocoloremoji", "apple color emoji", "seguiemj", "twemoji", "emojione", "joypixels"];

/// The directories fonts are installed in on `platform`.
pub fn font_dirs(platform: Platform) -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut out: Vec<PathBuf> = match platform {
        Platform::Linux => vec!["/usr/share/fonts".into(), "/usr/local/share/fonts".into()],
        Platform::MacOs => vec!["/System/Library/Fonts".into(), "/Library/Fonts".into()],
        Platform::Windows => {
            vec![std::env::var_os("WINDIR").map_or_else(|| PathBuf::from(r"C:\Windows"), PathBuf::from).join("Fonts")]
        }
    };
    if let Some(h) = home {
        match platform {
            Platform::Linux => out.extend([h.join(".local/share/fonts"), h.join(".fonts")]),
            Platform::MacOs => out.push(h.join("Library/Fonts")),
            Platform::Windows => {}
        }
    }
    out
}

/// The first colour emoji font file under `dirs` (searched four levels deep).
pub fn emoji_font(dirs: &[PathBuf]) -> Option<PathBuf> {
    fn walk(dir: &Path, depth: u8) -> Option<PathBuf> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for p in &entries {
            let stem = p.file_stem().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default();
            let font = p
                .extension()
                .is_some_and(|e| ["ttf", "ttc", "otf"].contains(&e.to_string_lossy().to_lowercase().as_str()));
            if font && EMOJI_FONTS.iter().any(|n| stem.replace(['-', '_'], " ").starts_with(n) || stem.starts_with(n)) {
                return Some(p.clone());
            }
        }
        if depth == 0 {
            return None;
        }
        entries.iter().filter(|p| p.is_dir()).find_map(|p| walk(p, depth - 1))
    }
    dirs.iter().find_map(|d| walk(d, 4))
}

/// The colour emoji row: without such a font an emoji in a scene renders as an empty box (a
/// render warns, naming the characters and the frame).
pub fn emoji_row(found: Option<&Path>, platform: Platform) -> Row {
    Row {
        name: "emoji-font",
        ok: found.is_some(),
        required: false,
        detail: match found {
            Some(p) => format!(
                "{} — emoji in scenes render in colour",
                p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
            ),
            None => "no colour emoji font — emoji in scenes render as empty boxes (a render warns, naming them)".into(),
        },
        fix: match (found, platform) {
            (Some(_), _) => String::new(),
            (None, Platform::Linux) => "sudo apt-get install fonts-noto-color-emoji".into(),
            (None, Platform::MacOs) => "Apple Color Emoji ships with macOS — restore it in Font Book".into(),
            (None, Platform::Windows) => "Segoe UI Emoji ships with Windows — restore it from Settings › Fonts".into(),
        },
    }
}

/// The end of `/std/motion/README.md`: what works on this host, in words, without paths.
pub fn host_notes(rows: &[Row], video: bool) -> String {
    let ok = |n: &str| rows.iter().any(|r| r.name == n && r.ok);
    let mut s = String::from("\n\n## On this host (checked when the environment was created)\n\n");
    if ok("chromium") {
        s.push_str("- Browser: available — render and still work.\n");
    } else {
        s.push_str("- Browser: **none found** — render and still will FAIL until the person installs Chromium (`folio doctor` names the command) and restarts Folio.\n");
    }
    if video {
        s.push_str("- Video: .mp4, .webm and .gif outputs work.\n");
    } else {
        s.push_str("- Video: **ffmpeg is missing** — only stills, .png and frame directories work.\n");
    }
    if ok("reanimated") {
        s.push_str("- Reanimated: available — unchanged react-native-reanimated code animates.\n");
    } else {
        s.push_str("- Reanimated: not available — write scenes with folio/motion or remotion.\n");
    }
    if !ok("emoji-font") {
        s.push_str("- Emoji: **no colour emoji font** — emoji render as empty boxes; avoid them or load a font that has them from the tree.\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_colour_emoji_font_is_found_where_fonts_live_and_its_absence_names_the_install_line() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("truetype/noto");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("NotoSans-Regular.ttf"), b"").unwrap();
        let dirs = vec![dir.path().to_path_buf()];
        let row = emoji_row(emoji_font(&dirs).as_deref(), Platform::Linux);
        assert!(!row.ok);
        assert_eq!(row.fix, "sudo apt-get install fonts-noto-color-emoji");
        std::fs::write(deep.join("NotoColorEmoji.ttf"), b"").unwrap();
        let row = emoji_row(emoji_font(&dirs).as_deref(), Platform::Linux);
        assert!(row.ok, "{row:?}");
        assert!(row.detail.starts_with("NotoColorEmoji.ttf"), "{row:?}");
        assert_eq!(row.fix, "");
    }

    #[test]
    fn this_host_has_the_emoji_font_install_sh_installs() {
        // scripts/install.sh installs fonts-noto-color-emoji; the doctor must see it here.
        if Platform::current() != Platform::Linux {
            return;
        }
        let found = emoji_font(&font_dirs(Platform::Linux));
        assert!(found.is_some(), "no colour emoji font found — run scripts/install.sh (fonts-noto-color-emoji)");
    }
}
