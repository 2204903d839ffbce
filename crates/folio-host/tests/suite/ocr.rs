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
    assert!(skill(&host, &folder).is_some_and(|b| String::from_utf8_lossy(&b).contains("needsOcr")));
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    let wrote = env.call("write_file", json!({"path": "/scripts/langs.js", "content": LANGUAGES}));
    assert_eq!(wrote.status, folio_env::Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/langs.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    assert!(report.result.as_array().is_some_and(|l| l.iter().any(|v| v == "eng")), "{:?}", report.result);
}
