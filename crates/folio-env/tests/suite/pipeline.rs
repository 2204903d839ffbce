//! The script pipeline through the gateway: write-time validation on every way into `/scripts`,
//! and the derived `.d.ts` kept in step with its script.

use serde_json::json;

use super::Expect::{Err, Ok};
use super::{check, env, err, ok, read};

const ADD: &str = "/** Adds two numbers. @param {{ a: number, b: number }} args */\nexport default async function add({ a, b }) {\n  return a + b;\n}\n";

#[test]
fn validation_refuses_broken_scripts_with_the_fix_and_leaves_no_trace() {
    let env = env();
    check(
        &env,
        &[
            (
                "write_file",
                json!({"path": "/scripts/prog.js", "content": "const x = 1;\n"}),
                Err(&["/scripts/prog.js was not saved", "no default export", "export default async function"]),
            ),
            (
                "write_file",
                json!({"path": "/scripts/named.js", "content": "export function parse() {}\n"}),
                Err(&["script exports { parse } but no default", "Add \"export default parse\""]),
            ),
            (
                "write_file",
                json!({"path": "/scripts/bad.js", "content": "export default (\n"}),
                Err(&["/scripts/bad.js"]),
            ),
            (
                "write_file",
                json!({"path": "/scripts/add.js", "content": ADD}),
                Ok(&["created /scripts/add.js", " — .d.ts regenerated"]),
            ),
            (
                "edit_file",
                json!({"path": "/scripts/add.js", "old_str": "export default async function add", "new_str": "async function add"}),
                Err(&["no default export"]),
            ),
            (
                "write_file",
                json!({"path": "/scripts/plain.js", "content": "export default async function plain(args) { return 1; }\n"}),
                Ok(&[".d.ts regenerated", "no description in `ls /scripts`", "@param"]),
            ),
            (
                "write_file",
                json!({"path": "/scripts/add.test.js", "content": "/** Checks add. */\nexport default async function () {}\n"}),
                Ok(&[" — validated; run it with run_tests"]),
            ),
            (
                "write_file",
                json!({"path": "/scripts/lib/u.js", "content": "export const two = 2;\n"}),
                Ok(&["created"]),
            ),
            (
                "ls",
                json!({"path": "/scripts"}),
                Ok(&["add.js (", " — Adds two numbers.", "add.test.js (", "[test] Checks add."]),
            ),
        ],
    );
    for gone in
        ["/scripts/prog.js", "/scripts/prog.d.ts", "/scripts/named.js", "/scripts/bad.js", "/scripts/add.test.d.ts"]
    {
        assert!(read(&env, gone).is_none(), "{gone} should not exist");
    }
    assert!(read(&env, "/scripts/add.js").unwrap().contains("export default async function add"));
    let dts = read(&env, "/scripts/add.d.ts").unwrap();
    assert!(dts.contains("Adds two numbers.") && dts.contains("declare function add("), "{dts}");
    assert!(read(&env, "/scripts/lib/u.d.ts").is_none());
}

#[test]
fn mount_into_scripts_is_validated_and_derives_the_dts() {
    let env = env();
    let e = env.mount("/scripts", "prog.js", b"console.log(1);\n").unwrap_err().to_string();
    assert!(e.contains("was not saved") && e.contains("no default export"), "{e}");
    assert!(read(&env, "/scripts/prog.js").is_none());
    let at = env.mount("/scripts", "add.js", ADD.as_bytes()).unwrap();
    assert_eq!(at.as_str(), "/scripts/add.js");
    assert!(read(&env, "/scripts/add.d.ts").unwrap().contains("Adds two numbers."));
}

#[test]
fn the_dts_follows_its_script_through_edit_mv_cp_rm_and_undo() {
    let env = env();
    ok(&env, "write_file", json!({"path": "/scripts/a.js", "content": ADD}));
    let edited = ok(
        &env,
        "edit_file",
        json!({"path": "/scripts/a.js", "old_str": "function add(", "new_str": "function addAll("}),
    );
    assert!(edited.contains(".d.ts regenerated"), "{edited}");
    assert!(read(&env, "/scripts/a.d.ts").unwrap().contains("declare function addAll("));
    ok(&env, "mv", json!({"from": "/scripts/a.js", "to": "/scripts/b.js"}));
    assert!(read(&env, "/scripts/a.d.ts").is_none());
    assert!(read(&env, "/scripts/b.d.ts").is_some());
    ok(&env, "cp", json!({"from": "/scripts/b.js", "to": "/scripts/c.js"}));
    assert!(read(&env, "/scripts/b.d.ts").is_some() && read(&env, "/scripts/c.d.ts").is_some());
    ok(&env, "mv", json!({"from": "/scripts/c.js", "to": "/tmp/c.js"}));
    assert!(read(&env, "/scripts/c.d.ts").is_none() && read(&env, "/tmp/c.d.ts").is_none());
    ok(&env, "rm", json!({"path": "/scripts/b.js"}));
    assert!(read(&env, "/scripts/b.d.ts").is_none());
    ok(&env, "undo", json!({"path": "/scripts/b.js"}));
    assert!(read(&env, "/scripts/b.d.ts").unwrap().contains("addAll"));
    // Undoing the move's arrival removes the script, and with it the sibling.
    ok(&env, "undo", json!({"path": "/scripts/b.js"}));
    assert!(read(&env, "/scripts/b.js").is_none() && read(&env, "/scripts/b.d.ts").is_none());
    // Moving an invalid file in fails, and the source stays where it was.
    ok(&env, "write_file", json!({"path": "/tmp/prog.js", "content": "let x = 1;\n"}));
    assert!(err(&env, "mv", json!({"from": "/tmp/prog.js", "to": "/scripts/prog.js"})).contains("no default export"));
    assert!(read(&env, "/tmp/prog.js").is_some() && read(&env, "/scripts/prog.js").is_none());
}

#[test]
fn directory_moves_regenerate_or_drop_the_derived_files() {
    let env = env();
    ok(&env, "write_file", json!({"path": "/scripts/sub/x.js", "content": ADD}));
    assert!(read(&env, "/scripts/sub/x.d.ts").is_some());
    let moved = ok(&env, "mv", json!({"from": "/scripts/sub", "to": "/scripts/sub2"}));
    assert!(moved.contains("moved 1 file from /scripts/sub to /scripts/sub2"), "{moved}");
    assert!(read(&env, "/scripts/sub2/x.d.ts").is_some() && read(&env, "/scripts/sub/x.d.ts").is_none());
    ok(&env, "cp", json!({"from": "/scripts/sub2", "to": "/tmp/copy"}));
    assert!(read(&env, "/tmp/copy/x.js").is_some() && read(&env, "/tmp/copy/x.d.ts").is_none());
    ok(&env, "rm", json!({"path": "/scripts/sub2"}));
    assert!(read(&env, "/scripts/sub2/x.d.ts").is_none());
}

#[test]
fn orientation_lists_scripts_with_their_one_liners() {
    let env = env();
    ok(&env, "write_file", json!({"path": "/scripts/add.js", "content": ADD}));
    let text = ok(&env, "read_file", json!({"path": "/.env/orientation.md"}));
    assert!(text.contains("`/scripts/add.js` — Adds two numbers."), "{text}");
    assert!(text.contains("one run up to 30000ms"), "{text}");
}
