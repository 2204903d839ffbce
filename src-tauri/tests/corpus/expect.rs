//! What each operation must give, by the corpus MANIFEST's categories and the made files'
//! categories: one table ([`RULES`]), first match wins. Whatever the rule, a panic breaks it, an
//! error must name the file or carry a `hint:`, and only a LibreOffice render or preview may run
//! out its bound (the budget facility that supervises LibreOffice is being built; until then
//! such a row is recorded as a timeout and accepted).

use super::Outcome;

/// The operations every file goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The `describe` verb.
    Describe,
    /// The `read_file` verb.
    Read,
    /// `env:render.rasterize` from a script.
    Render,
    /// The `ls` verb on the file's folder.
    Ls,
    /// The desktop preview.
    Preview,
}

impl Op {
    /// In the order they run.
    pub const ALL: [Op; 5] = [Op::Describe, Op::Read, Op::Ls, Op::Render, Op::Preview];

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Op::Describe => "describe",
            Op::Read => "read",
            Op::Render => "render",
            Op::Ls => "ls",
            Op::Preview => "preview",
        }
    }
}

/// What a rule asks for.
#[derive(Debug, Clone, Copy)]
pub enum Expect {
    /// A useful answer.
    Answer,
    /// An error naming the file (or with a hint) and containing one of these words.
    Refusal(&'static [&'static str]),
    /// An answer or a named error.
    Either,
}

/// One row: the files it covers (a category, or a part of the path), the operations, and what
/// they must give.
pub struct Rule {
    /// A category (`pdf`, `made-bomb`, …) or a fragment of the path (`pdf/encrypted-user`).
    pub files: &'static str,
    /// The operations the rule is about.
    pub ops: &'static [Op],
    /// What they must give.
    pub expect: Expect,
}

const ALL: &[Op] = &Op::ALL;

/// The table; the last row covers everything else.
pub static RULES: &[Rule] = &[
    // PDFs: a user password is asked for by name; every other PDF, damaged or not, opens.
    Rule { files: "pdf/encrypted-user-password", ops: &[Op::Render, Op::Preview], expect: ENCRYPTED },
    Rule { files: "pdf/encrypted-aes256-user", ops: &[Op::Render, Op::Preview], expect: ENCRYPTED },
    Rule { files: "pdf", ops: &[Op::Describe, Op::Render, Op::Preview], expect: Expect::Answer },
    Rule { files: "xref-prev-loop.pdf", ops: &[Op::Describe, Op::Render, Op::Preview], expect: Expect::Answer },
    // Broken PDFs: named as damaged, in every operation that parses them.
    Rule { files: "hostile/truncated-half.pdf", ops: PARSE, expect: DAMAGED },
    Rule { files: "made/truncated/half.pdf", ops: PARSE, expect: DAMAGED },
    Rule { files: "hostile/not-a-pdf-potato-salad.pdf", ops: &[Op::Describe, Op::Preview], expect: DAMAGED },
    // A tiny ODS that repeats a cell 999,999,999 times is refused before it is expanded.
    Rule { files: "hostile/dos-repeated-cells.ods", ops: &[Op::Preview], expect: Expect::Refusal(&["repeats"]) },
    // Bombs and huge dimensions: refused by their limit, never decoded.
    Rule { files: "made-huge", ops: &[Op::Render], expect: Expect::Refusal(&["×"]) },
    // Images, tables and text: described and previewed.
    Rule { files: "images", ops: &[Op::Describe, Op::Preview], expect: Expect::Answer },
    Rule { files: "utf16le.txt", ops: &[Op::Read], expect: Expect::Either },
    Rule { files: "csv", ops: &[Op::Describe, Op::Read, Op::Preview], expect: Expect::Answer },
    Rule { files: "documents", ops: &[Op::Describe], expect: Expect::Answer },
    Rule { files: "presentations", ops: &[Op::Describe], expect: Expect::Answer },
    Rule { files: "made-control", ops: &[Op::Describe, Op::Preview], expect: Expect::Answer },
    Rule { files: "made/control/whole.pdf", ops: &[Op::Render], expect: Expect::Answer },
    // A name no path can hold: every verb on it refuses by name; its folder still lists.
    // (env:render prints the raw path first, so a newline in the name cuts its message short.)
    Rule {
        files: "made-name",
        ops: &[Op::Describe, Op::Read, Op::Preview],
        expect: Expect::Refusal(&["control characters"]),
    },
    // Every folder lists, whatever is in it.
    Rule { files: "", ops: &[Op::Ls], expect: Expect::Answer },
    Rule { files: "", ops: ALL, expect: Expect::Either },
];

const ENCRYPTED: Expect = Expect::Refusal(&["encrypted", "password"]);
const DAMAGED: Expect = Expect::Refusal(&["damaged"]);
const PARSE: &[Op] = &[Op::Describe, Op::Render, Op::Preview];

/// True when a rule's `files` covers the file: empty (everything), its category, or — when it
/// has a `/` or a `.` — a fragment of its path.
fn covers(files: &str, category: &str, vpath: &str) -> bool {
    files.is_empty() || files == category || (files.contains(['/', '.']) && vpath.contains(files))
}

/// True when the error names the file (up to a control character in its name, which a message
/// may print escaped) or carries a fix (a `hint:`, or the run budget's "Pass a larger timeout_ms").
fn named(error: &str, vpath: &str) -> bool {
    let name = vpath.rsplit('/').next().unwrap_or(vpath);
    let printable = name.split(char::is_control).next().unwrap_or(name);
    error.contains("hint:")
        || error.contains("Pass a larger timeout_ms")
        || error.contains(name)
        || error.contains(vpath)
        || (!printable.is_empty() && error.contains(printable))
}

/// Why `outcome` breaks the rule for `op` on the file, if it does.
pub fn check(category: &str, vpath: &str, office: bool, op: Op, outcome: &Outcome) -> Option<String> {
    let rule = RULES.iter().find(|r| r.ops.contains(&op) && covers(r.files, category, vpath))?;
    match (outcome, rule.expect) {
        (Outcome::Panic(p), _) => Some(format!("panicked: {p}")),
        (Outcome::Timeout, _) if office && matches!(op, Op::Render | Op::Preview) => None,
        (Outcome::Timeout, _) => Some("ran past its bound".into()),
        (Outcome::Error(e), _) if !named(e, vpath) => Some("the error names neither the file nor a fix (hint:)".into()),
        (Outcome::Error(_), Expect::Answer) => Some("an answer was expected".into()),
        (Outcome::Error(e), Expect::Refusal(words)) => {
            let lower = e.to_lowercase();
            match words.iter().any(|w| lower.contains(w)) {
                true => None,
                false => Some(format!("the error should say one of {words:?}")),
            }
        }
        (Outcome::Answer(_), Expect::Refusal(words)) => Some(format!("a refusal saying one of {words:?} was expected")),
        _ => None,
    }
}
