//! Doctor rows. PDFium is process-global once loaded, so the "nothing installed" case runs in a
//! child process of this test binary, where nothing has loaded it.

use folio_render::{Capability, HostPaths, Platform, Renderer, capabilities, doctor};

use super::renderer;

const CHILD: &str = "FOLIO_RENDER_DOCTOR_CHILD";

/// On this host (provisioned by scripts/install.sh) PDFium and LibreOffice with its three
/// applications pass, each with its version. Chromium's and ffmpeg's rows are folio-motion's and
/// folio-media's: this crate knows neither tool.
#[test]
fn on_this_host_the_installed_tools_pass_with_their_versions() {
    let rows = capabilities(&renderer());
    assert_eq!(rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["pdfium", "libreoffice"]);
    assert!(rows[0].ok && rows[0].required && rows[0].fix.is_empty(), "{rows:?}");
    assert!(rows[1..].iter().all(|r| !r.required), "{rows:?}");
    assert!(doctor::ready(&rows));
    if std::path::Path::new("/etc/debian_version").exists() {
        assert!(
            rows[1].ok && rows[1].detail.contains("LibreOffice") && rows[1].detail.contains("Writer, Calc, Impress"),
            "{:?}",
            rows[1]
        );
    }
}

#[test]
fn hidden_tools_fail_with_the_fix() {
    if std::env::var_os(CHILD).is_some() {
        let host = HostPaths::isolated(Platform::Linux);
        let mut r = Renderer::new(host);
        r.pdfium_path = Some("/nonexistent/libpdfium.so".into());
        println!("ROWS={}", serde_json::to_string(&capabilities(&r)).unwrap());
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "suite::doctor::hidden_tools_fail_with_the_fix", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line =
        stdout.lines().find_map(|l| l.split_once("ROWS=").map(|(_, rest)| rest)).expect("the child prints its rows");
    let rows: Vec<Capability> = serde_json::from_str(line).unwrap();
    assert!(!rows[0].ok && rows[0].required);
    assert!(rows[0].detail.contains("/nonexistent/libpdfium.so (option): not found"), "{}", rows[0].detail);
    assert!(
        rows[0].fix.contains("scripts/get-pdfium.sh") && rows[0].fix.contains("FOLIO_PDFIUM_PATH"),
        "{}",
        rows[0].fix
    );
    assert!(!rows[1].ok && !rows[1].required);
    assert!(rows[1].fix.starts_with("sudo apt-get install"), "{}", rows[1].fix);
    assert_eq!(rows.len(), 2, "only the tools this crate knows: {rows:?}");
    assert!(!doctor::ready(&rows), "PDFium is required");
}

/// Every row the doctor computes says which modules use its tool; env:render uses PDFium and
/// LibreOffice; ffmpeg is env:media's and env:motion's, Chromium env:motion's.
#[test]
fn every_row_names_the_modules_that_use_it() {
    let mut r = Renderer::new(HostPaths::isolated(Platform::Linux));
    r.pdfium_path = Some("/nonexistent/libpdfium.so".into());
    let rows = capabilities(&r);
    let listed: Vec<&str> = doctor::USED_BY.iter().map(|(name, _)| *name).collect();
    for row in &rows {
        assert!(listed.contains(&row.name.as_str()), "row {} is missing from doctor::USED_BY", row.name);
    }
    let cases: &[(&str, &[&str])] = &[("render", &["pdfium", "libreoffice"]), ("images", &[]), ("zip", &[])];
    for (module, expect) in cases {
        let names: Vec<String> = doctor::rows_for(module, &rows).into_iter().map(|r| r.name).collect();
        assert_eq!(names, *expect, "rows for env:{module}");
    }
    assert_eq!(doctor::used_by("ffmpeg"), &["media", "motion"]);
    assert_eq!(doctor::used_by("chromium"), &["motion"]);
    assert_eq!(doctor::used_by("espeak-ng"), &["media"]);
    assert_eq!(doctor::used_by("provider"), &[] as &[&str], "a row not in the table is used by no module");
}
