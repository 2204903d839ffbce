//! Workbooks written through env:spreadsheets, re-read by openpyxl (values, formulas, cached
//! values, styles, merged cells, freeze panes, filters, widths) and by unzip (native charts);
//! append and update keep every style.

use serde_json::json;

use super::common::{on_disk, py, python, run, run_in, vp};
use folio_vfs::Tree;

/// openpyxl's view of a workbook: formulas, cached values, styles and layout of every sheet.
const OPENPYXL: &str = r#"
import json, sys, openpyxl
f = openpyxl.load_workbook(sys.argv[1])
v = openpyxl.load_workbook(sys.argv[1], data_only=True)
out = {}
for ws in f.worksheets:
    wv = v[ws.title]
    cells = {}
    for row in ws.iter_rows():
        for c in row:
            if c.value is None and not c.font.b and c.fill.fgColor.rgb in (None, '00000000'):
                continue
            cells[c.coordinate] = {
                'value': c.value if not hasattr(c.value, 'isoformat') else c.value.isoformat(),
                'cached': wv[c.coordinate].value if not hasattr(wv[c.coordinate].value, 'isoformat') else wv[c.coordinate].value.isoformat(),
                'bold': bool(c.font.b), 'fill': c.fill.fgColor.rgb if c.fill.fill_type == 'solid' else None,
                'numFmt': c.number_format, 'border': c.border.left.style, 'align': c.alignment.horizontal,
                'size': c.font.sz, 'color': c.font.color.rgb if c.font.color is not None else None,
            }
    out[ws.title] = {
        'cells': cells, 'merged': sorted(str(r) for r in ws.merged_cells.ranges),
        'freeze': ws.freeze_panes, 'filter': ws.auto_filter.ref,
        'widths': {k: round(d.width, 1) for k, d in ws.column_dimensions.items() if d.width},
        'state': ws.sheet_state,
    }
print(json.dumps(out, default=str))
"#;

const CREATE: &str = r#"
    import { create, read, check } from 'env:spreadsheets';
    export default async function () {
        const months = ['Jan', 'Feb', 'Mar', 'Apr'];
        const rows = months.map((m, i) => ({ Month: m, Units: 10 * (i + 1), Price: 2.5, Revenue: `=B${i + 2}*C${i + 2}` }));
        const made = await create('/out/report.xlsx', { sheets: [
            { name: 'Sales', columns: [{ header: 'Month', width: 14 }, 'Units', { header: 'Price', numFmt: '$#,##0.00' }, { header: 'Revenue', numFmt: '#,##0.0' }],
              rows,
              cells: { A7: 'Total', B7: '=SUM(B2:B5)', D7: { formula: 'SUM(D2:D5)', style: { bold: true, border: 'thin' } },
                       A9: 'Share of Jan', B9: '=ROUND(D2/D7,3)', A10: 'Label', B10: '=A2&" / "&TEXT(B2,"0")', A11: 'Bad', B11: '=B2/0' },
              styles: { 'A1:D1': { bold: true, fill: '#DDEBF7', color: '#1F3864', align: 'center' } },
              freeze: 'A2', autoFilter: 'A1:D5', merge: ['A12:D12'],
              charts: [{ type: 'combo', title: 'Units and revenue', categories: 'Sales!$A$2:$A$5',
                         series: [{ name: 'Units', values: 'Sales!$B$2:$B$5' }, { name: 'Revenue', values: 'Sales!$D$2:$D$5', type: 'line', axis: 'secondary' }], at: 'F2' },
                       { type: 'pie', title: 'Literal', categories: ['a', 'b'], series: [{ name: 'x', values: [3, 4] }] }] },
            { name: 'Notes', rows: [['Cross-sheet', '=Sales!D7*2'], ['Big', { value: '=not a formula' }]] },
        ] });
        const back = await read('/out/report.xlsx', { formulas: true });
        return { made, back, check: await check('/out/report.xlsx') };
    }"#;

#[test]
fn a_styled_workbook_from_a_spec_reads_back_in_openpyxl_with_cached_values() {
    let (tree, out) = run(&[], CREATE);
    let out = out.unwrap();
    let made = &out["made"];
    assert_eq!(made["formulas"], 10, "{made}");
    assert_eq!(made["cached"], 9, "TEXT is not computed here: {made}");
    assert!(made["uncached"][0].as_str().unwrap().starts_with("Sales!B10: function TEXT"), "{made}");
    assert_eq!(made["charts"], 2);
    // env:spreadsheets' own reader sees the cached values and the formulas.
    assert_eq!(out["back"]["rows"][0], json!({"Month": "Jan", "Units": 10, "Price": 2.5, "Revenue": 25}), "{out}");
    assert_eq!(out["back"]["formulas"][0], json!({"Revenue": "=B2*C2"}));
    // check: one error (B11 #DIV/0!, computed and cached as such) and one formula without a value.
    let c = &out["check"];
    assert_eq!(
        (c["ok"].as_bool(), c["errorCount"].as_u64(), c["uncachedCount"].as_u64()),
        (Some(false), Some(1), Some(1)),
        "{c}"
    );
    assert_eq!(c["errors"][0], json!({"sheet": "Sales", "cell": "B11", "error": "#DIV/0!", "formula": "=B2/0"}));
    assert_eq!(c["uncached"][0]["cell"], "B10");

    let bytes = tree.read(&vp("/out/report.xlsx")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = on_disk(&dir, "report.xlsx", &bytes);
    // The charts are native: a combo (bar + line on a secondary axis) and a pie over hidden data.
    let zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.clone())).unwrap();
    let names: Vec<String> = zip.file_names().filter_map(|n| n.ok().map(|n| n.into_owned())).collect();
    assert!(
        names.contains(&"xl/charts/chart1.xml".to_string()) && names.contains(&"xl/charts/chart2.xml".to_string()),
        "{names:?}"
    );
    let chart1 = unzip(&bytes, "xl/charts/chart1.xml");
    assert!(
        chart1.contains("<c:barChart>") && chart1.contains("<c:lineChart>") && chart1.contains("Sales!$D$2:$D$5"),
        "{chart1}"
    );
    assert!(unzip(&bytes, "xl/charts/chart2.xml").contains("<c:pieChart>"));

    let Some(python) = python() else { return };
    let wb = py(&python, OPENPYXL, &file);
    let sales = &wb["Sales"];
    let cell = |c: &str| &sales["cells"][c];
    assert_eq!(cell("D2")["value"], "=B2*C2");
    assert_eq!(cell("D2")["cached"], 25);
    assert_eq!(cell("D7")["cached"], 250, "{sales}");
    assert_eq!(cell("B9")["cached"], 0.1);
    assert_eq!(cell("B11")["cached"], "#DIV/0!");
    assert_eq!((cell("D7")["bold"].as_bool(), cell("D7")["border"].as_str()), (Some(true), Some("thin")));
    assert_eq!(cell("C2")["numFmt"], "$#,##0.00");
    assert_eq!(cell("D2")["numFmt"], "#,##0.0");
    assert_eq!(
        (cell("A1")["bold"].as_bool(), cell("A1")["fill"].as_str(), cell("A1")["align"].as_str()),
        (Some(true), Some("FFDDEBF7"), Some("center"))
    );
    assert_eq!(cell("A1")["color"], "FF1F3864");
    assert_eq!(sales["merged"], json!(["A12:D12"]));
    assert_eq!(sales["freeze"], "A2");
    assert_eq!(sales["filter"], "A1:D5");
    assert!((sales["widths"]["A"].as_f64().unwrap() - 14.0).abs() < 1.0, "{}", sales["widths"]);
    assert_eq!(wb["Notes"]["cells"]["B1"]["cached"], 500, "cross-sheet formulas are computed");
    assert_eq!(wb["Notes"]["cells"]["B2"]["value"], "=not a formula", "{{value}} keeps text");
    assert_eq!(wb["_chartdata"]["state"], "hidden");
}

/// `describe` of a workbook shows each sheet's frozen panes and its charts (type, title, series
/// ranges), so a model without vision can check the chart it made (issue 28, play defect).
#[test]
fn describe_of_a_workbook_names_its_charts_and_frozen_panes() {
    let (tree, out) = run(&[], CREATE);
    out.unwrap();
    let bytes = tree.read(&vp("/out/report.xlsx")).unwrap();
    let d = folio_sheets::handler::describe_bytes("/out/report.xlsx", &bytes).unwrap();
    let sales = d["sheets"].as_array().unwrap().iter().find(|s| s["name"] == "Sales").unwrap();
    assert_eq!(sales["freeze"], "A2", "{sales}");
    let charts = sales["charts"].as_array().unwrap_or_else(|| panic!("no charts in {sales}"));
    assert_eq!(charts.len(), 2, "{sales}");
    assert_eq!(charts[0]["type"], "column + line", "{}", charts[0]);
    assert_eq!(charts[0]["title"], "Units and revenue");
    assert_eq!(charts[0]["series"][1]["values"], "Sales!$D$2:$D$5", "{}", charts[0]);
    assert_eq!(charts[0]["series"][0]["categories"], "Sales!$A$2:$A$5", "{}", charts[0]);
    assert_eq!(charts[1]["type"], "pie", "{}", charts[1]);
    assert!(charts[1]["series"][0]["values"].as_str().unwrap().starts_with("_chartdata!"), "{}", charts[1]);
    let notes = d["sheets"].as_array().unwrap().iter().find(|s| s["name"] == "Notes").unwrap();
    assert!(notes.get("charts").is_none() && notes.get("freeze").is_none(), "{notes}");
}

fn unzip(bytes: &[u8], part: &str) -> String {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut s = String::new();
    zip.by_name(part).unwrap().read_to_string(&mut s).unwrap();
    s
}

#[test]
fn append_and_update_edit_in_place_and_keep_every_style() {
    let src = r#"
        import { create, append, update, read } from 'env:spreadsheets';
        export default async function () {
            await create('/out/log.xlsx', { sheets: [{ name: 'Log',
                rows: [{ date: '2024-01-01', item: 'a', qty: 1 }, { date: '2024-01-02', item: 'b', qty: 2 }],
                styles: { 'A1:C1': { bold: true, fill: '#FFF2CC' }, 'C2:C40': { numFmt: '0.00' } }, freeze: 'A2' }] });
            const a = await append('/out/log.xlsx', [{ qty: 3, item: 'c', date: '2024-01-03' }, { item: 'd', qty: 4, note: 'new column' }]);
            const u = await update('/out/log.xlsx', { sheet: 'Log', cells: { C2: 10, B3: 'renamed', E1: 'total', E2: '=SUM(C2:C5)' } });
            const c = await append('/out/new.csv', [{ x: 1 }]);
            const c2 = await append('/out/new.csv', [{ x: 2 }]);
            return { a, u, read: await read('/out/log.xlsx'), csv: await read('/out/new.csv'), c: c.created };
        }"#;
    let (tree, out) = run(&[], src);
    let out = out.unwrap();
    assert_eq!(out["a"]["firstRow"], 4, "{out}");
    assert_eq!(out["a"]["addedColumns"], json!(["note"]));
    assert_eq!(out["u"]["formulas"], 1);
    assert!(out["u"]["hint"].as_str().unwrap().contains("recalculate"));
    let r = &out["read"];
    assert_eq!(r["headers"], json!(["date", "item", "qty", "note", "total"]), "{r}");
    assert_eq!(r["rows"][2], json!({"date": "2024-01-03", "item": "c", "qty": 3, "note": null, "total": null}));
    assert_eq!(r["rows"][3]["note"], "new column");
    assert_eq!(r["rows"][0]["qty"], 10);
    assert_eq!(r["rows"][1]["item"], "renamed");
    assert_eq!(out["csv"]["rows"], json!([{"x": 1}, {"x": 2}]));
    assert_eq!(out["c"], true);

    let bytes = tree.read(&vp("/out/log.xlsx")).unwrap();
    // The formula written in place has no cached value and the workbook recalculates on open.
    assert!(unzip(&bytes, "xl/workbook.xml").contains("fullCalcOnLoad=\"1\""));
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let wb = py(&python, OPENPYXL, &on_disk(&dir, "log.xlsx", &bytes));
    let cells = &wb["Log"]["cells"];
    assert_eq!(
        (cells["A1"]["bold"].as_bool(), cells["A1"]["fill"].as_str()),
        (Some(true), Some("FFFFF2CC")),
        "{cells}"
    );
    assert_eq!(cells["C2"]["value"], 10);
    assert_eq!(cells["C2"]["numFmt"], "0.00", "the edited cell keeps its style");
    assert_eq!(cells["C4"]["numFmt"], "0.00", "an appended cell in a styled empty cell keeps that style");
    assert_eq!(cells["E2"]["value"], "=SUM(C2:C5)");
    assert_eq!(wb["Log"]["freeze"], "A2");
}

#[test]
fn the_cache_serves_pages_and_is_dropped_on_write() {
    let tree = std::sync::Arc::new(folio_vfs::MemTree::new());
    let src = r#"
        import { write, read, update } from 'env:spreadsheets';
        export default async function () {
            await write('/out/c.xlsx', [{ a: 1 }, { a: 2 }]);
            const first = await read('/out/c.xlsx');
            await update('/out/c.xlsx', { cells: { A2: 99 } });
            const second = await read('/out/c.xlsx');
            return [first.rows[0].a, second.rows[0].a];
        }"#;
    assert_eq!(run_in(&tree, src).unwrap(), json!([1, 99]));
    assert!(super::common::host().cache.cells(0) > 0, "pages are kept for the environment");
}

#[test]
fn native_bar_and_area_charts_start_their_value_axis_at_zero_and_horizontal_bars_keep_the_table_order() {
    let tree = std::sync::Arc::new(folio_vfs::MemTree::new());
    run_in(
        &tree,
        r#"import { create } from 'env:spreadsheets';
        export default async function () {
            return await create('/out/v.xlsx', { sheets: [ { name: 'Peaks', rows: [
                ['Peak', 'm'], ['Kilimanjaro', 5895], ['Elbrus', 5642], ['Denali', 6190], ['Pico', 5960] ],
              charts: [
                { type: 'bar', categories: 'Peaks!$A$2:$A$5', series: [{ name: 'm', values: 'Peaks!$B$2:$B$5' }] },
                { type: 'bar', horizontal: true, categories: 'Peaks!$A$2:$A$5', series: [{ name: 'm', values: 'Peaks!$B$2:$B$5' }] },
                { type: 'area', categories: ['a', 'b'], series: [{ name: 'x', values: [3, 4] }] },
                { type: 'bar', categories: ['a', 'b'], series: [{ name: 'x', values: [-3, 4] }] },
                { type: 'bar', yMin: 5000, categories: 'Peaks!$A$2:$A$5', series: [{ name: 'm', values: 'Peaks!$B$2:$B$5' }] },
                { type: 'line', categories: ['a', 'b'], series: [{ name: 'x', values: [3, 4] }] },
              ] } ] });
        }"#,
    )
    .unwrap();
    let bytes = tree.read(&vp("/out/v.xlsx")).unwrap();
    // (chart part, the value axis's minimum, the category axis's orientation).
    let want = [
        (1, Some("0"), "minMax"),
        (2, Some("0"), "maxMin"),
        (3, Some("0"), "minMax"),
        (4, None, "minMax"),
        (5, Some("5000"), "minMax"),
        (6, None, "minMax"),
    ];
    for (n, min, orientation) in want {
        let xml = unzip(&bytes, &format!("xl/charts/chart{n}.xml"));
        let val = &xml[xml.find("<c:valAx>").unwrap()..];
        let val = &val[..val.find("</c:valAx>").unwrap()];
        let got = val.find("<c:min val=\"").map(|i| &val[i + 12..i + 12 + val[i + 12..].find('"').unwrap()]);
        assert_eq!(got, min, "chart{n}: {val}");
        let cat = &xml[xml.find("<c:catAx>").unwrap()..];
        assert!(cat.contains(&format!("<c:orientation val=\"{orientation}\"/>")), "chart{n}: {cat}");
    }
}
