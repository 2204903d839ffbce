//! Crash safety of commit. A child process (this test binary, re-run with `crash_child` as the
//! filter) commits a multi-file change with one fault point armed, so it aborts on the spot — no
//! unwinding, no cleanup, the state a crash or SIGKILL leaves. For every fault point and every hit
//! of it the parent checks that no file on disk is torn (each is wholly old or wholly new), then
//! reopens the folder and checks that recovery completed or rolled back the commit, said which,
//! and left disk and pending changes consistent with what it said.

use std::process::Command;

use folio_vfs::{Overlay, OverlayOptions, RecoveryOutcome, Selection, Tree, fault};

use super::fixture::{Folder, check, p, pending};

const OLD: &str = r#"
//- /a.txt
old a
//- /b.txt
old b
//- /c.txt
old c
//- /d.txt
old d
//- /e.txt
old e
//- /gone/x.txt
old x
//- /gone/y.txt
old y
"#;

fn big(tag: &str) -> Vec<u8> {
    // Large enough that a torn write would show as a short or mixed file.
    format!("new {tag}\n").repeat(20_000).into_bytes()
}

fn stage(f: &Folder) {
    let o = f.open();
    for name in ["a", "b", "c"] {
        o.write(&p(&format!("/{name}.txt")), &big(name)).unwrap();
    }
    o.write(&p("/new/deep/n.txt"), &big("n")).unwrap();
    o.rm(&p("/d.txt")).unwrap();
    o.mv(&p("/e.txt"), &p("/moved/e.txt")).unwrap();
    o.rm(&p("/gone")).unwrap();
}

const STAGED: &str = "
    /a.txt modified
    /b.txt modified
    /c.txt modified
    /d.txt deleted
    /gone/ deleted
    /gone/x.txt deleted
    /gone/y.txt deleted
    /moved/ added
    /moved/e.txt renamed from /e.txt
    /new/ added
    /new/deep/ added
    /new/deep/n.txt added
";

/// What each path on disk is now: "old", "new", "absent", or "TORN".
fn classify(f: &Folder) -> Vec<(String, &'static str)> {
    let expect: &[(&str, Option<&str>, Option<Vec<u8>>)] = &[
        ("/a.txt", Some("old a\n"), Some(big("a"))),
        ("/b.txt", Some("old b\n"), Some(big("b"))),
        ("/c.txt", Some("old c\n"), Some(big("c"))),
        ("/new/deep/n.txt", None, Some(big("n"))),
        ("/d.txt", Some("old d\n"), None),
        ("/e.txt", Some("old e\n"), None),
        ("/moved/e.txt", None, Some(b"old e\n".to_vec())),
        ("/gone/x.txt", Some("old x\n"), None),
        ("/gone/y.txt", Some("old y\n"), None),
    ];
    expect
        .iter()
        .map(|(path, old, new)| {
            let state = match std::fs::read(f.host(path)) {
                Err(_) if old.is_none() => "old",
                Err(_) if new.is_none() => "new",
                Err(_) => "TORN",
                Ok(data) if old.is_some_and(|o| o.as_bytes() == data) => "old",
                Ok(data) if new.as_ref().is_some_and(|n| *n == data) => "new",
                Ok(_) => "TORN",
            };
            (path.to_string(), state)
        })
        .collect()
}

fn temp_files_left(f: &Folder) -> Vec<String> {
    f.disk().lines().filter(|l| l.contains(".folio-commit-")).map(str::to_owned).collect()
}

/// The child's side: commit with the armed fault. Does nothing unless run by `crash_table`.
#[test]
fn crash_child() {
    let (Ok(folder), Ok(state), Ok(point), Ok(nth)) = (
        std::env::var("FOLIO_CRASH_FOLDER"),
        std::env::var("FOLIO_CRASH_STATE"),
        std::env::var("FOLIO_CRASH_POINT"),
        std::env::var("FOLIO_CRASH_NTH"),
    ) else {
        return;
    };
    let o = Overlay::open(
        std::path::Path::new(&folder),
        OverlayOptions { state_root: Some(state.into()), ..OverlayOptions::default() },
    )
    .unwrap();
    fault::arm(&point, nth.parse().unwrap());
    o.commit(&Selection::All, &[]).unwrap();
}

#[test]
fn a_crash_at_any_step_of_a_commit_never_tears_a_file_and_recovery_says_what_it_did() {
    let exe = std::env::current_exe().unwrap();
    let mut crashes = 0;
    for point in fault::COMMIT_POINTS {
        for nth in 1.. {
            let f = Folder::new(OLD);
            stage(&f);
            let status = Command::new(&exe)
                .args(["--exact", "suite::crash::crash_child", "--test-threads=1", "--nocapture"])
                .env("FOLIO_CRASH_FOLDER", f.root())
                .env("FOLIO_CRASH_STATE", f.state())
                .env("FOLIO_CRASH_POINT", point)
                .env("FOLIO_CRASH_NTH", nth.to_string())
                .output()
                .unwrap();
            if status.status.success() {
                // The point is hit fewer than `nth` times: the commit ran to the end.
                check(&pending(&f.open()), "");
                assert!(classify(&f).iter().all(|(_, s)| *s == "new"), "{point}#{nth}: {:?}", classify(&f));
                break;
            }
            crashes += 1;
            let after_crash = classify(&f);
            assert!(
                after_crash.iter().all(|(_, s)| *s != "TORN"),
                "{point}#{nth}: torn file after the crash: {after_crash:?}"
            );

            let o = f.open();
            let everything = |want: &str| classify(&f).iter().all(|(_, s)| *s == want);
            match o.recovery() {
                Some(r) if r.outcome == RecoveryOutcome::RolledBack => {
                    assert!(everything("old"), "{point}#{nth}: rolled back but disk is {:?}", classify(&f));
                    check(&pending(&o), STAGED);
                    assert!(r.to_string().contains("rolled back"), "{r}");
                }
                Some(r) => {
                    assert!(everything("new"), "{point}#{nth}: completed but disk is {:?}", classify(&f));
                    check(&pending(&o), "");
                    assert!(r.to_string().contains("was completed"), "{r}");
                    assert!(r.conflicts.is_empty(), "{point}#{nth}: {:?}", r.conflicts);
                }
                None => {
                    // Only a crash after the journal was cleared leaves nothing to recover.
                    assert_eq!(*point, "commit.cleaned", "{point}#{nth}: nothing recovered");
                    assert!(everything("new"));
                    check(&pending(&o), "");
                }
            }
            assert_eq!(temp_files_left(&f), Vec::<String>::new(), "{point}#{nth}");
            // The folder stays fully usable: the next commit works.
            o.write(&p("/after.txt"), b"after").unwrap();
            o.commit(&Selection::All, &[]).unwrap();
            assert_eq!(std::fs::read(f.host("/after.txt")).unwrap(), b"after");
        }
    }
    assert!(crashes >= 15, "only {crashes} crash points were exercised");
}
