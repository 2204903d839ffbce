//! Doctor rows. PDFium is process-global once loaded, so the "nothing installed" case runs in a
//! child process of this test binary, where nothing has loaded it.

use folio_render::{Capability, HostPaths, Platform, Renderer, capabilities, doctor};

use super::renderer;

const CHILD: &str = "FOLIO_RENDER_DOCTOR_CHILD";

#[test]
fn on_this_host_pdfium_passes() {
    let rows = capabilities(&renderer());
    assert_eq!(rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["pdfium", "libreoffice"]);
    assert!(rows[0].ok && rows[0].required && rows[0].fix.is_empty(), "{rows:?}");
    assert!(!rows[1].required);
    assert!(doctor::ready(&rows));
}

#[test]
fn hidden_tools_fail_with_the_fix() {
    if std::env::var_os(CHILD).is_some() {
        let mut r = Renderer::new(HostPaths::isolated(Platform::Linux));
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
    assert!(!doctor::ready(&rows));
}
