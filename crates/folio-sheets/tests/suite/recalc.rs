//! recalculate and check against LibreOffice: after `recalculate` every formula has a value,
//! the values are LibreOffice's own (read back by openpyxl), they equal the cached values
//! `create` computed, styles survive, errors are listed by sheet and cell; without LibreOffice
//! the call is refused with the install command.

use std::collections::BTreeMap;
use std::sync::Arc;

use folio_render::{HostPaths, Platform};
use folio_sheets::SheetsHost;
use folio_vfs::{MemTree, Tree};
use serde_json::json;

use super::common::{on_disk, py, python, run_in, run_on, soffice, vp};

const VALUES: &str = r#"
import json, sys, openpyxl
v = openpyxl.load_workbook(sys.argv[1], data_only=True)
f = openpyxl.load_workbook(sys.argv[1])
out = {}
for ws in v.worksheets:
    for row in ws.iter_rows():
        for c in row:
            if c.value is not None:
                out[ws.title + '!' + c.coordinate] = c.value
out['A1.bold'] = f.worksheets[0]['A1'].font.b
out['A1.fill'] = f.worksheets[0]['A1'].fill.fgColor.rgb
out['B2.numFmt'] = f.worksheets[0]['B2'].number_format
out['D2.formula'] = f.worksheets[0]['D2'].value
print(json.dumps(out, default=str))
"#;

const BOOK: &str = r#"
    import { create, recalculate, check } from 'env:spreadsheets';
    export default async function () {
        const made = await create('/out/r.xlsx', { sheets: [
            { name: 'Calc', rows: [
                ['Item', 'Qty', 'Price', 'Total', 'Lookup'],
                ['pen', 3, 1.25, '=B2*C2', '=VLOOKUP("ink",A2:C4,3,FALSE)'],
                ['ink', 2, 7.5, '=B3*C3', '=SUMIF(A2:A4,"p*",D2:D4)'],
                ['pad', 10, 0.8, '=ROUND(B4*C4,1)', '=TEXT(D2,"0.00")'],
                ['All', '=SUM(B2:B4)', '=AVERAGE(C2:C4)', '=SUM(D2:D4)', '=IF(D5>20,"big","small")'],
              ],
              styles: { 'A1:E1': { bold: true, fill: '#E2EFDA' }, 'B2:B5': { numFmt: '0' } } },
            { name: 'Other', rows: [['x', '=Calc!D5*2', '=MAX(Calc!B2:B4)-MIN(Calc!B2:B4)']] },
        ] });
        const before = await check('/out/r.xlsx');
        const after = await recalculate('/out/r.xlsx');
        return { made, before, after, again: await check('/out/r.xlsx') };
    }"#;

#[test]
fn recalculate_stores_libreoffices_values_in_every_formula_and_check_finds_none_missing() {
    let Some(_) = soffice() else { return };
    let tree = Arc::new(MemTree::new());
    let out = run_in(&tree, BOOK).unwrap();
    assert_eq!((out["made"]["formulas"].as_u64(), out["made"]["cached"].as_u64()), (Some(12), Some(9)), "{out}");
    assert_eq!(out["before"]["uncachedCount"], 3, "VLOOKUP, SUMIF and TEXT wait for recalculate: {}", out["before"]);
    assert_eq!(out["after"]["ok"], true, "{}", out["after"]);
    assert_eq!(out["after"]["recalculated"], true);
    assert_eq!(out["again"]["ok"], true);
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    // The values LibreOffice computed and stored.
    let lo = py(&python, VALUES, &on_disk(&dir, "lo.xlsx", &tree.read(&vp("/out/r.xlsx")).unwrap()));
    let want = json!({
        "Calc!D2": 3.75, "Calc!D3": 15, "Calc!D4": 8, "Calc!D5": 26.75, "Calc!B5": 15, "Calc!C5": 3.183333333333333,
        "Calc!E2": 7.5, "Calc!E3": 11.75, "Calc!E4": "3.75", "Calc!E5": "big", "Other!B1": 53.5, "Other!C1": 8,
    });
    for (cell, v) in want.as_object().unwrap() {
        let got = &lo[cell];
        let same = match (got.as_f64(), v.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
            _ => got == v,
        };
        assert!(same, "{cell}: LibreOffice stored {got}, expected {v}");
    }
    assert_eq!(
        (lo["A1.bold"].as_bool(), lo["A1.fill"].as_str()),
        (Some(true), Some("FFE2EFDA")),
        "styles survive: {lo}"
    );
    assert_eq!(lo["B2.numFmt"], "0");
    assert_eq!(lo["D2.formula"], "=B2*C2", "the formulas stay formulas");

    // The cached values create computed are LibreOffice's.
    let mine =
        run_in(&tree, BOOK.replace("const after = await recalculate('/out/r.xlsx');", "const after = null;").as_str())
            .unwrap();
    assert!(mine["made"]["uncached"].as_array().unwrap().len() == 3);
    let created = py(&python, VALUES, &on_disk(&dir, "mine.xlsx", &tree.read(&vp("/out/r.xlsx")).unwrap()));
    let mut compared = 0;
    for (cell, v) in created.as_object().unwrap() {
        if cell.contains('.') || v.as_str() == Some("") {
            continue;
        }
        let lo_v = &lo[cell];
        let same = match (lo_v.as_f64(), v.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
            _ => lo_v == v,
        };
        assert!(same, "{cell}: create cached {v}, LibreOffice computes {lo_v}");
        compared += 1;
    }
    assert!(compared >= 20, "{compared} cells compared");
}

#[test]
fn check_lists_each_formula_error_with_its_sheet_and_cell_after_recalculation() {
    let Some(_) = soffice() else { return };
    let src = r#"
        import { create, recalculate } from 'env:spreadsheets';
        export default async function () {
            await create('/out/e.xlsx', { sheets: [{ name: 'S', rows: [[1, 0, '=A1/B1', '=NOSUCHFUNCTION(A1)', '=A1+"x"', '=VLOOKUP(9,A1:B1,2,FALSE)', '=A1+#REF!']] }] });
            return await recalculate('/out/e.xlsx');
        }"#;
    let out = run_in(&Arc::new(MemTree::new()), src).unwrap();
    let got: BTreeMap<String, String> = out["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                format!("{}!{}", e["sheet"].as_str().unwrap(), e["cell"].as_str().unwrap()),
                e["error"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: BTreeMap<String, String> =
        [("S!C1", "#DIV/0!"), ("S!D1", "#NAME?"), ("S!E1", "#VALUE!"), ("S!F1", "#N/A"), ("S!G1", "#REF!")]
            .into_iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
    assert_eq!(got, want, "{out}");
    assert_eq!(out["ok"], false);
    assert!(out["hint"].as_str().unwrap().contains("fix each formula"));
}

#[test]
fn without_libreoffice_recalculate_is_refused_with_the_install_command() {
    let nowhere =
        HostPaths { platform: Platform::Linux, env: BTreeMap::new(), exe_dir: None, state_dir: None, system: false };
    let host = Arc::new(SheetsHost::new(nowhere));
    let src = r#"
        import { write, recalculate } from 'env:spreadsheets';
        export default async function () {
            await write('/out/a.xlsx', [{ a: 1 }]);
            try { await recalculate('/out/a.xlsx'); return 'recalculated'; } catch (e) { return e.message; }
        }"#;
    let out = run_on(host, &Arc::new(MemTree::new()), src, None).unwrap();
    let msg = out.as_str().unwrap();
    assert!(
        msg.contains("recalculate needs LibreOffice")
            && msg.contains("apt-get install")
            && msg.contains("libreoffice-calc"),
        "{msg}"
    );
}

#[test]
fn an_empty_string_an_error_or_a_boolean_is_a_cached_value_not_uncached() {
    let Some(_) = soffice() else { return };
    let tree = Arc::new(MemTree::new());
    let out = run_in(
        &tree,
        r#"
    import { create, recalculate, check } from 'env:spreadsheets';
    export default async function () {
        const made = await create('/out/e.xlsx', { sheets: [ { name: 'S', rows: [
            ['n', 'size', 'flag', 'err', 'later'],
            [3, '=IF(A2>5,"big","")', '=A2>1', '=1/0', '=VLOOKUP(3,A2:A3,1,FALSE)'],
            [9, '=IF(A3>5,"big","")', '=A3<1', '=A3/0', '=TEXT(A3,"0.0")'],
        ] } ] });
        const before = await check('/out/e.xlsx');
        const after = await recalculate('/out/e.xlsx');
        return { made, before, after, again: await check('/out/e.xlsx') };
    }"#,
    )
    .unwrap();
    // VLOOKUP and TEXT are not computed by create: those two, and only those, are uncached.
    assert_eq!(out["before"]["uncachedCount"], 2, "{}", out["before"]);
    let cells: Vec<&str> =
        out["before"]["uncached"].as_array().unwrap().iter().map(|c| c["cell"].as_str().unwrap()).collect();
    assert_eq!(cells, ["E2", "E3"], "{}", out["before"]);
    assert_eq!(out["before"]["errorCount"], 2, "{}", out["before"]);
    // After LibreOffice computed everything, nothing is uncached — B2's "" included.
    assert_eq!(out["again"]["uncachedCount"], 0, "{}", out["again"]);
    assert_eq!(out["again"]["errorCount"], 2, "{}", out["again"]);
}

/// Set in the two child processes of the next test: the workbook each recalculates.
const CHILD: &str = "FOLIO_TEST_RECALC_CHILD";

#[test]
fn two_processes_recalculate_the_same_workbook_at_the_same_moment() {
    let Some(_) = soffice() else { return };
    if let Some(path) = std::env::var_os(CHILD) {
        // A child: recalculate the workbook on disk through a real script and say how it went.
        let tree = Arc::new(MemTree::new());
        tree.write(&vp("/in/b.xlsx"), &std::fs::read(&path).unwrap()).unwrap();
        let out = run_in(
            &tree,
            r#"import { recalculate, check } from 'env:spreadsheets';
            export default async function () {
                const r = await recalculate('/in/b.xlsx').catch(e => ({ failed: String(e) }));
                return { r, c: await check('/in/b.xlsx') };
            }"#,
        );
        println!("CHILD-RESULT {}", json!(out));
        return;
    }
    let tree = Arc::new(MemTree::new());
    run_in(
        &tree,
        r#"import { create } from 'env:spreadsheets';
        export default async function () {
            return await create('/out/b.xlsx', { sheets: [ { name: 'S', rows: [
                ['n', 'text'], [1, '=TEXT(A2,"0.00")'], [2, '=TEXT(A3,"0.00")'], ['=SUM(A2:A3)', '=VLOOKUP(2,A2:B3,2,FALSE)'] ] } ] });
        }"#,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = on_disk(&dir, "b.xlsx", &tree.read(&vp("/out/b.xlsx")).unwrap());
    let me = std::env::current_exe().unwrap();
    let name = "suite::recalc::two_processes_recalculate_the_same_workbook_at_the_same_moment";
    // Both are spawned before either is waited for: they run at the same moment.
    #[allow(clippy::needless_collect)]
    let children: Vec<_> = (0..2)
        .map(|_| {
            std::process::Command::new(&me)
                .args([name, "--exact", "--nocapture", "--test-threads=1"])
                .env(CHILD, &file)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text
            .lines()
            .find_map(|l| l.split_once("CHILD-RESULT ").map(|(_, r)| r))
            .unwrap_or_else(|| panic!("child {i} said nothing: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let ok = &v["Ok"];
        assert_eq!(ok["r"]["recalculated"], true, "child {i}: {v}");
        assert_eq!(ok["c"]["uncachedCount"], 0, "child {i}: {v}");
        assert_eq!(ok["c"]["ok"], true, "child {i}: {v}");
    }
}

/// What openpyxl sees of a workbook's layout and rules, and its stored values.
const LAYOUT: &str = r#"
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb['Data']
v = openpyxl.load_workbook(sys.argv[1], data_only=True)['Data']
out = {
  'freeze': ws.freeze_panes,
  'theme': (wb.loaded_theme or b'')[:4000].decode('utf-8', 'replace'),
  'bold': ws['A1'].font.b, 'fill': ws['A1'].fill.fgColor.rgb, 'numFmt': ws['B2'].number_format,
  'validations': [(str(d.sqref), d.formula1) for d in ws.data_validations.dataValidation],
  'conditional': [str(r.sqref) for r in ws.conditional_formatting],
  'na': v['D2'].value, 'c2': v['C2'].value, 'c9': v['C9'].value, 'formula': ws['C2'].value,
}
print(json.dumps(out, default=str))
"#;

/// Builds, with openpyxl, a workbook with freeze panes, a theme, styles, a validation, a
/// conditional format, a stored #N/A and formulas without cached values.
const MAKE: &str = r#"
import sys, openpyxl
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.formatting.rule import CellIsRule
wb = openpyxl.Workbook()
ws = wb.active
ws.title = 'Data'
ws.append(['n', 'x', 'size', 'stored'])
for i in range(2, 12):
    ws.append([i, i * 1.5, '=IF(A%d>5,"big","")' % i, None])
ws['D2'] = '#N/A'
ws['A1'].font = Font(bold=True)
ws['A1'].fill = PatternFill('solid', fgColor='FFE2EFDA')
ws['B2'].number_format = '0.00'
ws.freeze_panes = 'B2'
dv = DataValidation(type='whole', operator='between', formula1='0', formula2='100')
ws.add_data_validation(dv)
dv.add('A2:A11')
ws.conditional_formatting.add('B2:B11', CellIsRule(operator='greaterThan', formula=['10'], fill=PatternFill('solid', fgColor='FFFF0000')))
wb.save(sys.argv[1])
"#;

#[test]
fn recalculate_writes_only_values_and_openpyxl_reads_the_same_layout_before_and_after() {
    let Some(_) = soffice() else { return };
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("made.xlsx");
    let made = std::process::Command::new(&python).args(["-c", MAKE]).arg(&file).status().unwrap();
    assert!(made.success());
    let original = std::fs::read(&file).unwrap();
    let tree = Arc::new(MemTree::new());
    tree.write(&vp("/in/b.xlsx"), &original).unwrap();
    let out = run_in(
        &tree,
        r#"import { recalculate } from 'env:spreadsheets';
        export default async function () { return await recalculate('/in/b.xlsx', { out: '/out/b.xlsx' }); }"#,
    )
    .unwrap();
    assert_eq!(out["uncachedCount"], 0, "an empty-string result is a value: {out}");
    let after = tree.read(&vp("/out/b.xlsx")).unwrap();
    let before = py(&python, LAYOUT, &file);
    let now = py(&python, LAYOUT, &on_disk(&dir, "after.xlsx", &after));
    for key in ["freeze", "theme", "bold", "fill", "numFmt", "validations", "conditional", "na", "formula"] {
        assert_eq!(before[key], now[key], "{key} changed: {before} → {now}");
    }
    assert_eq!(before["freeze"], "B2");
    assert_eq!(now["na"], "#N/A", "the stored #N/A stays a value");
    // openpyxl reads an empty cached string as None; the XML says what was stored.
    assert_eq!((now["c2"].as_str().unwrap_or(""), now["c9"].as_str()), ("", Some("big")), "{now}");
    let sheet = {
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(after.clone())).unwrap();
        let mut s = String::new();
        std::io::Read::read_to_string(&mut z.by_name("xl/worksheets/sheet1.xml").unwrap(), &mut s).unwrap();
        s
    };
    let c2 = &sheet[sheet.find("<c r=\"C2\"").unwrap()..];
    let c2 = &c2[..c2.find("</c>").unwrap()];
    assert!(c2.contains(" t=\"str\"") && c2.ends_with("<v></v>"), "C2's empty string is cached: {c2}");
    // Every part other than the worksheet is byte-identical.
    let parts = |b: &[u8]| {
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(b.to_vec())).unwrap();
        (0..z.len())
            .map(|i| {
                let mut f = z.by_index(i).unwrap();
                let mut v = Vec::new();
                std::io::Read::read_to_end(&mut f, &mut v).unwrap();
                (f.name().unwrap().to_string(), v)
            })
            .collect::<BTreeMap<_, _>>()
    };
    let (a, b) = (parts(&original), parts(&after));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        if name != "xl/worksheets/sheet1.xml" {
            assert!(b[name] == *bytes, "{name} changed");
        }
    }
    println!("recalculate changed {} cells", out["changedCells"]);
}
