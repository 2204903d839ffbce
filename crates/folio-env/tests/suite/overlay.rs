//! A real folder through the persisted overlay: zone files never become pending changes, and
//! state persists between processes (simulated by reopening).

use std::io::Cursor;

use folio_env::{EnvOptions, Environment};
use serde_json::json;

use super::{err, ok};

fn open(folder: &std::path::Path, state: &std::path::Path) -> Environment {
    Environment::open_folder(
        folder,
        EnvOptions {
            state_root: Some(state.to_path_buf()),
            read_only_paths: vec!["/src".into()],
            ..Default::default()
        },
    )
    .unwrap()
}

#[test]
fn zone_files_never_appear_in_pending_and_state_persists() {
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("src")).unwrap();
    std::fs::write(folder.path().join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::create_dir_all(folder.path().join("tmp")).unwrap();
    std::fs::write(folder.path().join("tmp/mine.txt"), "the person's own tmp").unwrap();
    {
        let env = open(folder.path(), state.path());
        ok(&env, "write_file", json!({"path": "/out/report.md", "content": "# Report"}));
        ok(&env, "write_file", json!({"path": "/tmp/scratch.txt", "content": "scratch"}));
        ok(&env, "checkpoint", json!({"action": "fork", "name": "first"}));
        ok(&env, "read_file", json!({"path": "/.env/orientation.md"}));
        assert!(err(&env, "write_file", json!({"path": "/src/main.rs", "content": "x"})).contains("/src is read-only"));
        let pending: Vec<String> =
            env.overlay().unwrap().pending().unwrap().iter().map(|c| c.path.to_string()).collect();
        assert!(pending.iter().any(|p| p == "/out/report.md"), "{pending:?}");
        for p in &pending {
            assert!(
                !["/tmp", "/.env", "/std", "/skills"].iter().any(|z| p == z || p.starts_with(&format!("{z}/"))),
                "zone file pending: {p}"
            );
        }
        // The folder's own tmp/ is shadowed, said so, and untouched.
        assert!(
            env.warnings().iter().any(|w| w.contains("`/tmp`") && w.contains("untouched on disk")),
            "{:?}",
            env.warnings()
        );
        assert!(folio_env::orientation(&env).contains("Read this first"));
        assert!(err(&env, "read_file", json!({"path": "/tmp/mine.txt"})).contains("no such file"));
    }
    assert_eq!(std::fs::read_to_string(folder.path().join("tmp/mine.txt")).unwrap(), "the person's own tmp");
    assert!(!folder.path().join("out").exists(), "nothing reaches the folder before a commit");
    assert_eq!(std::fs::read_to_string(folder.path().join("src/main.rs")).unwrap(), "fn main() {}\n");

    // A second process sees the pending edit, /tmp, undo history and the checkpoint.
    let env = open(folder.path(), state.path());
    assert!(ok(&env, "read_file", json!({"path": "/tmp/scratch.txt"})).contains("scratch"));
    assert!(ok(&env, "read_file", json!({"path": "/out/report.md"})).contains("# Report"));
    assert!(ok(&env, "checkpoint", json!({})).contains("first"));
    assert!(ok(&env, "undo", json!({"path": "/out/report.md"})).contains("undid its creation"));
    let pending = env.overlay().unwrap().pending().unwrap();
    assert!(pending.iter().all(|c| c.path.as_str() != "/out/report.md"), "{pending:?}");

    let mut out = Vec::new();
    folio_env::run_jsonl(&env, Cursor::new("{\"verb\":\"ls\",\"args\":{\"path\":\"/\"}}\n"), &mut out).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("\"status\":\"success\""));
}

/// A folder opened read-only (the reference could not open one at all, though its error said
/// to): every change to the person's files is refused with the way out, `/tmp` still works, a
/// dropped file is refused too, and nothing is ever pending.
#[test]
fn a_folder_opened_read_only_changes_nothing_and_says_how_to_work() {
    use super::{Expect, check};
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("notes.txt"), "q3 revenue grew\n").unwrap();
    let env = Environment::open_folder(
        folder.path(),
        EnvOptions { state_root: Some(state.path().to_path_buf()), read_only_folder: true, ..Default::default() },
    )
    .unwrap();
    const REFUSED: &str = "the folder is open read-only, so nothing in it can change here";
    check(
        &env,
        &[
            ("read_file", json!({"path": "/notes.txt"}), Expect::Ok(&["q3 revenue grew"])),
            (
                "write_file",
                json!({"path": "/out/report.md", "content": "# R"}),
                Expect::Err(&[
                    "cannot write /out/report.md",
                    REFUSED,
                    "write to /tmp/report.md instead",
                    "--read-only-folder",
                ]),
            ),
            (
                "edit_file",
                json!({"path": "/notes.txt", "old_str": "grew", "new_str": "fell"}),
                Expect::Err(&["/notes.txt", REFUSED]),
            ),
            ("rm", json!({"path": "/notes.txt"}), Expect::Err(&["/notes.txt", REFUSED])),
            ("mv", json!({"from": "/notes.txt", "to": "/old.txt"}), Expect::Err(&[REFUSED])),
            ("cp", json!({"from": "/notes.txt", "to": "/copy.txt"}), Expect::Err(&["/copy.txt", REFUSED])),
            ("cp", json!({"from": "/notes.txt", "to": "/tmp/notes.txt"}), Expect::Ok(&[])),
            ("write_file", json!({"path": "/tmp/draft.md", "content": "draft"}), Expect::Ok(&[])),
        ],
    );
    let dropped = env.mount("/inbox", "drop.csv", b"a,b\n").unwrap_err().to_string();
    assert!(dropped.contains("cannot mount /inbox") && dropped.contains(REFUSED), "{dropped}");
    assert_eq!(env.overlay().unwrap().pending_count().unwrap(), 0, "nothing is pending");
    assert_eq!(std::fs::read_to_string(folder.path().join("notes.txt")).unwrap(), "q3 revenue grew\n");
    assert!(!folder.path().join("out").exists() && !folder.path().join("inbox").exists());
    // Without the option the same folder takes edits as before.
    drop(env);
    let env = open(folder.path(), state.path());
    ok(&env, "write_file", json!({"path": "/out/report.md", "content": "# R"}));
}

/// Naming `/` as a read-only path points at the whole-folder option, which now exists.
#[test]
fn a_read_only_root_path_names_the_read_only_folder_option() {
    let folder = tempfile::tempdir().unwrap();
    let opts = EnvOptions { read_only_paths: vec!["/".into()], ..Default::default() };
    let Err(e) = Environment::open_folder(folder.path(), opts) else { panic!("/ was accepted as a read-only path") };
    let text = e.to_string();
    assert!(text.contains("open the whole folder read-only instead") && text.contains("--read-only-folder"), "{text}");
}

/// `read_range` through the mount table: the folder's files, pending files and a zone's files
/// (a `HostDirTree`) read in part, and a zone's error names the agent's path, not the zone's.
#[test]
fn ranges_reach_the_folder_and_the_zones() {
    use folio_vfs::{Tree, VPath};
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("disk.txt"), "0123456789").unwrap();
    let env = open(folder.path(), state.path());
    ok(&env, "write_file", json!({"path": "/out/new.txt", "content": "abcdefghij"}));
    ok(&env, "write_file", json!({"path": "/tmp/scratch.txt", "content": "ABCDEFGHIJ"}));
    let read =
        |path: &str, offset: u64, len: u64| match env.tree().read_range(&VPath::parse(path).unwrap(), offset, len) {
            Ok(data) => String::from_utf8(data).unwrap(),
            Err(e) => format!("error: {e}"),
        };
    let cases = [
        ("/disk.txt", 3, 4, "3456"),
        ("/disk.txt", 8, 4, "89"),
        ("/out/new.txt", 0, 3, "abc"),
        ("/tmp/scratch.txt", 7, 9, "HIJ"),
        ("/tmp/scratch.txt", 10, 1, ""),
        ("/tmp/missing.txt", 0, 1, "error: no such file: /tmp/missing.txt — hint: ls its directory to see what exists"),
        ("/tmp", 0, 1, "error: no such file: /tmp (it is a directory) — hint: ls it, or read a file inside it"),
    ];
    for (path, offset, len, want) in cases {
        assert_eq!(read(path, offset, len), want, "{path} {offset}+{len}");
    }
}

#[test]
fn a_folder_holding_a_name_with_control_characters_still_lists_and_names_it_with_a_fix() {
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("inbox")).unwrap();
    std::fs::write(folder.path().join("inbox/Icon\r"), "").unwrap();
    std::fs::write(folder.path().join("inbox/notes.txt"), "hello\n").unwrap();
    let env = open(folder.path(), state.path());
    let listing = ok(&env, "ls", json!({"path": "/inbox"}));
    assert!(listing.contains("notes.txt (6B)"), "{listing}");
    assert!(
        listing.contains(r#""Icon\r" — its name has control characters"#) && listing.contains("hint:"),
        "{listing}"
    );
    let e = err(&env, "describe", json!({"path": "/inbox/Icon\r"}));
    assert!(e.contains("control characters") && e.contains("hint:"), "{e}");
}
