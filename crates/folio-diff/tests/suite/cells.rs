//! Cells: a workbook with three edited cells and one added row shows exactly those; rows are
//! aligned by key or by sequence so an inserted row is one added row; sheets added and removed.

use folio_diff::{RowMatch, SheetStatus, cells, cells_with};
use serde_json::{Value, json};

use super::xlsx;

/// The sales table: header, then rows `id, region, rep, units, price, revenue`, where revenue is
/// `=D{row}*E{row}` at each row's final place (as a spreadsheet rewrites it when rows move)
/// unless `edit` set a formula of its own.
fn sales(edit: impl Fn(&mut Vec<Vec<Value>>)) -> Vec<u8> {
    let mut rows: Vec<Vec<Value>> =
        vec![["id", "region", "rep", "units", "price", "revenue"].map(|h| json!(h)).to_vec()];
    for i in 1..=20u32 {
        let region = ["North", "South", "East", "West"][i as usize % 4];
        rows.push(vec![json!(i), json!(region), json!(format!("rep{}", i % 7)), json!(i * 3), json!(2.5), Value::Null]);
    }
    edit(&mut rows);
    for (r, row) in rows.iter_mut().enumerate().skip(1) {
        if row[5].is_null() {
            row[5] = json!(format!("=D{n}*E{n}", n = r + 1));
        }
    }
    xlsx(json!({"sheets": [{"name": "Sales", "rows": rows}, {"name": "Notes", "rows": [["kept as is"]]}]}))
}

#[test]
fn three_edited_cells_and_one_added_row_show_exactly_those() {
    let old = sales(|_| {});
    let new = sales(|rows| {
        rows[5][1] = json!("Central"); // B6
        rows[9][2] = json!("rep99"); // C10
        rows[7][5] = json!("=D8*E8*2"); // F8: the formula (and so its value) changes
        rows.insert(11, vec![json!(100), json!("North"), json!("rep1"), json!(1), json!(1), Value::Null]);
    });
    let diff = cells(Some(&old), Some(&new), "/out/sales.xlsx").unwrap();
    let names: Vec<(&str, SheetStatus)> = diff.sheets.iter().map(|s| (s.name.as_str(), s.status)).collect();
    assert_eq!(names, vec![("Sales", SheetStatus::Changed), ("Notes", SheetStatus::Same)]);
    let s = &diff.sheets[0];
    assert_eq!(s.rows_matched_by, RowMatch::Key { column: "id".into() });
    let addresses: Vec<(&str, &str)> =
        s.cells.iter().map(|c| (c.old_address.as_str(), c.new_address.as_str())).collect();
    assert_eq!(addresses, vec![("B6", "B6"), ("F8", "F8"), ("C10", "C10")]);
    assert_eq!((s.counts.changed_cells, s.counts.added_rows, s.counts.removed_rows), (3, 1, 0));
    assert_eq!((s.counts.added_columns, s.counts.removed_columns), (0, 0));
    assert_eq!(s.added_rows.len(), 1);
    assert_eq!(s.added_rows[0].row, 12);
    assert_eq!(s.added_rows[0].values[0], "100");
    let f8 = &s.cells[1];
    assert_eq!(f8.old_formula.as_deref(), Some("=D8*E8"));
    assert_eq!(f8.new_formula.as_deref(), Some("=D8*E8*2"));
    assert_eq!((f8.old_value.as_deref(), f8.new_value.as_deref()), (Some("52.5"), Some("105")));
    let b6 = &s.cells[0];
    assert_eq!((b6.old_value.as_deref(), b6.new_value.as_deref()), (Some("South"), Some("Central")));
    assert_eq!((b6.old_formula.as_deref(), b6.new_formula.as_deref()), (None, None));
}

/// (what, old CSV, new CSV, how rows match, added rows (new row numbers), removed rows (old row
/// numbers), changed cells (old address → new address), added columns, removed columns)
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [u32],
    &'static [u32],
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
    &'static [&'static str],
);

const CASES: &[Case] = &[
    ("same", "a,b\n1,2\n3,4\n", "a,b\n1,2\n3,4\n", "key", &[], &[], &[], &[], &[]),
    (
        "a row inserted into a table without a unique key is one added row",
        "city,kind\nOslo,x\nOslo,y\nRome,x\nRome,y\nLima,z\n",
        "city,kind\nOslo,x\nOslo,y\nParis,q\nRome,x\nRome,y\nLima,z\n",
        "sequence",
        &[4],
        &[],
        &[],
        &[],
        &[],
    ),
    (
        "a row removed and a cell edited below it, by sequence",
        "city,kind,n\nOslo,x,1\nOslo,y,2\nRome,x,3\nRome,y,4\nLima,z,5\n",
        "city,kind,n\nOslo,x,1\nRome,x,3\nRome,y,40\nLima,z,5\n",
        "sequence",
        &[],
        &[3],
        &[("C5", "C4")],
        &[],
        &[],
    ),
    (
        "rows matched by key even when reordered",
        "id,v\n1,a\n2,b\n3,c\n",
        "id,v\n3,c\n1,a\n2,B\n",
        "key",
        &[],
        &[],
        &[("B3", "B4")],
        &[],
        &[],
    ),
    (
        "a column added by header, every row keeps its cells",
        "id,v\n1,a\n2,b\n",
        "id,note,v\n1,n1,a\n2,n2,b\n",
        "key",
        &[],
        &[],
        &[],
        &["B"],
        &[],
    ),
    (
        "a column removed by header",
        "id,note,v\n1,n1,a\n2,n2,b\n",
        "id,v\n1,a\n2,b\n",
        "key",
        &[],
        &[],
        &[],
        &[],
        &["B"],
    ),
    (
        "numbers without a header are compared by position",
        "1,2\n3,4\n5,6\n",
        "1,2\n3,4\n9,9\n5,6\n",
        "sequence",
        &[3],
        &[],
        &[],
        &[],
        &[],
    ),
];

#[test]
fn rows_and_columns_align_so_one_change_is_one_change() {
    for (what, old, new, by, added, removed, changed, added_cols, removed_cols) in CASES {
        let diff = cells(Some(old.as_bytes()), Some(new.as_bytes()), "/in/t.csv").unwrap();
        assert_eq!(diff.sheets.len(), 1, "{what}");
        let s = &diff.sheets[0];
        let got_by = match s.rows_matched_by {
            RowMatch::Key { .. } => "key",
            RowMatch::Sequence => "sequence",
            RowMatch::OneSide => "one side",
        };
        assert_eq!(got_by, *by, "{what}");
        assert_eq!(s.added_rows.iter().map(|r| r.row).collect::<Vec<_>>(), *added, "{what}: added rows");
        assert_eq!(s.removed_rows.iter().map(|r| r.row).collect::<Vec<_>>(), *removed, "{what}: removed rows");
        let cells: Vec<(&str, &str)> =
            s.cells.iter().map(|c| (c.old_address.as_str(), c.new_address.as_str())).collect();
        assert_eq!(cells, *changed, "{what}: changed cells");
        assert_eq!(s.added_columns.iter().map(|c| c.column.as_str()).collect::<Vec<_>>(), *added_cols, "{what}");
        assert_eq!(s.removed_columns.iter().map(|c| c.column.as_str()).collect::<Vec<_>>(), *removed_cols, "{what}");
        let same = added.is_empty()
            && removed.is_empty()
            && changed.is_empty()
            && added_cols.is_empty()
            && removed_cols.is_empty();
        assert_eq!(s.status == SheetStatus::Same, same, "{what}: status {:?}", s.status);
    }
}

#[test]
fn sheets_added_and_removed_are_tabs_of_their_own() {
    let old =
        xlsx(json!({"sheets": [{"name": "Kept", "rows": [["a"], [1]]}, {"name": "Gone", "rows": [["x"], [1], [2]]}]}));
    let new =
        xlsx(json!({"sheets": [{"name": "Kept", "rows": [["a"], [1]]}, {"name": "Fresh", "rows": [["y"], [5]]}]}));
    let diff = cells(Some(&old), Some(&new), "/out/book.xlsx").unwrap();
    let tabs: Vec<(&str, SheetStatus, u64, u64)> =
        diff.sheets.iter().map(|s| (s.name.as_str(), s.status, s.counts.added_rows, s.counts.removed_rows)).collect();
    assert_eq!(
        tabs,
        vec![
            ("Kept", SheetStatus::Same, 0, 0),
            ("Fresh", SheetStatus::Added, 2, 0),
            ("Gone", SheetStatus::Removed, 0, 3)
        ]
    );
    // A workbook on one side only: every sheet added.
    let only = cells(None, Some(&new), "/out/book.xlsx").unwrap();
    assert!(only.sheets.iter().all(|s| s.status == SheetStatus::Added));
}

#[test]
fn the_list_is_capped_and_the_rest_counted() {
    let old: String = (0..300).map(|i| format!("{i},{i}\n")).collect();
    let new: String = (0..300).map(|i| format!("{i},{}\n", i + 1)).collect();
    let diff = cells_with(
        Some(old.as_bytes()),
        Some(new.as_bytes()),
        "/in/n.csv",
        &folio_diff::CellOptions { max_listed: 50 },
    )
    .unwrap();
    let s = &diff.sheets[0];
    assert_eq!(s.cells.len(), 50);
    assert_eq!(s.counts.changed_cells, 300);
    assert_eq!(s.left_out, 250);
    assert!(diff.notes.iter().any(|n| n.contains("250")), "{:?}", diff.notes);
}
