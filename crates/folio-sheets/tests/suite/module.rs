//! The module's surface: the declarations and the bindings agree; reading pages with the
//! reference's header rules; a wrong sheet; CSV as it really arrives; writes refused in validation.

use std::collections::BTreeSet;

use folio_sheets::modules::{SKILL, SPREADSHEETS_DTS, SPREADSHEETS_README, spreadsheets_module};
use serde_json::json;

use super::common::{host, run};

fn declared(dts: &str) -> BTreeSet<String> {
    dts.lines()
        .filter_map(|l| l.trim_start().strip_prefix("export function "))
        .map(|rest| rest.split(['(', '<']).next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn types_and_bindings_agree() {
    let module = spreadsheets_module(host());
    let bound: BTreeSet<String> = module.functions.iter().map(|f| f.name.clone()).collect();
    let table: BTreeSet<String> = folio_sheets::BINDINGS.iter().map(|b| b.name.to_string()).collect();
    assert_eq!(bound, table);
    assert_eq!(declared(SPREADSHEETS_DTS), bound, "every binding is declared and every declaration bound");
    for b in folio_sheets::BINDINGS {
        assert!(SPREADSHEETS_README.contains(b.name), "the README names {}", b.name);
    }
    for step in ["describe(", "read(", "create(", "recalculate(", "check("] {
        assert!(SKILL.2.contains(step), "the skill shows {step}");
    }
}

#[test]
fn records_are_read_in_pages_with_the_header_rules() {
    let src = r#"
        import { write, read, readRows, sheets, describe } from 'env:spreadsheets';
        export default async function () {
            const rows = [['name', '', 'name', 'n']];
            for (let i = 1; i <= 25; i++) rows.push([`p${i}`, i % 2 === 0, `q${i}`, i * 1.5]);
            rows.splice(5, 0, [null, null, null, null]);
            await write('/out/t.xlsx', rows, { sheet: 'People' });
            const a = await read('/out/t.xlsx', { limit: 10 });
            const b = await read('/out/t.xlsx', { sheet: 1, offset: a.nextOffset, limit: 10 });
            const c = await read('/out/t.xlsx', { sheet: 'People', offset: 20, limit: 10 });
            let wrong = '';
            try { await read('/out/t.xlsx', { sheet: 'Peeple' }); } catch (e) { wrong = e.message; }
            let big = '';
            try { await read('/out/t.xlsx', { limit: 200000 }); } catch (e) { big = e.message; }
            return { a, b: b.rows[0], c: [c.rows.length, c.nextOffset], raw: (await readRows('/out/t.xlsx', { limit: 2 })),
                     names: await sheets('/out/t.xlsx'), d: await describe('/out/t.xlsx'), wrong, big };
        }"#;
    let (_, out) = run(&[], src);
    let out = out.unwrap();
    assert_eq!(out["a"]["headers"], json!(["name", "B", "name_2", "n"]), "{out}");
    assert_eq!(out["a"]["totalRows"], 25, "the empty row is not a record: {out}");
    assert_eq!(out["a"]["rows"][0], json!({"name": "p1", "B": false, "name_2": "q1", "n": 1.5}));
    assert_eq!(out["a"]["nextOffset"], 10);
    assert_eq!(out["b"]["name"], "p11");
    assert_eq!(out["c"], json!([5, null]));
    assert_eq!(out["raw"], json!([["name", null, "name", "n"], ["p1", false, "q1", 1.5]]));
    assert_eq!(out["names"], json!(["People"]));
    assert_eq!(out["d"]["sheets"][0]["rows"], 25);
    assert_eq!(out["d"]["sheets"][0]["sample"].as_array().unwrap().len(), 3);
    let wrong = out["wrong"].as_str().unwrap();
    assert!(
        wrong.contains("no sheet named \"Peeple\"") && wrong.contains("\"People\"") && wrong.contains("hint:"),
        "{wrong}"
    );
    assert!(out["big"].as_str().unwrap().contains("page with"), "{out}");
}

/// Records keep the sheet's column order both ways: read back in the order the columns stand,
/// and written in the order a record's keys were given (never alphabetical).
#[test]
fn records_keep_column_order_in_and_out() {
    let src = r#"
        import { write, read, readRows, fromCsv } from 'env:spreadsheets';
        import * as fs from 'env:fs';
        export default async function () {
            await write('/out/r.xlsx', [{ zone: 'N', revenue: 10, month: 'Jan', area: 3 }]);
            const back = await read('/out/r.xlsx');
            await fs.writeFile('/in/c.csv', 'Zeta,alpha,Mid\n1,2,3\n');
            await fromCsv('/in/c.csv', '/out/c.xlsx');
            const csv = await read('/in/c.csv');
            return { written: (await readRows('/out/r.xlsx', { limit: 1 }))[0], keys: Object.keys(back.rows[0]),
                     headers: back.headers, csvKeys: Object.keys(csv.rows[0]),
                     fromCsv: Object.keys((await read('/out/c.xlsx')).rows[0]) };
        }"#;
    let (_, out) = run(&[], src);
    let out = out.unwrap();
    let order = json!(["zone", "revenue", "month", "area"]);
    assert_eq!(out["written"], order, "{out}");
    assert_eq!(out["keys"], order, "{out}");
    assert_eq!(out["headers"], order, "{out}");
    assert_eq!(out["csvKeys"], json!(["Zeta", "alpha", "Mid"]), "{out}");
    assert_eq!(out["fromCsv"], json!(["Zeta", "alpha", "Mid"]), "{out}");
}

#[test]
fn csv_arrives_in_utf16_cp1252_and_with_cr_only_lines() {
    let mut utf16 = vec![0xFF, 0xFE];
    for u in "city\tpop\r\nZürich\t421878\r\n".encode_utf16() {
        utf16.extend_from_slice(&u.to_le_bytes());
    }
    let cp1252 = b"name;price\nCaf\xe9;3,5\n".to_vec();
    let cr = b"a,b\r1,2\r3,4\r".to_vec();
    let src = r#"
        import { read, fromCsv, toCsv, sheets } from 'env:spreadsheets';
        export default async function () {
            await fromCsv('/in/quarterly-revenue-by-region-2024-final.csv', '/out/q.xlsx');
            await toCsv('/out/q.xlsx', '/out/q.csv', { delimiter: ';' });
            return [await read('/in/u16.txt'), await read('/in/w.csv'), await read('/in/cr.csv'), await sheets('/out/q.xlsx'), await read('/out/q.csv')];
        }"#;
    let long = ("/in/quarterly-revenue-by-region-2024-final.csv", b"a,b\n1,=2+2\n".to_vec());
    let (_, out) = run(&[("/in/u16.txt", utf16), ("/in/w.csv", cp1252), ("/in/cr.csv", cr), long], src);
    let out = out.unwrap();
    assert_eq!(out[3], json!(["quarterly-revenue-by-region-202"]), "a sheet name holds 31 characters: {out}");
    assert_eq!(out[4]["rows"], json!([{"a": 1, "b": "=2+2"}]), "CSV text starting with = stays text: {out}");
    assert_eq!(out[0]["rows"][0], json!({"city": "Zürich", "pop": 421878}), "{out}");
    assert_eq!(out[1]["rows"][0], json!({"name": "Café", "price": "3,5"}), "{out}");
    assert_eq!(out[2]["totalRows"], 2, "{out}");
    assert_eq!(out[2]["rows"][1], json!({"a": 3, "b": 4}));
}

#[test]
fn writes_are_refused_during_validation_and_bad_arguments_are_named() {
    let src = r#"
        import { write, create } from 'env:spreadsheets';
        export default async function () {
            const errs = [];
            for (const f of [
                () => write('/out/a.xls', [{ a: 1 }]),
                () => create('/out/a.xlsx', { sheets: [{ name: 'S', styles: { 'A1': { bold: 'yes' } } }] }),
                () => create('/out/a.xlsx', { sheets: [{ name: 'S', styles: { 'A1': { colour: '#fff' } } }] }),
                () => create('/out/a.xlsx', { sheets: [{ name: 'S', merge: ['A1'] }] }),
                () => create('/out/a.xlsx', { sheets: [{ name: 'S', charts: [{ type: 'donut', series: [{ name: 'x', values: [1] }] }] }] }),
                () => create('/out/a.xlsx', { sheets: [{ name: 'a/b' }] }),
            ]) { try { await f(); errs.push('no error'); } catch (e) { errs.push(e.message); } }
            return errs;
        }"#;
    let (_, out) = run(&[], src);
    let errs: Vec<String> = serde_json::from_value(out.unwrap()).unwrap();
    let want = [
        "workbooks are written as .xlsx",
        "style bold must be true or false",
        "unknown style key \"colour\"",
        "is a single cell",
        "chart type \"donut\"",
        "sheet names are at most 31",
    ];
    assert_eq!(errs.len(), want.len(), "{errs:?}");
    for (e, w) in errs.iter().zip(want) {
        assert!(e.contains(w), "{e:?} should say {w:?}");
    }
}
