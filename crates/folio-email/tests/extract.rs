#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! env:email's operations over the corpus Outlook message and over hostile mail built here: what
//! comes back, what is written, and that nothing lands outside the extraction folder.

use std::collections::BTreeMap;
use std::sync::Mutex;

use folio_email::Limits;
use folio_email::ops::{self, ExtractOptions, MailFs};

/// An in-memory tree that records every write.
#[derive(Default)]
struct Mem {
    files: Mutex<BTreeMap<String, Vec<u8>>>,
}

impl Mem {
    fn with(path: &str, bytes: Vec<u8>) -> Mem {
        let m = Mem::default();
        m.files.lock().unwrap().insert(path.into(), bytes);
        m
    }
    fn written_under(&self, dir: &str) -> Vec<String> {
        self.files.lock().unwrap().keys().filter(|k| k.starts_with(&format!("{dir}/"))).cloned().collect()
    }
    fn count(&self) -> usize {
        self.files.lock().unwrap().len()
    }
}

impl MailFs for Mem {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.files.lock().unwrap().get(path).cloned().ok_or_else(|| format!("{path}: not found"))
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), String> {
        self.files.lock().unwrap().insert(path.into(), bytes.to_vec());
        Ok(())
    }
    fn exists(&self, path: &str) -> bool {
        self.files.lock().unwrap().contains_key(path)
    }
}

fn corpus(rel: &str) -> Vec<u8> {
    let root = std::env::var("FOLIO_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into());
    std::fs::read(format!("{root}/{rel}")).unwrap_or_else(|e| panic!("{root}/{rel}: {e} (set FOLIO_CORPUS)"))
}

#[test]
fn the_corpus_msg_gives_sender_subject_date_body_and_its_attachments_under_the_folder() {
    let fs = Mem::with("/inbox/mail.msg", corpus("documents/outlook-email-with-pdf-attachment.msg"));
    let d = ops::describe(&fs, "/inbox/mail.msg", &Limits::default()).unwrap();
    println!("{}", serde_json::to_string_pretty(&d).unwrap());
    assert_eq!(d["format"], "msg");
    assert_eq!(d["from"], "Nick Booth <nick.booth@pof.com.au>", "the SMTP sender, not the Exchange X.500 one");
    assert_eq!(d["subject"], "test email");
    assert_eq!(d["date"], "2010-06-17T23:54:19Z");
    assert_eq!(d["to"][0], "Nick Booth <nick.booth@pof.com.au>");
    assert!(d["textCharacters"].as_u64().unwrap() > 0, "{d}");
    let names: Vec<&str> = d["attachments"].as_array().unwrap().iter().filter_map(|a| a["name"].as_str()).collect();
    assert!(names.iter().any(|n| n.to_lowercase().ends_with(".pdf")), "{names:?}");
    assert_eq!(fs.count(), 1, "describe wrote something");

    let x = ops::extract(&fs, "/inbox/mail.msg", &ExtractOptions::default(), &Limits::default()).unwrap();
    assert_eq!(x["dir"], "/inbox/mail.attachments");
    assert!(!x["text"].as_str().unwrap().trim().is_empty());
    assert!(
        x["rtf"].as_str().is_some_and(|r| r.starts_with("{\\rtf1")),
        "the compressed RTF body decodes: {}",
        x["rtf"]
    );
    assert!(x["note"].as_str().is_some_and(|n| n.contains("Test Attachment.eml")), "{}", x["note"]);
    let written = fs.written_under("/inbox/mail.attachments");
    assert_eq!(fs.count(), 1 + written.len(), "a write outside the folder");
    let pdf = written.iter().find(|p| p.to_lowercase().ends_with(".pdf")).expect("the PDF was written");
    assert!(fs.read(pdf).unwrap().starts_with(b"%PDF-"), "the attachment's bytes are the PDF");
    let mut embedded = 0;
    for a in x["attachments"].as_array().unwrap() {
        if a.get("embeddedMessage").is_some() {
            embedded += 1;
            let eml = fs.read(a["path"].as_str().unwrap()).unwrap();
            let inner = folio_email::ops::parse("/x.eml", &eml, &Limits::default()).unwrap();
            assert_eq!(inner.subject, a["embeddedMessage"]["subject"].as_str().unwrap());
        }
    }
    assert_eq!(embedded, 1, "the embedded message is extracted as .eml");
}

fn eml_with(attachments: &[(&str, &str)]) -> Vec<u8> {
    let mut s = String::from(
        "From: =?utf-8?B?SsO2cmc=?= <j@example.com>\r\nTo: a@example.com\r\nSubject: =?iso-8859-1?Q?R=E9sum=E9?=\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B\"\r\n\r\n--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nhello body\r\n",
    );
    for (name, body) in attachments {
        s += &format!(
            "--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"{name}\"\r\n\r\n{body}\r\n"
        );
    }
    s += "--B--\r\n";
    s.into_bytes()
}

#[test]
fn hostile_attachment_names_are_sanitised_and_nothing_is_written_outside_the_folder() {
    let eml = eml_with(&[("../../x", "one"), ("bad\u{1}name.txt", "two"), ("..", "three"), ("x", "four")]);
    let fs = Mem::with("/in/m.eml", eml);
    let opts = ExtractOptions { dir: Some("/out/m".into()), ..ExtractOptions::default() };
    let x = ops::extract(&fs, "/in/m.eml", &opts, &Limits::default()).unwrap();
    assert_eq!(x["subject"], "Résumé", "encoded words decoded");
    assert_eq!(x["from"], "Jörg <j@example.com>");
    let mut written = fs.written_under("/out/m");
    written.sort();
    assert_eq!(written, ["/out/m/attachment-3", "/out/m/badname.txt", "/out/m/x", "/out/m/x-2"]);
    assert_eq!(fs.count(), 5, "a write outside /out/m");
    assert_eq!(fs.read("/out/m/x").unwrap(), b"one");
    assert_eq!(x["attachments"][0]["originalName"], "../../x");
}

#[test]
fn a_thousand_attachments_are_refused_against_the_cap_before_any_write() {
    let many: Vec<(String, &str)> = (0..1000).map(|i| (format!("f{i}.txt"), "x")).collect();
    let refs: Vec<(&str, &str)> = many.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let limits = Limits { max_attachments: 200, max_parts: 5000, ..Limits::default() };
    let fs = Mem::with("/in/m.eml", eml_with(&refs));
    let err = ops::extract(&fs, "/in/m.eml", &ExtractOptions::default(), &limits).unwrap_err().to_string();
    assert!(err.contains("1000") && err.contains("cap of 200") && err.contains("MAX_ATTACHMENTS"), "{err}");
    assert_eq!(fs.count(), 1, "something was written before the refusal");
}

#[test]
fn a_bomb_of_nested_parts_is_refused_by_name() {
    let depth = 3000;
    let mut s = String::from("From: a@b.c\r\nSubject: bomb\r\nMIME-Version: 1.0\r\n");
    for i in 0..depth {
        s += &format!("Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n");
    }
    s += "Content-Type: text/plain\r\n\r\nx\r\n";
    for i in (0..depth).rev() {
        s += &format!("--b{i}--\r\n");
    }
    let fs = Mem::with("/in/bomb.eml", s.into_bytes());
    let err =
        ops::extract(&fs, "/in/bomb.eml", &ExtractOptions::default(), &Limits::default()).unwrap_err().to_string();
    assert!(err.contains("MIME parts") && err.contains("MAX_PARTS"), "{err}");
    assert_eq!(fs.count(), 1);
}

#[test]
fn an_mbox_is_counted_and_refused_for_extraction() {
    let mbox = b"From a@b Mon Jan  1 00:00:00 2024\nFrom: a@b.c\nSubject: one\n\nx\n\nFrom c@d Tue Jan  2 00:00:00 2024\nFrom: c@d.e\nSubject: two\n\ny\n".to_vec();
    let fs = Mem::with("/in/box.mbox", mbox);
    let d = ops::describe(&fs, "/in/box.mbox", &Limits::default()).unwrap();
    assert_eq!(d["messages"], 2);
    let err =
        ops::extract(&fs, "/in/box.mbox", &ExtractOptions::default(), &Limits::default()).unwrap_err().to_string();
    assert!(err.contains("mbox mailbox of 2 messages"), "{err}");
}

#[test]
fn a_legacy_office_file_named_msg_is_not_taken_for_mail() {
    let fs = Mem::with("/in/old.msg", corpus_ole());
    let err = ops::describe(&fs, "/in/old.msg", &Limits::default()).unwrap_err().to_string();
    assert!(err.contains("without Outlook's __substg1.0_"), "{err}");
}

fn corpus_ole() -> Vec<u8> {
    let root = std::env::var("FOLIO_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into());
    let dir = std::fs::read_dir(format!("{root}/documents")).unwrap();
    dir.filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "doc" || e == "xls" || e == "ppt"))
        .map(|p| std::fs::read(p).unwrap())
        .expect("a legacy Office file in the corpus")
}
