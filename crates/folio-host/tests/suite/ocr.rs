//! env:ocr is offered only where tesseract is found: absent otherwise (no import, no skill),
//! with a doctor row that names the install line.

use folio_host::{Host, Seams};
use folio_render::{HostPaths, Platform};
use folio_vfs::{Tree, VPath};
use serde_json::json;

const LANGUAGES: &str = r#"/** Lists the installed OCR languages. */
import { languages } from 'env:ocr';
export default async function main() {
  return await languages();
}
"#;

/// A host whose view of the environment is `env` only.
fn host(tmp: &std::path::Path, env: &[(&str, &str)]) -> Host {
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(tmp.join("state"));
    paths.env.extend(env.iter().map(|(k, v)| ((*k).to_string(), (*v).to_string())));
    Host::builder().state_dir(Some(tmp.join("state"))).paths(paths).build().unwrap()
}

fn skill(host: &Host, folder: &std::path::Path) -> Option<Vec<u8>> {
    let env = host.open_folder(folder, Seams::default()).unwrap();
    env.tree().read(&VPath::parse("/skills/reading-a-scan.md").unwrap()).ok()
}

#[test]
fn without_tesseract_env_ocr_is_absent_and_its_doctor_row_names_the_install_line() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    for env in [vec![], vec![("FOLIO_TESSERACT", "/nonexistent/bin/tesseract"), ("PATH", "/usr/bin")]] {
        let host = host(tmp.path(), &env);
        assert!(!host.module_names().iter().any(|n| n == "ocr"), "env:ocr offered with {env:?}");
        let row = host.doctor().iter().find(|r| r.name == "tesseract").expect("a tesseract doctor row");
        assert!(!row.ok && !row.required, "{row:?}");
        assert!(row.fix.contains("apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd"), "{}", row.fix);
        assert!(row.fix.contains("brew install tesseract") && row.fix.contains("winget"), "{}", row.fix);
        assert!(row.detail.contains("env:ocr is not offered"), "{}", row.detail);
        assert!(skill(&host, &folder).is_none(), "the skill is written without its module");
        // grep's ocr option is refused naming the install, not run as if no scan matched.
        let env = host.open_folder(&folder, Seams::default()).unwrap();
        let g = env.call("grep", json!({"pattern": "x", "ocr": true}));
        assert!(
            g.status != folio_env::Status::Success && g.message.contains("tesseract is not installed"),
            "{}",
            g.message
        );
    }
}

#[test]
fn with_tesseract_on_path_env_ocr_is_imported_and_its_skill_written() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let host = host(tmp.path(), &[("PATH", "/usr/bin:/usr/local/bin")]);
    assert!(host.module_names().iter().any(|n| n == "ocr"), "{:?}", host.module_names());
    let row = host.doctor().iter().find(|r| r.name == "tesseract").unwrap();
    assert!(row.ok && row.detail.contains("eng"), "{row:?}");
    // One row per installed language (and OSD), each with its install line on each OS.
    let eng = host.doctor().iter().find(|r| r.name == "tesseract-ocr-eng").expect("a row for eng");
    assert!(eng.ok && eng.detail.contains("apt-get install tesseract-ocr-eng"), "{eng:?}");
    assert!(eng.detail.contains("brew install") && eng.detail.contains("winget"), "{eng:?}");
    assert!(host.doctor().iter().any(|r| r.name == "tesseract-ocr-osd"), "no OSD row");
    assert!(skill(&host, &folder).is_some_and(|b| String::from_utf8_lossy(&b).contains("needsOcr")));
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    let wrote = env.call("write_file", json!({"path": "/scripts/langs.js", "content": LANGUAGES}));
    assert_eq!(wrote.status, folio_env::Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/langs.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    assert!(report.result.as_array().is_some_and(|l| l.iter().any(|v| v == "eng")), "{:?}", report.result);
}

/// The PATH with tesseract, and HOME (or FOLIO_PDFIUM_PATH) so PDFium is found as on this machine.
fn with_tools() -> Vec<(&'static str, String)> {
    let mut env = vec![("PATH", "/usr/bin:/usr/local/bin".to_string())];
    for key in ["HOME", "FOLIO_PDFIUM_PATH"] {
        if let Ok(v) = std::env::var(key) {
            env.push((key, v));
        }
    }
    env
}

fn corpus(rel: &str) -> std::path::PathBuf {
    let root = std::env::var("FOLIO_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into());
    std::path::Path::new(&root).join(rel)
}

#[test]
fn describe_of_a_scan_says_it_needs_ocr_and_grep_with_ocr_searches_it_once() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("scans")).unwrap();
    std::fs::copy(corpus("pdf/scanned-form-2pages-image-only.pdf"), folder.join("scans/form.pdf")).unwrap();
    std::fs::copy(corpus("pdf/minimal-1page-pdftex.pdf"), folder.join("scans/text.pdf")).unwrap();
    let tools = with_tools();
    let host = host(tmp.path(), &tools.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>());
    // Two dense pages take tens of seconds on a loaded machine: a budget that fits them.
    let env = host.open_folder(&folder, Seams { run_budget_ms: Some(600_000), ..Seams::default() }).unwrap();

    // describe: the PDF is described by env:documents; env:ocr adds that it is a scan and how to read it.
    let d = env.call("describe", json!({"path": "/scans/form.pdf"}));
    assert_eq!(d.status, folio_env::Status::Success, "{}", d.message);
    for needle in ["env:documents", "\"needsOcr\": true", "recognize('/scans/form.pdf', {pages: [1, 2]})", "ocr: true"]
    {
        assert!(d.message.contains(needle), "{needle} missing from {}", d.message);
    }
    let t = env.call("describe", json!({"path": "/scans/text.pdf"}));
    assert!(!t.message.contains("needsOcr"), "a text PDF needs no OCR: {}", t.message);

    // Without ocr the scan's words are not found; with it they are, named by page and OCR.
    let plain = env.call("grep", json!({"pattern": "technical inspection", "path": "/scans", "documents": true}));
    assert!(plain.message.starts_with("no matches"), "{}", plain.message);
    let started = std::time::Instant::now();
    let found = env.call("grep", json!({"pattern": "technical inspection", "path": "/scans", "ocr": true}));
    let first = started.elapsed();
    assert_eq!(found.status, folio_env::Status::Success, "{}", found.message);
    assert!(found.message.contains("/scans/form.pdf (page 1, OCR):"), "{}", found.message);
    assert!(!found.message.contains("/scans/text.pdf"), "{}", found.message);

    // The recognised text is cached by content in the state dir: the second search is instant.
    let cached = std::fs::read_dir(tmp.path().join("state/ocr-text")).unwrap().count();
    assert_eq!(cached, 2, "one entry per scanned file (the text PDF's empty one included)");
    let started = std::time::Instant::now();
    let again = env.call("grep", json!({"pattern": "Certificate", "path": "/scans", "ocr": true}));
    let second = started.elapsed();
    assert!(again.message.contains("/scans/form.pdf (page 1, OCR):"), "{}", again.message);
    eprintln!("grep ocr: first {first:?}, cached {second:?}");
    assert!(second < std::time::Duration::from_millis(1500) && second * 3 < first, "{first:?} then {second:?}");
}

#[test]
fn grep_with_ocr_is_refused_up_front_when_the_scans_cannot_fit_the_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::copy(corpus("pdf/scanned-form-2pages-image-only.pdf"), folder.join("form.pdf")).unwrap();
    let tools = with_tools();
    let host = host(tmp.path(), &tools.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>());
    let seams = Seams { run_budget_ms: Some(3000), ..Seams::default() };
    let env = host.open_folder(&folder, seams).unwrap();
    let started = std::time::Instant::now();
    let r = env.call("grep", json!({"pattern": "Name", "ocr": true}));
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "it recognised before refusing");
    assert_ne!(r.status, folio_env::Status::Success, "{}", r.message);
    for needle in ["grep with ocr: true", "recognising 2 scanned page(s) in 1 file(s)", "narrow `path` or `glob`"] {
        assert!(r.message.contains(needle), "{needle} missing from {}", r.message);
    }
    assert!(!tmp.path().join("state/ocr-text").exists(), "nothing was recognised");
}
