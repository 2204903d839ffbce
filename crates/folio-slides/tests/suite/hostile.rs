//! Hostile packages get named errors before anything inflates: not a zip, an encrypted entry,
//! declared sizes over the cap, a Word file named .pptx, damaged XML.

use std::io::Write;

use folio_slides::extract;
use zip::write::SimpleFileOptions;

fn zip_of(entries: &[(&str, &[u8])], method: zip::CompressionMethod) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (n, b) in entries {
        w.start_file(*n, SimpleFileOptions::default().compression_method(method)).unwrap();
        w.write_all(b).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn set_encrypted_flag(mut z: Vec<u8>) -> Vec<u8> {
    for sig in [&b"PK\x03\x04"[..], &b"PK\x01\x02"[..]] {
        let off = if sig == b"PK\x03\x04" { 6 } else { 8 };
        let mut i = 0;
        while let Some(p) = z[i..].windows(4).position(|w| w == sig) {
            z[i + p + off] |= 1;
            i += p + 4;
        }
    }
    z
}

#[test]
fn hostile_packages_are_refused_by_name() {
    let pres: &[u8] = b"<p:presentation xmlns:p=\"http://schemas.openxmlformats.org/presentationml/2006/main\"/>";
    let check = |bytes: &[u8], want: &str| {
        let e = extract("h.pptx", bytes).unwrap_err().to_string();
        assert!(e.contains(want) && e.contains("hint"), "{want}: {e}");
    };
    check(b"just text", "not a zip package");
    check(&[0xD0, 0xCF, 0x11, 0xE0, 0, 0], "legacy PowerPoint");
    check(&zip_of(&[("word/document.xml", b"<w/>")], zip::CompressionMethod::Stored), "Word or Excel package");
    let enc = set_encrypted_flag(zip_of(&[("ppt/presentation.xml", pres)], zip::CompressionMethod::Stored));
    check(&enc, "is encrypted");
    let zeros = vec![0u8; 130 * 1024 * 1024];
    let bomb =
        zip_of(&[("ppt/presentation.xml", pres), ("ppt/media/big.bin", &zeros)], zip::CompressionMethod::Deflated);
    drop(zeros);
    assert!(bomb.len() < 2 * 1024 * 1024, "a bomb: {} bytes packed", bomb.len());
    check(&bomb, "over the 134217728-byte limit");
    let damaged = zip_of(&[("ppt/presentation.xml", b"<p:presentation")], zip::CompressionMethod::Deflated);
    check(&damaged, "the part ppt/presentation.xml is damaged");
    let dtd = zip_of(
        &[("ppt/presentation.xml", b"<!DOCTYPE x [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><x>&b;</x>")],
        zip::CompressionMethod::Deflated,
    );
    check(&dtd, "damaged");
}
