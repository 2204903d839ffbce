//! The analyst's afternoon, through `folio run` on a real-looking folder: two CSVs in; a styled
//! workbook with formulas (cached values present, `check` clean, LibreOffice's recalculation
//! agreeing), a two-page PDF report with a chart and Greek and Cyrillic text, a DOCX memo and a
//! six-slide deck with a native chart out. Every artefact is committed to the folder and re-read
//! by a reader that did not write it: openpyxl, pdfinfo/pdftotext, LibreOffice, PDFium's page.
//! Without LibreOffice, poppler or openpyxl on the machine the test says which and returns (the
//! project's install script puts them there, and CI has them).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;
use std::process::Command;

const SALES: &str =
    "region,q1,q2,q3\nNordics,120,135,150\nIberia,80,96,121\nBenelux,101,99,104\nBaltics,44,52,61\nAlps,90,88,97\n";
const NOTES: &str =
    "region,lead,note\nNordics,Åsa Lindqvist,Σύνολο πωλήσεων αυξήθηκε\nIberia,João Araújo,Выручка выросла на 26 %\n";

const SCRIPT: &str = r#"/** Turns the quarter's CSVs into a workbook, a report, a memo and a deck. */
import * as fs from 'env:fs';
import { csv } from 'env:std';
import * as sheets from 'env:spreadsheets';
import * as charts from 'env:charts';
import { pdf, docx } from 'env:documents';
import * as slides from 'env:slides';
import { rasterize } from 'env:render';

export default async function () {
  const sales = csv.parse(await fs.readFile('/inbox/sales.csv'));
  const notes = csv.parse(await fs.readFile('/inbox/notes.csv'));
  const n = sales.length, last = n + 1, sum = n + 2;
  const rows = sales.map((r, i) => [r.region, Number(r.q1), Number(r.q2), Number(r.q3), `=SUM(B${i + 2}:D${i + 2})`, `=E${i + 2}/E$${sum}`]);
  rows.push(['All regions', `=SUM(B2:B${last})`, `=SUM(C2:C${last})`, `=SUM(D2:D${last})`, `=SUM(E2:E${last})`, `=E${sum}/E${sum}`]);
  const book = await sheets.create('/out/q3-revenue.xlsx', { sheets: [{
    name: 'Revenue',
    rows: [['Region', 'Q1', 'Q2', 'Q3', 'Total', 'Share'], ...rows],
    styles: { 'A1:F1': { bold: true, fill: '#DDEBF7' }, [`A${sum}:F${sum}`]: { bold: true }, [`B2:E${sum}`]: { numFmt: '#,##0' }, [`F2:F${sum}`]: { numFmt: '0.0%' } },
    widths: { A: 16 }, freeze: 'A2', autoFilter: `A1:F${last}`,
    charts: [{ type: 'bar', title: 'Q3 by region', categories: `Revenue!$A$2:$A$${last}`, series: [{ name: 'Q3', values: `Revenue!$D$2:$D$${last}` }], at: 'H2' }],
  }] });
  const checked = await sheets.check('/out/q3-revenue.xlsx');
  const recalculated = await sheets.recalculate('/out/q3-revenue.xlsx', { out: '/out/recalculated.xlsx' });

  const spec = { type: 'bar', title: 'Revenue by region, Q1–Q3', categories: sales.map(r => r.region),
    series: ['q1', 'q2', 'q3'].map(q => ({ name: q.toUpperCase(), values: sales.map(r => Number(r[q])) })), numberFormat: '#,##0' };
  await charts.render(spec, { output: '/tmp/chart.png', width: 800, height: 450, scale: 2 });

  const table = { headers: ['Region', 'Q1', 'Q2', 'Q3'], rows: sales.map(r => [r.region, Number(r.q1), Number(r.q2), Number(r.q3)]) };
  const made = await pdf.create('/out/q3-report.pdf', {
    title: 'Q3 revenue report', author: 'Folio', header: 'Q3 revenue', footer: 'Internal', pageNumbers: true,
    content: [
      { heading: 'Q3 revenue by region' },
      { text: 'Every region grew except Benelux; Iberia grew fastest.' },
      { image: '/tmp/chart.png', width: 460 },
      { table },
      { pageBreak: true },
      { heading: 'Regional notes' },
      { bullets: notes.map(r => `${r.region} (${r.lead}): ${r.note}`) },
    ],
  });
  await rasterize('/out/q3-report.pdf', '/out/report-pages', { pages: [1], dpi: 72 });
  await docx.create('/out/q3-memo.docx', { title: 'Q3 memo', content: [
    { heading: 'Memo: Q3 revenue' }, { text: 'Iberia grew fastest this quarter; Benelux was flat.' },
    { bullets: notes.map(r => `${r.lead}: ${r.note}`) }, { table } ] });
  const deck = await slides.create({ title: 'Q3 revenue', subtitle: 'Five regions', footer: 'Folio · Q3', slides: [
    { title: 'Highlights', bullets: ['Iberia grew fastest', '  +26 % on Q2', 'Benelux flat'], notes: 'Open with Iberia.' },
    { title: 'Revenue by region', chart: spec },
    { title: 'The numbers', table: { header: ['Region', 'Q1', 'Q2', 'Q3'], rows: table.rows } },
    { title: 'Total for Q3', metric: { value: sales.reduce((a, r) => a + Number(r.q3), 0), caption: 'all regions' } },
    { title: 'Next steps', bullets: ['Staff Iberia', 'Review Benelux pricing'] },
  ] }, '/out/q3-deck.pptx');
  return { pages: made.pages, slides: deck.slides, charts: deck.charts, errors: checked.errorCount, uncached: checked.uncachedCount, recalculated: recalculated.ok };
}
"#;

fn folio(state: &Path, args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_folio")).arg("--state-dir").arg(state).args(args).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn have(cmd: &str, arg: &str) -> bool {
    Command::new(cmd).arg(arg).output().is_ok_and(|o| o.status.success())
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A Python that imports openpyxl: the one on PATH, or the system's (Debian's python3-openpyxl
/// when PATH starts with a pyenv or venv Python that lacks it).
fn python() -> Option<&'static str> {
    ["python3", "/usr/bin/python3"]
        .into_iter()
        .find(|p| Command::new(p).args(["-c", "import openpyxl"]).output().is_ok_and(|o| o.status.success()))
}

/// The workbook's Revenue sheet as openpyxl reads it: formulas (or cached values), the frozen
/// pane, the header's bold, a number format and the chart count.
fn openpyxl(python: &str, path: &Path, data_only: bool) -> serde_json::Value {
    let code = format!(
        "import json, openpyxl\nwb = openpyxl.load_workbook({:?}, data_only={})\nws = wb['Revenue']\nprint(json.dumps({{c: ws[c].value for c in ['E2','E6','B7','C7','D7','E7','F3','F7']}} | {{'freeze': ws.freeze_panes, 'bold': bool(ws['A1'].font.b), 'fmt': ws['F3'].number_format, 'charts': len(ws._charts)}}))",
        path.to_str().unwrap(),
        if data_only { "True" } else { "False" }
    );
    serde_json::from_str(&run(Command::new(python).arg("-c").arg(code))).unwrap()
}

fn pdf_text(path: &Path) -> String {
    run(Command::new("pdftotext").arg("-layout").arg(path).arg("-"))
}

fn pdf_pages(path: &Path) -> u32 {
    let info = run(Command::new("pdfinfo").arg(path));
    info.lines().find_map(|l| l.strip_prefix("Pages:")).unwrap().trim().parse().unwrap()
}

fn soffice_pdf(input: &Path, dir: &Path) -> std::path::PathBuf {
    let profile = dir.join("lo-profile");
    run(Command::new("soffice")
        .arg(format!("-env:UserInstallation=file://{}", profile.display()))
        .args(["--headless", "--convert-to", "pdf", "--outdir"])
        .arg(dir)
        .arg(input));
    dir.join(format!("{}.pdf", input.file_stem().unwrap().to_str().unwrap()))
}

#[test]
fn csvs_in_a_workbook_a_report_a_memo_and_a_deck_out_each_reread_independently() {
    let mut missing: Vec<&str> = [("soffice", "--version"), ("pdftotext", "-v"), ("pdfinfo", "-v")]
        .into_iter()
        .filter(|(c, a)| !have(c, a))
        .map(|(c, _)| c)
        .collect();
    let Some(python) = python() else {
        missing.push("python3-openpyxl");
        eprintln!("skipped: the independent readers {missing:?} are missing — hint: bash scripts/install.sh");
        return;
    };
    if !missing.is_empty() {
        eprintln!("skipped: the independent readers {missing:?} are missing — hint: bash scripts/install.sh");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let state = tmp.path().join("state");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::create_dir_all(folder.join("scripts")).unwrap();
    std::fs::write(folder.join("inbox/sales.csv"), SALES).unwrap();
    std::fs::write(folder.join("inbox/notes.csv"), NOTES).unwrap();
    std::fs::write(folder.join("scripts/quarter.js"), SCRIPT).unwrap();
    let f = folder.to_str().unwrap();

    let (out, err, ok) = folio(&state, &["run", f, "/scripts/quarter.js", "--json", "--run-budget-ms", "120000"]);
    assert!(ok, "folio run failed:\n{out}\n{err}");
    let result: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let result = result.get("result").cloned().unwrap_or(result);
    assert_eq!(result["errors"], 0, "{result}");
    assert_eq!(result["uncached"], 0, "every formula has a cached value: {result}");
    assert_eq!(result["pages"], 2, "{result}");
    assert_eq!(result["slides"], 6, "{result}");
    assert_eq!(result["charts"], 1, "{result}");
    assert!(!folder.join("out").exists(), "nothing reaches the folder before commit");
    let (_, err, ok) = folio(&state, &["commit", f]);
    assert!(ok, "{err}");
    let out = folder.join("out");

    // The workbook: formulas kept, cached values present, LibreOffice's recalculation agrees.
    let formulas = openpyxl(python, &out.join("q3-revenue.xlsx"), false);
    assert_eq!(formulas["E2"], "=SUM(B2:D2)", "{formulas}");
    assert_eq!(formulas["E7"], "=SUM(E2:E6)", "{formulas}");
    assert_eq!(formulas["freeze"], "A2", "{formulas}");
    assert_eq!(formulas["bold"], true, "{formulas}");
    assert_eq!(formulas["fmt"], "0.0%", "{formulas}");
    assert_eq!(formulas["charts"], 1, "a native chart: {formulas}");
    let cached = openpyxl(python, &out.join("q3-revenue.xlsx"), true);
    let recalculated = openpyxl(python, &out.join("recalculated.xlsx"), true);
    for (cell, expect) in
        [("E2", 405.0), ("E6", 275.0), ("B7", 435.0), ("C7", 470.0), ("D7", 533.0), ("E7", 1438.0), ("F7", 1.0)]
    {
        assert_eq!(cached[cell].as_f64(), Some(expect), "cached {cell}: {cached}");
        assert_eq!(recalculated[cell].as_f64(), Some(expect), "LibreOffice's {cell}: {recalculated}");
    }
    let share = cached["F3"].as_f64().unwrap();
    assert!((share - 297.0 / 1438.0).abs() < 1e-9, "Iberia's share: {share}");
    assert!((recalculated["F3"].as_f64().unwrap() - share).abs() < 1e-9, "{recalculated}");

    // The report: two pages, the text found (Greek and Cyrillic included), the chart drawn by PDFium.
    let report = out.join("q3-report.pdf");
    assert_eq!(pdf_pages(&report), 2);
    let text = pdf_text(&report);
    for needle in [
        "Q3 revenue by region",
        "Iberia grew fastest",
        "Σύνολο πωλήσεων αυξήθηκε",
        "Выручка выросла",
        "Åsa Lindqvist",
        "Page 1 of 2",
    ] {
        assert!(text.contains(needle), "pdftotext lacks {needle:?}:\n{text}");
    }
    assert!(!text.contains('?'), "no character replaced by '?':\n{text}");
    let page = std::fs::read_dir(out.join("report-pages")).unwrap().next().unwrap().unwrap().path();
    let png = std::fs::read(&page).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.line_size / info.width as usize;
    // The chart's first series is the palette's blue, #0072B2.
    let blue = buf[..info.buffer_size()]
        .chunks(channels)
        .filter(|p| p[0] < 40 && (90..140).contains(&p[1]) && (150..205).contains(&p[2]))
        .count();
    assert!(blue > 200, "PDFium's page 1 shows the chart's blue bars ({blue} pixels)");

    // The memo: LibreOffice opens and converts it, and its text is there.
    let memo = soffice_pdf(&out.join("q3-memo.docx"), tmp.path());
    let memo_text = pdf_text(&memo);
    assert!(memo_text.contains("Memo: Q3 revenue") && memo_text.contains("João Araújo"), "{memo_text}");

    // The deck: LibreOffice renders six pages, the chart's labels among them.
    let deck = soffice_pdf(&out.join("q3-deck.pptx"), tmp.path());
    assert_eq!(pdf_pages(&deck), 6);
    let deck_text = pdf_text(&deck);
    for needle in ["Highlights", "Revenue by region", "Nordics", "Total for Q3", "Next steps"] {
        assert!(deck_text.contains(needle), "the deck lacks {needle:?}:\n{deck_text}");
    }
}
