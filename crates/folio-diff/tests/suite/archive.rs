//! Archives: one entry added, one removed, one changed, through folio-archives' reader.

use folio_archives::Format;
use folio_archives::write::build;
use folio_diff::archive;

fn files(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
    list.iter().map(|(n, c)| (n.to_string(), c.as_bytes().to_vec())).collect()
}

#[test]
fn one_entry_added_one_removed_one_changed() {
    let old = files(&[("data/a.csv", "a,b\n1,2\n"), ("data/b.csv", "x\n"), ("readme.txt", "hello")]);
    let new = files(&[("data/a.csv", "a,b\n1,3\n"), ("data/c.csv", "new\n"), ("readme.txt", "hello")]);
    for (format, name) in [(Format::Zip, "/out/x.zip"), (Format::Tar, "/out/x.tar"), (Format::TarGz, "/out/x.tar.gz")] {
        let diff = archive(Some(&build(format, &old).unwrap()), Some(&build(format, &new).unwrap()), name).unwrap();
        let names = |v: &[folio_diff::ArchiveEntry]| v.iter().map(|e| e.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&diff.added), vec!["data/c.csv"], "{name}");
        assert_eq!(names(&diff.removed), vec!["data/b.csv"], "{name}");
        assert_eq!(diff.changed.len(), 1, "{name}");
        let changed = &diff.changed[0];
        assert_eq!(changed.old.name, "data/a.csv");
        assert_eq!((changed.old.size, changed.new.size), (8, 8));
        assert_ne!(changed.old.crc32, changed.new.crc32);
        assert_ne!(changed.old.hash, changed.new.hash);
        assert_eq!(diff.same_count, 1, "{name}");
    }
}

#[test]
fn an_archive_that_breaks_a_limit_is_refused_by_name() {
    let zip = build(Format::Zip, &files(&[("a.txt", "a")])).unwrap();
    let e = archive(Some(&zip), Some(b"not an archive at all"), "/out/x.zip").unwrap_err().to_string();
    assert!(e.contains("/out/x.zip") && e.contains("after") && e.contains("hint"), "{e}");
}
