//! Console capture and Node-style formatting; progress streaming (progress.test.ts).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use folio_script::{ProgressLine, Stream, TRUNCATED};

use super::*;

/// `(console arguments as JS source, expected line)`.
const FORMAT: &[(&str, &str)] = &[
    (r#""step", 1, {deep: true}"#, "step 1 { deep: true }"),
    (r#""plain string""#, "plain string"),
    (r#"{ s: 'it' }"#, "{ s: 'it' }"),
    (r#"{ s: "it's" }"#, r#"{ s: "it's" }"#),
    ("[1, 2]", "[ 1, 2 ]"),
    ("[]", "[]"),
    ("{}", "{}"),
    ("{ a: { b: { c: { d: 1 } } } }", "{ a: { b: { c: [Object] } } }"),
    ("{ a: 1, b: 'two', c: [1, 2, 3], d: { e: { f: 1 } } }", "{ a: 1, b: 'two', c: [ 1, 2, 3 ], d: { e: { f: 1 } } }"),
    (
        "['apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape']",
        "[ 'apple', 'banana', 'cherry', 'date', 'elderberry', 'fig', 'grape' ]",
    ),
    (
        "Array.from({ length: 30 }, (_, i) => i * 100)",
        "[\n     0,  100,  200,  300,  400,  500,\n   600,  700,  800,  900, 1000, 1100,\n  1200, 1300, 1400, 1500, 1600, 1700,\n  1800, 1900, 2000, 2100, 2200, 2300,\n  2400, 2500, 2600, 2700, 2800, 2900\n]",
    ),
    ("{ a: [[[[1]]]] }", "{ a: [ [ [Array] ] ] }"),
    ("undefined, null, true", "undefined null true"),
    ("function named() {}", "[Function: named]"),
    ("() => 1", "[Function (anonymous)]"),
    ("async function af() {}", "[AsyncFunction: af]"),
    ("class K {}", "[class K]"),
    ("-0, 5n, Symbol('s')", "-0 5n Symbol(s)"),
    ("{ 'a-b': 1, ok: 2 }", "{ 'a-b': 1, ok: 2 }"),
    ("new Map([['a', 1]])", "Map(1) { 'a' => 1 }"),
    ("new Set([1, 2])", "Set(2) { 1, 2 }"),
    ("new Uint8Array([1, 2])", "Uint8Array(2) [ 1, 2 ]"),
    ("new Date(0)", "1970-01-01T00:00:00.000Z"),
    ("/ab+c/gi", "/ab+c/gi"),
    ("[1, , 3]", "[ 1, <1 empty item>, 3 ]"),
    ("[1, 2, 3, 4, 5, 6, 7]", "[\n  1, 2, 3, 4,\n  5, 6, 7\n]"),
    ("new (class Point { constructor() { this.x = 1; } })()", "Point { x: 1 }"),
    ("Object.create(null)", "[Object: null prototype] {}"),
    (r#""%s is %d years", "Bob", 42"#, "Bob is 42 years"),
    (r#""%i|%f|%j|%%|%O", 4.7, "1.5", {a: 1}, [1]"#, "4|1.5|{\"a\":1}|%|[ 1 ]"),
    (r#""%O and more", {x: 1}, "tail""#, "{ x: 1 } and more tail"),
    (r#""missing %s""#, "missing %s"),
    (
        "{ long: 'x'.repeat(70), other: 1 }",
        "{\n  long: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',\n  other: 1\n}",
    ),
];

#[test]
fn formats_like_node() {
    let mut failures = Vec::new();
    for (args, expect) in FORMAT {
        let r = run(&format!("export default () => {{ console.log({args}); }}"));
        let got = r.stdout.join("\n");
        if got != *expect {
            failures.push(format!("console.log({args}):\n  expected: {expect:?}\n  got:      {got:?} {:?}", r.outcome));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_print_with_their_stack() {
    let r = run("export default function main() { console.error(new RangeError('bad')); }");
    assert!(r.stderr[0].starts_with("RangeError: bad\n"), "{:?}", r.stderr);
    assert!(r.stderr[0].contains("/scripts/main.js"), "{:?}", r.stderr);
}

#[test]
fn streams_split_by_level() {
    let r = run(
        "export default () => { console.log('a'); console.info('b'); console.debug('c'); console.warn('d'); console.error('e'); }",
    );
    assert_eq!(r.stdout, vec!["a", "b", "c"]);
    assert_eq!(r.stderr, vec!["d", "e"]);
}

#[test]
fn flood_is_capped_with_one_marker() {
    let r =
        run("export default () => { for (let i = 0; i < 3000; i++) console.log('x'.repeat(1000)); return 'done'; }");
    assert_eq!(outcome(&r), r#""done""#);
    let chars: usize = r.stdout.iter().map(String::len).sum();
    assert!(chars <= 1_000_000 + TRUNCATED.len(), "{chars}");
    assert_eq!(r.stdout.iter().filter(|l| l.as_str() == TRUNCATED).count(), 1);
    assert_eq!(r.stdout.last().unwrap(), TRUNCATED);
}

#[test]
fn console_is_frozen() {
    let r = run(
        "export default () => { try { console.log = () => {}; } catch {} console.log('still'); return Object.isFrozen(console); }",
    );
    assert_eq!(r.stdout, vec!["still"]);
    assert_eq!(outcome(&r), "true");
}

/// Every batch the listener received, with its arrival time.
type Batches = Arc<Mutex<Vec<(Instant, Vec<ProgressLine>)>>>;

fn collector() -> (Batches, folio_script::OnProgress) {
    let seen: Batches = Arc::default();
    let s = seen.clone();
    (seen, Arc::new(move |batch: &[ProgressLine]| s.lock().unwrap().push((Instant::now(), batch.to_vec()))))
}

#[test]
fn progress_arrives_while_the_run_goes() {
    let (seen, listener) = collector();
    let src = "import { sleep } from 'env:std';\nexport default async () => { for (let i = 1; i <= 10; i++) { console.log(`step ${i}/10`); if (i === 5) console.error('halfway'); await sleep(30); } }";
    let opts = RunOptions { on_progress: Some(listener), run_id: Some("run_x".into()), ..RunOptions::default() };
    let r = run_with(src, &[], None, opts);
    let end = Instant::now();
    assert_eq!(r.stdout.len(), 10);
    assert_eq!(r.stderr, vec!["halfway"]);
    let seen = seen.lock().unwrap();
    let lines: Vec<&ProgressLine> = seen.iter().flat_map(|(_, b)| b.iter()).collect();
    assert_eq!(lines.len(), 11);
    assert!(lines.iter().all(|l| l.run_id == "run_x" && l.script == "/scripts/main.js"));
    assert_eq!(lines[5].stream, Stream::Stderr);
    assert_eq!(lines[5].text, "halfway");
    let early = seen
        .iter()
        .filter(|(t, _)| end.duration_since(*t) >= Duration::from_millis(50))
        .map(|(_, b)| b.len())
        .sum::<usize>();
    assert!(early >= 5, "only {early} lines arrived 50 ms before the end");
}

#[test]
fn progress_is_batched_and_complete() {
    let (seen, listener) = collector();
    let r = run_with(
        "export default () => { for (let i = 0; i < 200; i++) console.log(`l${i}`); }",
        &[],
        None,
        RunOptions { on_progress: Some(listener), ..RunOptions::default() },
    );
    assert_eq!(r.stdout.len(), 200);
    let seen = seen.lock().unwrap();
    assert!(seen.len() < 20, "{} batches for 200 lines", seen.len());
    assert!(seen.iter().all(|(_, b)| b.len() <= 50));
    let texts: Vec<String> = seen.iter().flat_map(|(_, b)| b.iter().map(|l| l.text.clone())).collect();
    assert_eq!(texts, (0..200).map(|i| format!("l{i}")).collect::<Vec<_>>());
}

#[test]
fn a_panicking_listener_cannot_fail_the_run() {
    let listener: folio_script::OnProgress = Arc::new(|_: &[ProgressLine]| panic!("listener broke"));
    let r = run_with(
        "export default () => { console.log('a'); return 1; }",
        &[],
        None,
        RunOptions { on_progress: Some(listener), ..RunOptions::default() },
    );
    assert_eq!(outcome(&r), "1");
    assert_eq!(r.stdout, vec!["a"]);
}
