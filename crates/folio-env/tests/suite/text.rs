//! Text as it really arrives (UTF-16 with a BOM, UTF-8 with a BOM, cp1252, latin-1, CR-only line
//! endings) through read_file, grep and describe, with the encoding and line ending named; binary
//! still refused; and grep inside documents through a handler's `text`.

use std::path::PathBuf;
use std::sync::Arc;

use folio_env::{EnvOptions, FileHandler, Magic, part_marker};
use folio_vfs::{Tree, VPath};
use serde_json::{Value, json};

use super::{env, env_with, err, ok, p};

fn utf16le(s: &str) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    out.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
    out
}

/// 1,800 rows with classic-Mac CR line endings.
fn cr_only() -> Vec<u8> {
    let mut out = b"id,name,value".to_vec();
    for i in 1..=1800 {
        out.extend_from_slice(format!("\r{i},row {i},{}", i * 3).as_bytes());
    }
    out.push(b'\r');
    out
}

/// What a fixture should read as.
struct Want {
    encoding: &'static str,
    endings: &'static str,
    lines: usize,
    /// Substring of the first lines read_file shows.
    shows: &'static str,
    /// A pattern grep finds, and the line it reports.
    grep: (&'static str, &'static str),
}

fn check(env: &folio_env::Environment, path: &str, bytes: &[u8], want: Want) {
    env.tree().write(&p(path), bytes).unwrap();
    let read = ok(env, "read_file", json!({"path": path}));
    assert!(read.contains(&format!("encoding: {}, line endings: {}", want.encoding, want.endings)), "{path}: {read}");
    assert!(read.contains(want.shows), "{path}: {read}");
    let d = env.call("describe", json!({"path": path}));
    let v: Value = serde_json::from_str(&d.message).unwrap();
    assert_eq!(v["binary"], false, "{path}: {v}");
    assert_eq!(v["encoding"], want.encoding, "{path}");
    assert_eq!(v["line_endings"], want.endings, "{path}");
    assert_eq!(v["lines"], want.lines, "{path}");
    let g = ok(env, "grep", json!({"pattern": want.grep.0, "path": path}));
    assert!(g.contains(want.grep.1), "{path}: {g}");
}

#[test]
fn text_in_every_arrival_encoding_is_read_with_its_encoding_named() {
    let env = env();
    check(
        &env,
        "/in/unicode.txt",
        &utf16le("name\tcity\r\nDana\tתל אביב\r\n"),
        Want {
            encoding: "utf-16le (BOM)",
            endings: "CRLF",
            lines: 3,
            shows: "2\tDana\tתל אביב",
            grep: ("אביב", "/in/unicode.txt:2: Dana"),
        },
    );
    check(
        &env,
        "/in/bom.csv",
        b"\xEF\xBB\xBFathlete,country\r\nJos\xC3\xA9,PT\r\n",
        Want {
            encoding: "utf-8 (BOM)",
            endings: "CRLF",
            lines: 3,
            shows: "1\tathlete,country",
            grep: ("^athlete", "/in/bom.csv:1: athlete"),
        },
    );
    check(
        &env,
        "/in/latin1.csv",
        b"name,country\r\nCerro Azul,Ecuador\r\nPico de Orizaba,M\xE9xico\r\n",
        Want {
            encoding: "iso-8859-1 (latin-1)",
            endings: "CRLF",
            lines: 4,
            shows: "México",
            grep: ("México", "/in/latin1.csv:3:"),
        },
    );
    check(
        &env,
        "/in/cp1252.csv",
        b"title,price\r\n\x93Quoted\x94,\x80 5\r\n",
        Want {
            encoding: "windows-1252",
            endings: "CRLF",
            lines: 3,
            shows: "“Quoted”,€ 5",
            grep: ("€", "/in/cp1252.csv:2:"),
        },
    );
    check(
        &env,
        "/in/mac.csv",
        &cr_only(),
        Want {
            encoding: "utf-8",
            endings: "CR",
            lines: 1802,
            shows: "2\t1,row 1,3",
            grep: ("^1800,", "/in/mac.csv:1801: 1800,row 1800,5400"),
        },
    );
    // Genuinely binary files stay refused.
    env.tree().write(&p("/in/pic.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0").unwrap();
    assert!(err(&env, "read_file", json!({"path": "/in/pic.png"})).contains("binary"));
    env.tree().write(&p("/in/blob.bin"), &[1u8, 2, 3, 4, 5, 6, 7, 8, 0xff, 0x10, 0x11, 0x12]).unwrap();
    assert!(err(&env, "read_file", json!({"path": "/in/blob.bin"})).contains("binary"));
    // Plain UTF-8 with LF says nothing extra.
    env.tree().write(&p("/in/plain.txt"), b"a\nb\n").unwrap();
    assert!(!ok(&env, "read_file", json!({"path": "/in/plain.txt"})).contains("encoding:"));
}

fn corpus(file: &str) -> Option<Vec<u8>> {
    let root = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    match std::fs::read(root.join(file)) {
        Ok(b) => Some(b),
        Err(e) => {
            eprintln!("skipped {file}: the corpus is absent ({e}; set FOLIO_CORPUS)");
            None
        }
    }
}

#[test]
fn corpus_text_files_read_with_their_encoding_named() {
    let env = env();
    for (file, encoding, endings, grep, min_lines) in [
        ("csv/excel-unicode-text-utf16le.txt", "utf-16le (BOM)", "CRLF", "\\t", 6),
        ("csv/volcanoes-latin1-crlf.csv", "iso-8859-1 (latin-1)", "CRLF", "é", 1572),
        // CRLF records whose quoted fields hold bare LFs: honestly mixed.
        ("csv/bibelbund-cp1252-quoted-newlines.csv", "windows-1252", "mixed", "ü", 3735),
        ("csv/earthquakes-cr-only-line-endings.csv", "utf-8", "CR", "^[^U]", 3502),
        ("csv/olympic-winners-utf8-bom-crlf.csv", "utf-8 (BOM)", "CRLF", "^athlete", 8619),
    ] {
        let Some(bytes) = corpus(file) else { return };
        let path = format!("/in/{}", file.rsplit('/').next().unwrap());
        env.tree().write(&p(&path), &bytes).unwrap();
        let read = ok(&env, "read_file", json!({"path": path, "end_line": 5}));
        assert!(read.contains(&format!("encoding: {encoding}, line endings: {endings}")), "{file}: {read}");
        assert!(!read.contains('\u{FFFD}'), "{file}: replacement characters in {read}");
        let v: Value = serde_json::from_str(&env.call("describe", json!({"path": path})).message).unwrap();
        assert!(v["lines"].as_u64().unwrap() >= min_lines, "{file}: read as one line? {v}");
        let g = ok(&env, "grep", json!({"pattern": grep, "path": path, "max_matches": 3}));
        assert!(!g.starts_with("no matches"), "{file}: {g}");
    }
}

/// A handler for `.fake` documents whose text has page markers, and `.broken` ones it cannot read.
struct FakeDocs;

impl FileHandler for FakeDocs {
    fn module(&self) -> &str {
        "fakedocs"
    }
    fn description(&self) -> &str {
        "test documents"
    }
    fn extensions(&self) -> Vec<String> {
        vec![".fake".into(), ".broken".into()]
    }
    fn magic(&self) -> Vec<Magic> {
        vec![]
    }
    fn describe(&self, _: &VPath, _: &[u8]) -> Result<Value, String> {
        Ok(json!({"kind": "fake"}))
    }
    fn text(&self, path: &VPath, bytes: &[u8]) -> Option<Result<String, String>> {
        if path.as_str().ends_with(".broken") {
            return Some(Err("the document is damaged — hint: re-export it".into()));
        }
        // The "document" is binary: its text is what follows the NUL.
        let at = bytes.iter().position(|b| *b == 0)? + 1;
        Some(Ok(String::from_utf8_lossy(&bytes[at..]).into_owned()))
    }
}

#[test]
fn grep_with_documents_searches_handler_text_and_names_the_part() {
    let env = env_with(EnvOptions { handlers: vec![Arc::new(FakeDocs)], ..EnvOptions::default() });
    env.tree()
        .write(
            &p("/docs/report.fake"),
            b"\0--- page 1 ---\nIntro\n--- page 2 ---\nRevenue grew 9%\n=== Sheet: Q3 totals ===\nRevenue 12",
        )
        .unwrap();
    env.tree().write(&p("/docs/bad.broken"), b"\0whatever").unwrap();
    env.tree().write(&p("/docs/notes.txt"), b"Revenue in notes\n").unwrap();
    let plain = ok(&env, "grep", json!({"pattern": "Revenue", "path": "/docs"}));
    assert!(plain.contains("/docs/notes.txt:1:") && !plain.contains("report.fake"), "{plain}");
    let docs = ok(&env, "grep", json!({"pattern": "Revenue", "path": "/docs", "documents": true}));
    assert!(docs.contains("/docs/report.fake (page 2):4: Revenue grew 9%"), "{docs}");
    assert!(docs.contains("/docs/report.fake (sheet Q3 totals):6: Revenue 12"), "{docs}");
    assert!(docs.contains("/docs/notes.txt:1: Revenue in notes"), "{docs}");
    assert!(docs.contains("/docs/bad.broken: env:fakedocs: the document is damaged"), "{docs}");
}

#[test]
fn part_markers_are_wrapped_lines_naming_a_page_sheet_or_slide() {
    for (line, want) in [
        ("--- page 2 ---", Some("page 2")),
        ("=== Sheet: Revenue 2024 ===", Some("sheet Revenue 2024")),
        ("[slide 3]", Some("slide 3")),
        ("## Slide 4: Roadmap", Some("slide 4")),
        ("\u{c}Page 7", Some("page 7")),
        ("Page 2 of the report", None),
        ("--- pages ---", None),
        ("--- overview ---", None),
    ] {
        assert_eq!(part_marker(line).as_deref(), want, "{line:?}");
    }
}
