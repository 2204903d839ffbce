//! The write-time hook: contract, located errors, `.d.ts` and one-liner (pipeline and transform
//! tests).

use folio_script::{ScriptKind, Validation, dts_path};

use super::*;

fn validate(files: &[(&str, &str)], path: &str, src: &str) -> Result<Validation, ScriptError> {
    let t = tree(files);
    engine().validate(t.as_ref(), &vp(path), src)
}

fn dts(src: &str, path: &str) -> String {
    match validate(&[], path, src) {
        Ok(v) => v.dts.unwrap_or_default(),
        Err(e) => format!("ERR: {e}"),
    }
}

/// `(name, path, source, expected .d.ts)`.
const DTS: &[(&str, &str, &str, &str)] = &[
    (
        "jsdoc object type",
        "/scripts/add.js",
        "/**\n * Adds two numbers.\n * @param {{ a: number, b: number }} args\n * @returns {Promise<{ sum: number }>}\n */\nexport default async function addNumbers(args) { return { sum: args.a + args.b }; }",
        "/** Adds two numbers. */\ndeclare function addNumbers(args: { a: number, b: number }): Promise<{ sum: number }>;\nexport default addNumbers;\n",
    ),
    (
        "no jsdoc",
        "/scripts/plain.js",
        "export default async function plain(args) {}",
        "declare function plain(args: any): Promise<unknown>;\nexport default plain;\n",
    ),
    (
        "anonymous arrow takes the file name",
        "/scripts/arrow.js",
        "export default async (args) => 1;",
        "declare function arrow(args: any): Promise<unknown>;\nexport default arrow;\n",
    ),
    (
        "digit-leading name",
        "/scripts/2-go.js",
        "export default () => 1;",
        "declare function _2_go(): Promise<unknown>;\nexport default _2_go;\n",
    ),
    (
        "destructuring without jsdoc",
        "/scripts/dest.js",
        "export default async function dest({ input, format = 'a4' }) {}",
        "declare function dest(args: { input: any; format?: any }): Promise<unknown>;\nexport default dest;\n",
    ),
    (
        "rest in a pattern",
        "/scripts/r.js",
        "export default function r({ a, ...rest }) {}",
        "declare function r(args: { a: any; [key: string]: any }): Promise<unknown>;\nexport default r;\n",
    ),
    (
        "dotted params",
        "/scripts/report.js",
        "/**\n * Builds a report.\n * @param {string} args.input\n * @param {string} [args.format] - pdf or html\n * @returns {Promise<{ output: string }>}\n */\nexport default async function report(args) {}",
        "/**\n * Builds a report.\n *\n * @param args.format pdf or html\n */\ndeclare function report(args: { input: string; format?: string }): Promise<{ output: string }>;\nexport default report;\n",
    ),
    (
        "multi-line description",
        "/scripts/doc.js",
        "/**\n * First line.\n * Second line.\n * @param {{ q: string }} args\n * @returns {Promise<string>}\n */\nexport default async function doc(args) {}",
        "/**\n * First line.\n * Second line.\n */\ndeclare function doc(args: { q: string }): Promise<string>;\nexport default doc;\n",
    ),
    (
        "class default",
        "/scripts/k.js",
        "export default class Job {}",
        "declare function Job(args: any): Promise<unknown>;\nexport default Job;\n",
    ),
    (
        "strings in parameters do not confuse the scanner",
        "/scripts/s.js",
        "export default function s({ sep = ',)}', n }) {}",
        "declare function s(args: { sep?: any; n: any }): Promise<unknown>;\nexport default s;\n",
    ),
    (
        "export default a name declared earlier, its JSDoc on the declaration",
        "/scripts/named.js",
        "import { json } from 'env:std';\n// a plain comment, not JSDoc\n/** Merges two tables. */\nasync function main({ left, right = [] }) {}\n\nexport default main;",
        "/** Merges two tables. */\ndeclare function main(args: { left: any; right?: any }): Promise<unknown>;\nexport default main;\n",
    ),
    (
        "a const arrow with an optional argument, exported by name as default",
        "/scripts/opt.js",
        "/**\n * Lists rows.\n * @param {{ limit?: number }} args how many\n * @returns {Promise<string[]>} the rows\n */\nconst list = async (args = {}) => [];\nexport { list as default };",
        "/**\n * Lists rows.\n *\n * @param args how many\n * @returns the rows\n */\ndeclare function list(args?: { limit?: number }): Promise<string[]>;\nexport default list;\n",
    ),
    (
        "an exported function declaration re-exported as default",
        "/scripts/both.js",
        "/** Counts lines. @param {string} args.path */\nexport function count(args) {}\nexport { count as default };",
        "/** Counts lines. */\ndeclare function count(args: { path: string }): Promise<unknown>;\nexport default count;\n",
    ),
    (
        "a parenthesised anonymous arrow takes the file name",
        "/scripts/paren-arrow.js",
        "/** Echoes. */\nexport default (async ({ x }) => x);",
        "/** Echoes. */\ndeclare function paren_arrow(args: { x: any }): Promise<unknown>;\nexport default paren_arrow;\n",
    ),
    (
        "an anonymous async function expression",
        "/scripts/anon.js",
        "export default async function ({ a }, extra) {}",
        "declare function anon(args: { a: any }): Promise<unknown>;\nexport default anon;\n",
    ),
    (
        "a rest parameter",
        "/scripts/all.js",
        "export default async function all(...args) {}",
        "declare function all(...args: any[]): Promise<unknown>;\nexport default all;\n",
    ),
    (
        "an array pattern",
        "/scripts/pair.js",
        "export default function pair([a, b]) {}",
        "declare function pair(args: any[]): Promise<unknown>;\nexport default pair;\n",
    ),
    (
        "a destructured parameter typed field by field, defaults and brackets both optional",
        "/scripts/clean.js",
        "/**\n * Cleans a table.\n * @param {object} args\n * @param {string} args.path - the CSV to clean\n * @param {number} [args.rows]\n * @param {boolean=} args.dry\n */\nexport default async function clean({ path, rows, dry = false, note }) {}",
        "/**\n * Cleans a table.\n *\n * @param args.path the CSV to clean\n */\ndeclare function clean(args: { path: string; rows?: number; dry?: boolean; note: any }): Promise<unknown>;\nexport default clean;\n",
    ),
    (
        "code that looks like an export inside a string or comment is not the export",
        "/scripts/tricky.js",
        "const s = `export default function fake(x) {}`;\n/* export default function also(y) {} */\n/** The real one. */\nexport default async function real({ q }) { return s; }",
        "/** The real one. */\ndeclare function real(args: { q: any }): Promise<unknown>;\nexport default real;\n",
    ),
    (
        "a tag for a second parameter does not type the first",
        "/scripts/second.js",
        "/**\n * Pads.\n * @param {object} options\n * @param {number} width\n */\nexport default function pad({ text }, width) {}",
        "/** Pads. */\ndeclare function pad(args: { text: any }): Promise<unknown>;\nexport default pad;\n",
    ),
    (
        "the first undotted tag types a destructured first parameter",
        "/scripts/later.js",
        "/** @param {{ a: number }} opts\n * @param {string} label */\nexport default function later({ a }) {}",
        "declare function later(args: { a: number }): Promise<unknown>;\nexport default later;\n",
    ),
    (
        "JSDoc on an unrelated statement is not the export's",
        "/scripts/unrelated.js",
        "/** A helper. */\nfunction helper() {}\nexport default async function main(args) { return helper(); }",
        "declare function main(args: any): Promise<unknown>;\nexport default main;\n",
    ),
];

#[test]
fn dts_generation() {
    let mut failures = Vec::new();
    for (name, path, src, expect) in DTS {
        let got = dts(src, path);
        if got != *expect {
            failures.push(format!("{name}:\n  expected: {expect:?}\n  got:      {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn one_liner_and_nudge() {
    let v = validate(
        &[],
        "/scripts/a.js",
        "/** Sums a column.\n * More detail. */\nexport default async function sum(args) {}",
    )
    .unwrap();
    assert_eq!(v.one_liner.as_deref(), Some("Sums a column."));
    assert_eq!(v.kind, ScriptKind::Entry);
    assert!(v.nudge.is_none());
    let v = validate(&[], "/scripts/b.js", "export default async function plain(args) {}").unwrap();
    let nudge = v.nudge.unwrap();
    for part in ["no description in `ls /scripts`", "find and reuse it", "@param"] {
        assert!(nudge.contains(part), "{nudge}");
    }
    // A block above the imports is not the default export's: the write says where it is and
    // where it must go, instead of claiming there is none (a model read that as a lie and
    // rewrote the script).
    let src = "/** Sums a column. */\nimport { x } from './lib/x.js';\n\nexport default async function sum(args) {}";
    let nudge = validate(&[("/scripts/lib/x.js", "export const x = 1;")], "/scripts/c.js", src).unwrap().nudge.unwrap();
    for part in
        ["block at line 1", "`export default` (line 4)", "Move that block to the line just above `export default`"]
    {
        assert!(nudge.contains(part), "{nudge}");
    }
    assert!(!nudge.contains("with no JSDoc block"), "{nudge}");
}

#[test]
fn contract_rejections_show_the_fix() {
    let cases = [
        (
            "/scripts/a.js",
            "export function parse() {}\nexport function format() {}",
            "script exports { format, parse } but no default. Add \"export default format\"",
        ),
        (
            "/scripts/a.js",
            "const x = 1;",
            "script has no default export. Scripts must export default async function(args) { ... } — top-level program-style scripts are not supported.",
        ),
        ("/scripts/a.js", "const x = 1;", "export default async function main(args) {"),
        (
            "/scripts/a.js",
            "export default { a: 1 };",
            "default export is a object; expected a function of shape async (args) => result.",
        ),
        ("/scripts/t.test.js", "export const a = 1;", "no default"),
        ("/scripts/bad.js", "export default function (a) {\n  return a +;\n}", "/scripts/bad.js:2:"),
        ("/scripts/x.txt", "export default () => 1", "only .js files are scripts"),
    ];
    for (path, src, expect) in cases {
        let err = validate(&[], path, src).unwrap_err().to_string();
        assert!(err.contains(expect), "{path}: {err}");
    }
}

#[test]
fn libraries_and_tests() {
    let lib = validate(&[], "/scripts/lib/u.js", "export const answer = 42;").unwrap();
    assert_eq!((lib.kind, lib.dts), (ScriptKind::Library, None));
    let broken = validate(&[], "/scripts/lib/u.js", "export const = 42;").unwrap_err();
    assert!(broken.to_string().contains("syntax error"), "{broken}");
    let t = validate(&[], "/scripts/lib/u.test.js", "export default () => {}").unwrap();
    assert_eq!((t.kind, t.dts), (ScriptKind::Test, None));
    assert_eq!(dts_path(&vp("/scripts/a.js")), Some(vp("/scripts/a.d.ts")));
}

#[test]
fn validation_sees_the_tree_and_the_new_text() {
    let files = [("/scripts/lib/u.js", "export const base = 40;"), ("/data/n.txt", "2")];
    let src = "import { base } from './lib/u.js';\nimport { readFile } from 'env:fs';\nimport { json } from 'env:std';\nconst n = json.parse(await readFile('/data/n.txt'));\nconst me = await readFile('/scripts/main.js');\nif (!me.includes('base + n')) throw new Error('overlay not visible');\nexport default async function main() { return base + n; }";
    validate(&files, "/scripts/main.js", src).unwrap();
}

#[test]
fn top_level_mutation_is_refused_during_validation() {
    let t = tree(&[("/data/keep.txt", "x")]);
    for (op, call) in
        [("writeFile", "writeFile('/out/x', 'y')"), ("rm", "rm('/data/keep.txt')"), ("mkdir", "mkdir('/out')")]
    {
        let src = format!("import {{ {op} }} from 'env:fs';\nawait {call};\nexport default async function main() {{}}");
        let err = engine().validate(t.as_ref(), &vp("/scripts/m.js"), &src).unwrap_err().to_string();
        assert!(
            err.contains(&format!("env:fs.{op}: {op} is not available while a script is being validated")),
            "{err}"
        );
        assert!(err.contains("Do the work inside the default export instead"), "{err}");
    }
    assert!(t.exists(&vp("/data/keep.txt")).unwrap());
    assert!(!t.exists(&vp("/out")).unwrap());
}

#[test]
fn validation_is_bounded_and_reentrant() {
    let slow =
        Engine::new(ModuleRegistry::with_builtins(), ScriptLimits { run_timeout_ms: 300, ..ScriptLimits::default() });
    let err = slow.validate(&MemTree::new(), &vp("/scripts/a.js"), "for (;;) {}\nexport default () => 1").unwrap_err();
    assert!(err.to_string().contains("wall-clock limit: 300ms"), "{err}");
    // Validation can be called from inside a tokio runtime (a gateway serving a script's write).
    let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let ok = rt.block_on(async { engine().validate(&MemTree::new(), &vp("/scripts/a.js"), "export default () => 1") });
    assert!(ok.is_ok());
}

#[test]
fn a_cycle_is_reported_at_write_time() {
    let files = [("/scripts/a.js", "import './b.js'; export default () => 1;")];
    let err = validate(&files, "/scripts/b.js", "import './a.js'; export default () => 2;").unwrap_err();
    assert_eq!(
        err.to_string(),
        "circular import detected: /scripts/b.js -> /scripts/a.js -> /scripts/b.js. Move what both modules need into a third module under /scripts/lib that imports neither."
    );
}
