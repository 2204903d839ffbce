//! The commands through Tauri's mock runtime (no display): the same IPC path the UI uses.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod common;

use folio_desktop::api::*;
use folio_desktop::commands::AppState;
use serde_json::{Value, json};

mod mock;
use mock::{App, app, call, call_json};

#[test]
fn before_a_folder_is_open_status_is_empty_and_other_commands_say_what_to_do() {
    let app = app();
    let status: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    assert_eq!(status.folder, None);
    let err = call::<TreeListResponse>(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap_err();
    assert!(err.contains("no folder is open") && err.contains("Open Folder"), "{err}");
}

/// A failed command reaches the UI as `{kind, message, hint}`, the fix apart from the message.
#[test]
fn a_failed_command_answers_kind_message_and_hint() {
    let app = app();
    let check = |cmd: &str, body: Value, kind: &str, message: &str, hint: &str| {
        let err = call_json::<Value>(&app, cmd, body).unwrap_err();
        assert_eq!(err["kind"], kind, "{cmd}: {err}");
        assert!(err["message"].as_str().unwrap().contains(message), "{cmd}: {err}");
        assert!(!err["message"].as_str().unwrap().contains("hint:"), "{cmd}: the hint is split off: {err}");
        assert!(err["hint"].as_str().unwrap().contains(hint), "{cmd}: {err}");
    };
    check("tree_list", json!({"params": {"path": "/"}}), "noFolder", "no folder is open", "Open Folder");
    check("preview_info", json!({"params": {"path": "/a.png"}}), "noFolder", "no folder is open", "Open Folder");
    let folder = open_fixture(&app);
    check("file_read", json!({"params": {"path": "/none.txt"}}), "failed", "/none.txt", "ls its directory");
    check("preview_info", json!({"params": {"path": "/none.txt"}}), "notFound", "/none.txt does not", "pick it again");
    check("preview_info", json!({"params": {"path": "none.txt"}}), "badRequest", "not a path", "use an absolute path");
    drop(folder);
}

#[test]
fn the_tree_marks_environment_zones_apart_from_the_folders_own() {
    let app = app();
    let folder = tempfile::tempdir().unwrap();
    common::write(folder.path());
    let path = folder.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": path}})).unwrap();
    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap();
    let zoned: Vec<(&str, bool)> =
        tree.entries.iter().filter_map(|e| e.zone.as_ref().map(|z| (e.path.as_str(), z.writable))).collect();
    assert_eq!(
        zoned,
        [("/skills", false), ("/std", false), ("/tmp", true)],
        "zones are marked, the folder's own are not"
    );
    let std = tree.entries.iter().find(|e| e.path == "/std").unwrap();
    assert!(std.zone.as_ref().unwrap().holds.contains("module documentation"), "{std:?}");
    for own in ["scripts", "notes.txt"] {
        assert!(tree.entries.iter().any(|e| e.name == own && e.zone.is_none()), "{own}: {:?}", tree.entries);
    }
    assert!(!tree.entries.iter().any(|e| e.name == ".env"), "/.env is not in the tree");
    // Below a zone's root, rows are plain.
    let inside: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/std"}})).unwrap();
    assert!(inside.entries.iter().all(|e| e.zone.is_none()), "{:?}", inside.entries);
}

#[test]
fn opening_a_missing_folder_says_so() {
    let app = app();
    let err =
        call::<FolderOpenResponse>(&app, "folder_open", json!({"params": {"path": "/no/such/folder"}})).unwrap_err();
    assert!(err.contains("/no/such/folder") && err.contains("choose an existing folder"), "{err}");
}

#[test]
fn open_list_read_run_commit_and_discard_through_ipc() {
    let app = app();
    let folder = tempfile::tempdir().unwrap();
    common::write(folder.path());
    let path = folder.path().display().to_string();

    let opened: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": path}})).unwrap();
    assert_eq!(opened.name, folder.path().file_name().unwrap().to_string_lossy());

    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap();
    let names: Vec<&str> = tree.entries.iter().map(|e| e.name.as_str()).collect();
    assert!(names.contains(&"notes.txt") && names.contains(&"scripts"), "{names:?}");
    assert!(!names.contains(&".env"), "/.env is hidden: {names:?}");
    assert!(tree.entries.iter().all(|e| e.badge.is_none()));

    let file: FileReadResponse = call(&app, "file_read", json!({"params": {"path": "/report.md"}})).unwrap();
    assert_eq!(file.text.as_deref(), Some("# Q3 report\n\nRevenue grew.\n"));

    let scripts: ScriptsListResponse = call(&app, "scripts_list", json!({})).unwrap();
    assert_eq!(scripts.scripts.len(), 1);
    assert_eq!(scripts.scripts[0].path, "/scripts/summarise.js");
    assert_eq!(scripts.scripts[0].summary, "Summarises notes.txt into out/summary.md.");

    // scripts_run takes a Channel, which the mock IPC cannot build; the session runs it directly
    // in the session tests. Here the same edits are made through the state the commands share.
    let state = tauri::Manager::state::<AppState>(&app.webview);
    let session = state.current().unwrap();
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = lines.clone();
    let run = session
        .run_script(
            ScriptsRunParams { path: "/scripts/summarise.js".into(), args: None },
            Box::new(move |line| sink.lock().unwrap().push(line.text)),
        )
        .unwrap();
    assert!(run.ok, "{run:?}");
    assert_eq!(run.result_text.as_deref(), Some("\"summarised 23 characters\""));
    assert_eq!(*lines.lock().unwrap(), ["step 1/3: read notes", "step 2/3: wrote summary", "step 3/3: done"]);

    let status: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    let paths: Vec<&str> = status.changes.iter().map(|c| c.path.as_str()).collect();
    assert!(paths.contains(&"/out/summary.md") && paths.contains(&"/out/scratch.txt"), "{paths:?}");

    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap();
    let out = tree.entries.iter().find(|e| e.name == "out").unwrap();
    assert!(out.badge.is_some(), "a directory holding changes is badged");
    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/out"}})).unwrap();
    assert!(tree.entries.iter().all(|e| e.badge == Some(Badge::Added)), "{:?}", tree.entries);

    let err = call::<CommitApplyResponse>(&app, "commit_apply", json!({"params": {"paths": []}})).unwrap_err();
    assert!(err.contains("nothing was selected"), "{err}");
    let commit: CommitApplyResponse =
        call(&app, "commit_apply", json!({"params": {"paths": ["/out/summary.md"]}})).unwrap();
    assert_eq!(commit.written, ["/out/summary.md"]);
    assert_eq!(
        std::fs::read_to_string(folder.path().join("out/summary.md")).unwrap(),
        "# Summary\n\nBUY MILK\nCALL THE BANK\n"
    );
    assert!(!folder.path().join("out/scratch.txt").exists());

    let discard: DiscardApplyResponse =
        call(&app, "discard_apply", json!({"params": {"paths": ["/out/scratch.txt"]}})).unwrap();
    assert_eq!(discard.discarded, ["/out/scratch.txt"]);
    let status: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    assert!(status.changes.is_empty(), "{:?}", status.changes);
    assert!(!folder.path().join("out/scratch.txt").exists());
}

fn open_fixture(app: &App) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    common::write(folder.path());
    let path = folder.path().display().to_string();
    call::<FolderOpenResponse>(app, "folder_open", json!({"params": {"path": path}})).unwrap();
    folder
}

fn agent(app: &App, verb: &str, args: Value) {
    let state = tauri::Manager::state::<AppState>(&app.webview);
    let reply = state.current().unwrap().environment().call(verb, args);
    assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
}

fn status(app: &App) -> StatusGetResponse {
    call(app, "status_get", json!({})).unwrap()
}

#[test]
fn a_diff_shows_the_lines_and_conflicts_resolve_by_take_theirs_and_by_overwrite() {
    let app = app();
    let folder = open_fixture(&app);
    agent(&app, "write_file", json!({"path": "/notes.txt", "content": "buy milk\ncall mum\n"}));
    agent(&app, "write_file", json!({"path": "/report.md", "content": "# Q3 report\n\nRevenue fell.\n"}));

    let diff: ReviewDiffResponse = call(&app, "review_diff", json!({"params": {"path": "/notes.txt"}})).unwrap();
    assert_eq!((diff.kind, diff.added, diff.removed), (DiffKind::Text, 1, 1));
    let lines: Vec<(LineTag, &str)> = diff.hunks[0].lines.iter().map(|l| (l.tag, l.text.as_str())).collect();
    assert_eq!(
        lines,
        [(LineTag::Context, "buy milk"), (LineTag::Removed, "call the bank"), (LineTag::Added, "call mum")]
    );
    let err = call::<ReviewDiffResponse>(&app, "review_diff", json!({"params": {"path": "/nothing.txt"}})).unwrap_err();
    assert!(err.contains("has no pending change"), "{err}");

    // The person edits both files outside Folio: both changes are now conflicts.
    std::fs::write(folder.path().join("notes.txt"), "theirs: buy bread\n").unwrap();
    std::fs::write(folder.path().join("report.md"), "# Q3 report (edited by hand)\n").unwrap();
    let s = status(&app);
    assert_eq!(s.conflicts, 2, "{:?}", s.changes);
    // The diff compares with what is on disk now, so the person sees what an overwrite replaces.
    let diff: ReviewDiffResponse = call(&app, "review_diff", json!({"params": {"path": "/notes.txt"}})).unwrap();
    assert!(diff.hunks[0].lines.iter().any(|l| l.tag == LineTag::Removed && l.text == "theirs: buy bread"));

    // Commit never overwrites unless the path is named: both are skipped with the reason.
    let commit: CommitApplyResponse =
        call(&app, "commit_apply", json!({"params": {"paths": ["/notes.txt", "/report.md"]}})).unwrap();
    assert!(commit.written.is_empty(), "{commit:?}");
    assert_eq!(commit.skipped.len(), 2);
    assert!(commit.skipped.iter().all(|s| s.reason.contains("edited outside Folio")), "{commit:?}");
    assert_eq!(std::fs::read_to_string(folder.path().join("notes.txt")).unwrap(), "theirs: buy bread\n");

    // Take theirs: Folio's change is dropped and the folder keeps the outside edit.
    call::<DiscardApplyResponse>(&app, "discard_apply", json!({"params": {"paths": ["/notes.txt"]}})).unwrap();
    assert_eq!(std::fs::read_to_string(folder.path().join("notes.txt")).unwrap(), "theirs: buy bread\n");
    let file: FileReadResponse = call(&app, "file_read", json!({"params": {"path": "/notes.txt"}})).unwrap();
    assert_eq!(file.text.as_deref(), Some("theirs: buy bread\n"), "the agent now sees the folder's version");

    // Overwrite, named: Folio's version replaces the outside edit.
    let commit: CommitApplyResponse =
        call(&app, "commit_apply", json!({"params": {"paths": ["/report.md"], "overwrite": ["/report.md"]}})).unwrap();
    assert_eq!(commit.written, ["/report.md"]);
    assert_eq!(std::fs::read_to_string(folder.path().join("report.md")).unwrap(), "# Q3 report\n\nRevenue fell.\n");
    assert!(status(&app).changes.is_empty());
}

#[test]
fn images_and_binaries_are_not_line_diffed_and_new_files_diff_against_nothing() {
    let app = app();
    let _folder = open_fixture(&app);
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    agent(&app, "write_file", json!({"path": "/out/dot.png", "content": png, "encoding": "base64"}));
    agent(&app, "write_file", json!({"path": "/out/blob.bin", "content": "AAECAwQ=", "encoding": "base64"}));
    agent(&app, "write_file", json!({"path": "/out/new.md", "content": "one\ntwo\n"}));
    let diff = |p: &str| call::<ReviewDiffResponse>(&app, "review_diff", json!({"params": {"path": p}})).unwrap();
    let image = diff("/out/dot.png");
    assert_eq!((image.kind, image.media_type.as_str(), image.before_size), (DiffKind::Image, "image/png", None));
    let blob = diff("/out/blob.bin");
    assert_eq!((blob.kind, blob.after_size), (DiffKind::Binary, Some(5)));
    assert!(blob.note.unwrap().contains("binary"));
    let new = diff("/out/new.md");
    assert_eq!((new.kind, new.added, new.removed), (DiffKind::Text, 2, 0));
    assert_eq!(diff("/out").kind, DiffKind::Dir);
}

#[test]
fn a_rename_diffs_against_its_source_and_commits_whole() {
    let app = app();
    let folder = open_fixture(&app);
    agent(&app, "mv", json!({"from": "/report.md", "to": "/final.md"}));
    let diff: ReviewDiffResponse = call(&app, "review_diff", json!({"params": {"path": "/final.md"}})).unwrap();
    assert_eq!((diff.before_path.as_str(), diff.kind, diff.added, diff.removed), ("/report.md", DiffKind::Text, 0, 0));
    assert!(diff.hunks.is_empty(), "a pure move changes no line");
    let change = status(&app).changes.into_iter().find(|c| c.path == "/final.md").unwrap();
    assert_eq!((change.kind, change.from.as_deref()), (ChangeKindName::Renamed, Some("/report.md")));
    // Ticking the rename commits both ends: the new file and the removal of the old one.
    let commit: CommitApplyResponse = call(&app, "commit_apply", json!({"params": {"paths": ["/final.md"]}})).unwrap();
    assert_eq!(
        (commit.written.as_slice(), commit.removed.as_slice()),
        (&["/final.md".to_string()][..], &["/report.md".to_string()][..])
    );
    assert!(!folder.path().join("report.md").exists());
    assert_eq!(std::fs::read_to_string(folder.path().join("final.md")).unwrap(), "# Q3 report\n\nRevenue grew.\n");
}

#[test]
fn dropped_files_and_folders_land_in_inbox_never_overwriting_with_a_row_each() {
    let app = app();
    let folder = open_fixture(&app);
    let host = tempfile::tempdir().unwrap();
    let h = host.path();
    std::fs::write(h.join("sales.csv"), "a,b\n1,2\n").unwrap();
    std::fs::create_dir_all(h.join("data/sub")).unwrap();
    std::fs::write(h.join("data/x.txt"), "x").unwrap();
    std::fs::write(h.join("data/sub/y.txt"), "y").unwrap();
    std::os::unix::fs::symlink(h.join("sales.csv"), h.join("data/link.csv")).unwrap();
    std::fs::create_dir(h.join("empty")).unwrap();
    std::fs::File::create(h.join("huge.bin")).unwrap().set_len(40 * 1024 * 1024).unwrap();
    let p = |n: &str| h.join(n).display().to_string();

    let drop = |paths: Vec<String>| -> InboxDropResponse {
        call(&app, "inbox_drop", json!({"params": {"paths": paths}})).unwrap()
    };
    let r = drop(vec![p("sales.csv"), p("sales.csv"), p("data"), p("empty"), p("huge.bin"), p("missing.txt")]);
    let rows: Vec<(String, Option<String>)> = r
        .results
        .iter()
        .map(|r| (r.source.strip_prefix(&format!("{}/", h.display())).unwrap().to_string(), r.added_as.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            ("sales.csv".into(), Some("/inbox/sales.csv".into())),
            ("sales.csv".into(), Some("/inbox/sales-2.csv".into())),
            ("data/link.csv".into(), None),
            ("data/sub/y.txt".into(), Some("/inbox/data/sub/y.txt".into())),
            ("data/x.txt".into(), Some("/inbox/data/x.txt".into())),
            ("empty".into(), None),
            ("huge.bin".into(), None),
            ("missing.txt".into(), None),
        ]
    );
    assert_eq!((r.added, r.refused), (4, 4));
    let reason = |i: usize| r.results[i].refused.clone().unwrap();
    assert!(reason(2).contains("is a link"), "{}", reason(2));
    assert!(reason(5).contains("empty"), "{}", reason(5));
    assert!(reason(6).contains("40.0 MB") || reason(6).contains("more than"), "{}", reason(6));
    assert!(reason(7).contains("could not be read"), "{}", reason(7));

    // A second drop of the same folder gets a fresh name; nothing already there is overwritten.
    let again = drop(vec![p("data")]);
    let landed: Vec<&str> = again.results.iter().filter_map(|r| r.added_as.as_deref()).collect();
    assert_eq!(landed, ["/inbox/data-2/sub/y.txt", "/inbox/data-2/x.txt"]);
    let file: FileReadResponse = call(&app, "file_read", json!({"params": {"path": "/inbox/sales.csv"}})).unwrap();
    assert_eq!(file.text.as_deref(), Some("a,b\n1,2\n"));
    // Dropped files are pending like any change: the folder is untouched until a commit.
    assert!(!folder.path().join("inbox").exists());
    assert!(status(&app).changes.iter().any(|c| c.path == "/inbox/sales-2.csv"));
}

#[test]
fn the_tree_filter_finds_paths_anywhere_with_badges_and_never_shows_env() {
    let app = app();
    let _folder = open_fixture(&app);
    agent(&app, "write_file", json!({"path": "/out/deep/summary-q3.md", "content": "x"}));
    let find = |q: &str| call::<TreeFindResponse>(&app, "tree_find", json!({"params": {"query": q}})).unwrap();
    let found = find("SUMMAR");
    let paths: Vec<&str> = found.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["/out/deep/summary-q3.md", "/scripts/summarise.js"], "{paths:?}");
    assert_eq!(found.entries[0].badge, Some(Badge::Added));
    assert_eq!(found.entries[1].badge, None);
    assert!(find(".env").entries.iter().all(|e| !e.path.starts_with("/.env")));
    assert!(find("  ").entries.is_empty());
}

#[test]
fn opening_a_pending_file_exports_a_copy_and_says_so() {
    let app = app();
    let folder = open_fixture(&app);
    agent(&app, "write_file", json!({"path": "/out/new.md", "content": "fresh"}));
    agent(&app, "write_file", json!({"path": "/report.md", "content": "changed"}));
    let state = tauri::Manager::state::<AppState>(&app.webview);
    let session = state.current().unwrap();
    let exports = tempfile::tempdir().unwrap();
    let resolve = |p: &str, reveal: bool| folio_desktop::review::files::resolve(&session, p, reveal, exports.path());

    let untouched = resolve("/notes.txt", false).unwrap();
    assert!(!untouched.exported);
    assert_eq!(untouched.host_path, folder.path().join("notes.txt").canonicalize().unwrap().display().to_string());
    for path in ["/out/new.md", "/report.md"] {
        let copy = resolve(path, true).unwrap();
        assert!(copy.exported && copy.message.contains("temporary copy"), "{copy:?}");
        assert!(copy.host_path.starts_with(&exports.path().display().to_string()));
        assert_eq!(
            std::fs::read_to_string(&copy.host_path).unwrap(),
            if path == "/report.md" { "changed" } else { "fresh" }
        );
    }
    assert_eq!(std::fs::read_to_string(folder.path().join("report.md")).unwrap(), "# Q3 report\n\nRevenue grew.\n");
    let err = resolve("/out", false).unwrap_err();
    assert!(err.contains("exists only in Folio until you commit it"), "{err}");
    let err = resolve("/gone.txt", false).unwrap_err();
    assert!(err.contains("not in the folder"), "{err}");
}

#[test]
fn a_script_form_comes_from_its_declaration() {
    let app = app();
    let _folder = open_fixture(&app);
    let script = "/**\n * Cleans a table.\n * @param {{ path: string, rows?: number, dry: boolean }} args\n */\nexport default async function clean({ path, rows, dry }) { return path; }\n";
    agent(&app, "write_file", json!({"path": "/scripts/clean.js", "content": script}));
    let form = |p: &str| call::<ScriptsFormResponse>(&app, "scripts_form", json!({"params": {"path": p}}));
    let clean = form("/scripts/clean.js").unwrap();
    let fields: Vec<(&str, FieldInput, bool)> =
        clean.fields.iter().map(|f| (f.name.as_str(), f.input, f.optional)).collect();
    assert_eq!(
        fields,
        [("path", FieldInput::Text, false), ("rows", FieldInput::Number, true), ("dry", FieldInput::Boolean, false)],
        "{:?}",
        clean.signature
    );
    // The fixture's script was never written through the environment, so its declaration is
    // derived on the spot: it takes no arguments.
    let summarise = form("/scripts/summarise.js").unwrap();
    assert!(summarise.fields.is_empty() && !summarise.raw_only, "{summarise:?}");
    assert!(summarise.signature.unwrap().contains("declare function"));
    assert!(form("/scripts/none.js").unwrap_err().contains("/scripts/none.js"));
}

#[test]
fn opened_folders_are_remembered_newest_first() {
    let app = app();
    let first = open_fixture(&app);
    let second = open_fixture(&app);
    let recent: RecentListResponse = call(&app, "recent_list", json!({})).unwrap();
    let paths: Vec<&str> = recent.folders.iter().map(|f| f.path.as_str()).collect();
    let real = |d: &tempfile::TempDir| d.path().canonicalize().unwrap().display().to_string();
    assert_eq!(paths, [real(&second), real(&first)]);
    assert!(recent.folders.iter().all(|f| f.exists));
}

#[test]
fn a_second_launch_opens_its_folder_here_and_says_when_it_cannot() {
    use folio_desktop::review::commands::{FOLDER_OPENED, second_launch};
    use tauri::Listener;
    let app = app();
    let heard = std::sync::Arc::new(std::sync::Mutex::new(Vec::<FolderOpenedNotification>::new()));
    let sink = heard.clone();
    app.app.listen(FOLDER_OPENED, move |event| {
        sink.lock().unwrap().push(serde_json::from_str(event.payload()).unwrap());
    });
    let folder = tempfile::tempdir().unwrap();
    common::write(folder.path());
    let real = folder.path().canonicalize().unwrap().display().to_string();
    // The second launch names the folder relative to its own working directory.
    let cwd = folder.path().parent().unwrap().display().to_string();
    let name = folder.path().file_name().unwrap().to_string_lossy().into_owned();
    second_launch(app.app.handle(), vec!["folio-desktop".into(), name], cwd);
    assert_eq!(status(&app).folder.as_deref(), Some(real.as_str()));

    second_launch(app.app.handle(), vec!["folio-desktop".into(), "/no/such/folder".into()], "/".into());
    assert_eq!(status(&app).folder.as_deref(), Some(real.as_str()), "a bad launch leaves the open folder alone");
    // A launch without a folder only focuses the window.
    second_launch(app.app.handle(), vec!["folio-desktop".into()], "/".into());
    let heard = heard.lock().unwrap();
    assert_eq!(heard.len(), 2);
    assert_eq!(heard[0].folder.as_deref(), Some(real.as_str()));
    assert!(heard[1].error.as_deref().is_some_and(|e| e.contains("/no/such/folder")), "{:?}", heard[1]);
}

/// The reference's bug #2 in the app: a folder opened with `readOnly` (the open-folder flow's
/// "Open read-only" choice) runs a writing script to a refusal that names the fix, and nothing
/// becomes pending; the choice is remembered in the recent list and reused when the folder is
/// opened from it, and opening it writable again takes edits.
#[test]
fn a_folder_opened_read_only_refuses_every_write_and_nothing_pends() {
    let app = app();
    let folder = tempfile::tempdir().unwrap();
    common::write(folder.path());
    let path = folder.path().display().to_string();
    let opened: FolderOpenResponse =
        call(&app, "folder_open", json!({"params": {"path": path, "readOnly": true}})).unwrap();
    assert!(opened.read_only, "{opened:?}");
    assert!(status(&app).read_only);

    let state = tauri::Manager::state::<AppState>(&app.webview);
    let session = state.current().unwrap();
    let run = session
        .run_script(ScriptsRunParams { path: "/scripts/summarise.js".into(), args: None }, Box::new(|_| {}))
        .unwrap();
    assert!(!run.ok, "the writing script must fail: {run:?}");
    let error = run.error.unwrap_or_default();
    for want in [
        "cannot write /out/summary.md: the folder is open read-only, so nothing in it can change here",
        "write to /tmp/summary.md instead",
    ] {
        assert!(error.contains(want), "expected {want:?} in:\n{error}");
    }
    // The agent's verbs are refused the same way; its scratch zone still works.
    let env = session.environment();
    for (verb, args) in [
        ("write_file", json!({"path": "/out/a.md", "content": "x"})),
        ("rm", json!({"path": "/notes.txt"})),
        ("mv", json!({"from": "/notes.txt", "to": "/old.txt"})),
        ("edit_file", json!({"path": "/notes.txt", "old_str": "milk", "new_str": "tea"})),
    ] {
        let reply = env.call(verb, args);
        assert_eq!(reply.status, folio_env::Status::Error, "{verb}: {}", reply.message);
        assert!(reply.message.contains("the folder is open read-only"), "{verb}: {}", reply.message);
    }
    let reply = env.call("write_file", json!({"path": "/tmp/draft.md", "content": "draft"}));
    assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
    let now = status(&app);
    assert!(now.changes.is_empty(), "nothing is pending: {:?}", now.changes);
    assert!(!folder.path().join("out").exists());
    assert_eq!(std::fs::read_to_string(folder.path().join("notes.txt")).unwrap(), "buy milk\ncall the bank\n");

    // Remembered per folder: the recent list says so, and opening it from there (no choice
    // given) opens it read-only again.
    let recent: RecentListResponse = call(&app, "recent_list", json!({})).unwrap();
    assert!(recent.folders[0].read_only, "{:?}", recent.folders);
    let again: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": path}})).unwrap();
    assert!(again.read_only);
    // Chosen writable, the same folder takes edits and forgets the read-only choice.
    let writable: FolderOpenResponse =
        call(&app, "folder_open", json!({"params": {"path": path, "readOnly": false}})).unwrap();
    assert!(!writable.read_only && !status(&app).read_only);
    agent(&app, "write_file", json!({"path": "/out/a.md", "content": "x"}));
    assert!(status(&app).changes.iter().any(|c| c.path == "/out/a.md"), "the edit is pending");
    let recent: RecentListResponse = call(&app, "recent_list", json!({})).unwrap();
    assert!(!recent.folders[0].read_only);
}

/// The folder named on the command line opens on its own thread while the window starts; the
/// first `status_get` waits for it and carries, once, what opening it answered: here the warning
/// about a torn doctor cache, which used to be dropped.
#[test]
fn the_start_up_folder_opens_in_the_background_and_its_warnings_reach_the_first_status() {
    let state = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("a.csv"), "x\n1\n").unwrap();
    std::fs::write(state.path().join("doctor-cache.json"), "{torn").unwrap();
    let app_state = AppState::new(Some(state.path().to_path_buf()));
    app_state.open_in_background(folder.path().to_path_buf());
    let app = folio_desktop::builder(tauri::test::mock_builder(), app_state)
        .build(tauri::test::mock_context(tauri::test::noop_assets()))
        .unwrap();
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    let app = App { app, webview, state };

    let first: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    let opened = std::fs::canonicalize(folder.path()).unwrap();
    assert_eq!(first.folder.as_deref(), Some(opened.to_str().unwrap()));
    assert!(first.notice.is_none(), "{:?}", first.notice);
    let opened = first.opened.expect("the start-up open's answer");
    assert!(opened.warnings.iter().any(|w| w.contains("doctor-cache.json could not be read")), "{:?}", opened.warnings);
    let second: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    assert!(second.opened.is_none(), "given once: {:?}", second.opened);
    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap();
    assert!(format!("{tree:?}").contains("a.csv"), "{tree:?}");
}
