use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::*;

fn search<'a>(
    platform: Platform,
    env: &'a dyn Fn(&str) -> Option<OsString>,
    exists: &'a dyn Fn(&Path) -> bool,
) -> Search<'a> {
    Search { platform, env, system: true, exists }
}

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
    let map: BTreeMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    move |k: &str| map.get(k).map(OsString::from)
}

fn paths(list: &[Candidate]) -> Vec<String> {
    list.iter().map(|c| c.path.to_string_lossy().into_owned()).collect()
}

#[test]
#[allow(clippy::type_complexity)]
fn each_platform_lists_its_usual_places_after_the_variable_and_path() {
    let none = |_: &Path| false;
    let cases: &[(Platform, &[(&str, &str)], Tool, &[&str])] = &[
        (
            Platform::MacOs,
            &[("PATH", "/Users/a/bin:/usr/bin"), ("FOLIO_FFMPEG_PATH", "/x/ffmpeg")],
            Tool::Ffmpeg,
            &[
                "/x/ffmpeg",
                "/Users/a/bin/ffmpeg",
                "/usr/bin/ffmpeg",
                "/opt/homebrew/bin/ffmpeg",
                "/usr/local/bin/ffmpeg",
                "/opt/local/bin/ffmpeg",
            ],
        ),
        (
            Platform::Windows,
            &[
                ("PATH", "C:\\Tools;D:\\bin"),
                ("LOCALAPPDATA", "C:\\Users\\a\\AppData\\Local"),
                ("PROGRAMFILES", "C:\\Program Files"),
                ("USERPROFILE", "C:\\Users\\a"),
            ],
            Tool::Ffprobe,
            &[
                "C:\\Tools\\ffprobe.exe",
                "D:\\bin\\ffprobe.exe",
                "C:\\Users\\a\\AppData\\Local\\Microsoft\\WinGet\\Links\\ffprobe.exe",
                "C:\\Program Files\\Gyan\\FFmpeg\\bin\\ffprobe.exe",
                "C:\\Program Files\\ffmpeg\\bin\\ffprobe.exe",
                "C:\\Users\\a\\scoop\\shims\\ffprobe.exe",
                "C:\\ProgramData\\chocolatey\\bin\\ffprobe.exe",
                "C:\\ffmpeg\\bin\\ffprobe.exe",
            ],
        ),
        (Platform::Windows, &[], Tool::Espeak, &["C:\\Program Files\\eSpeak NG\\espeak-ng.exe"]),
        (
            Platform::Linux,
            &[("PATH", "/usr/local/bin:/usr/bin")],
            Tool::Espeak,
            &["/usr/local/bin/espeak-ng", "/usr/bin/espeak-ng", "/snap/bin/espeak-ng"],
        ),
    ];
    for (platform, env, tool, want) in cases {
        let env = env_of(env);
        let s = search(*platform, &env, &none);
        assert_eq!(paths(&candidates(&s, *tool, None, None)), *want, "{platform:?} {tool:?}");
    }
}

#[test]
fn the_first_existing_candidate_wins_and_ffprobe_is_looked_for_beside_ffmpeg() {
    let env = env_of(&[("PATH", "/a:/b")]);
    let exists = |p: &Path| p == Path::new("/b/ffmpeg") || p == Path::new("/b/ffprobe") || p == Path::new("/a/ffprobe");
    let found = Ffmpeg::discover_with(&search(Platform::Linux, &env, &exists), None).unwrap();
    assert_eq!(found.path(), Path::new("/b/ffmpeg"));
    assert_eq!(found.ffprobe(), Some(Path::new("/b/ffprobe")), "the sibling beats an earlier PATH entry");
}

#[test]
fn a_variable_or_option_naming_nothing_is_an_error_not_skipped() {
    let env = env_of(&[("PATH", "/b"), ("FOLIO_FFMPEG_PATH", "/gone/ffmpeg")]);
    let exists = |p: &Path| p == Path::new("/b/ffmpeg");
    let err = Ffmpeg::discover_with(&search(Platform::Linux, &env, &exists), None).unwrap_err().to_string();
    assert!(err.contains("FOLIO_FFMPEG_PATH names /gone/ffmpeg, which does not exist"), "{err}");
    assert!(err.contains("or unset it to search PATH; to install it: sudo apt-get install ffmpeg"), "{err}");
    let env = env_of(&[("PATH", "/b")]);
    let err = Ffmpeg::discover_with(&search(Platform::Linux, &env, &exists), Some(Path::new("/opt/ff")))
        .unwrap_err()
        .to_string();
    assert!(err.contains("the option names /opt/ff, which does not exist"), "{err}");
}

#[test]
fn nothing_found_names_the_install_for_each_platform() {
    let env = env_of(&[]);
    let none = |_: &Path| false;
    for (platform, want) in [
        (Platform::Linux, "sudo apt-get install ffmpeg (or set FOLIO_FFMPEG_PATH to the executable)"),
        (Platform::MacOs, "brew install ffmpeg"),
        (Platform::Windows, "winget install Gyan.FFmpeg"),
    ] {
        let err = Ffmpeg::discover_with(&search(platform, &env, &none), None).unwrap_err().to_string();
        assert!(err.starts_with("ffmpeg is not available on this host (not found; looked at"), "{err}");
        assert!(err.contains(want), "{platform:?}: {err}");
    }
    let s = Search { platform: Platform::Linux, env: &env, system: false, exists: &none };
    assert!(candidates(&s, Tool::Ffmpeg, None, None).is_empty(), "no system places when system is off");
    let _ = PathBuf::new();
}
