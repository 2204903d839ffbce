//! Containment: links that leave the folder are refused by name; links inside work.

#![cfg(unix)]

use std::os::unix::fs::symlink;

use folio_vfs::{Tree, VPath};

use super::fixture::{Folder, p};

fn folder_with_links() -> (Folder, tempfile::TempDir) {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
    let f = Folder::new("//- /inside/real.txt\nreal\n");
    symlink(outside.path().join("secret.txt"), f.host("/file-out")).unwrap();
    symlink(outside.path(), f.host("/dir-out")).unwrap();
    symlink(f.host("/inside/real.txt"), f.host("/file-in")).unwrap();
    symlink(f.host("/inside"), f.host("/dir-in")).unwrap();
    (f, outside)
}

#[test]
fn links_that_leave_the_folder_are_refused_and_not_listed() {
    let (f, _outside) = folder_with_links();
    let o = f.open();
    for path in ["/file-out", "/dir-out/secret.txt"] {
        let err = o.read(&p(path)).unwrap_err().to_string();
        assert!(err.starts_with(&format!("refusing {path}: it resolves outside the folder (")), "{err}");
        assert!(err.contains("Symlinks that leave the folder are not followed"), "{err}");
        assert!(o.stat(&p(path)).unwrap().is_none());
    }
    let err = o.list(&p("/dir-out")).unwrap_err().to_string();
    assert!(err.starts_with("refusing /dir-out: it resolves outside the folder"), "{err}");
    // Writing through a symlinked parent that leaves the folder is refused too.
    let err = o.write(&p("/dir-out/new.txt"), b"x").unwrap_err().to_string();
    assert!(err.starts_with("refusing /dir-out/new.txt: it resolves outside the folder"), "{err}");
    let names: Vec<String> = o.list(&VPath::root()).unwrap().into_iter().map(|e| e.name).collect();
    assert_eq!(names, ["dir-in", "inside", "file-in"]);
}

#[test]
fn the_disk_view_ignores_pending_changes_and_stays_inside() {
    let (f, _outside) = folder_with_links();
    let o = f.open();
    o.write(&p("/inside/real.txt"), b"pending").unwrap();
    assert_eq!(o.read(&p("/inside/real.txt")).unwrap(), b"pending");
    assert_eq!(o.read_disk(&p("/inside/real.txt")).unwrap(), b"real\n");
    let err = o.read_disk(&p("/file-out")).unwrap_err().to_string();
    assert!(err.starts_with("refusing /file-out: it resolves outside the folder ("), "{err}");
    o.write(&p("/inside/new.txt"), b"new").unwrap();
    assert!(o.read_disk(&p("/inside/new.txt")).is_err(), "a file only the overlay has is not on disk");
}

#[test]
fn links_that_stay_inside_work() {
    let (f, _outside) = folder_with_links();
    let o = f.open();
    assert_eq!(o.read(&p("/file-in")).unwrap(), b"real\n");
    assert_eq!(o.read(&p("/dir-in/real.txt")).unwrap(), b"real\n");
    o.write(&p("/dir-in/made.txt"), b"made").unwrap();
    o.commit(&folio_vfs::Selection::All, &[]).unwrap();
    assert_eq!(std::fs::read(f.host("/inside/made.txt")).unwrap(), b"made");
}

#[test]
fn dot_dot_cannot_climb_out_however_spelled() {
    for raw in ["/../../etc/passwd", "/inside/../../x", "/a/b/../../../"] {
        let err = VPath::parse(raw).unwrap_err().to_string();
        assert!(err.starts_with("path escapes the root"), "{raw}: {err}");
    }
    let (f, _outside) = folder_with_links();
    let o = f.open();
    assert_eq!(o.read(&VPath::parse("/inside/nested/../real.txt").unwrap()).unwrap(), b"real\n");
}
