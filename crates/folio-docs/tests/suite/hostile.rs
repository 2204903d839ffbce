//! Hostile inputs get named errors: an encrypted PDF, a damaged DOCX, a ZIP bomb, a renamed
//! non-PDF, an encrypted DOCX entry.

use std::io::Write;

use folio_docs::DocsError;
use folio_docs::docxread;

use super::common::*;

fn zip_with(name: &str, data: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let o = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    w.start_file("word/document.xml", o).unwrap();
    w.write_all(b"<w:document><w:body><w:p><w:r><w:t>hi</w:t></w:r></w:p></w:body></w:document>").unwrap();
    w.start_file(name, o).unwrap();
    w.write_all(data).unwrap();
    w.finish().unwrap().into_inner()
}

#[test]
fn a_zip_bomb_and_a_damaged_docx_are_refused_by_name() {
    // 8 MiB of zeros deflates to a few KiB: past a 1 MiB cap, and past 1000× its size.
    let bomb = zip_with("word/document2.xml", &vec![0u8; 8 << 20]);
    let err = docxread::describe("/in/bomb.docx", bomb, 1 << 20).unwrap_err();
    assert!(matches!(err, DocsError::Refused { .. }) && err.to_string().contains("over the limit"), "{err}");
    let mut doc = zip_with("word/document2.xml", b"x");
    let bomb_doc = {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let o = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file("word/document.xml", o).unwrap();
        w.write_all(&vec![b' '; 40 << 20]).unwrap();
        w.finish().unwrap().into_inner()
    };
    let err = docxread::describe("/in/ratio.docx", bomb_doc, docxread::DEFAULT_CAP).unwrap_err();
    assert!(err.to_string().contains("ZIP bomb"), "{err}");
    doc.truncate(doc.len() / 2);
    for (name, bytes, want) in [
        ("/in/half.docx", doc, "ZIP structure is broken"),
        ("/in/text.docx", b"hello".to_vec(), "is not a ZIP package"),
        ("/in/locked.docx", [&[0xD0u8, 0xCF, 0x11, 0xE0][..], &[0; 60]].concat(), "password-protected"),
        ("/in/xlsx.docx", zip_with_only("xl/workbook.xml"), "not a Word document"),
    ] {
        let err = docxread::describe(name, bytes, docxread::DEFAULT_CAP).unwrap_err().to_string();
        assert!(err.contains(want) && err.contains(name) && err.contains("hint"), "{name}: {err}");
    }
}

fn zip_with_only(name: &str) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
    w.write_all(b"<x/>").unwrap();
    w.finish().unwrap().into_inner()
}

#[test]
fn an_encrypted_pdf_is_described_but_refused_for_editing_with_the_fix() {
    let Some(dir) = corpus() else { return };
    for name in [
        "encrypted-user-password-openpassword.pdf",
        "encrypted-aes256-user-view-owner-master.pdf",
        "encrypted-no-user-password-rc4-nocopy.pdf",
    ] {
        let bytes = std::fs::read(dir.join("pdf").join(name)).unwrap();
        let d = folio_docs::pdfops::describe(name, &bytes).unwrap();
        assert_eq!(d["encrypted"], true, "{name}: {d}");
        let err = folio_docs::pdfops::extract_pages(name, &bytes, &serde_json::json!("1")).unwrap_err();
        assert!(
            matches!(err, DocsError::Encrypted { .. }) && err.to_string().contains("qpdf --decrypt"),
            "{name}: {err}"
        );
    }
    let src = r#"import { pdf } from 'env:documents';
export default async function main() { return await pdf.extractText('/in/locked.pdf').catch(e => String(e)); }"#;
    let locked = std::fs::read(dir.join("pdf/encrypted-user-password-openpassword.pdf")).unwrap();
    let (_, out) = run(&[("/in/locked.pdf", locked)], src);
    let msg = out.unwrap().as_str().unwrap().to_string();
    assert!(msg.contains("encrypted") && msg.contains("hint"), "{msg}");
}
