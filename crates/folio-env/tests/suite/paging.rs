//! Results said once and within their caps (issue 28, items 1 and 3): `read_file` folds long
//! runs of one character and pages by bytes (a one-line spill file reads on in pieces), and
//! `grep` says every cap it applied, honours its documented maximum and writes what a reply
//! cannot hold to a file it names.

use serde_json::json;

use super::{env, err, ok, put, read};

/// A 75-line CSV whose cells overflowed into `#####` (LibreOffice's too-narrow cells) and
/// space padding: before the fold it paged six lines at a time.
fn hashes_csv() -> String {
    let mut csv = String::from("region,amount,notes\n");
    for i in 1..75 {
        csv.push_str(&format!("r{i},{}{i},{}end\n", "#".repeat(1200), " ".repeat(300)));
    }
    csv
}

#[test]
fn a_75_line_csv_full_of_hashes_reads_in_one_call() {
    let env = env();
    put(&env, "/in/wide.csv", &hashes_csv());
    let reply = ok(&env, "read_file", json!({"path": "/in/wide.csv"}));
    assert!(!reply.contains("more lines") && !reply.contains("showing lines"), "one call: {reply}");
    assert!(reply.contains("75\tr74,[1,200 × '#']74,[300 × ' ']end"), "{reply}");
    assert!(reply.contains("(148 runs of one repeated character (111,000 chars in all) shown as [count × 'c']; pass raw: true for the exact text)"), "{reply}");
    // raw: true shows the exact text, which pages as before.
    let raw = ok(&env, "read_file", json!({"path": "/in/wide.csv", "raw": true}));
    assert!(raw.contains("more lines — slice with start_line=") && raw.contains(&"#".repeat(1200)), "{raw}");
}

#[test]
fn a_one_line_spill_is_paged_by_bytes_to_its_end() {
    let env = env();
    let script = "/** Long. */\nexport default function () { return Array.from({length: 330000}, (_, i) => i % 10 === 0 ? 'x' + i : String(i)).join(','); }\n";
    ok(&env, "write_file", json!({"path": "/scripts/long.js", "content": script}));
    let reply = ok(&env, "run_script", json!({"path": "/scripts/long.js"}));
    let spill = reply
        .split_whitespace()
        .find(|w| w.starts_with("/tmp/run-"))
        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()))
        .unwrap_or_else(|| panic!("{reply}"));
    let whole = read(&env, spill).unwrap_or_else(|| panic!("{spill} in {reply}"));
    assert!(whole.len() > 2_000_000, "a 2 MB spill: {}", whole.len());
    let first: usize = reply
        .split("start_byte=")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the reply names where to read on: {reply}"));
    assert!(first > 0 && first < 10_000, "{reply}");
    // Read by lines, the one line is clipped and the reply says where its bytes go on.
    let by_line = ok(&env, "read_file", json!({"path": spill}));
    assert!(by_line.contains("clipped at 2,000 chars — read it by bytes: start_byte=0"), "{by_line}");
    // Paged by bytes from 0 to the end, the pieces are the file.
    let (mut at, mut got, mut calls) = (0usize, String::new(), 0);
    while at < whole.len() {
        let page = ok(&env, "read_file", json!({"path": spill, "start_byte": at, "raw": true}));
        calls += 1;
        let (head, rest) = page.split_once('\n').unwrap();
        assert!(head.starts_with(&format!("showing bytes {}–", fmt(at))), "{head}");
        let (body, next) = match rest.rsplit_once("\n… [") {
            Some((body, tail)) => {
                let n: usize = tail.split("start_byte=").nth(1).unwrap().trim_end_matches(']').parse().unwrap();
                (body, n)
            }
            None => (rest, whole.len()),
        };
        assert!(page.len() <= 8192 + 200, "one reply: {} bytes", page.len());
        assert_eq!(next - at, body.len(), "the next start_byte follows what was shown");
        got.push_str(body);
        at = next;
    }
    assert_eq!(got, whole);
    assert!(calls > 200, "{calls} pages of at most one reply each");
    // Lines and bytes are one scheme or the other; past the end is refused with the size.
    let mixed = err(&env, "read_file", json!({"path": spill, "start_byte": 0, "start_line": 1}));
    assert!(mixed.contains("by lines (start_line, end_line) or by bytes (start_byte, max_bytes), not both"), "{mixed}");
    let past = err(&env, "read_file", json!({"path": spill, "start_byte": whole.len()}));
    assert!(past.contains("is past the end of") && past.contains("give a start_byte below"), "{past}");
    let small = ok(&env, "read_file", json!({"path": spill, "start_byte": 10, "max_bytes": 5}));
    assert!(
        small.ends_with(&format!("[{} more bytes — continue with start_byte=15]", fmt(whole.len() - 15))),
        "{small}"
    );
}

fn fmt(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn grep_says_every_cap_and_honours_its_maximum() {
    let env = env();
    // 5,310 matching lines over 54 files, plus a file of 37 hits.
    for f in 0..54 {
        let lines: String = (0..(if f < 53 { 100 } else { 10 })).map(|i| format!("row {f}-{i} hit\n")).collect();
        put(&env, &format!("/data/f{f:02}.txt"), &lines);
    }
    put(&env, "/few/notes.txt", &(0..37).map(|i| format!("needle {i}\n")).collect::<String>());
    // The default keeps 37 hits whole: nothing cut, nothing said.
    let few = ok(&env, "grep", json!({"pattern": "needle", "path": "/few"}));
    assert_eq!(few.lines().count(), 37, "{few}");
    assert!(few.contains("/few/notes.txt:37: needle 36") && !few.contains("matches shown"), "{few}");
    // The default cap is said, with how many matched in all and what raises it.
    let capped = ok(&env, "grep", json!({"pattern": "hit", "path": "/data"}));
    assert_eq!(capped.lines().count(), 101, "{capped}");
    assert!(capped.ends_with("… [100 of 5,310 matches shown — max_matches=100 kept 100; raise max_matches up to 10,000 or narrow the pattern]"), "{capped}");
    // Asked for 10,000, all 5,310 are kept — in path order, in a file the reply names.
    let all = ok(&env, "grep", json!({"pattern": "hit", "path": "/data", "max_matches": 10000}));
    assert!(all.contains("of 5,310 matches shown here, all 5,310 kept are in /tmp/grep-"), "{all}");
    assert!(all.contains("narrow the path, glob or pattern to see them here"), "{all}");
    let file = all.split("kept are in ").nth(1).and_then(|s| s.split_whitespace().next()).unwrap();
    let kept = read(&env, file).unwrap();
    let lines: Vec<&str> = kept.lines().collect();
    assert_eq!(lines.len(), 5310);
    assert_eq!(lines[0], "/data/f00.txt:1: row 0-0 hit");
    assert_eq!(lines[5309], "/data/f53.txt:10: row 53-9 hit");
    let mut sorted = lines.clone();
    sorted.sort_by_key(|l| (l[..13].to_owned(), l[14..].split(':').next().unwrap().parse::<usize>().unwrap()));
    assert_eq!(lines, sorted, "deterministic path-then-line order whatever thread searched a file");
    // Over the documented maximum is refused, naming it.
    let over = err(&env, "grep", json!({"pattern": "hit", "max_matches": 20000}));
    assert!(over.contains("max_matches 20000 is outside 1–10,000"), "{over}");
}
