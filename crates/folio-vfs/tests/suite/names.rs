//! The folder's own name semantics (case, Unicode normalisation, names Windows cannot hold, long
//! paths) and files held open at commit. On Linux the semantics are forced onto an ordinary
//! folder (the overlay then simulates them); under Wine the case tests run on a folder that
//! really ignores case, with the semantics detected, and the held-open test holds the file open
//! for real.

use folio_vfs::{CaseMode, Conflict, NormalisationMode, Overlay, OverlayOptions, Selection, Tree, VfsError};

use super::fixture::{Folder, check, p, pending};

/// A folder that ignores case: detected on Windows (and under Wine), forced elsewhere.
fn ignoring_case(f: &Folder) -> Overlay {
    let o = if cfg!(windows) { f.open() } else { f.open_case_insensitive() };
    assert!(o.case_insensitive(), "this folder should ignore case");
    o
}

fn err(result: folio_vfs::Result<()>) -> String {
    match result {
        Ok(()) => panic!("expected a refusal"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_folder_is_probed_for_what_it_folds_and_the_probe_leaves_nothing() {
    let f = Folder::new("");
    let probe = folio_vfs::probe_folder(&f.root()).unwrap();
    // Linux folders keep every spelling apart; Wine's folders, like Windows', ignore case.
    assert_eq!(probe.case_insensitive, cfg!(windows));
    assert!(!probe.normalisation_insensitive);
    assert_eq!(std::fs::read_dir(f.root()).unwrap().count(), 0, "the probe's temp name is removed");
    let o = f.open();
    assert_eq!(o.case_insensitive(), cfg!(windows));
    assert!(!o.name_rules().fold_unicode);
    // Forced semantics win over the probe (how the tests below simulate a folder).
    let forced = f.open_with(OverlayOptions {
        case: CaseMode::Insensitive,
        normalisation: NormalisationMode::Insensitive,
        ..OverlayOptions::default()
    });
    assert!(forced.name_rules().fold_case && forced.name_rules().fold_unicode);
    assert_eq!(std::fs::read_dir(f.root()).unwrap().count(), 0);
}

#[test]
fn on_a_case_insensitive_folder_another_spelling_is_refused_at_write_naming_the_first() {
    let f = Folder::new("//- /Report.pdf\nold\n");
    let o = ignoring_case(&f);
    // Beside /Report.pdf on disk, /report.pdf is that file: refused, never "modified".
    let msg = err(o.write(&p("/report.pdf"), b"new"));
    assert!(msg.contains("ignores case") && msg.contains("same name as /Report.pdf"), "{msg}");
    assert!(msg.contains("mv /Report.pdf /report.pdf"), "{msg}");
    check(&pending(&o), "");
    // A second pending spelling is refused naming the first.
    o.write(&p("/out/a.txt"), b"1").unwrap();
    let msg = err(o.write(&p("/out/A.txt"), b"2"));
    assert!(msg.contains("same name as /out/a.txt, which is pending"), "{msg}");
    o.mkdir(&p("/OUT/sub")).unwrap();
    let msg = err(o.mkdir(&p("/out/A.txt")));
    assert!(msg.contains("same name as /out/a.txt"), "{msg}");
    // A directory above a new name takes the folder's spelling: /OUT/b.txt lands in /out/.
    o.write(&p("/OUT/b.txt"), b"3").unwrap();
    check(
        &pending(&o),
        "
        /out/ added
        /out/a.txt added
        /out/b.txt added
        /out/sub/ added
        ",
    );
    let report = o.commit(&Selection::All, &[]).unwrap();
    assert!(report.conflicts.is_empty(), "{:?}", report.conflicts);
    check(&f.disk(), "/Report.pdf: old⏎\n/out/a.txt: 1\n/out/b.txt: 3\n/out/sub/");
    // The same folder treated as case-sensitive (Linux only: Wine's folders fold case) takes both.
    if !cfg!(windows) {
        let o2 = f.open_with(OverlayOptions { case: CaseMode::Sensitive, ..OverlayOptions::default() });
        o2.write(&p("/report.pdf"), b"new").unwrap();
        check(&pending(&o2), "/report.pdf added");
    }
}

#[test]
fn a_rename_that_changes_only_case_commits() {
    let f = Folder::new("//- /Report.pdf\nold\n//- /Inbox/a.txt\na\n");
    let o = ignoring_case(&f);
    o.mv(&p("/Report.pdf"), &p("/REPORT.pdf")).unwrap();
    check(&pending(&o), "/REPORT.pdf renamed from /Report.pdf");
    let report = o.commit(&Selection::All, &[]).unwrap();
    assert!(report.conflicts.is_empty(), "{:?}", report.conflicts);
    check(&f.disk(), "/Inbox/a.txt: a⏎\n/REPORT.pdf: old⏎");
    check(&pending(&o), "");
    // A directory renamed only by case is refused up front with the way round.
    let msg = err(o.mv(&p("/Inbox"), &p("/inbox")));
    assert!(msg.contains("renaming a directory only by case is not supported"), "{msg}");
    check(&pending(&o), "");
}

#[test]
fn the_conflict_check_compares_paths_as_the_folder_does() {
    let f = Folder::new("");
    let o = ignoring_case(&f);
    o.write(&p("/report.pdf"), b"agent").unwrap();
    // The person saves /Report.pdf meanwhile: on this folder it is the agent's path.
    f.put("/Report.pdf", "person");
    let changes = o.pending().unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].conflict, Some(Conflict::CaseCollision { existing: "/Report.pdf".into() }));
    let report = o.commit(&Selection::All, &[]).unwrap();
    assert_eq!(report.conflicts.len(), 1);
    check(&f.disk(), "/Report.pdf: person");
}

#[test]
fn names_windows_cannot_hold_are_refused_at_write_with_the_reason() {
    let f = Folder::new("");
    let o = f.open();
    for (path, reason) in [
        ("/CON", "CON is a device name Windows reserves"),
        ("/out/aux.txt", "AUX is a device name Windows reserves"),
        ("/Lpt1.csv", "LPT1 is a device name"),
        ("/com9.tar.gz", "COM9 is a device name"),
        ("/report.", "trailing dot or space"),
        ("/report ", "trailing dot or space"),
        ("/dir./x.txt", "trailing dot or space"),
    ] {
        let msg = err(o.write(&p(path), b"x"));
        assert!(msg.contains(reason) && msg.contains("choose another name"), "{path}: {msg}");
    }
    let msg = err(o.mkdir(&p("/nul")));
    assert!(msg.contains("NUL is a device name"), "{msg}");
    check(&pending(&o), "");
    // Ordinary names that merely start like one are fine.
    o.write(&p("/console.txt"), b"x").unwrap();
    o.write(&p("/auxiliary/com10.txt"), b"x").unwrap();
    // A name already on disk stays editable (such a file can exist only off Windows).
    if !cfg!(windows) {
        f.put("/aux.txt", "old");
        o.write(&p("/aux.txt"), b"new").unwrap();
        o.commit(&Selection::All, &[]).unwrap();
        assert_eq!(std::fs::read(f.host("/aux.txt")).unwrap(), b"new");
    }
}

#[test]
fn paths_longer_than_windows_260_characters_work() {
    let f = Folder::new("");
    let o = f.open();
    let segment = "a-rather-long-directory-name-of-the-kind-exports-make".repeat(2);
    let path = format!("/{segment}/{segment}/{segment}/{segment}/workbook.xlsx");
    assert!(o.root().to_string_lossy().len() + path.len() > 300);
    o.write(&p(&path), b"cells").unwrap();
    assert_eq!(o.read(&p(&path)).unwrap(), b"cells");
    let report = o.commit(&Selection::All, &[]).unwrap();
    assert!(report.conflicts.is_empty());
    check(&pending(&o), "");
    assert_eq!(o.read(&p(&path)).unwrap(), b"cells");
    o.mv(&p(&path), &p(&format!("{path}.bak"))).unwrap();
    o.commit(&Selection::All, &[]).unwrap();
    assert_eq!(o.read(&p(&format!("{path}.bak"))).unwrap(), b"cells");
    assert!(o.stat(&p(&path)).unwrap().is_none());
}

/// Holds the host file open as another program would (Excel holds a workbook so): for real on
/// Windows, where the OS refuses to replace it; through the overlay's test hook elsewhere.
struct Held {
    #[cfg(windows)]
    _file: std::fs::File,
    #[cfg(not(windows))]
    path: std::path::PathBuf,
}

fn hold(path: &std::path::Path) -> Held {
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new().read(true).write(true).share_mode(0).open(path).unwrap();
        Held { _file: file }
    }
    #[cfg(not(windows))]
    {
        folio_vfs::fault::hold_open(path);
        Held { path: path.to_path_buf() }
    }
}

#[cfg(not(windows))]
impl Drop for Held {
    fn drop(&mut self) {
        folio_vfs::fault::release(&self.path);
    }
}

#[test]
fn a_file_held_open_at_commit_is_a_named_conflict_with_nothing_torn_or_left() {
    let f = Folder::new("//- /Book.xlsx\nold\n//- /notes.txt\nn\n//- /a.txt\na\n");
    let o = f.open();
    o.write(&p("/Book.xlsx"), b"new").unwrap();
    o.mv(&p("/a.txt"), &p("/Book2.xlsx")).unwrap();
    o.write(&p("/notes.txt"), b"N").unwrap();
    let held = hold(&o.root().join("Book.xlsx"));
    let held_source = hold(&o.root().join("a.txt"));
    let report = o.commit(&Selection::All, &[]).unwrap();
    assert_eq!(report.conflicts, vec![(p("/Book.xlsx"), Conflict::HeldOpen), (p("/Book2.xlsx"), Conflict::HeldOpen)],);
    let msg = Conflict::HeldOpen.to_string();
    assert!(msg.contains("close it there and commit again") && msg.contains("Excel"), "{msg}");
    assert_eq!(report.written, vec![p("/notes.txt")]);
    drop(held);
    drop(held_source);
    // Nothing torn (the rename's source is still there), no temp file left behind.
    check(&f.disk(), "/Book.xlsx: old⏎\n/a.txt: a⏎\n/notes.txt: N");
    check(&pending(&o), "/Book.xlsx modified\n/Book2.xlsx renamed from /a.txt");
    // Closed in Excel, the same commit goes through.
    let report = o.commit(&Selection::All, &[]).unwrap();
    assert!(report.conflicts.is_empty(), "{:?}", report.conflicts);
    check(&f.disk(), "/Book.xlsx: new\n/Book2.xlsx: a⏎\n/notes.txt: N");
}

#[test]
fn on_a_normalisation_insensitive_folder_nfc_finds_the_nfd_name_and_the_commit_keeps_it() {
    let nfd = "/Cafe\u{301}.txt";
    let nfc = "/Caf\u{e9}.txt";
    let f = Folder::new("");
    f.put(nfd, "old");
    let o = f.open_with(OverlayOptions { normalisation: NormalisationMode::Insensitive, ..OverlayOptions::default() });
    assert_eq!(o.read(&p(nfc)).unwrap(), b"old");
    o.write(&p(nfc), b"new").unwrap();
    assert_eq!(o.read(&p(nfc)).unwrap(), b"new");
    // One change, under the name the disk has.
    check(&pending(&o), &format!("{nfd} modified"));
    let names: Vec<String> = o.list(&p("/")).unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, [&nfd[1..]]);
    o.commit(&Selection::All, &[]).unwrap();
    check(&f.disk(), &format!("{nfd}: new"));
    // Without the folding the two spellings are two names, as on Linux and NTFS.
    let plain = Folder::new("");
    plain.put(nfd, "old");
    let o =
        plain.open_with(OverlayOptions { normalisation: NormalisationMode::Sensitive, ..OverlayOptions::default() });
    assert!(matches!(o.read(&p(nfc)), Err(VfsError::NoSuchFile(_))));
}

#[test]
fn reading_a_directory_says_it_is_one() {
    let f = Folder::new("//- /inbox/one.txt\none\n");
    let o = f.open();
    let msg = o.read(&p("/inbox")).unwrap_err().to_string();
    assert!(msg.contains("(it is a directory)"), "{msg}");
}
