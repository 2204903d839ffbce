//! The file verbs: messages, formats, caps and escalation.

use folio_env::{EnvOptions, Limits};
use folio_vfs::Tree;
use serde_json::json;

use super::Expect::{Err, Ok};
use super::{check, env, env_with, err, ok, put, read};

#[test]
fn write_edit_rm_mv_cp_report_what_they_did() {
    let env = env();
    check(
        &env,
        &[
            (
                "write_file",
                json!({"path": "/out/deep/a.txt", "content": "hello"}),
                Ok(&["created /out/deep/a.txt (5B)"]),
            ),
            (
                "write_file",
                json!({"path": "/out/deep/a.txt", "content": " world", "append": true}),
                Ok(&["appended to /out/deep/a.txt (11B)"]),
            ),
            (
                "write_file",
                json!({"path": "/out/deep/a.txt", "content": "one two two"}),
                Ok(&["wrote /out/deep/a.txt (11B)"]),
            ),
            ("edit_file", json!({"path": "/out/deep/a.txt", "old_str": "three", "new_str": "x"}), Err(&["0 matches"])),
            (
                "edit_file",
                json!({"path": "/out/deep/a.txt", "old_str": "two", "new_str": "x"}),
                Err(&["matches 2 times", "exactly once"]),
            ),
            (
                "edit_file",
                json!({"path": "/out/deep/a.txt", "old_str": "one", "new_str": "$1"}),
                Ok(&["edited /out/deep/a.txt (1 replacement, now 10B)"]),
            ),
            (
                "edit_file",
                json!({"path": "/out/deep/a.txt", "old_str": "", "new_str": "x"}),
                Err(&["old_str must be non-empty"]),
            ),
            (
                "edit_file",
                json!({"path": "/out/nope.txt", "old_str": "a", "new_str": "x"}),
                Err(&["no such file: /out/nope.txt"]),
            ),
            (
                "edit_file",
                json!({"path": "/out/deep", "old_str": "a", "new_str": "x"}),
                Err(&["cannot edit /out/deep: it is a directory"]),
            ),
            ("write_file", json!({"path": "/tmp/a/1.txt", "content": "1"}), Ok(&[])),
            ("write_file", json!({"path": "/tmp/a/2.txt", "content": "2"}), Ok(&[])),
            ("cp", json!({"from": "/tmp/a", "to": "/tmp/b"}), Ok(&["copied 2 files from /tmp/a to /tmp/b"])),
            ("mv", json!({"from": "/tmp/b/1.txt", "to": "/out/1.txt"}), Ok(&["moved /tmp/b/1.txt -> /out/1.txt"])),
            ("mv", json!({"from": "/out/1.txt", "to": "/out/1.txt"}), Err(&["same path"])),
            ("mv", json!({"from": "/tmp/a", "to": "/tmp/a/inner"}), Err(&["into itself"])),
            (
                "cp",
                json!({"from": "/tmp/a/1.txt", "to": "/tmp/b"}),
                Err(&["destination /tmp/b is a directory", "/tmp/b/1.txt"]),
            ),
            ("rm", json!({"path": "/tmp/a"}), Ok(&["removed 2 files under /tmp/a"])),
            ("rm", json!({"path": "/out/1.txt"}), Ok(&["removed /out/1.txt"])),
            ("rm", json!({"path": "/out/ghost.txt"}), Err(&["no such file or directory: /out/ghost.txt"])),
        ],
    );
    assert_eq!(read(&env, "/out/deep/a.txt").as_deref(), Some("$1 two two"));
    assert!(read(&env, "/tmp/a/1.txt").is_none());
    assert_eq!(read(&env, "/tmp/b/2.txt").as_deref(), Some("2"));
}

/// Found by folio-fuzz (`regressions/edit_file/`): the edit was made on the file decoded with
/// U+FFFD for every invalid byte, so editing one word of a Latin-1 file rewrote all its accents,
/// and an `old_str` holding U+FFFD matched bytes that were never that character.
#[test]
fn edit_file_changes_only_the_matched_bytes_of_a_file_that_is_not_utf8() {
    let env = env();
    let latin1: &[u8] = b"caf\xe9,cr\xe8me\nth\xc3\xa9,10\n";
    env.tree().write(&super::p("/inbox/menu.csv"), latin1).unwrap();
    ok(&env, "edit_file", json!({"path": "/inbox/menu.csv", "old_str": "10", "new_str": "12"}));
    assert_eq!(env.tree().read(&super::p("/inbox/menu.csv")).unwrap(), b"caf\xe9,cr\xe8me\nth\xc3\xa9,12\n");
    let msg = err(&env, "edit_file", json!({"path": "/inbox/menu.csv", "old_str": "caf\u{fffd}", "new_str": "x"}));
    assert!(msg.contains("old_str not found in /inbox/menu.csv (0 matches)"), "{msg}");
}

#[test]
fn write_file_content_and_encoding_are_checked() {
    let env = env();
    check(
        &env,
        &[
            (
                "write_file",
                json!({"path": "/out/p.png", "content": "iVBORw0KGgo=", "encoding": "base64"}),
                Ok(&["created /out/p.png (8B)"]),
            ),
            ("write_file", json!({"path": "/out/t.txt", "content": "iVBORw0KGgo="}), Ok(&["(12B)"])),
            (
                "write_file",
                json!({"path": "/out/bad.bin", "content": "not base64!", "encoding": "base64"}),
                Err(&["not valid base64"]),
            ),
            (
                "write_file",
                json!({"path": "/out/h.bin", "content": "00", "encoding": "hex"}),
                Err(&["\"utf8\" or \"base64\""]),
            ),
            (
                "write_file",
                json!({"path": "/out/o.json", "content": {"a": 1}}),
                Err(&["content must be a string, got an object", "JSON.stringify"]),
            ),
            ("write_file", json!({"path": "/out/o.json", "content": [1]}), Err(&["got an array"])),
            (
                "write_file",
                json!({"path": "/out/o.json"}),
                Err(&["missing field `content`", "write_file { path, content, append?, encoding? }"]),
            ),
            ("write_file", json!({"path": "/out/o.json", "content": "x", "mode": "w"}), Err(&["unknown field `mode`"])),
            ("write_file", json!({"path": "out/o.json", "content": "x"}), Err(&["must be absolute"])),
            ("frobnicate", json!({}), Err(&["no verb named \"frobnicate\"", "write_file"])),
        ],
    );
    assert_eq!(folio_vfs::Tree::read(env.tree(), &super::p("/out/p.png")).unwrap(), b"\x89PNG\r\n\x1a\n");
    assert!(read(&env, "/out/bad.bin").is_none());
}

#[test]
fn wildcards_in_mutating_verbs_get_the_script_recipe() {
    let env = env();
    put(&env, "/tmp/a.png", "a");
    check(
        &env,
        &[
            (
                "rm",
                json!({"path": "/tmp/*.png"}),
                Err(&["takes one path, not a pattern", "fs.glob('/tmp/*.png')", "fs.rm(p)"]),
            ),
            ("mv", json!({"from": "/tmp/*.png", "to": "/out/x"}), Err(&["takes one path, not a pattern", "fs.mv"])),
            ("cp", json!({"from": "/tmp/?.png", "to": "/out/x"}), Err(&["takes one path, not a pattern", "fs.cp"])),
            ("cp", json!({"from": "/tmp/b.png", "to": "/out/x"}), Err(&["no such file or directory: /tmp/b.png"])),
        ],
    );
    assert!(read(&env, "/tmp/a.png").is_some());
}

#[test]
fn read_file_numbers_slices_and_caps() {
    let env = env_with(EnvOptions {
        limits: Limits { max_tool_response_lines: 20, ..Default::default() },
        ..Default::default()
    });
    let body: Vec<String> = (1..=100).map(|n| format!("line {n}")).collect();
    put(&env, "/inbox/long.txt", &body.join("\n"));
    put(&env, "/inbox/bin.dat", "ab\0cd");
    check(
        &env,
        &[
            (
                "read_file",
                json!({"path": "/inbox/long.txt", "start_line": 10, "end_line": 12}),
                Ok(&["showing lines 10–12 of 100 (/inbox/long.txt)\n10\tline 10\n11\tline 11\n12\tline 12"]),
            ),
            (
                "read_file",
                json!({"path": "/inbox/long.txt"}),
                Ok(&["showing lines 1–20 of 100", " 1\tline 1\n", "… [80 more lines — slice with start_line=21]"]),
            ),
            (
                "read_file",
                json!({"path": "/inbox/long.txt", "start_line": 101}),
                Err(&["start_line 101 is past the end of /inbox/long.txt (100 lines)"]),
            ),
            (
                "read_file",
                json!({"path": "/inbox/long.txt", "start_line": 5, "end_line": 2}),
                Err(&["end_line 2 is before start_line 5"]),
            ),
            ("read_file", json!({"path": "/inbox/bin.dat"}), Err(&["binary file", "describe("])),
            ("read_file", json!({"path": "/inbox/none.txt"}), Err(&["no such file: /inbox/none.txt"])),
            ("read_file", json!({"path": "/inbox"}), Err(&["it is a directory"])),
        ],
    );
    let short = ok(&env, "read_file", json!({"path": "/inbox/long.txt", "start_line": 1, "end_line": 3}));
    assert!(short.starts_with("showing lines 1–3 of 100"), "{short}");
    put(&env, "/inbox/small.txt", "a\nb");
    assert_eq!(ok(&env, "read_file", json!({"path": "/inbox/small.txt"})), "1\ta\n2\tb");
}

#[test]
fn std_paths_explain_themselves() {
    let env = env();
    check(
        &env,
        &[
            (
                "read_file",
                json!({"path": "/std/csv/index.d.ts"}),
                Err(&["no module named \"csv\"", "exported by env:std", "import { csv } from 'env:std'"]),
            ),
            (
                "read_file",
                json!({"path": "/std/env:std/index.d.ts"}),
                Err(&["without the \"env:\" prefix", "/std/std/index.d.ts"]),
            ),
            (
                "read_file",
                json!({"path": "/std/nothing/index.d.ts"}),
                Err(&["Registered modules: env:fs, env:std, env:assert", "/std/README.md"]),
            ),
            ("read_file", json!({"path": "/std/fs/missing.md"}), Err(&["no such file: /std/fs/missing.md"])),
            (
                "read_file",
                json!({"path": "/std/fs/index.d.ts"}),
                Ok(&["RETURNS ENTRY OBJECTS, NOT STRINGS", "endsWith", "glob("]),
            ),
        ],
    );
}

#[test]
fn ls_shows_sizes_script_summaries_and_module_descriptions() {
    let env = env();
    put(
        &env,
        "/scripts/add.js",
        "/**\n * Adds two numbers from args.\n * Second line is not shown.\n * @param {object} args\n */\nexport default async function (args) { return args.a + args.b; }\n",
    );
    put(&env, "/scripts/add.test.js", "/** Checks add. */\nexport default async function () {}\n");
    put(&env, "/scripts/plain.js", "export default () => 1;\n");
    put(&env, "/scripts/lib/util.js", "/** Not listed. */\nexport default 1;\n");
    let listing = ok(&env, "ls", json!({"path": "/scripts"}));
    assert!(listing.starts_with("/scripts\nlib/\nadd.js ("), "{listing}");
    assert!(listing.contains("B) — Adds two numbers from args."), "{listing}");
    assert!(!listing.contains("Second line"), "{listing}");
    assert!(listing.contains("add.test.js (") && listing.contains("— [test] Checks add."), "{listing}");
    assert!(listing.lines().any(|l| l.starts_with("plain.js (") && !l.contains('—')), "{listing}");
    check(
        &env,
        &[
            (
                "ls",
                json!({"path": "/std"}),
                Ok(&["fs/ — VFS-scoped file I/O", "std/ — Zero-dep battery", "README.md ("]),
            ),
            ("ls", json!({"path": "/std", "depth": 2}), Ok(&["  index.d.ts ("])),
            ("ls", json!({"path": "/scripts", "depth": 2}), Ok(&["lib/\n  util.js ("])),
            ("ls", json!({"path": "/nowhere"}), Err(&["no such file or directory: /nowhere"])),
            ("ls", json!({}), Ok(&["/\n", "scripts/", "tmp/", ".env/", "skills/", "std/"])),
        ],
    );
    env.tree().mkdir(&super::p("/out/empty")).unwrap();
    assert_eq!(ok(&env, "ls", json!({"path": "/out/empty"})), "/out/empty is empty");
}

#[test]
fn grep_searches_scopes_caps_and_reads_js_regex() {
    let env = env();
    put(&env, "/inbox/a.txt", "first\nnothing here\nneedle one\nafter\n");
    put(&env, "/inbox/b.md", "needle two\nneedle three\n");
    put(&env, "/inbox/bin.dat", "needle\0");
    check(
        &env,
        &[
            ("grep", json!({"pattern": "needle"}), Ok(&["/inbox/a.txt:3: needle one", "/inbox/b.md:1: needle two"])),
            ("grep", json!({"pattern": "needle", "glob": "**/*.md"}), Ok(&["/inbox/b.md:2: needle three"])),
            (
                "grep",
                json!({"pattern": "needle one", "context": 1}),
                Ok(&["/inbox/a.txt:2- nothing here", "/inbox/a.txt:4- after"]),
            ),
            (
                "grep",
                json!({"pattern": "needle", "max_matches": 1}),
                Ok(&["1 of 3 matches shown", "raise max_matches up to 10,000"]),
            ),
            ("grep", json!({"pattern": "needle (?!one)\\w+"}), Ok(&["needle two"])),
            ("grep", json!({"pattern": "(n)ee\\1"}), Ok(&["no matches for /(n)ee\\1/"])),
            ("grep", json!({"pattern": "(["}), Err(&["invalid regex \"([\""])),
            ("grep", json!({"pattern": "x", "path": "/missing"}), Err(&["no such file or directory"])),
        ],
    );
    let msg = ok(&env, "grep", json!({"pattern": "needle", "glob": "**/*.md"}));
    assert!(!msg.contains("a.txt"), "{msg}");
    let lookahead = ok(&env, "grep", json!({"pattern": "needle (?!one)\\w+"}));
    assert!(!lookahead.contains("needle one"), "{lookahead}");
}

#[test]
fn describe_summarises_text_binary_and_directories() {
    let env = env();
    put(&env, "/inbox/a.csv", "x,y\n1,2\n");
    env.tree().write(&super::p("/inbox/p.png"), b"\x89PNG\r\n\x1a\n\0\0").unwrap();
    let text = env.call("describe", json!({"path": "/inbox/a.csv"}));
    assert_eq!(text.data["lines"], 3);
    assert_eq!(text.data["preview"], "x,y\n1,2\n");
    let bin = env.call("describe", json!({"path": "/inbox/p.png"}));
    assert_eq!(bin.data["binary"], true);
    assert_eq!(bin.data["head"], "89 50 4e 47 0d 0a 1a 0a");
    assert_eq!(bin.data["media_type"], "image/png");
    let dir = env.call("describe", json!({"path": "/inbox"}));
    assert_eq!((dir.data["kind"].as_str(), dir.data["files"].as_u64()), (Some("directory"), Some(2)));
    // A directory names its entries (a subdirectory with its `/`), bounded, with the count.
    put(&env, "/inbox/sub/x.txt", "x");
    let dir = env.call("describe", json!({"path": "/inbox"}));
    assert_eq!(dir.data["names"], json!(["sub/", "a.csv", "p.png"]), "{}", dir.data);
    assert!(dir.data.get("names_note").is_none());
    for i in 0..60 {
        put(&env, &format!("/many/f{i:02}.txt"), "x");
    }
    let many = env.call("describe", json!({"path": "/many"}));
    assert_eq!((many.data["entries"].as_u64(), many.data["names"].as_array().map(Vec::len)), (Some(60), Some(50)));
    assert!(many.model_text().contains("first 50 of 60 entries named"), "{}", many.model_text());
    assert!(err(&env, "describe", json!({"path": "/inbox/none"})).contains("no such file or directory"));
}

#[test]
fn repeated_failures_escalate_per_call() {
    let env = env();
    let args = json!({"path": "/out/missing.txt", "start_line": 1});
    let first = err(&env, "read_file", args.clone());
    assert!(!first.contains("Second time"));
    assert!(err(&env, "read_file", args).contains("Second time this exact call"));
    let third = err(&env, "read_file", json!({"start_line": 1, "path": "/out/missing.txt"}));
    assert!(
        third.starts_with("STOP: this call has failed 3 times")
            && third.contains("ls or read_file")
            && third.contains(&first),
        "{third}"
    );
    let other = err(&env, "read_file", json!({"path": "/out/other.txt"}));
    assert!(!other.contains("Second time") && !other.contains("STOP"), "{other}");
    for _ in 0..3 {
        assert!(!ok(&env, "ls", json!({})).contains("STOP"));
    }
}

#[test]
fn oversized_replies_spill_to_tmp_and_name_the_file() {
    let env = env_with(EnvOptions {
        limits: Limits { max_tool_response_bytes: 1000, max_tool_response_lines: 20, ..Default::default() },
        ..Default::default()
    });
    for i in 0..60 {
        put(&env, &format!("/inbox/f{i:02}.txt"), &"x".repeat(100));
    }
    let listing = ok(&env, "describe", json!({"path": "/inbox"}));
    assert!(!listing.contains("written to"));
    let hist = ok(&env, "ls", json!({"path": "/inbox"}));
    assert!(hist.contains("more entries — list a subdirectory or lower depth"), "{hist}");
    let long = (0..400).map(|i| format!("row {i}")).collect::<Vec<_>>().join("\n");
    let spilled = env.spill(&long, 1.0, "out");
    assert!(spilled.contains("more lines — the whole text"), "{spilled}");
    let path = spilled.split(" is in ").nth(1).unwrap().split(':').next().unwrap().to_owned();
    assert!(path.starts_with("/tmp/run-") && path.ends_with(".out"), "{spilled}");
    assert!(read(&env, &path).unwrap().contains("row 399"));
    assert_eq!(env.gateway().counters().spillovers, 1);
}

#[test]
fn transfers_and_removals_name_their_edge_cases() {
    let env = env();
    put(&env, "/tmp/a/1.txt", "1");
    put(&env, "/tmp/a/2.txt", "2");
    put(&env, "/tmp/file.txt", "f");
    env.tree().mkdir(&super::p("/tmp/empty")).unwrap();
    env.tree().mkdir(&super::p("/tmp/empty2")).unwrap();
    env.tree().mkdir(&super::p("/tmp/c/1.txt")).unwrap();
    check(
        &env,
        &[
            ("mv", json!({"from": "/tmp/a", "to": "/out/a"}), Ok(&["moved 2 files from /tmp/a to /out/a"])),
            ("rm", json!({"path": "/tmp/empty"}), Ok(&["removed /tmp/empty (an empty directory)"])),
            ("mv", json!({"from": "/tmp/empty2", "to": "/out/e"}), Err(&["/tmp/empty2 is an empty directory"])),
            ("cp", json!({"from": "/out/a", "to": "/tmp/c"}), Err(&["/tmp/c/1.txt", "it is a directory"])),
            ("cp", json!({"from": "/out/a/1.txt", "to": "/tmp/file.txt/x"}), Err(&["/tmp/file.txt is a file"])),
            ("mv", json!({"from": "/out/ghost", "to": "/out/g2"}), Err(&["no such file or directory: /out/ghost"])),
            ("write_file", json!({"path": "/out/a", "content": "x"}), Err(&["cannot write /out/a: it is a directory"])),
            ("write_file", json!({"path": "/tmp/one/only.txt", "content": "x"}), Ok(&[])),
            ("cp", json!({"from": "/tmp/one", "to": "/tmp/two"}), Ok(&["copied 1 file from /tmp/one to /tmp/two"])),
            ("rm", json!({"path": "/tmp/two"}), Ok(&["removed 1 file under /tmp/two"])),
            (
                "write_file",
                json!({"path": "/out/n.json", "content": null}),
                Err(&["content must be a string, got null"]),
            ),
            ("write_file", json!({"path": 7, "content": "x"}), Err(&["write_file { path, content"])),
            ("edit_file", json!({"path": "/out/a/1.txt", "old_str": 1, "new_str": "x"}), Err(&["edit_file {"])),
            (
                "read_file",
                json!({"path": "/std/env:nothing/index.d.ts"}),
                Err(&["Registered modules: env:fs, env:std, env:assert"]),
            ),
            ("ls", json!({"path": "/out", "depth": 0}), Ok(&["/out\na/"])),
            ("ls", json!({"path": "/out", "depth": 99}), Ok(&["  1.txt (1B)"])),
            ("ls", json!({"path": "/out/a/1.txt"}), Ok(&["1.txt (1B)"])),
            (
                "grep",
                json!({"pattern": "1", "path": "/out", "max_matches": 0}),
                Err(&["max_matches 0 is outside 1–10,000"]),
            ),
        ],
    );
    assert_eq!(read(&env, "/tmp/file.txt").as_deref(), Some("f"));
    assert!(read(&env, "/tmp/c/2.txt").is_none(), "a refused copy writes nothing");
}
