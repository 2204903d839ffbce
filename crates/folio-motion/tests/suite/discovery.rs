//! Discovery is a function of (platform, environment): the macOS and Windows lists are checked
//! here on Linux, data-driven.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use folio_motion::discovery::{NotFound, Platform, Source, candidates, locate};

fn check(platform: Platform, env: &[(&str, &str)], expect: &[(&str, Source)]) {
    let env: BTreeMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let get = |k: &str| env.get(k).cloned();
    let list = |p: &Path| -> Vec<String> {
        if p == Path::new("/pw") {
            vec!["chromium_headless_shell-1200".into(), "chromium-1200".into(), "firefox-1".into()]
        } else {
            vec![]
        }
    };
    let got: Vec<(PathBuf, Source)> = candidates(platform, None, &get, &list);
    let want: Vec<(PathBuf, Source)> = expect.iter().map(|(p, s)| (PathBuf::from(p), *s)).collect();
    assert_eq!(got, want, "{platform:?} with {env:?}");
}

#[test]
fn candidate_lists_per_platform() {
    use Source::*;
    check(
        Platform::MacOs,
        &[],
        &[
            ("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", System),
            ("/Applications/Chromium.app/Contents/MacOS/Chromium", System),
            ("/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge", System),
            ("/Applications/Brave Browser.app/Contents/MacOS/Brave Browser", System),
            ("/opt/homebrew/bin/chromium", System),
        ],
    );
    check(
        Platform::Windows,
        &[("PROGRAMFILES", r"C:\Program Files"), ("LOCALAPPDATA", r"C:\Users\a\AppData\Local"), ("PATH", r"C:\bin")],
        &[
            (r"C:\bin/chrome.exe", Path),
            (r"C:\bin/msedge.exe", Path),
            (r"C:\Program Files\Google\Chrome\Application\chrome.exe", System),
            (r"C:\Users\a\AppData\Local\Google\Chrome\Application\chrome.exe", System),
            (r"C:\Program Files\Microsoft\Edge\Application\msedge.exe", System),
        ],
    );
    check(
        Platform::Linux,
        &[("FOLIO_CHROMIUM_PATH", "/opt/c/chrome"), ("PLAYWRIGHT_BROWSERS_PATH", "/pw")],
        &[
            ("/opt/c/chrome", Env),
            ("/pw/chromium-1200/chrome-linux/chrome", Playwright),
            ("/pw/chromium-1200/chrome-linux/headless_shell", Playwright),
            ("/pw/chromium-1200/chrome-headless-shell-linux64/chrome-headless-shell", Playwright),
            ("/pw/chromium-1200/chrome-mac/Chromium.app/Contents/MacOS/Chromium", Playwright),
            ("/pw/chromium-1200/chrome-mac/headless_shell", Playwright),
            ("/pw/chromium-1200/chrome-win/chrome.exe", Playwright),
            ("/pw/chromium-1200/chrome-win/headless_shell.exe", Playwright),
            ("/pw/chromium_headless_shell-1200/chrome-linux/chrome", Playwright),
            ("/pw/chromium_headless_shell-1200/chrome-linux/headless_shell", Playwright),
            ("/pw/chromium_headless_shell-1200/chrome-headless-shell-linux64/chrome-headless-shell", Playwright),
            ("/pw/chromium_headless_shell-1200/chrome-mac/Chromium.app/Contents/MacOS/Chromium", Playwright),
            ("/pw/chromium_headless_shell-1200/chrome-mac/headless_shell", Playwright),
            ("/pw/chromium_headless_shell-1200/chrome-win/chrome.exe", Playwright),
            ("/pw/chromium_headless_shell-1200/chrome-win/headless_shell.exe", Playwright),
            ("/usr/bin/chromium-headless-shell", System),
            ("/usr/lib/chromium/headless_shell", System),
            ("/usr/bin/chromium", System),
            ("/usr/bin/chromium-browser", System),
            ("/usr/bin/google-chrome", System),
            ("/usr/bin/google-chrome-stable", System),
            ("/snap/bin/chromium", System),
            ("/usr/bin/microsoft-edge", System),
        ],
    );
}

#[test]
fn a_variable_naming_nothing_is_said_not_replaced() {
    let env = |k: &str| (k == "FOLIO_CHROMIUM_PATH").then(|| "/nonexistent/chromium".to_string());
    let e = locate(Platform::Linux, None, &env, true).unwrap_err();
    assert_eq!(e, NotFound::Explicit { var: "FOLIO_CHROMIUM_PATH", path: PathBuf::from("/nonexistent/chromium") });
    assert_eq!(e.to_string(), "FOLIO_CHROMIUM_PATH names /nonexistent/chromium, which does not exist");
    let none = |_: &str| None;
    let e = locate(Platform::Linux, None, &none, false).unwrap_err();
    assert!(matches!(e, NotFound::Nowhere { .. }), "{e}");
}
