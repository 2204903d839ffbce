//! Every archive of the corpus (`../shared/corpus/archives`): described, then extracted safely
//! or refused by name, with nothing written on a refusal. Skipped with a reason when absent.

use folio_archives::Limits;
use folio_vfs::Tree;
use serde_json::{Value, json};

use super::common::*;

/// `(file, expected)`: `Ok(min files written)` or `Err(substring of the refusal)`.
const EXPECT: &[(&str, Result<usize, &str>)] = &[
    ("42-nested-zip-bomb.zip", Err("is encrypted")),
    ("defusedxml-0.7.1.tar.gz", Ok(10)),
    ("duplicate-entry-names.zip", Err("names the same entry more than once")),
    ("emoji-entry-name.zip", Ok(1)),
    ("empty-archive.zip", Err("holds no file entries")),
    ("implode-legacy-method.zip", Err("Stored and Deflated")),
    ("minimal.7z", Err("not a zip, tar or gzip file")),
    ("shapefile-made-on-mac.zip", Ok(4)),
    ("zip-slip-traversal-windows.zip", Err("climbs above")),
    ("zip-slip-traversal.tar", Err("climbs above")),
    ("zip-slip-traversal.zip", Err("climbs above")),
    ("zip64.zip", Ok(1)),
    ("zipcrypto-password.zip", Err("is encrypted")),
];

#[test]
fn every_corpus_archive_is_extracted_safely_or_refused_by_name() {
    let Some(dir) = corpus("archives") else { return };
    let mut seen = 0;
    let mut figures: Vec<Value> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some((_, expect)) = EXPECT.iter().find(|(n, _)| *n == name) else {
            panic!("{name}: a corpus archive without a row here — add its expected outcome to EXPECT");
        };
        seen += 1;
        let bytes = std::fs::read(&path).unwrap();
        let at = format!("/in/{name}");
        let t = tree(&[(&at, &bytes)]);
        let described = op(&t, Limits::default(), "describe", &[json!(at)]);
        let got = op(&t, Limits::default(), "extract", &[json!(at), json!("/x"), Value::Null]);
        let written = t.walk(&vp("/")).unwrap().iter().filter(|p| p.as_str().starts_with("/x/")).count();
        eprintln!(
            "{name}: describe {} / extract {}",
            described.as_ref().map_or_else(|e| e.clone(), |v| v["entries"].to_string()),
            got.as_ref().map_or_else(|e| e.clone(), |v| format!("{} files", v.as_array().map_or(0, Vec::len)))
        );
        figures.push(json!({
            "name": name,
            "extracted": got.as_ref().ok().and_then(|v| v.as_array().map(Vec::len)),
            "refused": got.as_ref().err().map(|e| e.split(" — ").next().unwrap_or(e).to_owned()),
            "writtenOnRefusal": if got.is_err() { written } else { 0 },
        }));
        match expect {
            Ok(min) => {
                let v = got.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(v.as_array().unwrap().len() >= *min, "{name}: {v}");
                assert!(described.is_ok(), "{name}: {described:?}");
            }
            Err(needle) => {
                let e = got.expect_err(&name);
                assert!(e.contains(needle), "{name}: {e}");
                assert_eq!(written, 0, "{name}: refused yet wrote files");
            }
        }
    }
    assert_eq!(seen, EXPECT.len(), "a corpus archive listed here is missing");
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let refused = figures.iter().filter(|f| !f["refused"].is_null()).count();
        let doc = json!({"area": "archives", "corpus": figures.len(), "extracted": figures.len() - refused, "refusedByName": refused, "archives": figures});
        std::fs::write(dir.join("archives.json"), serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    }
}
