//! The overlay over a real folder: fall-through reads, invisible writes, pending, discard.

use folio_vfs::{Kind, OverlayOptions, Tree, VPath};

use super::fixture::{Folder, check, p, pending};

const CORPUS: &str = r#"
//- /inbox/one.txt
one
//- /inbox/two.csv
a,b
1,2
//- /notes/plan.md
# plan
"#;

#[test]
fn reads_fall_through_to_the_folder() {
    let f = Folder::new(CORPUS);
    let o = f.open();
    assert_eq!(o.read(&p("/inbox/one.txt")).unwrap(), b"one\n");
    let names: Vec<String> = o.list(&p("/inbox")).unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["one.txt", "two.csv"]);
    let all: Vec<String> = o.walk(&VPath::root()).unwrap().iter().map(|p| p.to_string()).collect();
    assert_eq!(all, ["/inbox/one.txt", "/inbox/two.csv", "/notes/plan.md"]);
    let csv: Vec<String> = o.glob("/**/*.csv").unwrap().iter().map(|p| p.to_string()).collect();
    assert_eq!(csv, ["/inbox/two.csv"]);
    assert_eq!(o.stat(&p("/notes")).unwrap().unwrap().kind, Kind::Dir);
    assert_eq!(o.total_size().unwrap(), 4 + 8 + 7);
    check(&pending(&o), "");
}

#[test]
fn nothing_reaches_the_disk_until_commit() {
    let f = Folder::new(CORPUS);
    let before = f.disk();
    let o = f.open();
    o.write(&p("/inbox/one.txt"), b"ONE").unwrap();
    o.write(&p("/out/report.md"), b"# report").unwrap();
    o.rm(&p("/inbox/two.csv")).unwrap();
    o.mv(&p("/notes/plan.md"), &p("/notes/plan-v1.md")).unwrap();
    o.append(&p("/out/report.md"), b"\nmore").unwrap();

    assert_eq!(o.read(&p("/inbox/one.txt")).unwrap(), b"ONE");
    assert_eq!(o.read(&p("/out/report.md")).unwrap(), b"# report\nmore");
    assert!(o.stat(&p("/inbox/two.csv")).unwrap().is_none());
    assert!(o.read(&p("/notes/plan.md")).unwrap_err().to_string().starts_with("no such file: /notes/plan.md"));
    let names: Vec<String> = o.list(&p("/")).unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["inbox", "notes", "out"]);
    assert_eq!(f.disk(), before, "the folder on disk must not change before commit");

    check(
        &pending(&o),
        "
        /inbox/one.txt modified
        /inbox/two.csv deleted
        /notes/plan-v1.md renamed from /notes/plan.md
        /out/ added
        /out/report.md added
        ",
    );
    let report = o.commit(&folio_vfs::Selection::All, &[]).unwrap();
    assert!(report.conflicts.is_empty());
    assert_eq!(report.pending_left, 0);
    check(
        &f.disk(),
        "
        /inbox/one.txt: ONE
        /notes/plan-v1.md: # plan⏎
        /out/report.md: # report⏎more
        ",
    );
    check(&pending(&o), "");
    // After the commit the overlay reads the committed files from disk.
    assert_eq!(o.read(&p("/out/report.md")).unwrap(), b"# report\nmore");
}

#[test]
fn partial_commit_leaves_the_rest_pending() {
    let f = Folder::new(CORPUS);
    let o = f.open();
    o.write(&p("/out/a.md"), b"a").unwrap();
    o.write(&p("/out/b.md"), b"b").unwrap();
    o.rm(&p("/inbox/one.txt")).unwrap();
    o.mv(&p("/notes/plan.md"), &p("/plan.md")).unwrap();
    // Naming either end of a rename takes the whole rename.
    let report = o.commit(&folio_vfs::Selection::Paths(vec![p("/out/a.md"), p("/notes/plan.md")]), &[]).unwrap();
    assert_eq!(report.written, [p("/out/a.md"), p("/plan.md")]);
    assert_eq!(report.removed, [p("/notes/plan.md")]);
    check(
        &f.disk(),
        "
        /inbox/one.txt: one⏎
        /inbox/two.csv: a,b⏎1,2⏎
        /notes/
        /out/a.md: a
        /plan.md: # plan⏎
        ",
    );
    check(
        &pending(&o),
        "
        /inbox/one.txt deleted
        /out/b.md added
        ",
    );
    let err = o.commit(&folio_vfs::Selection::Paths(vec![p("/nothing/here")]), &[]).unwrap_err();
    assert_eq!(err.to_string(), "nothing is pending at /nothing/here — hint: `folio status` lists the pending changes");
}

#[test]
fn discard_throws_the_work_away_and_the_folder_is_untouched() {
    let f = Folder::new(CORPUS);
    let before = f.disk();
    let o = f.open();
    o.write(&p("/inbox/one.txt"), b"changed").unwrap();
    o.write(&p("/deep/new/file.txt"), b"new").unwrap();
    o.rm(&p("/notes")).unwrap();
    let dropped = o.discard(&folio_vfs::Selection::Paths(vec![p("/deep/new/file.txt")])).unwrap();
    assert_eq!(dropped, [p("/deep/new/file.txt")]);
    // The directories made only to hold the discarded file went with it.
    check(
        &pending(&o),
        "
        /inbox/one.txt modified
        /notes/ deleted
        /notes/plan.md deleted
        ",
    );
    o.discard(&folio_vfs::Selection::All).unwrap();
    check(&pending(&o), "");
    assert_eq!(o.read(&p("/inbox/one.txt")).unwrap(), b"one\n");
    assert_eq!(o.read(&p("/notes/plan.md")).unwrap(), b"# plan\n");
    assert_eq!(f.disk(), before);
}

#[test]
fn a_delete_then_a_rewrite_ends_present() {
    let f = Folder::new(CORPUS);
    let o = f.open();
    o.rm(&p("/inbox/one.txt")).unwrap();
    o.write(&p("/inbox/one.txt"), b"reborn").unwrap();
    check(&pending(&o), "/inbox/one.txt modified");
    o.commit(&folio_vfs::Selection::All, &[]).unwrap();
    assert_eq!(std::fs::read(f.host("/inbox/one.txt")).unwrap(), b"reborn");
}

#[test]
fn removing_a_directory_shadows_everything_under_it() {
    let f = Folder::new(CORPUS);
    let o = f.open();
    o.rm(&p("/inbox")).unwrap();
    assert!(o.stat(&p("/inbox/one.txt")).unwrap().is_none());
    assert!(o.list(&p("/")).unwrap().iter().all(|e| e.name != "inbox"));
    // Recreating the directory does not bring its old content back (the reference resurrected it).
    o.mkdir(&p("/inbox")).unwrap();
    assert!(o.list(&p("/inbox")).unwrap().is_empty());
    o.write(&p("/inbox/fresh.txt"), b"fresh").unwrap();
    let names: Vec<String> = o.list(&p("/inbox")).unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["fresh.txt"]);
    o.commit(&folio_vfs::Selection::All, &[]).unwrap();
    check(
        &f.disk(),
        "
        /inbox/fresh.txt: fresh
        /notes/plan.md: # plan⏎
        ",
    );
    check(&pending(&o), "");
}

#[test]
fn an_empty_directory_the_agent_made_is_committed() {
    let f = Folder::new(CORPUS);
    let o = f.open();
    o.mkdir(&p("/out/charts")).unwrap();
    check(
        &pending(&o),
        "
        /out/ added
        /out/charts/ added
        ",
    );
    o.commit(&folio_vfs::Selection::All, &[]).unwrap();
    assert!(f.host("/out/charts").is_dir());
    check(&pending(&o), "");
}

#[test]
fn a_directory_removal_is_committed_and_old_litter_goes_with_it() {
    let f = Folder::new(CORPUS);
    f.put("/notes/.DS_Store", "litter");
    let o = f.open();
    o.rm(&p("/notes")).unwrap();
    o.commit(&folio_vfs::Selection::All, &[]).unwrap();
    assert!(!f.host("/notes").exists());
}

#[test]
fn pending_edits_survive_the_overlay_being_dropped() {
    let f = Folder::new(CORPUS);
    {
        let o = f.open();
        o.write(&p("/out/kept.md"), b"kept").unwrap();
        o.rm(&p("/inbox/two.csv")).unwrap();
    }
    let again = f.open();
    assert_eq!(again.read(&p("/out/kept.md")).unwrap(), b"kept");
    check(
        &pending(&again),
        "
        /inbox/two.csv deleted
        /out/ added
        /out/kept.md added
        ",
    );
}

#[test]
fn read_only_mode_refuses_every_mutation() {
    let f = Folder::new(CORPUS);
    let o = f.open_with(OverlayOptions { read_only: true, ..OverlayOptions::default() });
    assert_eq!(o.read(&p("/inbox/one.txt")).unwrap(), b"one\n");
    let refusals = [
        o.write(&p("/x"), b"x").unwrap_err(),
        o.rm(&p("/inbox/one.txt")).unwrap_err(),
        o.mkdir(&p("/d")).unwrap_err(),
        o.mv(&p("/inbox/one.txt"), &p("/y")).unwrap_err(),
        o.commit(&folio_vfs::Selection::All, &[]).unwrap_err(),
        o.discard(&folio_vfs::Selection::All).unwrap_err(),
    ];
    for err in refusals {
        let msg = err.to_string();
        assert!(msg.contains("this folder is open read-only — hint:"), "{msg}");
    }
}

#[test]
fn ignore_rules_hide_vcs_dependencies_and_litter() {
    let f = Folder::new(
        r#"
//- /.git/HEAD
ref
//- /node_modules/x/index.js
x
//- /.DS_Store
litter
//- /data.csv
a
"#,
    );
    let o = f.open();
    let names: Vec<String> = o.list(&VPath::root()).unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["data.csv"]);
    assert!(o.stat(&p("/.git/HEAD")).unwrap().is_none());
    let err = o.read(&p("/.git/HEAD")).unwrap_err().to_string();
    assert_eq!(
        err,
        "/.git/HEAD is hidden by Folio's ignore rules (.git/) — hint: remove `.git/` from the folder's ignore list to work on it"
    );
    assert!(o.write(&p("/node_modules/y.js"), b"y").unwrap_err().to_string().contains("(node_modules/)"));
    // With no rules, the same names are ordinary.
    let open =
        f.open_with(OverlayOptions { ignore: Some(folio_vfs::IgnoreRules::none()), ..OverlayOptions::default() });
    assert_eq!(open.read(&p("/.git/HEAD")).unwrap(), b"ref\n");
}

#[test]
fn case_sensitivity_detection_is_a_function_of_path_and_platform() {
    let f = Folder::new("");
    // This Linux temp folder distinguishes case; under Wine, as on Windows, the folder folds it.
    assert_eq!(folio_vfs::detect_case_insensitive(&f.root(), "linux"), cfg!(windows));
    // A path with no letters anywhere falls back to the platform's default.
    let digits = f.tmp.path().join("0123");
    std::fs::create_dir_all(&digits).unwrap();
    let no_letters = std::path::Path::new("/");
    assert!(folio_vfs::detect_case_insensitive(no_letters, "macos"));
    assert!(folio_vfs::detect_case_insensitive(no_letters, "windows"));
    assert!(!folio_vfs::detect_case_insensitive(no_letters, "linux"));
}

#[test]
fn state_lives_in_a_per_folder_directory_under_the_state_root() {
    let f = Folder::new(CORPUS);
    let o = f.open();
    assert!(o.state_dir().starts_with(f.state().join("folders")));
    assert!(o.state_dir().join("overlay.sqlite").is_file());
    let other = Folder::new(CORPUS);
    let o2 = folio_vfs::Overlay::open(
        &other.root(),
        OverlayOptions { state_root: Some(f.state()), ..OverlayOptions::default() },
    )
    .unwrap();
    assert_ne!(o.state_dir(), o2.state_dir(), "two folders never share pending state");
}
