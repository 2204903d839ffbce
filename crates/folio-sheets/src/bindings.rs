//! The one table of env:spreadsheets' bindings (name, whether it writes, the function): the
//! module, its audit test and the docs read it. It sits above [`crate::ops`] (reads) and
//! [`crate::ops_write`] (writes), which share only the argument helpers in `ops`.

use serde_json::Value;

use crate::error::Result;
use crate::ops::{self, Call};
use crate::ops_write;

/// One row of the bindings table.
pub struct Binding {
    /// The exported name.
    pub name: &'static str,
    /// Whether it writes (refused during validation).
    pub writes: bool,
    /// The operation.
    pub run: fn(&Call<'_>, &[Value]) -> Result<Value>,
}

/// Every binding of env:spreadsheets.
pub const BINDINGS: &[Binding] = &[
    Binding { name: "describe", writes: false, run: ops::describe },
    Binding { name: "sheets", writes: false, run: ops::sheets },
    Binding { name: "read", writes: false, run: ops::read },
    Binding { name: "readRows", writes: false, run: ops::read_rows },
    Binding { name: "write", writes: true, run: ops_write::write },
    Binding { name: "writeSheets", writes: true, run: ops_write::write_sheets },
    Binding { name: "create", writes: true, run: ops_write::create },
    Binding { name: "append", writes: true, run: ops_write::append },
    Binding { name: "update", writes: true, run: ops_write::update },
    Binding { name: "insertRows", writes: true, run: ops_write::insert_rows },
    Binding { name: "deleteRows", writes: true, run: ops_write::delete_rows },
    Binding { name: "insertColumns", writes: true, run: ops_write::insert_columns },
    Binding { name: "deleteColumns", writes: true, run: ops_write::delete_columns },
    Binding { name: "toCsv", writes: true, run: ops_write::to_csv },
    Binding { name: "fromCsv", writes: true, run: ops_write::from_csv },
    Binding { name: "recalculate", writes: true, run: ops::recalculate },
    Binding { name: "check", writes: false, run: ops::check },
];
