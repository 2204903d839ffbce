//! The `folio` binary, driven as a person would: pending edits made by one process are seen,
//! committed and discarded by others.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;
use std::process::{Command, Output};

use folio_vfs::{Overlay, OverlayOptions, Tree, VPath};

#[path = "cli/advertised.rs"]
mod advertised;
#[path = "cli/doctor_fixes.rs"]
mod doctor_fixes;
#[path = "common/fix_line.rs"]
mod fix_line;
#[path = "cli/mcp.rs"]
mod mcp;

struct Case {
    tmp: tempfile::TempDir,
}

impl Case {
    fn new() -> Case {
        let tmp = tempfile::tempdir().unwrap();
        let folder = tmp.path().join("folder");
        std::fs::create_dir_all(folder.join("inbox")).unwrap();
        std::fs::write(folder.join("inbox/data.csv"), "a,b\n1,2\n").unwrap();
        std::fs::write(folder.join("notes.md"), "notes\n").unwrap();
        Case { tmp }
    }

    fn folder(&self) -> std::path::PathBuf {
        self.tmp.path().join("folder")
    }

    fn state(&self) -> std::path::PathBuf {
        self.tmp.path().join("state")
    }

    /// Pending edits made in this process, which then lets go of the folder.
    fn stage(&self) {
        let o = Overlay::open(&self.folder(), OverlayOptions { state_root: Some(self.state()), ..Default::default() })
            .unwrap();
        o.write(&VPath::parse("/out/report.md").unwrap(), b"# Report\n").unwrap();
        o.write(&VPath::parse("/notes.md").unwrap(), b"notes, revised\n").unwrap();
        o.rm(&VPath::parse("/inbox/data.csv").unwrap()).unwrap();
    }

    fn folio(&self, args: &[&str]) -> Output {
        let state = self.state();
        let folder = self.folder();
        let mut full = vec!["--state-dir", state.to_str().unwrap()];
        for a in args {
            full.push(if *a == "FOLDER" { folder.to_str().unwrap() } else { a });
        }
        Command::new(env!("CARGO_BIN_EXE_folio")).args(&full).env_remove("FOLIO_STATE_DIR").output().unwrap()
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_second_process_sees_pending_edits() {
    let case = Case::new();
    case.stage();
    let out = case.folio(&["status", "FOLDER", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let changes: Vec<String> = json["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{} {}", c["kind"].as_str().unwrap(), c["path"].as_str().unwrap()))
        .collect();
    assert_eq!(changes, ["deleted /inbox/data.csv", "modified /notes.md", "added /out", "added /out/report.md"]);
    let human = case.folio(&["status", "FOLDER"]);
    let text = stdout(&human);
    assert!(text.contains("4 pending change(s)"), "{text}");
    assert!(text.contains("  M  /notes.md  15B (was 6B)"), "{text}");
    assert!(text.contains("  D  /inbox/data.csv"), "{text}");
}

#[test]
fn commit_a_path_then_discard_the_rest() {
    let case = Case::new();
    case.stage();
    let out = case.folio(&["commit", "FOLDER", "/out", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["written"], serde_json::json!(["/out", "/out/report.md"]));
    assert_eq!(report["pending_left"], 2);
    assert_eq!(std::fs::read_to_string(case.folder().join("out/report.md")).unwrap(), "# Report\n");
    assert_eq!(std::fs::read_to_string(case.folder().join("notes.md")).unwrap(), "notes\n");

    let out = case.folio(&["discard", "FOLDER"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("discarded 2 change(s); the folder was not touched"), "{}", stdout(&out));
    assert!(case.folder().join("inbox/data.csv").exists());
    let status = stdout(&case.folio(&["status", "FOLDER"]));
    assert!(status.ends_with("nothing pending\n"), "{status}");
}

#[test]
fn a_conflict_is_skipped_named_and_written_only_with_overwrite() {
    let case = Case::new();
    case.stage();
    std::fs::write(case.folder().join("notes.md"), "the person's own edit\n").unwrap();
    let status = stdout(&case.folio(&["status", "FOLDER"]));
    assert!(status.contains("conflict: edited outside Folio after the agent changed it"), "{status}");
    assert!(status.contains("--overwrite"), "{status}");

    let out = case.folio(&["commit", "FOLDER"]);
    assert_eq!(out.status.code(), Some(3), "conflicts left pending exit 3");
    assert!(stdout(&out).contains("skipped  /notes.md: edited outside Folio"), "{}", stdout(&out));
    assert!(stderr(&out).contains("hint: `folio commit"), "{}", stderr(&out));
    assert!(stderr(&out).contains("/notes.md --overwrite /notes.md"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(case.folder().join("notes.md")).unwrap(), "the person's own edit\n");

    let out = case.folio(&["commit", "FOLDER", "/notes.md", "--overwrite", "/notes.md"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(case.folder().join("notes.md")).unwrap(), "notes, revised\n");
}

#[test]
fn errors_name_the_fix() {
    let case = Case::new();
    let out = case.folio(&["commit", "FOLDER", "relative/path"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("path must be absolute (got \"relative/path\") — hint:"), "{}", stderr(&out));
    let out = case.folio(&["status", "/definitely/not/here"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("cannot open folder /definitely/not/here"), "{}", stderr(&out));
    assert!(stderr(&out).contains("hint: check that the folder exists"), "{}", stderr(&out));
    let out = case.folio(&["discard", "FOLDER", "/nothing"]);
    assert!(stderr(&out).contains("nothing is pending at /nothing — hint: `folio status`"), "{}", stderr(&out));
}

#[test]
fn help_explains_every_command_and_the_global_state_dir() {
    let out = Command::new(env!("CARGO_BIN_EXE_folio")).arg("--help").output().unwrap();
    let text = stdout(&out);
    for needle in ["status", "commit", "discard", "bench", "--state-dir"] {
        assert!(text.contains(needle), "--help lacks {needle}:\n{text}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_folio")).args(["commit", "--help"]).output().unwrap();
    assert!(stdout(&out).contains("--overwrite"));
}

#[test]
fn state_dir_defaults_to_the_environment_variable() {
    let case = Case::new();
    case.stage();
    let out = Command::new(env!("CARGO_BIN_EXE_folio"))
        .args(["status", case.folder().to_str().unwrap(), "--json"])
        .env("FOLIO_STATE_DIR", case.state())
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["changes"].as_array().unwrap().len(), 4);
    assert!(Path::new(&case.state()).join("folders").is_dir());
}

#[test]
fn bench_prints_its_figures() {
    let out = Command::new(env!("CARGO_BIN_EXE_folio"))
        .args(["bench", "--files", "200", "--changed", "20"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for needle in ["commit 20 changed files", "pending() with 20 changes", "walk all 200 files", " ms"] {
        assert!(text.contains(needle), "bench output lacks {needle:?}:\n{text}");
    }
}

/// `folio doctor --render-test` renders env:motion's built-in scene with no model: a still and a
/// 60-frame mp4 in the temporary directory, their paths and timings in a row that must pass.
#[test]
fn doctor_render_test_renders_a_clip_and_says_where() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_folio"))
        .args(["doctor", "--render-test", "--json"])
        .env("TMPDIR", tmp.path())
        .env("FOLIO_STATE_DIR", tmp.path().join("state"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let row = v["capabilities"].as_array().unwrap().iter().find(|r| r["name"] == "render-test").unwrap().clone();
    assert_eq!(row["ok"], true, "{row}");
    let clip = tmp.path().join("folio-render-test.mp4");
    let detail = row["detail"].as_str().unwrap();
    assert!(detail.contains(&clip.display().to_string()) && detail.contains("60 frames 640×360"), "{detail}");
    let bytes = std::fs::read(&clip).unwrap();
    assert_eq!(&bytes[4..8], b"ftyp", "an mp4");
    assert_eq!(&std::fs::read(tmp.path().join("folio-render-test.png")).unwrap()[1..4], b"PNG");
}

#[test]
fn doctor_reports_each_capability_with_its_fix() {
    let out = Command::new(env!("CARGO_BIN_EXE_folio")).args(["doctor", "--json"]).output().unwrap();
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = rows.to_string();
    assert!(text.contains("pdfium") && text.contains("libreoffice") && text.contains("\"provider\""), "{text}");
    assert!(out.status.success(), "PDFium is installed by scripts/install.sh, so doctor passes: {text}");
    // An explicit library path that does not exist is named, not silently passed over.
    let out = Command::new(env!("CARGO_BIN_EXE_folio"))
        .arg("doctor")
        .env("FOLIO_PDFIUM_PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("✗ pdfium") && text.contains("FOLIO_PDFIUM_PATH") && text.contains("fix:"), "{text}");
    // Chromium and ffmpeg are optional rows: hidden behind explicit paths that name nothing,
    // each is named with its fix, and the doctor still passes.
    let out = Command::new(env!("CARGO_BIN_EXE_folio"))
        .arg("doctor")
        .env("FOLIO_CHROMIUM_PATH", "/nonexistent/chromium")
        .env("FOLIO_FFMPEG_PATH", "/nonexistent/ffmpeg")
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "optional rows do not fail the doctor: {text}");
    for (tool, var, package) in
        [("chromium", "FOLIO_CHROMIUM_PATH", "chromium-headless-shell"), ("ffmpeg", "FOLIO_FFMPEG_PATH", "ffmpeg")]
    {
        assert!(
            text.contains(&format!("✗ {tool:<11} {var} names /nonexistent/{tool}, which does not exist")),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "  fix: point {var} at the {tool} executable, or unset it to search PATH; to install it: sudo apt-get install {package}\n"
            )),
            "{text}"
        );
    }
}
