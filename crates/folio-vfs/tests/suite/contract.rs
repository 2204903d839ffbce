//! The `Tree` contract, checked identically against every backend: the same operations give the
//! same results and the same messages on `MemTree` and on the overlay.

use folio_vfs::{MemTree, Tree, VPath};

use super::fixture::{Folder, p};

/// Runs one script of operations against a tree and renders each result as a line.
fn run(tree: &dyn Tree) -> String {
    let mut out = Vec::new();
    let mut say = |label: &str, r: Result<String, folio_vfs::VfsError>| {
        out.push(format!("{label}: {}", r.unwrap_or_else(|e| format!("error: {e}"))));
    };
    let unit = |r: folio_vfs::Result<()>| r.map(|()| "ok".to_owned());
    say("write /a/b.txt", unit(tree.write(&p("/a/b.txt"), b"hello")));
    say("read /a/b.txt", tree.read(&p("/a/b.txt")).map(|d| String::from_utf8_lossy(&d).into_owned()));
    say("read /missing", tree.read(&p("/missing")).map(|_| String::new()));
    say("read /a", tree.read(&p("/a")).map(|_| String::new()));
    say("write /a", unit(tree.write(&p("/a"), b"x")));
    say("write /a/b.txt/c", unit(tree.write(&p("/a/b.txt/c"), b"x")));
    say("mkdir /a/b.txt", unit(tree.mkdir(&p("/a/b.txt"))));
    say("mkdir /a/b.txt/d", unit(tree.mkdir(&p("/a/b.txt/d"))));
    say("rm /", unit(tree.rm(&VPath::root())));
    say("rm /nope", unit(tree.rm(&p("/nope"))));
    say("list /a/b.txt", tree.list(&p("/a/b.txt")).map(|_| String::new()));
    say("list /nope", tree.list(&p("/nope")).map(|_| String::new()));
    say("append /a/b.txt", unit(tree.append(&p("/a/b.txt"), b" world")));
    say("cp /a /c", unit(tree.cp(&p("/a"), &p("/c"))));
    say("mv /a /a/inner", unit(tree.mv(&p("/a"), &p("/a/inner"))));
    say("mv /c/b.txt /c/b.txt", unit(tree.mv(&p("/c/b.txt"), &p("/c/b.txt"))));
    say("mv /c/b.txt /e.txt", unit(tree.mv(&p("/c/b.txt"), &p("/e.txt"))));
    say("mkdir /z/y", unit(tree.mkdir(&p("/z/y"))));
    say(
        "list /",
        tree.list(&VPath::root()).map(|v| {
            v.iter()
                .map(|e| format!("{}{}({})", e.name, if e.kind == folio_vfs::Kind::Dir { "/" } else { "" }, e.size))
                .collect::<Vec<_>>()
                .join(" ")
        }),
    );
    say("walk /", tree.walk(&VPath::root()).map(|v| v.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ")));
    say("total", tree.total_size().map(|n| n.to_string()));
    say("rm /a", unit(tree.rm(&p("/a"))));
    say("stat /a/b.txt", tree.stat(&p("/a/b.txt")).map(|s| format!("{s:?}")));
    out.join("\n")
}

const EXPECT: &str = "\
write /a/b.txt: ok
read /a/b.txt: hello
read /missing: error: no such file: /missing — hint: ls its directory to see what exists
read /a: error: no such file: /a (it is a directory) — hint: ls it, or read a file inside it
write /a: error: cannot write /a: it is a directory — hint: write to a file path inside it
write /a/b.txt/c: error: cannot write /a/b.txt/c: /a/b.txt is a file — hint: choose a path whose parents are directories
mkdir /a/b.txt: error: cannot mkdir /a/b.txt: it is a file — hint: remove the file first or pick another name
mkdir /a/b.txt/d: error: cannot mkdir /a/b.txt/d: /a/b.txt is a file — hint: choose a path whose parents are directories
rm /: error: cannot remove the root directory — hint: remove the entries inside it one by one
rm /nope: error: no such file or directory: /nope — hint: ls its directory to see what exists
list /a/b.txt: error: not a directory: /a/b.txt — hint: read_file or describe it instead
list /nope: error: no such directory: /nope — hint: ls its parent to see what exists
append /a/b.txt: ok
cp /a /c: ok
mv /a /a/inner: error: cannot mv /a into itself (/a/inner) — hint: choose a destination outside /a
mv /c/b.txt /c/b.txt: error: source and destination are the same path: /c/b.txt — hint: give a different destination
mv /c/b.txt /e.txt: ok
mkdir /z/y: ok
list /: a/(0) c/(0) z/(0) e.txt(11)
walk /: /a/b.txt /e.txt
total: 22
rm /a: ok
stat /a/b.txt: None";

#[test]
fn mem_tree_meets_the_contract() {
    assert_eq!(run(&MemTree::new()), EXPECT);
}

#[test]
fn overlay_meets_the_same_contract() {
    let f = Folder::new("");
    assert_eq!(run(&f.open()), EXPECT);
}

#[test]
fn overlay_over_existing_content_meets_the_contract_too() {
    // The same script where the first file already exists on disk.
    let f = Folder::new("//- /a/b.txt\nstale\n");
    assert_eq!(run(&f.open()), EXPECT);
}
