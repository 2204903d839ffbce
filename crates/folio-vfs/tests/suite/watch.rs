//! The watcher reports changes made outside Folio, and pending() sees their conflicts at once.

use std::time::Duration;

use folio_vfs::{Conflict, Tree};

use super::fixture::{Folder, p};

#[test]
fn outside_changes_arrive_on_the_change_stream() {
    let f = Folder::new("//- /a.txt\na\n");
    let o = f.open();
    o.write(&p("/a.txt"), b"agent").unwrap();
    let watch = o.watch().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    f.put("/a.txt", "person");
    f.put("/.git/index", "ignored");
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let mut seen = Vec::new();
    while std::time::Instant::now() < deadline && !seen.contains(&p("/a.txt")) {
        if let Ok(change) = watch.changes.recv_timeout(Duration::from_millis(200)) {
            seen.extend(change.paths);
        }
    }
    assert!(seen.contains(&p("/a.txt")), "saw {seen:?}");
    assert!(seen.iter().all(|p| !p.as_str().starts_with("/.git")), "ignored paths are filtered: {seen:?}");
    let conflict = o.pending().unwrap().into_iter().find_map(|c| c.conflict);
    assert_eq!(conflict, Some(Conflict::EditedOutside));
    assert_eq!(o.read(&p("/a.txt")).unwrap(), b"agent");
}
