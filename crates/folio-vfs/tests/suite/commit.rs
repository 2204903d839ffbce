//! Conflicts: the folder changed outside Folio after the overlay shadowed a path.

use folio_vfs::{Conflict, Selection, Tree};

use super::fixture::{Folder, check, p, pending};

const CORPUS: &str = r#"
//- /a.txt
a
//- /b.txt
b
//- /c.txt
c
//- /d/inner.txt
inner
"#;

/// Each row: what the agent does, what the person then does on disk, the conflict `pending()`
/// shows (or none).
#[test]
fn conflict_table() {
    type Step = fn(&folio_vfs::Overlay, &Folder);
    let cases: &[(&str, Step, Step, Option<Conflict>)] = &[
        (
            "edited outside",
            |o, _| o.write(&p("/a.txt"), b"agent").unwrap(),
            |_, f| f.put("/a.txt", "person edit"),
            Some(Conflict::EditedOutside),
        ),
        (
            "deleted outside",
            |o, _| o.write(&p("/a.txt"), b"agent").unwrap(),
            |_, f| std::fs::remove_file(f.host("/a.txt")).unwrap(),
            Some(Conflict::DeletedOutside),
        ),
        (
            "created outside",
            |o, _| o.write(&p("/new.txt"), b"agent").unwrap(),
            |_, f| f.put("/new.txt", "person"),
            Some(Conflict::CreatedOutside),
        ),
        (
            "touched, same content",
            |o, _| o.write(&p("/a.txt"), b"agent").unwrap(),
            |_, f| {
                let file = std::fs::File::options().write(true).open(f.host("/a.txt")).unwrap();
                file.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5)).unwrap();
            },
            None,
        ),
        (
            "removed by agent, edited outside",
            |o, _| o.rm(&p("/b.txt")).unwrap(),
            |_, f| f.put("/b.txt", "person"),
            Some(Conflict::EditedOutside),
        ),
        (
            "removed by agent, removed outside too",
            |o, _| o.rm(&p("/b.txt")).unwrap(),
            |_, f| std::fs::remove_file(f.host("/b.txt")).unwrap(),
            None,
        ),
        (
            "renamed by agent, source edited outside",
            |o, _| o.mv(&p("/c.txt"), &p("/c2.txt")).unwrap(),
            |_, f| f.put("/c.txt", "person"),
            Some(Conflict::EditedOutside),
        ),
        (
            "directory removed, file added inside outside",
            |o, _| o.rm(&p("/d")).unwrap(),
            |_, f| f.put("/d/new.txt", "person"),
            Some(Conflict::NewFilesInside { count: 1 }),
        ),
        (
            "file replaced by a directory outside",
            |o, _| o.write(&p("/a.txt"), b"agent").unwrap(),
            |_, f| {
                std::fs::remove_file(f.host("/a.txt")).unwrap();
                std::fs::create_dir(f.host("/a.txt")).unwrap();
            },
            Some(Conflict::ReplacedOutside),
        ),
    ];
    for (name, agent, person, expect) in cases {
        let f = Folder::new(CORPUS);
        let o = f.open();
        agent(&o, &f);
        let conflicts: Vec<_> = o.pending().unwrap().into_iter().filter_map(|c| c.conflict).collect();
        assert!(conflicts.is_empty(), "{name}: no conflict before the person acts, got {conflicts:?}");
        let disk_before = f.disk();
        person(&o, &f);
        let conflicts: Vec<_> = o.pending().unwrap().into_iter().filter_map(|c| c.conflict).collect();
        assert_eq!(conflicts.first(), expect.as_ref(), "{name}");
        let disk_after_person = f.disk();
        let report = o.commit(&Selection::All, &[]).unwrap();
        if expect.is_some() {
            assert_eq!(report.conflicts.len(), 1, "{name}: the conflict is reported, not written");
            assert_eq!(report.pending_left, 1, "{name}");
            // What the person did is still on disk, line for line.
            let now = f.disk();
            for line in disk_after_person.lines().filter(|l| l.contains("person") || l.ends_with('/')) {
                assert!(now.lines().any(|n| n == line), "{name}: lost {line:?}; disk is now\n{now}");
            }
        } else {
            assert!(report.conflicts.is_empty(), "{name}");
            assert_ne!(f.disk(), disk_before, "{name}");
        }
    }
}

#[test]
fn overwrite_writes_a_conflicting_path_only_when_named() {
    let f = Folder::new(CORPUS);
    let o = f.open();
    o.write(&p("/a.txt"), b"agent a").unwrap();
    o.write(&p("/b.txt"), b"agent b").unwrap();
    o.write(&p("/c.txt"), b"agent c").unwrap();
    f.put("/a.txt", "person a");
    f.put("/b.txt", "person b");
    check(
        &pending(&o),
        "
        /a.txt modified ! edited outside Folio after the agent changed it
        /b.txt modified ! edited outside Folio after the agent changed it
        /c.txt modified
        ",
    );
    let report = o.commit(&Selection::All, &[p("/a.txt")]).unwrap();
    assert_eq!(report.written, [p("/a.txt"), p("/c.txt")]);
    assert_eq!(report.conflicts, [(p("/b.txt"), Conflict::EditedOutside)]);
    assert_eq!(std::fs::read_to_string(f.host("/a.txt")).unwrap(), "agent a");
    assert_eq!(std::fs::read_to_string(f.host("/b.txt")).unwrap(), "person b");
    check(&pending(&o), "/b.txt modified ! edited outside Folio after the agent changed it");
    // Naming a path that has nothing pending is an error, not a silent no-op.
    let err = o.commit(&Selection::All, &[p("/zzz")]).unwrap_err().to_string();
    assert!(err.starts_with("nothing is pending at /zzz"), "{err}");
}

#[test]
fn an_outside_edit_after_the_agent_shadowed_a_file_shows_through_nowhere() {
    // The agent's version is what the agent sees; the person's edit is only a conflict.
    let f = Folder::new(CORPUS);
    let o = f.open();
    o.write(&p("/a.txt"), b"agent").unwrap();
    f.put("/a.txt", "person");
    assert_eq!(o.read(&p("/a.txt")).unwrap(), b"agent");
    // An unshadowed file shows the outside edit at once.
    f.put("/c.txt", "person c");
    assert_eq!(o.read(&p("/c.txt")).unwrap(), b"person c");
}

#[test]
fn a_write_racing_a_commit_stays_pending() {
    // Entries are removed by revision: content written after the plan survives the commit.
    let f = Folder::new(CORPUS);
    let o = std::sync::Arc::new(f.open());
    for i in 0..60 {
        o.write(&p(&format!("/many/f{i}.txt")), format!("v1 {i}").as_bytes()).unwrap();
    }
    let writer = {
        let o = o.clone();
        std::thread::spawn(move || {
            for i in 0..60 {
                o.write(&p(&format!("/many/f{i}.txt")), format!("v2 {i}").as_bytes()).unwrap();
            }
        })
    };
    o.commit(&Selection::All, &[]).unwrap();
    writer.join().unwrap();
    o.commit(&Selection::All, &[]).unwrap();
    for i in 0..60 {
        assert_eq!(std::fs::read_to_string(f.host(&format!("/many/f{i}.txt"))).unwrap(), format!("v2 {i}"));
    }
    check(&pending(&o), "");
}
