//! The orientation file, /std and /skills, and the preamble.

use folio_env::{EnvOptions, Limits, RunRecord};
use serde_json::json;

use super::{env, env_with, ok, put, read};

#[test]
fn orientation_answers_where_am_i_and_is_rebuilt_on_every_read() {
    let env = env_with(EnvOptions {
        read_only_paths: vec!["/corpus".into()],
        limits: Limits { max_file_bytes: 4 * 1024 * 1024, max_versions_per_file: 3, ..Default::default() },
        ..Default::default()
    });
    assert!(read(&env, "/.env/orientation.md").is_none(), "not written until read");
    put(&env, "/inbox/data.csv", "a,b\n");
    put(&env, "/scripts/tally.js", "/** Tallies the rows of a CSV. */\nexport default async function (args) {}\n");
    put(&env, "/out/report.txt", "done");
    let rec = RunRecord {
        ts: "t".into(),
        script: "/scripts/tally.js".into(),
        args: json!({"input": "/inbox/data.csv"}),
        ok: true,
        kind: "run".into(),
        ms: 5,
        preview: "3 rows".into(),
        spill: None,
    };
    folio_env::record_run(&env, &rec).unwrap();
    let text = ok(&env, "read_file", json!({"path": "/.env/orientation.md"}));
    for want in [
        "# Orientation",
        "`/inbox` — 1 file(s)",
        "`/scripts/tally.js` — Tallies the rows of a CSV.",
        "`env:fs`",
        "`env:assert`",
        "`/out/report.txt`",
        "`/corpus` — not created yet (READ-ONLY",
        "## Limits",
        "4.0MB",
        "3 version(s) per file",
        "ok `/scripts/tally.js`",
        "3 rows",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    assert!(read(&env, "/.env/orientation.md").is_some());
    ok(&env, "rm", json!({"path": "/scripts/tally.js"}));
    let text = ok(&env, "read_file", json!({"path": "/.env/orientation.md"}));
    assert!(text.contains("None yet") && !text.contains("tally.js` —"), "{text}");
}

#[test]
fn orientation_stays_bounded() {
    let env = env();
    for i in 0..25 {
        put(
            &env,
            &format!("/scripts/s{i:02}.js"),
            "/** Does one small thing. */\nexport default async function () {}\n",
        );
    }
    let text = folio_env::orientation(&env);
    assert!(text.contains("… 10 more — `ls /scripts` for the full catalogue"), "{text}");
    assert!(text.len() < 4000, "{}", text.len());
}

#[test]
fn std_and_skills_are_generated_and_indexed() {
    let env = env();
    let std = read(&env, "/std/README.md").unwrap();
    assert!(std.contains("| `env:fs` |") && std.contains("`/std/assert/index.d.ts`"), "{std}");
    let skills = read(&env, "/skills/README.md").unwrap();
    assert!(skills.contains("Start with `imports.md`"));
    for name in ["imports", "runtime", "large-documents", "messy-data", "producing-files", "scripts"] {
        assert!(skills.contains(&format!("/skills/{name}.md")), "{name}");
        assert!(read(&env, &format!("/skills/{name}.md")).is_some(), "{name}");
    }
    let pre = folio_env::preamble(&env);
    for want in [
        "WORKING ENVIRONMENT",
        "read_file /skills/README.md",
        "read_file /.env/orientation.md",
        "listed in run_script's description",
        "checkpoint",
    ] {
        assert!(pre.contains(want), "{want}");
    }
}
