//! The npm route: each vendored library's README example, with only the output file name
//! changed, runs through a real script run, and an independent reader opens what it wrote
//! (LibreOffice, poppler's pdftotext; openpyxl when installed). A missing reader skips its check
//! with a printed reason.

use std::path::Path;
use std::process::Command;

use super::*;

/// An engine with the default limits but a 60 s budget (a README example is small, but a cold
/// first import compiles a 1 MB bundle on a shared 2-core machine).
fn engine() -> Engine {
    Engine::new(ModuleRegistry::with_builtins(), ScriptLimits { run_timeout_ms: 60_000, ..ScriptLimits::default() })
}

fn run_in(engine: &Engine, t: &Arc<MemTree>, src: &str) -> RunResult {
    t.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    engine.run_blocking(Arc::new(TreeFs::new(t.clone())), &vp("/scripts/main.js"), None, RunOptions::default())
}

/// How the written file is checked.
#[derive(Clone, Copy)]
enum Reader {
    /// openpyxl (values and formulas), else LibreOffice → CSV.
    Xlsx,
    /// LibreOffice → PDF, then pdfinfo / pdftotext.
    Office,
    /// pdfinfo / pdftotext.
    Pdf,
}

struct Case {
    name: &'static str,
    script: &'static str,
    output: &'static str,
    reader: Reader,
    /// Text the reader must find.
    expect: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "exceljs README: columns, rows, a formula, writeFile and readFile",
        script: r#"import ExcelJS from 'exceljs';
export default async function () {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Me';
  workbook.created = new Date(1985, 8, 30);
  const sheet = workbook.addWorksheet('My Sheet');
  sheet.columns = [
    { header: 'Id', key: 'id', width: 10 },
    { header: 'Name', key: 'name', width: 32 },
    { header: 'D.O.B.', key: 'dob', width: 15 },
  ];
  sheet.addRow({ id: 1, name: 'John Doe', dob: new Date(1970, 1, 1) });
  sheet.addRow({ id: 2, name: 'Jane Doe', dob: new Date(1965, 1, 7) });
  sheet.getCell('A4').value = { formula: 'A2+A3', result: 3 };
  sheet.getRow(1).font = { bold: true };
  await workbook.xlsx.writeFile('/out/export.xlsx');
  const back = new ExcelJS.Workbook();
  await back.xlsx.readFile('/out/export.xlsx');
  return [back.getWorksheet('My Sheet').getCell('B3').value, back.getWorksheet('My Sheet').getCell('A4').formula];
}"#,
        output: "/out/export.xlsx",
        reader: Reader::Xlsx,
        expect: &["John Doe", "Jane Doe", "A2+A3"],
    },
    Case {
        name: "docx README: Document, Packer.toBuffer, fs.writeFileSync",
        script: r#"import * as fs from "fs";
import { Document, Packer, Paragraph, TextRun } from "docx";

// Documents contain sections, you can have multiple sections per document, go here to learn more about sections
// This simple example will only contain one section
const doc = new Document({
  sections: [
    {
      properties: {},
      children: [
        new Paragraph({
          children: [
            new TextRun("Hello World"),
            new TextRun({ text: "Foo Bar", bold: true }),
            new TextRun({ text: "\tGithub is the best", bold: true }),
          ],
        }),
      ],
    },
  ],
});

// Used to export the file into a .docx file
export default async function () {
  const buffer = await Packer.toBuffer(doc);
  fs.writeFileSync("out/My Document.docx", buffer);
  return Buffer.isBuffer(buffer);
}"#,
        output: "/out/My Document.docx",
        reader: Reader::Office,
        expect: &["Hello World", "Foo Bar", "Github is the best"],
    },
    Case {
        name: "pdf-lib README: create a document, draw text, save, fs.writeFileSync",
        script: r#"import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import fs from 'node:fs';
export default async function () {
  const pdfDoc = await PDFDocument.create();
  const timesRomanFont = await pdfDoc.embedFont(StandardFonts.TimesRoman);
  const page = pdfDoc.addPage();
  const { width, height } = page.getSize();
  const fontSize = 30;
  page.drawText('Creating PDFs in JavaScript is awesome!', {
    x: 50,
    y: height - 4 * fontSize,
    size: fontSize,
    font: timesRomanFont,
    color: rgb(0, 0.53, 0.71),
  });
  const pdfBytes = await pdfDoc.save();
  fs.writeFileSync('/out/create.pdf', pdfBytes);
  return width > 0;
}"#,
        output: "/out/create.pdf",
        reader: Reader::Pdf,
        expect: &["Creating PDFs in JavaScript is awesome!"],
    },
    Case {
        name: "@pdf-lib/fontkit README: registerFontkit, embed a font read with fs, non-Latin text",
        script: r#"import { PDFDocument, rgb } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import { readFileSync, writeFileSync } from 'fs';
export default async function () {
  const pdfDoc = await PDFDocument.create();
  pdfDoc.registerFontkit(fontkit);
  const fontBytes = readFileSync('/fonts/DejaVuSans.ttf');
  const customFont = await pdfDoc.embedFont(fontBytes, { subset: true });
  const page = pdfDoc.addPage();
  const text = 'Привет, мир — Καλημέρα — embedded font';
  const textSize = 20;
  const textWidth = customFont.widthOfTextAtSize(text, textSize);
  page.drawText(text, { x: 40, y: 450, size: textSize, font: customFont, color: rgb(0, 0.53, 0.71) });
  writeFileSync('/out/fontkit.pdf', await pdfDoc.save());
  return textWidth > 0;
}"#,
        output: "/out/fontkit.pdf",
        reader: Reader::Pdf,
        expect: &["Привет, мир", "Καλημέρα", "embedded font"],
    },
    Case {
        name: "pptxgenjs README: a slide with text, writeFile({ fileName })",
        script: r#"import pptxgen from "pptxgenjs";
export default async function () {
  // 1. Create a new Presentation
  let pres = new pptxgen();
  // 2. Add a Slide
  let slide = pres.addSlide();
  // 3. Add one or more objects (Tables, Shapes, Images, Text and Media) to the Slide
  let textboxText = "Hello World from PptxGenJS!";
  let textboxOpts = { x: 1, y: 1, color: "363636" };
  slide.addText(textboxText, textboxOpts);
  // 4. Save the Presentation
  return await pres.writeFile({ fileName: "/out/Sample Presentation.pptx" });
}"#,
        output: "/out/Sample Presentation.pptx",
        reader: Reader::Office,
        expect: &["Hello World from PptxGenJS!"],
    },
];

fn have(tool: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().is_ok_and(|o| o.status.success())
}

fn pdftotext(pdf: &Path) -> Option<String> {
    if !have("pdftotext") {
        eprintln!("skip: pdftotext is missing (apt-get install poppler-utils); {} not read back", pdf.display());
        return None;
    }
    let out = Command::new("pdftotext").arg(pdf).arg("-").output().unwrap();
    assert!(out.status.success(), "pdftotext failed on {}: {}", pdf.display(), String::from_utf8_lossy(&out.stderr));
    let info = Command::new("pdfinfo").arg(pdf).output().unwrap();
    assert!(info.status.success(), "pdfinfo refused {}", pdf.display());
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// LibreOffice converts `file` to `ext` in `dir` (its own profile, bounded by `timeout`).
fn soffice(file: &Path, ext: &str, dir: &Path) -> Option<std::path::PathBuf> {
    if !have("soffice") || !have("timeout") {
        eprintln!("skip: LibreOffice (soffice) is missing; {} not converted", file.display());
        return None;
    }
    let profile = dir.join("lo-profile");
    let out = Command::new("timeout")
        .arg("120")
        .arg("soffice")
        .arg(format!("-env:UserInstallation=file://{}", profile.display()))
        .args(["--headless", "--convert-to", ext, "--outdir"])
        .arg(dir)
        .arg(file)
        .output()
        .unwrap();
    let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
    let target = dir.join(format!("{stem}.{}", ext.split(':').next().unwrap()));
    assert!(
        target.exists(),
        "LibreOffice did not convert {}: {}{}",
        file.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(target)
}

fn read_back(reader: Reader, file: &Path, dir: &Path) -> Option<String> {
    match reader {
        Reader::Pdf => pdftotext(file),
        Reader::Office => soffice(file, "pdf", dir).and_then(|pdf| pdftotext(&pdf)),
        Reader::Xlsx => {
            let probe = Command::new("python3").args(["-c", "import openpyxl"]).output();
            if probe.is_ok_and(|o| o.status.success()) {
                let script = "import sys, openpyxl\nwb = openpyxl.load_workbook(sys.argv[1])\nfor ws in wb:\n  print(ws.title)\n  for row in ws.iter_rows(values_only=True):\n    print(row)\n";
                let out = Command::new("python3").args(["-c", script]).arg(file).output().unwrap();
                assert!(
                    out.status.success(),
                    "openpyxl refused {}: {}",
                    file.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
                return Some(String::from_utf8_lossy(&out.stdout).into_owned());
            }
            eprintln!("note: openpyxl is missing; reading {} with LibreOffice instead", file.display());
            // LibreOffice's CSV has the values; the formula text comes from the sheet XML.
            let csv = soffice(file, "csv", dir)?;
            let mut text = std::fs::read_to_string(csv).unwrap();
            let sheet = Command::new("unzip").arg("-p").arg(file).arg("xl/worksheets/sheet1.xml").output().unwrap();
            text.push_str(&String::from_utf8_lossy(&sheet.stdout));
            Some(text)
        }
    }
}

#[test]
fn each_readme_example_writes_a_file_an_independent_reader_opens() {
    let engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for case in CASES {
        let t = tree(&[]);
        t.write(&vp("/fonts/DejaVuSans.ttf"), folio_fonts::Face::Sans.bytes()).unwrap();
        let r = run_in(&engine, &t, case.script);
        if let Err(e) = &r.outcome {
            failures.push(format!("{}: the run failed: {e}\nstderr: {:?}", case.name, r.stderr));
            continue;
        }
        let bytes = match t.read(&vp(case.output)) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: {} was not written: {e} (result {})", case.name, case.output, outcome(&r)));
                continue;
            }
        };
        let file = dir.path().join(Path::new(case.output).file_name().unwrap());
        std::fs::write(&file, &bytes).unwrap();
        let Some(text) = read_back(case.reader, &file, dir.path()) else { continue };
        for want in case.expect {
            if !text.contains(want) {
                failures.push(format!("{}: the reader did not find {want:?} in {}:\n{text}", case.name, case.output));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A 1×1 PNG, for the skill's `addImage({ path })`.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8,
    6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0,
    0xf0, 0x1f, 0, 0x05, 0, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60,
    0x82,
];

#[test]
fn every_example_in_the_skill_runs_and_writes_its_file() {
    let (name, description, text) = folio_script::LIBRARIES_SKILL;
    assert!(!name.is_empty() && !description.is_empty());
    let engine = engine();
    let mut blocks = 0;
    let mut failures = Vec::new();
    for block in text.split("```js\n").skip(1) {
        let code = block.split("```").next().unwrap();
        blocks += 1;
        let t = tree(&[]);
        t.write(&vp("/fonts/DejaVuSans.ttf"), folio_fonts::Face::Sans.bytes()).unwrap();
        t.write(&vp("/in/logo.png"), PNG).unwrap();
        let r = run_in(&engine, &t, code);
        let written = code.split('\'').find(|s| s.starts_with("/out/")).unwrap();
        match (&r.outcome, t.read(&vp(written))) {
            (Ok(_), Ok(bytes)) if bytes.len() > 100 => {}
            (outcome, file) => {
                failures.push(format!("block {blocks}: {outcome:?}, {written}: {:?}", file.map(|b| b.len())))
            }
        }
    }
    assert_eq!(blocks, 4, "the skill's examples");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The file terminals beyond the README examples: (name, script, expected outcome fragment).
const TERMINALS: &[(&str, &str, &str)] = &[
    (
        "exceljs csv.writeFile and csv.readFile",
        "import ExcelJS from 'exceljs';\nimport fs from 'fs';\nexport default async () => { const wb = new ExcelJS.Workbook(); const ws = wb.addWorksheet('S'); ws.addRow(['a', 1]); ws.addRow(['b', 2]); await wb.csv.writeFile('/out/s.csv'); const back = new ExcelJS.Workbook(); const w2 = await back.csv.readFile('/out/s.csv'); return [fs.readFileSync('/out/s.csv', 'utf8'), w2.getCell('B2').value, w2.getCell('A1').value]; }",
        r#"["a,1\nb,2",2,"a"]"#,
    ),
    (
        "exceljs readFile of a missing file names it",
        "import ExcelJS from 'exceljs';\nexport default async () => { try { await new ExcelJS.Workbook().xlsx.readFile('/in/none.xlsx'); return 'read'; } catch (e) { return e.message; } }",
        r#""File not found: /in/none.xlsx""#,
    ),
    (
        "exceljs writeFile outside the folder is refused with env:fs's message",
        "import ExcelJS from 'exceljs';\nexport default async () => { const wb = new ExcelJS.Workbook(); wb.addWorksheet('S'); try { await wb.xlsx.writeFile('../../tmp/x.xlsx'); return 'written'; } catch (e) { return [e.code, e.message]; } }",
        r#"["EINVAL","fs.writeFileSync: "#,
    ),
    (
        "pptxgenjs writeFile adds .pptx and returns the name; the file is a zip",
        "import pptxgen from 'pptxgenjs';\nimport fs from 'fs';\nexport default async () => { const p = new pptxgen(); p.addSlide().addText('x', { x: 1, y: 1 }); const name = await p.writeFile({ fileName: '/out/deck' }); return [name, fs.readFileSync('/out/deck.pptx').subarray(0, 2).toString()]; }",
        r#"["/out/deck.pptx","PK"]"#,
    ),
    (
        "docx ImageRun with bytes read by fs",
        "import fs from 'fs';\nimport { Document, Packer, Paragraph, ImageRun } from 'docx';\nexport default async () => { const doc = new Document({ sections: [{ children: [new Paragraph({ children: [new ImageRun({ type: 'png', data: fs.readFileSync('/in/logo.png'), transformation: { width: 10, height: 10 } })] })] }] }); const b = await Packer.toBuffer(doc); fs.writeFileSync('/out/i.docx', b); return b.length > 1000; }",
        "true",
    ),
];

#[test]
fn the_file_terminals_go_through_the_folder() {
    let engine = engine();
    let mut failures = Vec::new();
    for (name, src, expect) in TERMINALS {
        let t = tree(&[]);
        t.write(&vp("/in/logo.png"), PNG).unwrap();
        let got = outcome(&run_in(&engine, &t, src));
        if !got.contains(expect) {
            failures.push(format!("{name}:\n  expected to contain: {expect}\n  got: {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
