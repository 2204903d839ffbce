//! PDF editing and DOCX replaceText, checked by pdfinfo and by the ZIP itself.

use std::io::Read;

use folio_vfs::Tree;
use serde_json::json;

use super::common::*;

const EDIT: &str = r#"
import { pdf, docx, describe } from 'env:documents';
export default async function main() {
  const spec = { title: 'Edit me', pageNumbers: true, header: 'Header: Client ACME', content: [
    { heading: 'Memo' }, { text: [{ text: 'Dear ' }, { text: 'Client', bold: true }, { text: ' ACME, totals are below.' }] },
    { pageBreak: true }, { text: 'Page two' }, { pageBreak: true }, { text: 'Page three' } ] };
  await pdf.create('/out/a.pdf', spec);
  await docx.create('/out/m.docx', spec);
  const merged = await pdf.merge(['/out/a.pdf', '/out/a.pdf'], '/out/merged.pdf');
  const pick = await pdf.extractPages('/out/merged.pdf', '/out/pick.pdf', '1-2,6');
  const bad = await pdf.extractPages('/out/a.pdf', '/out/bad.pdf', [1, 9]).catch(e => String(e));
  const split = await pdf.split('/out/a.pdf', '/out/parts');
  const rot = await pdf.rotate('/out/a.pdf', '/out/rot.pdf', 90, [2]);
  await pdf.setMetadata('/out/a.pdf', { title: 'Отчёт', keywords: ['q3', 'sales'] }, '/out/meta.pdf');
  const d = await describe('/out/rot.pdf');
  const st = await pdf.stamp('/out/a.pdf', '/out/stamped.pdf', { text: 'DRAFT — ЧЕРНОВИК', position: 'center' });
  const st2 = await pdf.stamp('/out/a.pdf', '/out/st2.pdf', { text: '売', pages: [1] }).catch(e => String(e));
  const rep = await docx.replaceText('/out/m.docx', { 'Client ACME': 'Kunde Ωmega', 'absent': 'x' }, { output: '/out/m2.docx' });
  const none = await docx.replaceText('/out/m.docx', { 'nowhere': 'x' }).catch(e => String(e));
  const text = await docx.extractText('/out/m2.docx');
  return { merged, pick, bad, split, rot, d, st, st2, rep, none, text };
}
"#;

fn entry(zip: &[u8], name: &str) -> (u64, Vec<u8>) {
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let f = z.by_name(name).unwrap();
    let (size, off) = (f.compressed_size(), f.data_start().unwrap());
    let mut raw = Vec::new();
    drop(f);
    let mut all = std::io::Cursor::new(zip);
    std::io::Seek::seek(&mut all, std::io::SeekFrom::Start(off)).unwrap();
    all.take(size).read_to_end(&mut raw).unwrap();
    (size, raw)
}

#[test]
fn pages_are_merged_picked_split_rotated_and_metadata_set_and_docx_text_replaced() {
    let (tree, out) = run(&[], EDIT);
    let out = out.unwrap();
    assert_eq!(out["pick"]["pages"], json!([1, 2, 6]), "{out}");
    assert_eq!(out["st"]["stamped"], 3, "{out}");
    assert!(out["st2"].as_str().unwrap().contains("'売' (U+58F2)"), "{out}");
    let bad = out["bad"].as_str().unwrap();
    assert!(bad.contains("page 9 does not exist") && bad.contains("3 page(s)"), "{bad}");
    assert_eq!(out["split"]["paths"][2], "/out/parts/a-3.pdf");
    assert_eq!(out["d"]["pageSizes"][1], json!([841.89, 595.28]), "{out}");
    assert_eq!(out["rep"]["replacements"], 2, "body and header: {out}");
    assert_eq!(out["rep"]["unmatched"], json!(["absent"]));
    assert_eq!(out["rep"]["parts"], json!(["word/document.xml", "word/header1.xml"]));
    assert!(out["none"].as_str().unwrap().contains("none of \"nowhere\" was found"), "{out}");
    assert!(out["text"]["text"].as_str().unwrap().contains("Dear Kunde Ωmega, totals"), "{out}");
    // Untouched parts are byte-identical, still compressed.
    let before = tree.read(&vp("/out/m.docx")).unwrap();
    let after = tree.read(&vp("/out/m2.docx")).unwrap();
    assert_eq!(entry(&before, "word/styles.xml"), entry(&after, "word/styles.xml"));
    if let Some(pdfinfo) = tool("pdfinfo") {
        let dir = tempfile::tempdir().unwrap();
        for (name, pages) in [("merged", "6"), ("pick", "3"), ("rot", "3"), ("meta", "3"), ("stamped", "3")] {
            let p = dir.path().join(format!("{name}.pdf"));
            std::fs::write(&p, tree.read(&vp(&format!("/out/{name}.pdf"))).unwrap()).unwrap();
            let info = output(&pdfinfo, &[p.to_str().unwrap()]);
            assert!(info.contains(&format!("Pages:           {pages}")), "{name}: {info}");
            if name == "meta" {
                assert!(info.contains("Title:           Отчёт") && info.contains("q3, sales"), "{info}");
            }
        }
        if let Some(pdftotext) = tool("pdftotext") {
            let p = dir.path().join("stamped.pdf");
            for page in ["1", "3"] {
                // Text at 45° comes out a few letters a line; compare without whitespace.
                let text: String = output(&pdftotext, &["-f", page, "-l", page, p.to_str().unwrap(), "-"])
                    .split_whitespace()
                    .collect();
                assert!(text.contains("DRAFT—ЧЕРНОВИК") && text.contains("Page"), "page {page}: {text}");
            }
        }
        let p = dir.path().join("rot.pdf");
        let info = output(&pdfinfo, &["-f", "2", "-l", "2", p.to_str().unwrap()]);
        assert!(info.contains("Page    2 rot:   90"), "{info}");
    }
}

#[test]
fn a_libreoffice_form_is_read_and_filled_and_unknown_fields_list_the_real_names() {
    let Some(dir) = corpus() else { return };
    let form = std::fs::read(dir.join("pdf/form-libreoffice-acroform.pdf")).unwrap();
    let src = r#"import { pdf } from 'env:documents';
export default async function main() {
  const f = await pdf.readForm('/in/form.pdf');
  const text = f.fields.find(x => x.type === 'text');
  const bad = await pdf.fillForm('/in/form.pdf', { 'No such field': 'x' }).catch(e => String(e));
  const filled = await pdf.fillForm('/in/form.pdf', { [text.name]: 'Ωmega Ltd' }, { output: '/out/filled.pdf' });
  const again = await pdf.readForm('/out/filled.pdf');
  const flat = await pdf.fillForm('/in/form.pdf', { [text.name]: 'Flat Müller' }, { output: '/out/flat.pdf', flatten: true }).catch(e => String(e));
  const greek = await pdf.fillForm('/in/form.pdf', { [text.name]: 'Ωmega' }, { output: '/out/greek.pdf', flatten: true }).catch(e => String(e));
  return { f, bad, filled, name: text.name, again, flat, greek };
}"#;
    let (tree, out) = run(&[("/in/form.pdf", form)], src);
    let out = out.unwrap();
    assert!(out["f"]["fields"].as_array().unwrap().len() >= 3, "{out}");
    let bad = out["bad"].as_str().unwrap();
    assert!(bad.contains("has no field \"No such field\"") && bad.contains(out["name"].as_str().unwrap()), "{bad}");
    assert_eq!(out["filled"]["filled"], 1);
    let name = out["name"].clone();
    let again = out["again"]["fields"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap().clone();
    assert_eq!(again["value"], "Ωmega Ltd", "{again}");
    assert!(out["greek"].as_str().unwrap().contains("'Ω' (U+03A9) would become '?'"), "{out}");
    assert!(tree.read(&vp("/out/greek.pdf")).is_err(), "no partial file");
    if folio_docs::qpdf::find().is_some() {
        assert_eq!(out["flat"]["flattened"], true, "{out}");
        let flat = tree.read(&vp("/out/flat.pdf")).unwrap();
        let form = folio_docs::pdfops::read_form("flat.pdf", &flat).unwrap();
        assert!(
            form["fields"].as_array().unwrap().iter().all(|f| f["name"] != name),
            "flattened fields are gone: {form}"
        );
        if let Some(pdftotext) = tool("pdftotext") {
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("flat.pdf");
            std::fs::write(&p, &flat).unwrap();
            let text = output(&pdftotext, &[p.to_str().unwrap(), "-"]);
            assert!(text.contains("Flat Müller"), "{text}");
        }
    } else {
        assert!(out["flat"].as_str().unwrap().contains("needs qpdf"), "{out}");
    }
}

#[test]
fn corpus_pdfs_from_other_producers_take_a_stamp_and_keep_their_text() {
    let Some(dir) = corpus() else { return };
    let Some(pdftotext) = tool("pdftotext") else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in ["minimal-1page-pdftex.pdf", "google-docs-export.pdf", "outline-bookmarks-links.pdf"] {
        let bytes = std::fs::read(dir.join("pdf").join(name)).unwrap();
        let before_p = tmp.path().join(format!("before-{name}"));
        std::fs::write(&before_p, &bytes).unwrap();
        let before = output(&pdftotext, &[before_p.to_str().unwrap(), "-"]);
        let opts = json!({"text": "CONFIDENTIAL Ωmega", "position": "bottom-right"});
        let (stamped, n) = folio_docs::pdfstamp::stamp(name, &bytes, &opts).unwrap();
        assert!(n >= 1);
        let p = tmp.path().join(name);
        std::fs::write(&p, stamped).unwrap();
        let after = output(&pdftotext, &[p.to_str().unwrap(), "-"]);
        assert!(after.contains("CONFIDENTIAL Ωmega"), "{name}: {after}");
        let first_words: Vec<&str> = before.split_whitespace().take(5).collect();
        for w in first_words {
            assert!(after.contains(w), "{name} lost {w:?}");
        }
    }
}
