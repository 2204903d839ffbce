//! The warm LibreOffice (`office_server`): conversions reach one instance per profile, a crash
//! or a hang kills and replaces it with a named error, and its bounds (conversions, idle) hold.
//! Each test has a profile of its own, so each has an instance of its own.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use folio_budget::ChildLimits;
use folio_render::office::{convert, convert_to_pdf};
use folio_render::office_server::{WarmPolicy, instance_pid, set_policy};

use super::office::{docx, xlsx_with, zip};
use super::renderer;

/// One of these tests at a time: each proves something about its own instance, and the pool
/// of instances is bounded per process.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner())
}

/// LibreOffice with a warm route, or `None` (printed) where either is missing.
fn soffice() -> Option<PathBuf> {
    let r = renderer();
    if !folio_render::office_server::enabled() {
        println!("skipped: the warm LibreOffice route is off on this host (not Linux, or FOLIO_OFFICE_WARM=0)");
        return None;
    }
    match folio_render::office::find_soffice(None, &r.host) {
        Ok(s) => Some(s),
        Err(tried) => {
            assert!(!Path::new("/etc/debian_version").exists(), "scripts/install.sh installs LibreOffice ({tried})");
            println!("skipped: no LibreOffice ({tried})");
            None
        }
    }
}

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.join("MANIFEST.md").is_file() {
        Some(dir)
    } else {
        println!("skipped: no corpus at {} (set FOLIO_CORPUS)", dir.display());
        None
    }
}

/// Content no other conversion has had, so the cache of recent conversions cannot answer.
fn unique(tag: &str) -> Vec<u8> {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    docx(&[&format!("{tag} {nanos}"), "A second paragraph."])
}

fn limits(secs: u64) -> ChildLimits {
    ChildLimits { memory_bytes: Some(2048 * 1024 * 1024), ..ChildLimits::timeout(Duration::from_secs(secs)) }
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
}

/// An ODS LibreOffice lays out for ever (one cell repeated 999,999,999² times), growing as it goes.
fn endless_ods() -> Vec<u8> {
    zip(&[
        ("mimetype", "application/vnd.oasis.opendocument.spreadsheet".into()),
        ("META-INF/manifest.xml", r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#.into()),
        ("content.xml", r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row table:number-rows-repeated="999999999"><table:table-cell table:number-columns-repeated="999999999" office:value-type="string"><text:p>X</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"#.into()),
    ])
}

#[test]
fn corpus_documents_workbooks_and_decks_convert_on_one_warm_instance() {
    let _serial = serial();
    let (Some(soffice), Some(corpus)) = (soffice(), corpus()) else { return };
    let engine = renderer().pdfium().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let files = [
        "documents/comments-5.docx",
        "documents/table-vertical-merge.docx",
        "documents/smartart-diagram.docx",
        "spreadsheets/merged-ranges-2sheets.xlsx",
        "spreadsheets/dates-1900-epoch.xlsx",
        "presentations/tables-3-slides.pptx",
        "presentations/real-deck-powerpoint-mac-4-slides.pptx",
    ];
    folio_render::office::forget_converted();
    let mut pid = None;
    let mut times = Vec::new();
    for file in files {
        let path = corpus.join(file);
        let Ok(bytes) = std::fs::read(&path) else {
            println!("skipped {file}: not in this corpus");
            continue;
        };
        let started = Instant::now();
        let pdf = convert_to_pdf(file, &bytes, &soffice, profile.path(), &limits(120)).unwrap();
        times.push((file, started.elapsed()));
        let pages = folio_render::pdf::page_count(&engine, file, &pdf).unwrap();
        assert!(pages >= 1, "{file}: {pages} pages");
        let now = instance_pid(profile.path());
        assert!(now.is_some(), "{file}: no warm instance after converting");
        if pid.is_some() {
            assert_eq!(now, pid, "{file}: the instance was replaced between ordinary conversions");
        }
        pid = now;
    }
    for (file, took) in &times {
        println!("warm: {file} converted in {:.3} s", took.as_secs_f64());
    }
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let rows: Vec<serde_json::Value> = times
            .iter()
            .enumerate()
            .map(|(i, (f, t))| serde_json::json!({"file": f, "secs": t.as_secs_f64(), "first": i == 0}))
            .collect();
        let json = serde_json::json!({"area": "office-warm", "conversions": rows});
        std::fs::write(dir.join("office-warm.json"), json.to_string()).unwrap();
    }
    folio_render::office_server::shutdown(profile.path());
}

#[test]
fn a_killed_instance_fails_its_conversion_by_name_and_the_next_one_gets_a_fresh_instance() {
    let _serial = serial();
    let Some(soffice) = soffice() else { return };
    let profile = tempfile::tempdir().unwrap();
    convert_to_pdf("/in/first.docx", &unique("first"), &soffice, profile.path(), &limits(120)).unwrap();
    let first = instance_pid(profile.path()).expect("a warm instance");
    let (s, p) = (soffice.clone(), profile.path().to_path_buf());
    let slow = std::thread::spawn(move || convert_to_pdf("/in/endless.ods", &endless_ods(), &s, &p, &limits(60)));
    std::thread::sleep(Duration::from_millis(1500));
    std::process::Command::new("kill").args(["-KILL", &first.to_string()]).status().unwrap();
    let err = slow.join().unwrap().unwrap_err().to_string();
    assert!(
        err.starts_with("/in/endless.ods: LibreOffice could not convert it to PDF: LibreOffice stopped while converting it (it crashed or was killed); a fresh one starts for the next file (signal: 9"),
        "{err}"
    );
    // A crash is reported as LibreOffice's, with its log line — never as a damaged document.
    assert!(
        err.contains("LibreOffice's last log line: ") && err.contains("a LibreOffice crash, not a verdict"),
        "{err}"
    );
    assert!(!err.contains("damaged"), "{err}");
    let pdf = convert_to_pdf("/in/after.docx", &unique("after"), &soffice, profile.path(), &limits(120)).unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    let second = instance_pid(profile.path()).expect("a warm instance again");
    assert_ne!(first, second, "a fresh instance serves the next file");
    folio_render::office_server::shutdown(profile.path());
}

#[test]
fn a_hanging_document_times_out_by_name_and_its_instance_is_replaced() {
    let _serial = serial();
    let Some(soffice) = soffice() else { return };
    let profile = tempfile::tempdir().unwrap();
    convert_to_pdf("/in/first.docx", &unique("hang-first"), &soffice, profile.path(), &limits(120)).unwrap();
    let first = instance_pid(profile.path()).expect("a warm instance");
    let started = Instant::now();
    let err = convert_to_pdf("/in/endless.ods", &endless_ods(), &soffice, profile.path(), &limits(3)).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(
        err.to_string(),
        "/in/endless.ods: LibreOffice could not convert it to PDF: LibreOffice did not finish within 3 s and was stopped — hint: simplify the document or split it, or try again when the machine is less busy"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!alive(first), "the hung instance was killed");
    let pdf = convert_to_pdf("/in/after.docx", &unique("hang-after"), &soffice, profile.path(), &limits(120)).unwrap();
    assert!(pdf.starts_with(b"%PDF"));
    folio_render::office_server::shutdown(profile.path());
}

#[test]
fn concurrent_conversions_on_one_profile_all_succeed() {
    let _serial = serial();
    let Some(soffice) = soffice() else { return };
    let profile = tempfile::tempdir().unwrap();
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let (s, p) = (soffice.clone(), profile.path().to_path_buf());
            std::thread::spawn(move || {
                convert_to_pdf(&format!("/in/c{i}.docx"), &unique(&format!("c{i}")), &s, &p, &limits(120))
            })
        })
        .collect();
    for t in threads {
        assert!(t.join().unwrap().unwrap().starts_with(b"%PDF"));
    }
    folio_render::office_server::shutdown(profile.path());
}

#[test]
fn the_instance_is_restarted_after_its_conversions_and_stopped_when_idle() {
    let _serial = serial();
    let Some(soffice) = soffice() else { return };
    let profile = tempfile::tempdir().unwrap();
    set_policy(
        profile.path(),
        WarmPolicy { max_conversions: 2, idle: Duration::from_secs(2), ..WarmPolicy::default() },
    );
    let mut pids = Vec::new();
    for i in 0..3 {
        convert_to_pdf("/in/n.docx", &unique(&format!("n{i}")), &soffice, profile.path(), &limits(120)).unwrap();
        pids.push(instance_pid(profile.path()));
    }
    // Kept after the first, retired after the second, a fresh one for the third.
    assert!(pids[0].is_some() && pids[1].is_none() && pids[2].is_some(), "{pids:?}");
    assert_ne!(pids[0], pids[2]);
    let last = pids[2].unwrap();
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(instance_pid(profile.path()), None, "stopped after 2 s idle");
    assert!(!alive(last), "its process is gone");
}

#[test]
fn workbooks_are_recalculated_on_conversion() {
    let _serial = serial();
    let Some(soffice) = soffice() else { return };
    let profile = tempfile::tempdir().unwrap();
    // B1 = A1*3 with a stale cached 0: a recalculating profile writes 21.
    let fixed = xlsx_with(r#"<row r="1"><c r="A1"><v>7</v></c><c r="B1"><f>A1*3</f><v>0</v></c></row>"#);
    let csv = convert("/in/stale.xlsx", &fixed, &soffice, profile.path(), &limits(120), "csv").unwrap();
    let text = String::from_utf8_lossy(&csv);
    assert!(text.starts_with("7,21"), "{text}");
    let xcu = std::fs::read_to_string(profile.path().join("user/registrymodifications.xcu")).unwrap();
    assert!(xcu.contains("OOXMLRecalcMode") && xcu.contains("ODFRecalcMode"), "{xcu}");
    folio_render::office_server::shutdown(profile.path());
}
