//! Crafted archives, one row each: what `extract` writes, or the refusal it names — and in every
//! refused case, that nothing was written.

use folio_archives::Limits;
use folio_vfs::Tree;
use serde_json::{Value, json};

use super::common::*;

/// What a row expects.
enum Expect {
    /// Exactly these paths written (under /x).
    Wrote(&'static [&'static str]),
    /// Refused; the message holds every one of these.
    Refused(&'static [&'static str]),
}

fn check(label: &str, name: &str, archive: Vec<u8>, include: Option<&str>, limits: Limits, expect: Expect) {
    let t = tree(&[(name, &archive)]);
    let opts = include.map_or(Value::Null, |g| json!({"include": g}));
    let got = op(&t, limits, "extract", &[json!(name), json!("/x"), opts]);
    let written: Vec<String> = t.walk(&vp("/")).unwrap().iter().map(|p| p.to_string()).filter(|p| p != name).collect();
    match expect {
        Expect::Wrote(paths) => {
            let got = got.unwrap_or_else(|e| panic!("{label}: {e}"));
            let want: Vec<Value> = paths.iter().map(|p| json!(p)).collect();
            assert_eq!(got, Value::Array(want), "{label}");
            assert_eq!(written.len(), paths.len(), "{label}: {written:?}");
        }
        Expect::Refused(needles) => {
            let err = got.expect_err(label);
            for n in needles {
                assert!(err.contains(n), "{label}: {err:?} lacks {n:?}");
            }
            assert!(err.contains("hint") || err.contains(" — "), "{label}: names no fix: {err}");
            assert!(written.is_empty(), "{label}: refused yet wrote {written:?}");
        }
    }
}

fn zero(n: usize) -> Vec<u8> {
    vec![0u8; n]
}

#[test]
fn crafted_archives_are_extracted_safely_or_refused_by_name() {
    let d = Limits::default();
    use Expect::*;
    check(
        "plain zip",
        "/a.zip",
        zip_of(&[("dir/", b""), ("dir/a.txt", b"A"), ("b.csv", b"x,y")]),
        None,
        d,
        Wrote(&["/x/dir/a.txt", "/x/b.csv"]),
    );
    check("inside after ..", "/a.zip", zip_of(&[("a/../b.txt", b"B")]), None, d, Wrote(&["/x/b.txt"]));
    check("dot entries skipped", "/a.zip", zip_of(&[("./", b""), ("./c.txt", b"C")]), None, d, Wrote(&["/x/c.txt"]));
    check(
        "parent traversal",
        "/a.zip",
        zip_of(&[("ok.txt", b"1"), ("../evil.txt", b"2")]),
        None,
        d,
        Refused(&["../evil.txt", "climbs above", "nothing was extracted"]),
    );
    check("deep traversal", "/a.zip", zip_of(&[("a/../../evil.txt", b"2")]), None, d, Refused(&["climbs above"]));
    check("backslash traversal", "/a.zip", zip_of(&[("..\\..\\evil.txt", b"2")]), None, d, Refused(&["climbs above"]));
    check("absolute", "/a.zip", zip_of(&[("/etc/passwd", b"2")]), None, d, Refused(&["absolute name"]));
    check("drive letter", "/a.zip", zip_of(&[("C:\\x.dll", b"2")]), None, d, Refused(&["drive letter"]));
    check(
        "include leaves the unsafe one out",
        "/a.zip",
        zip_of(&[("ok.txt", b"1"), ("../evil.txt", b"2")]),
        Some("ok.*"),
        d,
        Wrote(&["/x/ok.txt"]),
    );
    check(
        "include matches root with **",
        "/a.zip",
        zip_of(&[("r.csv", b"1"), ("d/s.csv", b"2"), ("d/t.txt", b"3")]),
        Some("**/*.csv"),
        d,
        Wrote(&["/x/r.csv", "/x/d/s.csv"]),
    );
    check(
        "include matches nothing",
        "/a.zip",
        zip_of(&[("r.csv", b"1")]),
        Some("*.pdf"),
        d,
        Refused(&["include '*.pdf' matches none of its 1 file entries"]),
    );
    check("empty archive", "/a.zip", zip_of(&[]), None, d, Refused(&["holds no file entries"]));
    check(
        "encrypted flag",
        "/a.zip",
        patch_central(zip_of(&[("s.txt", b"secret")]), |h| h[8] |= 1),
        None,
        d,
        Refused(&["\"s.txt\" is encrypted"]),
    );
    check(
        "unknown method",
        "/a.zip",
        patch_central(zip_of(&[("m.txt", b"m")]), |h| h[10] = 14),
        None,
        d,
        Refused(&["compression method", "Stored and Deflated"]),
    );
    let small = Limits { max_bytes: 1 << 20, max_entries: 20_000 };
    check(
        "zip bomb",
        "/a.zip",
        zip_of(&[("zeros.bin", &zero(8 << 20))]),
        None,
        small,
        Refused(&["inflates past", "limits.max_vfs_bytes = 1048576", "decompression bomb"]),
    );
    check(
        "bomb spread over entries",
        "/a.zip",
        zip_of(&[("a", &zero(600 << 10)), ("b", &zero(600 << 10))]),
        None,
        small,
        Refused(&["limits.max_vfs_bytes"]),
    );
    let few = Limits { max_bytes: 1 << 20, max_entries: 3 };
    let many: Vec<(String, Vec<u8>)> = (0..4).map(|i| (format!("f{i}"), vec![b'x'])).collect();
    let many: Vec<(&str, &[u8])> = many.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    check(
        "too many zip entries",
        "/a.zip",
        zip_of(&many),
        None,
        few,
        Refused(&["4 entries is over the limit of 3", "MAX_ENTRIES"]),
    );
    // tar
    let plain = tar_of(&[
        tar_entry("d/", b'5', "", b""),
        tar_entry("d/one.txt", b'0', "", b"one"),
        tar_entry("two.txt", 0, "", b"two"),
    ]);
    check("plain tar", "/a.tar", plain.clone(), None, d, Wrote(&["/x/d/one.txt", "/x/two.txt"]));
    check("plain tar.gz", "/a.tar.gz", gz(&plain), None, d, Wrote(&["/x/d/one.txt", "/x/two.txt"]));
    check(
        "tar symlink",
        "/a.tar",
        tar_of(&[tar_entry("ok", b'0', "", b"1"), tar_entry("link", b'2', "/etc/passwd", b"")]),
        None,
        d,
        Refused(&["\"link\" is a symbolic link"]),
    );
    check("tar hard link", "/a.tar", tar_of(&[tar_entry("hard", b'1', "ok", b"")]), None, d, Refused(&["hard link"]));
    check(
        "tar char device",
        "/a.tar",
        tar_of(&[tar_entry("tty", b'3', "", b"")]),
        None,
        d,
        Refused(&["character device"]),
    );
    check(
        "tar block device",
        "/a.tar",
        tar_of(&[tar_entry("sda", b'4', "", b"")]),
        None,
        d,
        Refused(&["block device"]),
    );
    check("tar fifo", "/a.tar", tar_of(&[tar_entry("p", b'6', "", b"")]), None, d, Refused(&["FIFO"]));
    check(
        "tar traversal",
        "/a.tar",
        tar_of(&[tar_entry("../../x", b'0', "", b"1")]),
        None,
        d,
        Refused(&["climbs above"]),
    );
    check("tar absolute", "/a.tar", tar_of(&[tar_entry("/abs", b'0', "", b"1")]), None, d, Refused(&["absolute"]));
    let long = format!("{}/file.txt", "d".repeat(120));
    let gnu_long = tar_of(&[
        tar_entry("././@LongLink", b'L', "", format!("{long}\0").as_bytes()),
        tar_entry("short", b'0', "", b"L"),
    ]);
    let long_path: &'static str = Box::leak(format!("/x/{long}").into_boxed_str());
    let long_paths: &'static [&'static str] = Box::leak(vec![long_path].into_boxed_slice());
    check("GNU long name", "/a.tar", gnu_long, None, d, Wrote(long_paths));
    let pax =
        tar_of(&[tar_entry("pax", b'x', "", b"31 path=pax/very/long/name.txt\n"), tar_entry("short", b'0', "", b"P")]);
    check("PAX name", "/a.tar", pax, None, d, Wrote(&["/x/pax/very/long/name.txt"]));
    check(
        "tgz bomb capped before tar parsing",
        "/a.tgz",
        gz(&tar_of(&[tar_entry("z", b'0', "", &zero(4 << 20))])),
        None,
        small,
        Refused(&["the gzip stream inflates past", "limits.max_vfs_bytes"]),
    );
    let many_tar: Vec<Vec<u8>> = (0..4).map(|i| tar_entry(&format!("f{i}"), b'0', "", b"x")).collect();
    check("too many tar entries", "/a.tar", tar_of(&many_tar), None, few, Refused(&["MAX_ENTRIES"]));
    check("a zip named .tar is read as zip", "/a.tar", zip_of(&[("z.txt", b"z")]), None, d, Wrote(&["/x/z.txt"]));
    check("not an archive", "/a.zip", b"hello, not a zip".to_vec(), None, d, Refused(&["not a readable zip"]));
}

#[test]
fn describe_and_list_say_what_is_inside_and_what_would_be_refused() {
    let t = tree(&[("/a.zip", &zip_of(&[("dir/", b""), ("dir/a.txt", b"AAAA"), ("../evil", b"E")]))]);
    let d = op(&t, Limits::default(), "describe", &[json!("/a.zip")]).unwrap();
    assert_eq!(d["format"], "zip");
    assert_eq!(d["entries"], 3);
    assert_eq!(d["files"], 2);
    assert_eq!(d["directories"], 1);
    assert_eq!(d["uncompressedBytes"], 5);
    assert_eq!(d["sample"].as_array().unwrap().len(), 3);
    assert_eq!(d["refused"][0]["name"], "../evil", "{d}");
    let l = op(&t, Limits::default(), "list", &[json!("/a.zip")]).unwrap();
    assert_eq!(l[0], json!({"name": "dir/", "bytes": 0, "directory": true}));
}

#[test]
fn create_round_trips_every_format_and_names_stay_relative() {
    let t = tree(&[("/src/a.txt", b"alpha"), ("/src/sub/b.csv", b"x,y\n1,2"), ("/src/sub/c.txt", b"gamma")]);
    for (out, format) in
        [("/out/all.zip", "zip"), ("/out/all.tar", "tar"), ("/out/all.tar.gz", "tar.gz"), ("/out/all.tgz", "tar.gz")]
    {
        let r = op(&t, Limits::default(), "create", &[json!("/src"), json!(out), Value::Null]).unwrap();
        assert_eq!(r["format"], format, "{out}");
        assert_eq!(r["entries"], 3);
        let names: Vec<Value> = op(&t, Limits::default(), "list", &[json!(out)])
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].clone())
            .collect();
        assert_eq!(names, vec![json!("a.txt"), json!("sub/b.csv"), json!("sub/c.txt")], "{out}");
        let dir = format!("/back/{format}");
        op(&t, Limits::default(), "extract", &[json!(out), json!(dir), Value::Null]).unwrap();
        assert_eq!(t.read(&vp(&format!("{dir}/sub/b.csv"))).unwrap(), b"x,y\n1,2");
    }
    let r = op(&t, Limits::default(), "create", &[json!("/src"), json!("/out/csv.zip"), json!({"glob": "**/*.csv"})])
        .unwrap();
    assert_eq!(r["entries"], 1);
    let same =
        op(&t, Limits::default(), "create", &[json!("/src"), json!("/out/again.zip"), json!({"glob": "**/*.csv"})])
            .unwrap();
    assert_eq!(
        t.read(&vp("/out/csv.zip")).unwrap(),
        t.read(&vp("/out/again.zip")).unwrap(),
        "deterministic bytes: {same}"
    );
    for (args, needle) in [
        (vec![json!("/src"), json!("/out/x.rar"), Value::Null], "end the name in .zip, .tar, .tar.gz or .tgz"),
        (vec![json!("/src"), json!("/out/x.zip"), json!({"glob": "*.pdf"})], "matches no file under /src"),
        (vec![json!("/src/a.txt"), json!("/out/x.zip"), Value::Null], "is not a directory"),
        (vec![json!("/src"), json!("/out/x"), json!({"format": "rar"})], "use 'zip', 'tar' or 'tgz'"),
        (vec![json!("/src"), json!("/out/x.zip"), json!({"level": 9})], "unknown option 'level'"),
    ] {
        let err = op(&t, Limits::default(), "create", &args).unwrap_err();
        assert!(err.contains(needle), "{err}");
    }
}
