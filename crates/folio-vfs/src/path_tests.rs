use super::*;

/// One row per input: what `VPath::parse` makes of it, or the start of its error.
fn check(input: &str, expect: &str) {
    let got = match VPath::parse(input) {
        Ok(p) => p.to_string(),
        Err(e) => format!("error: {e}"),
    };
    assert!(got.starts_with(expect), "{input:?}: got {got:?}, expected {expect:?}");
}

#[test]
fn normalisation_table() {
    check("/", "/");
    check("//a///b/", "/a/b");
    check("/a/./b/.", "/a/b");
    check("/inbox/nested/../one.txt", "/inbox/one.txt");
    check("/a/..", "/");
    check("/..", "error: path escapes the root");
    check("/../../etc/passwd", "error: path escapes the root");
    check("/a/../../b", "error: path escapes the root");
    check("/a/b/../../../", "error: path escapes the root");
    check("", "error: path must be a non-empty string");
    check("a/b", "error: path must be absolute (got \"a/b\")");
    check("./a", "error: path must be absolute");
    check("/a\0b", "error: path contains control characters");
    check("/a\nb", "error: path contains control characters");
    check("/a\u{7f}", "error: path contains control characters");
    check("/ünïcode/ok", "/ünïcode/ok");
}

#[test]
fn segment_aware_containment() {
    let p = |s: &str| VPath::parse(s).unwrap();
    assert!(p("/out/a.pdf").is_under(&p("/out")));
    assert!(p("/out").is_under(&p("/out")));
    assert!(!p("/output/a").is_under(&p("/out")));
    assert!(p("/anything").is_under(&VPath::root()));
    assert_eq!(p("/a/b/c").relative_to(&p("/a")), Some("b/c"));
    assert_eq!(p("/a/b").relative_to(&VPath::root()), Some("a/b"));
    assert_eq!(p("/a/x/y").rebase(&p("/a"), &p("/b")), Some(p("/b/x/y")));
}

#[test]
fn names_parents_extensions() {
    let p = |s: &str| VPath::parse(s).unwrap();
    assert_eq!(p("/a/b.tar.gz").extension(), Some("gz"));
    assert_eq!(p("/a/.env").extension(), None);
    assert_eq!(p("/a/b").parent(), Some(p("/a")));
    assert_eq!(p("/a").parent(), Some(VPath::root()));
    assert_eq!(VPath::root().parent(), None);
    assert_eq!(p("/a/b/c").ancestors(), vec![VPath::root(), p("/a"), p("/a/b")]);
    assert_eq!(p("/scripts/x.js").resolve("./lib/y.js").unwrap(), p("/scripts/lib/y.js"));
    assert_eq!(p("/scripts/x.js").resolve("../data.csv").unwrap(), p("/data.csv"));
    assert!(p("/x.js").resolve("../../y").is_err());
}

#[test]
fn sort_order_keeps_descendants_contiguous() {
    let mut v = [VPath::parse("/a/b").unwrap(), VPath::parse("/a-b").unwrap(), VPath::parse("/a").unwrap()];
    v.sort();
    let s: Vec<_> = v.iter().map(|p| p.as_str()).collect();
    assert_eq!(s, ["/a", "/a-b", "/a/b"]);
}
