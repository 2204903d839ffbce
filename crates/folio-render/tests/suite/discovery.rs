//! Discovery candidates for every platform, computed on any platform.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use folio_render::discovery::{pdfium_candidates, soffice_candidates};
use folio_render::{HostPaths, Platform};

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
            "/usr/bin/../lib/Folio/libpdfium.so",
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
