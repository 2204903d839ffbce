//! pdf.create and docx.create through a script, re-read by independent readers.

use folio_vfs::Tree;

use super::common::*;

const REPORT: &str = r#"
import { pdf, docx } from 'env:documents';
export default async function main() {
  const rows = [];
  for (let i = 0; i < 30; i++) rows.push(['Регион ' + i, 1000 + i * 17, (i * 0.5).toFixed(1) + '%']);
  const spec = {
    title: 'Квартальный отчёт — Σύνοψη', author: 'Folio test', pageSize: 'a4',
    header: 'ACME — Q3', footer: 'Confidential', pageNumbers: true,
    content: [
      { heading: 'Quarterly report' },
      { text: [{ text: 'Revenue grew ' }, { text: 'nine percent', bold: true }, ' this quarter. Η ανάπτυξη ήταν σταθερή. Выручка выросла.'] },
      { bullets: ['North ahead of plan', ['fourteen new accounts'], 'South on plan'] },
      { image: '/in/chart.png', width: 200 },
      { table: { headers: ['Region', 'Revenue', 'Change'], rows } },
    ],
  };
  const p = await pdf.create('/out/report.pdf', spec);
  const d = await docx.create('/out/memo.docx', { ...spec, pageSize: 'letter' });
  const t = await pdf.extractText('/out/report.pdf').catch(e => ({ error: String(e) }));
  const dd = await docx.describe('/out/memo.docx');
  const dt = await docx.extractText('/out/memo.docx');
  return { p, d, t, dd, dt };
}
"#;

#[test]
fn a_two_page_report_and_a_memo_are_read_back_by_independent_readers() {
    let (tree, out) = run(&[("/in/chart.png", png(120, 60, [220, 20, 20]))], REPORT);
    let out = out.unwrap();
    assert_eq!(out["p"]["pages"], 2, "{out}");
    let pdf_bytes = tree.read(&vp("/out/report.pdf")).unwrap();
    let docx_bytes = tree.read(&vp("/out/memo.docx")).unwrap();
    // The module's own readers.
    assert_eq!(out["dd"]["headings"][0]["text"], "Quarterly report", "{out}");
    assert_eq!(out["dd"]["tables"], 1);
    assert!(out["dt"]["text"].as_str().unwrap().contains("Выручка выросла"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let pdf_path = dir.path().join("report.pdf");
    std::fs::write(&pdf_path, &pdf_bytes).unwrap();
    let p = pdf_path.to_str().unwrap();
    if let (Some(pdfinfo), Some(pdftotext)) = (tool("pdfinfo"), tool("pdftotext")) {
        let info = output(&pdfinfo, &[p]);
        assert!(info.contains("Pages:           2"), "{info}");
        assert!(info.contains("Квартальный отчёт — Σύνοψη"), "{info}");
        let text = output(&pdftotext, &[p, "-"]).split_whitespace().collect::<Vec<_>>().join(" ");
        for want in [
            "Quarterly report",
            "Revenue grew nine percent this quarter. Η",
            "Η ανάπτυξη ήταν σταθερή",
            "Выручка выросла",
            "Регион 29",
            "Page 2 of 2",
            "ACME — Q3",
        ] {
            assert!(text.contains(want), "pdftotext lacks {want:?}:\n{text}");
        }
        assert!(!text.contains('?'), "no character became '?':\n{text}");
        // The header row repeats on page 2.
        let page2 = output(&pdftotext, &["-f", "2", "-l", "2", p, "-"]);
        assert!(page2.contains("Revenue"), "{page2}");
    }
    if let Some(pdffonts) = tool("pdffonts") {
        let fonts = output(&pdffonts, &[p]);
        assert!(fonts.lines().skip(2).all(|l| l.contains(" yes yes yes ")), "embedded, subset, ToUnicode:\n{fonts}");
    }
    // PDFium: the text comes back and the image renders red.
    let r = renderer();
    match r.pdfium() {
        Ok(_) => {
            assert_eq!(out["t"]["pages"], 2, "{out}");
            assert_eq!(out["t"]["perPage"][0]["kind"], "text", "{out}");
            assert!(out["t"]["text"].as_str().unwrap().contains("--- page 2 ---"));
            let opts = folio_render::RasterOptions::from_json(&serde_json::json!({"pages": [1], "dpi": 50})).unwrap();
            let pages = r.rasterize_bytes("report.pdf", &pdf_bytes, &opts).unwrap();
            let png_bytes = &pages.pages[0].bytes;
            let mut dec = png::Decoder::new(std::io::Cursor::new(png_bytes.as_slice()));
            dec.set_transformations(png::Transformations::EXPAND);
            let mut reader = dec.read_info().unwrap();
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut buf).unwrap();
            let ch = info.color_type.samples();
            let red = buf[..info.buffer_size()].chunks(ch).filter(|p| p[0] > 180 && p[1] < 80 && p[2] < 80).count();
            assert!(red > 500, "PDFium drew the image: {red} red pixels");
        }
        Err(e) => eprintln!("skipped the PDFium half: {e}"),
    }
    // LibreOffice converts the memo and pdftotext finds its text.
    if let (Some(soffice), Some(pdftotext)) = (tool("soffice"), tool("pdftotext")) {
        let docx_path = dir.path().join("memo.docx");
        std::fs::write(&docx_path, &docx_bytes).unwrap();
        let profile = format!("-env:UserInstallation=file://{}/lo-profile", dir.path().display());
        let status = std::process::Command::new(soffice)
            .args([
                profile.as_str(),
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                dir.path().to_str().unwrap(),
                docx_path.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
        let text = output(&pdftotext, &[dir.path().join("memo.pdf").to_str().unwrap(), "-"])
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for want in
            ["Quarterly report", "Revenue grew nine percent this quarter.", "Выручка выросла", "Регион 29", "ACME — Q3"]
        {
            assert!(text.contains(want), "LibreOffice's PDF lacks {want:?}:\n{text}");
        }
    }
}

#[test]
fn a_character_the_font_lacks_is_refused_by_name_before_writing() {
    let src = r#"import { pdf, docx } from 'env:documents';
export default async function main() {
  const a = await pdf.create('/out/x.pdf', { content: [{ text: 'ok' }, { heading: 'Q3 売上' }] }).catch(e => String(e));
  const b = await docx.create('/out/x.docx', { content: [{ text: 'क' }] }).catch(e => String(e));
  const c = await pdf.create('/out/y.pdf', { content: [{ chart: {} }] }).catch(e => String(e));
  const d = await pdf.create('/out/z.pdf', { content: [{ image: '/in/x.gif' }] }).catch(e => String(e));
  const e = await pdf.create('/out/he.pdf', { content: [{ table: { rows: [['שלום']] } }] }).catch(e => String(e));
  const f = await docx.create('/out/he.docx', { content: [{ text: 'שלום مرحبا' }] });
  return { a, b, c, d, e, f };
}"#;
    let (tree, out) = run(&[("/in/x.gif", b"GIF89a\x01\x00\x01\x00".to_vec())], src);
    let out = out.unwrap();
    let a = out["a"].as_str().unwrap();
    assert!(a.contains("content[1]") && a.contains("'売' (U+58F2)") && a.contains("'上' (U+4E0A)"), "{a}");
    assert!(out["b"].as_str().unwrap().contains("'क' (U+0915)"), "{out}");
    let c = out["c"].as_str().unwrap();
    assert!(c.contains("content[0] is not a recognised block") && c.contains("pageBreak"), "{c}");
    let d = out["d"].as_str().unwrap();
    assert!(d.contains("a GIF") && d.contains("env:images"), "{d}");
    let e = out["e"].as_str().unwrap();
    assert!(e.contains("content[0] uses right-to-left text") && e.contains("docx.create"), "{e}");
    assert_eq!(out["f"]["path"], "/out/he.docx", "DOCX takes Hebrew and Arabic: {out}");
    for p in ["/out/x.pdf", "/out/x.docx", "/out/y.pdf", "/out/z.pdf", "/out/he.pdf"] {
        assert!(tree.read(&vp(p)).is_err(), "{p} must not exist");
    }
}

/// The names a `.d.ts` exports: top-level functions and namespaces, and each namespace's
/// functions as `ns_name`.
fn declared(dts: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut ns: Option<String> = None;
    for line in dts.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("export namespace ") {
            ns = Some(rest.split_whitespace().next().unwrap().to_string());
        } else if t.starts_with('}') && !line.starts_with(' ') {
            ns = None;
        } else if let Some(rest) = t.strip_prefix("export function ").or_else(|| t.strip_prefix("function ")) {
            let name = rest.split(['(', '<']).next().unwrap().trim();
            out.insert(match &ns {
                Some(n) => format!("{n}_{name}"),
                None => name.to_string(),
            });
        }
    }
    out
}

#[test]
fn types_and_bindings_agree_and_the_namespaces_are_shaped() {
    let module = folio_docs::modules::documents_module(renderer());
    let bound: std::collections::BTreeSet<String> = module.functions.iter().map(|f| f.name.clone()).collect();
    let table: std::collections::BTreeSet<String> = folio_docs::BINDINGS.iter().map(|b| b.name.to_string()).collect();
    assert_eq!(bound, table);
    assert_eq!(
        declared(folio_docs::modules::DOCUMENTS_DTS),
        bound,
        "every binding is declared and every declaration bound"
    );
    let src = r#"import * as d from 'env:documents';
export default async function main() { return { top: Object.keys(d).sort(), pdf: Object.keys(d.pdf).sort(), docx: Object.keys(d.docx).sort() }; }"#;
    let (_, out) = run(&[], src);
    let out = out.unwrap();
    assert_eq!(out["docx"], serde_json::json!(["create", "describe", "extractText", "replaceText"]), "{out}");
    assert!(out["pdf"].as_array().unwrap().iter().any(|n| n == "stamp"), "{out}");
    let (name, _, body) = folio_docs::modules::SKILL;
    assert_eq!(name, "documents-quick");
    for f in ["pdf.create", "docx.create", "pdf.extractText", "view_image"] {
        assert!(body.contains(f), "the skill shows {f}");
    }
}

#[test]
fn the_handler_claims_pdf_by_magic_and_docx_by_extension_and_gives_page_and_word_counts() {
    use folio_env::FileHandler;
    let h = folio_docs::handler::DocumentsHandler::new(renderer());
    assert_eq!(h.module(), "documents");
    assert_eq!(h.extensions(), vec![".pdf".to_string(), ".docx".to_string()]);
    assert!(h.magic().iter().any(|m| m.offset == 0 && m.bytes == b"%PDF"));
    let spec = serde_json::json!({"content": [{"heading": "Memo"}, {"text": "three words here"}, {"pageBreak": true}, {"text": "two"}]});
    let doc = folio_docs::spec::Doc::parse(&spec).unwrap();
    let pdf = folio_docs::pdfwrite::write_pdf(&doc).unwrap();
    let docx = folio_docs::docxwrite::write_docx(&doc).unwrap();
    let d = h.describe(&vp("/out/memo.pdf"), &pdf).unwrap();
    assert_eq!((d["pages"].as_u64(), d["kind"].as_str()), (Some(2), Some("document")), "{d}");
    let d = h.describe(&vp("/out/memo.docx"), &docx).unwrap();
    assert_eq!((d["words"].as_u64(), d["paragraphs"].as_u64()), (Some(5), Some(3)), "{d}");
    let err = h.describe(&vp("/out/fake.docx"), b"not a zip").unwrap_err();
    assert!(err.contains("is not a ZIP package") && err.contains("hint"), "{err}");
}
