//! `read_range`: the same ranges give the same bytes (or the same error) on a file read from the
//! folder, a pending file read from its blob, a file removed by a whiteout, and on every backend:
//! the overlay, `MemTree`, and the trait's default (read whole, then slice).

use folio_vfs::{DirEntry, MemTree, Overlay, Stat, Tree, VPath};

use super::fixture::{Folder, p};

/// A tree that overrides nothing optional, so `read_range` is the trait's default.
struct Plain(MemTree);

impl Tree for Plain {
    fn read(&self, path: &VPath) -> folio_vfs::Result<Vec<u8>> {
        self.0.read(path)
    }
    fn write(&self, path: &VPath, data: &[u8]) -> folio_vfs::Result<()> {
        self.0.write(path, data)
    }
    fn rm(&self, path: &VPath) -> folio_vfs::Result<()> {
        self.0.rm(path)
    }
    fn mkdir(&self, path: &VPath) -> folio_vfs::Result<()> {
        self.0.mkdir(path)
    }
    fn stat(&self, path: &VPath) -> folio_vfs::Result<Option<Stat>> {
        self.0.stat(path)
    }
    fn list(&self, dir: &VPath) -> folio_vfs::Result<Vec<DirEntry>> {
        self.0.list(dir)
    }
}

/// `(path, offset, len, expected bytes or error)`. `/disk.txt` is the folder's, `/pending.txt`
/// a pending write, `/gone.txt` on disk but removed by the agent, `/dir` a directory.
const CASES: &[(&str, u64, u64, &str)] = &[
    ("/disk.txt", 0, 4, "0123"),
    ("/disk.txt", 3, 4, "3456"),
    ("/disk.txt", 6, 4, "6789"),
    ("/disk.txt", 8, 10, "89"),
    ("/disk.txt", 10, 4, ""),
    ("/disk.txt", 99, 4, ""),
    ("/disk.txt", 0, u64::MAX, "0123456789"),
    ("/disk.txt", 2, 0, ""),
    ("/pending.txt", 0, 4, "abcd"),
    ("/pending.txt", 3, 4, "defg"),
    ("/pending.txt", 6, 4, "ghij"),
    ("/pending.txt", 8, 10, "ij"),
    ("/pending.txt", 10, 4, ""),
    ("/pending.txt", u64::MAX, u64::MAX, ""),
    ("/gone.txt", 0, 4, "error: no such file: /gone.txt — hint: ls its directory to see what exists"),
    ("/missing.txt", 0, 4, "error: no such file: /missing.txt — hint: ls its directory to see what exists"),
    ("/dir", 0, 4, "error: no such file: /dir (it is a directory) — hint: ls it, or read a file inside it"),
];

fn render(r: folio_vfs::Result<Vec<u8>>) -> String {
    r.map(|d| String::from_utf8_lossy(&d).into_owned()).unwrap_or_else(|e| format!("error: {e}"))
}

#[track_caller]
fn check_ranges(label: &str, tree: &dyn Tree) {
    for (path, offset, len, want) in CASES {
        assert_eq!(render(tree.read_range(&p(path), *offset, *len)), *want, "{label}: {path} {offset}+{len}");
    }
}

fn overlay(f: &Folder) -> Overlay {
    let o = f.open();
    o.write(&p("/pending.txt"), b"abcdefghij").unwrap();
    o.rm(&p("/gone.txt")).unwrap();
    o
}

#[test]
fn ranges_of_folder_pending_and_removed_files() {
    let f = Folder::new("//- /gone.txt\nold\n//- /dir/inner.txt\nx\n");
    // Without the newline a fixture ends every file with.
    f.put("/disk.txt", "0123456789");
    check_ranges("overlay", &overlay(&f));
}

#[test]
fn every_backend_reads_the_same_ranges() {
    for (label, tree) in
        [("mem", Box::new(MemTree::new()) as Box<dyn Tree>), ("default", Box::new(Plain(MemTree::new())))]
    {
        tree.write(&p("/disk.txt"), b"0123456789").unwrap();
        tree.write(&p("/pending.txt"), b"abcdefghij").unwrap();
        tree.write(&p("/dir/inner.txt"), b"x").unwrap();
        check_ranges(label, tree.as_ref());
    }
}

#[test]
fn a_pending_rewrite_of_a_folder_file_is_read_from_its_blob() {
    let f = Folder::new("//- /disk.txt\n0123456789\n");
    let o = f.open();
    o.write(&p("/disk.txt"), b"ABCDEFGHIJ").unwrap();
    assert_eq!(render(o.read_range(&p("/disk.txt"), 2, 3)), "CDE");
    assert_eq!(render(o.read_disk(&p("/disk.txt")).map(|d| d[2..5].to_vec())), "234", "the folder is untouched");
}

#[test]
fn ignored_and_escaping_paths_are_refused_as_reads_are() {
    let f = Folder::new("//- /.git/config\nx\n");
    let o = f.open();
    assert_eq!(render(o.read_range(&p("/.git/config"), 0, 1)), render(o.read(&p("/.git/config"))));
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), f.host("/link.txt")).unwrap();
        let err = render(o.read_range(&p("/link.txt"), 0, 3));
        assert!(err.starts_with("error: refusing /link.txt: it resolves outside the folder ("), "{err}");
    }
}
