//! A file over `limits.max_file_bytes` (here 100 bytes; a 2 GB file in folio-host's load suite)
//! is refused or skipped by its size before any verb reads it whole, with the way out named.

use folio_env::{EnvOptions, Limits};
use serde_json::json;

use super::Expect::{Err, Ok};
use super::{check, env_with, put};

#[test]
fn verbs_refuse_or_skip_a_file_over_the_cap_before_reading_it() {
    let env =
        env_with(EnvOptions { limits: Limits { max_file_bytes: 100, ..Default::default() }, ..Default::default() });
    put(&env, "/data/long.txt", &"a line of text\n".repeat(20));
    put(&env, "/data/short.txt", "a line of text\n");
    check(
        &env,
        &[
            (
                "read_file",
                json!({"path": "/data/long.txt"}),
                Err(&[
                    "/data/long.txt is 300 bytes, over the 100-byte cap read_file reads whole",
                    "use describe(/data/long.txt)",
                ]),
            ),
            ("read_file", json!({"path": "/data/short.txt"}), Ok(&["a line of text"])),
            (
                "describe",
                json!({"path": "/data/long.txt"}),
                Ok(&["\"bytes\": 300", "described from its first 65536 bytes", "a line of text"]),
            ),
            (
                "grep",
                json!({"pattern": "line", "path": "/data"}),
                Ok(&[
                    "/data/short.txt:1: a line of text",
                    "1 file(s) over the 100-byte cap (limits.max_file_bytes) not searched: /data/long.txt",
                ]),
            ),
            (
                "cp",
                json!({"from": "/data/long.txt", "to": "/data/copy.txt"}),
                Err(&["file size limit exceeded: /data/copy.txt would be 300 bytes, over the 100-byte cap"]),
            ),
            ("ls", json!({"path": "/data"}), Ok(&["long.txt (300B)", "short.txt (15B)"])),
        ],
    );
}
