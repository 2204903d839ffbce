//! Discovery candidates for every platform, computed on any platform.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use folio_render::discovery::{NotFound, find_tool, pdfium_candidates, soffice_candidates, tool_candidates};
use folio_render::{HostPaths, Platform, Tool};

fn host(platform: Platform, env: &[(&str, &str)], exe: Option<&str>, state: Option<&str>) -> HostPaths {
    HostPaths {
        platform,
        env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<BTreeMap<_, _>>(),
        exe_dir: exe.map(PathBuf::from),
        state_dir: state.map(PathBuf::from),
        system: true,
    }
}

fn paths(c: &[folio_render::discovery::Candidate]) -> Vec<String> {
    c.iter().map(|c| c.path.to_string_lossy().into_owned()).collect()
}

#[test]
fn linux_pdfium_order_is_option_env_exe_state_cache() {
    let h = host(
        Platform::Linux,
        &[("FOLIO_PDFIUM_PATH", "/opt/pdfium"), ("HOME", "/home/u")],
        Some("/usr/bin"),
        Some("/home/u/.local/share/folio"),
    );
    let c = pdfium_candidates(Some(Path::new("/x/libpdfium.so")), &h);
    assert_eq!(
        paths(&c),
        [
            "/x/libpdfium.so",
            "/opt/pdfium/libpdfium.so",
            "/usr/bin/libpdfium.so",
            "/usr/bin/resources/libpdfium.so",
            "/usr/bin/../lib/folio/libpdfium.so",
            "/home/u/.local/share/folio/pdfium/libpdfium.so",
            "/home/u/.cache/folio/pdfium/libpdfium.so",
        ]
    );
    assert_eq!(c[0].source, "option");
    assert_eq!(c[1].source, "FOLIO_PDFIUM_PATH");
}

#[test]
fn macos_pdfium_looks_in_the_app_bundle() {
    let h = host(Platform::MacOs, &[("HOME", "/Users/u")], Some("/Applications/Folio.app/Contents/MacOS"), None);
    let c = paths(&pdfium_candidates(None, &h));
    assert_eq!(
        c,
        [
            "/Applications/Folio.app/Contents/MacOS/libpdfium.dylib",
            "/Applications/Folio.app/Contents/MacOS/../Frameworks/libpdfium.dylib",
            "/Applications/Folio.app/Contents/MacOS/../Resources/libpdfium.dylib",
            "/Users/u/.cache/folio/pdfium/libpdfium.dylib",
        ]
    );
}

#[test]
fn windows_pdfium_uses_dll_backslashes_and_localappdata() {
    let h = host(
        Platform::Windows,
        &[("LOCALAPPDATA", r"C:\Users\u\AppData\Local"), ("FOLIO_PDFIUM_PATH", r"D:\libs\pdfium.dll")],
        Some(r"C:\Program Files\Folio"),
        Some(r"C:\Users\u\AppData\Roaming\folio"),
    );
    let c = paths(&pdfium_candidates(None, &h));
    assert_eq!(
        c,
        [
            r"D:\libs\pdfium.dll",
            r"C:\Program Files\Folio\pdfium.dll",
            r"C:\Program Files\Folio\resources\pdfium.dll",
            r"C:\Users\u\AppData\Roaming\folio\pdfium\pdfium.dll",
            r"C:\Users\u\AppData\Local\folio\pdfium\pdfium.dll",
        ]
    );
}

#[test]
fn soffice_candidates_per_platform() {
    let linux = host(Platform::Linux, &[("PATH", "/usr/local/bin:/usr/bin")], None, None);
    let c = paths(&soffice_candidates(None, &linux));
    assert_eq!(&c[..2], ["/usr/local/bin/soffice", "/usr/bin/soffice"]);
    assert!(c.contains(&"/usr/lib/libreoffice/program/soffice".to_string()));
    let mac = host(Platform::MacOs, &[], None, None);
    assert_eq!(paths(&soffice_candidates(None, &mac)), ["/Applications/LibreOffice.app/Contents/MacOS/soffice"]);
    let win =
        host(Platform::Windows, &[("PROGRAMFILES", r"C:\Program Files"), ("PATH", r"C:\bin;C:\tools")], None, None);
    assert_eq!(
        paths(&soffice_candidates(None, &win)),
        [r"C:\bin\soffice.exe", r"C:\tools\soffice.exe", r"C:\Program Files\LibreOffice\program\soffice.exe"]
    );
}

#[test]
fn isolated_host_has_only_the_explicit_option() {
    let h = HostPaths::isolated(Platform::Linux);
    assert!(soffice_candidates(None, &h).is_empty());
    assert_eq!(paths(&pdfium_candidates(Some(Path::new("/lib/dir")), &h)), ["/lib/dir/libpdfium.so"]);
}

/// Each platform's fix is a command for that platform; on Linux it names exactly the Debian
/// package of each application asked for (Writer alone opens no workbook or deck).
#[test]
fn fixes_name_a_command_for_each_platform() {
    use folio_render::OfficeApp::{Calc, Impress, Writer};
    let apt = "sudo apt-get install --no-install-recommends";
    let cases: &[(Platform, &[folio_render::OfficeApp], String, &[&str])] = &[
        (Platform::Linux, &[Writer], format!("{apt} libreoffice-writer-nogui "), &["calc", "impress"]),
        (Platform::Linux, &[Calc], format!("{apt} libreoffice-calc-nogui "), &["writer", "impress"]),
        (Platform::Linux, &[Impress], format!("{apt} libreoffice-impress-nogui "), &["writer", "calc"]),
        (
            Platform::Linux,
            &[Writer, Calc, Impress],
            format!("{apt} libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui "),
            &[],
        ),
        (Platform::MacOs, &[Calc], "brew install --cask libreoffice ".into(), &[]),
        (Platform::Windows, &[Impress], "winget install TheDocumentFoundation.LibreOffice ".into(), &[]),
    ];
    for (platform, apps, starts, absent) in cases {
        let fix = platform.office_fix(apps);
        assert!(fix.starts_with(starts.as_str()), "{platform:?} {apps:?}: {fix}");
        assert!(fix.contains("FOLIO_SOFFICE_PATH"), "{fix}");
        for other in *absent {
            assert!(!fix.contains(other), "{apps:?} should not name {other}: {fix}");
        }
    }
    assert!(Platform::Linux.pdfium_fix().contains("get-pdfium.sh"));
}

#[test]
fn chromium_and_ffmpeg_candidates_per_platform() {
    let linux = host(Platform::Linux, &[("PATH", "/usr/local/bin:/usr/bin")], None, None);
    let c = paths(&tool_candidates(Tool::Chromium, &linux));
    assert_eq!(
        &c[..4],
        [
            "/usr/local/bin/chromium",
            "/usr/bin/chromium",
            "/usr/local/bin/chromium-browser",
            "/usr/bin/chromium-browser"
        ]
    );
    assert!(c.contains(&"/usr/bin/google-chrome-stable".to_string()) && c.contains(&"/snap/bin/chromium".to_string()));
    assert_eq!(
        paths(&tool_candidates(Tool::Ffmpeg, &linux)),
        ["/usr/local/bin/ffmpeg", "/usr/bin/ffmpeg"],
        "the usual locations repeat PATH entries only once"
    );

    let mac = host(Platform::MacOs, &[("PATH", "/usr/bin")], None, None);
    assert_eq!(
        paths(&tool_candidates(Tool::Chromium, &mac)),
        [
            "/usr/bin/chromium",
            "/usr/bin/google-chrome",
            "/Applications/Chromium.app/Contents/MacOS/Chromium",
            "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        ]
    );
    assert_eq!(
        paths(&tool_candidates(Tool::Ffmpeg, &mac)),
        ["/usr/bin/ffmpeg", "/opt/homebrew/bin/ffmpeg", "/usr/local/bin/ffmpeg"]
    );

    let win = host(
        Platform::Windows,
        &[
            ("PATH", r"C:\bin"),
            ("PROGRAMFILES", r"C:\Program Files"),
            ("LOCALAPPDATA", r"C:\Users\u\AppData\Local"),
            ("FOLIO_FFMPEG_PATH", r"D:\ff\ffmpeg.exe"),
        ],
        None,
        None,
    );
    assert_eq!(
        paths(&tool_candidates(Tool::Chromium, &win)),
        [
            r"C:\bin\chrome.exe",
            r"C:\bin\chromium.exe",
            r"C:\Program Files\Google\Chrome\Application\chrome.exe",
            r"C:\Program Files\Chromium\Application\chrome.exe",
            r"C:\Users\u\AppData\Local\Google\Chrome\Application\chrome.exe",
            r"C:\Users\u\AppData\Local\Chromium\Application\chrome.exe",
        ]
    );
    let ff = tool_candidates(Tool::Ffmpeg, &win);
    assert_eq!(
        paths(&ff),
        [
            r"D:\ff\ffmpeg.exe",
            r"C:\bin\ffmpeg.exe",
            r"C:\Users\u\AppData\Local\Microsoft\WinGet\Links\ffmpeg.exe",
            r"C:\Program Files\ffmpeg\bin\ffmpeg.exe",
        ]
    );
    assert_eq!(ff[0].source, "FOLIO_FFMPEG_PATH");
    for (tool, platform, fix) in [
        (Tool::Chromium, Platform::Linux, "sudo apt-get install chromium"),
        (Tool::Chromium, Platform::MacOs, "brew install --cask chromium"),
        (Tool::Chromium, Platform::Windows, "winget install Google.Chrome"),
        (Tool::Ffmpeg, Platform::Linux, "sudo apt-get install ffmpeg"),
        (Tool::Ffmpeg, Platform::MacOs, "brew install ffmpeg"),
        (Tool::Ffmpeg, Platform::Windows, "winget install Gyan.FFmpeg"),
    ] {
        assert!(tool.fix(platform).starts_with(fix), "{tool:?} on {platform:?}: {}", tool.fix(platform));
    }
}

/// An explicit variable naming nothing is an error naming the variable, even when the tool is
/// elsewhere on the machine; without it, a missing tool lists where it was looked for.
#[test]
fn an_explicit_tool_path_that_names_nothing_is_reported_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("ffmpeg");
    std::fs::write(&real, "#!/bin/sh\n").unwrap();
    let on_path = host(Platform::Linux, &[("PATH", dir.path().to_str().unwrap())], None, None);
    assert_eq!(find_tool(Tool::Ffmpeg, &on_path), Ok(real));
    let mut hidden = on_path;
    hidden.env.insert("FOLIO_FFMPEG_PATH".into(), "/nowhere/ffmpeg".into());
    let err = find_tool(Tool::Ffmpeg, &hidden).unwrap_err();
    assert_eq!(err, NotFound::Explicit { var: "FOLIO_FFMPEG_PATH", path: "/nowhere/ffmpeg".into() });
    assert_eq!(err.to_string(), "FOLIO_FFMPEG_PATH names /nowhere/ffmpeg, which does not exist");
    match find_tool(Tool::Chromium, &HostPaths::isolated(Platform::Linux)) {
        Err(NotFound::Nowhere { tried }) => assert!(tried.contains("no candidate locations"), "{tried}"),
        other => panic!("{other:?}"),
    }
}
