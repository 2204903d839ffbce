//! The script contract: which files must default-export a function, and the messages that show
//! the fix when one does not.

use folio_vfs::VPath;
use rquickjs::{Object, Type, Value};

/// How the pipeline treats a `.js` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ScriptKind {
    /// A runnable script: must default-export a function; gets a `.d.ts` and a one-liner.
    Entry,
    /// A `*.test.js` file: must default-export a function; no `.d.ts`.
    Test,
    /// A module under `/scripts/lib`: may export anything.
    Library,
}

impl ScriptKind {
    /// The kind of `path`: `*.test.js` anywhere is a test; other files under `/scripts/lib` are
    /// libraries; everything else (including files outside `/scripts`) is an entry.
    pub fn of(path: &VPath) -> ScriptKind {
        if path.name().ends_with(".test.js") {
            ScriptKind::Test
        } else if VPath::parse("/scripts/lib").is_ok_and(|lib| path.is_under(&lib)) {
            ScriptKind::Library
        } else {
            ScriptKind::Entry
        }
    }
}

const SHAPE: &str = "Scripts must export default async function(args) { ... }";

/// The default export when it is a function, else the message naming what is wrong and the fix.
pub(crate) fn check<'js>(ns: &Object<'js>) -> Result<Value<'js>, String> {
    let keys: Vec<String> = ns.keys::<String>().filter_map(Result::ok).collect();
    if !keys.iter().any(|k| k == "default") {
        if keys.is_empty() {
            return Err(format!(
                "script has no default export. {SHAPE} — top-level program-style scripts are not supported. Example:\n\n/** What it does, in one line. @param {{{{ input: string }}}} args */\nexport default async function main(args) {{\n  // … the work …\n  return result;\n}}"
            ));
        }
        return Err(format!(
            "script exports {{ {} }} but no default. Add \"export default {}\" or wrap in a default function. {SHAPE}",
            keys.join(", "),
            keys[0]
        ));
    }
    let v: Value<'js> = ns.get("default").map_err(|e| e.to_string())?;
    let kind = match v.type_of() {
        Type::Function | Type::Constructor => return Ok(v),
        Type::Array => "array",
        Type::Null => "null",
        Type::Undefined | Type::Uninitialized => "undefined",
        Type::Bool => "boolean",
        Type::Int | Type::Float => "number",
        Type::String => "string",
        Type::Symbol => "symbol",
        Type::BigInt => "bigint",
        _ => "object",
    };
    Err(format!("default export is a {kind}; expected a function of shape async (args) => result."))
}

/// What write-time validation learned about an accepted file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Validation {
    /// Entry, test or library.
    pub kind: ScriptKind,
    /// The `.d.ts` text for entries (write it to the sibling path from [`dts_path`]).
    pub dts: Option<String>,
    /// The first line of the JSDoc description, for `ls`.
    pub one_liner: Option<String>,
    /// A soft note for the model (missing JSDoc), appended to the write's success text.
    pub nudge: Option<String>,
}

/// The sibling `.d.ts` path of a script (`/scripts/a.js` → `/scripts/a.d.ts`).
pub fn dts_path(path: &VPath) -> Option<VPath> {
    let s = path.as_str().strip_suffix(".js")?;
    VPath::parse(&format!("{s}.d.ts")).ok()
}
