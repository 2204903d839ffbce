//! The targets that need a working environment (in memory, with the host's modules and
//! handlers): `edit_file`, `verbs_line` and `unzip`. Each rebuilds its environment every few
//! hundred inputs, so state one input leaves behind (files, undo rings) stays bounded.

use folio_env::{Environment, Status};
use folio_vfs::{Tree, VPath};
use serde_json::{Value, json};

use super::{bucket, environment, gist, limits, tokens};
use crate::engine::Run;

/// Inputs between two fresh environments.
const REBUILD_EVERY: u64 = 300;

/// An environment that is replaced every [`REBUILD_EVERY`] inputs.
struct Fresh {
    env: Environment,
    uses: u64,
    prepare: fn(&Environment) -> Result<(), String>,
}

impl Fresh {
    fn new(prepare: fn(&Environment) -> Result<(), String>) -> Result<Fresh, String> {
        let env = environment()?;
        prepare(&env)?;
        Ok(Fresh { env, uses: 0, prepare })
    }

    fn get(&mut self) -> &Environment {
        self.uses += 1;
        if self.uses.is_multiple_of(REBUILD_EVERY)
            && let Ok(env) = environment()
            && (self.prepare)(&env).is_ok()
        {
            self.env = env;
        }
        &self.env
    }
}

fn vp(s: &str) -> Result<VPath, String> {
    VPath::parse(s).map_err(|e| e.to_string())
}

fn put(env: &Environment, path: &str, bytes: &[u8]) -> Result<(), String> {
    env.tree().write(&vp(path)?, bytes).map_err(|e| e.to_string())
}

// ---- edit_file ------------------------------------------------------------------------------

pub(crate) fn edit_dictionary() -> Vec<Vec<u8>> {
    let mut t = tokens(&["\0", "//js\n", "export default function", "\r\n", "\n", "é", "\u{fffd}", "  ", "\t"]);
    t.extend([vec![0xE9], vec![0xFF, 0xFE], vec![0xC3], vec![0xEF, 0xBB, 0xBF]]);
    t
}

pub(crate) fn edit_setup() -> Result<Run, String> {
    let mut fresh = Fresh::new(|_| Ok(()))?;
    Ok(Box::new(move |input| {
        let env = fresh.get();
        let mut parts = input.splitn(3, |b| *b == 0);
        let content = parts.next().unwrap_or_default();
        let old = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
        let new = String::from_utf8_lossy(parts.next().unwrap_or_default()).into_owned();
        // A file starting with `//js` is edited as a script, so the edit is validated too.
        let path = if content.starts_with(b"//js") { "/scripts/fuzz.js" } else { "/inbox/notes.txt" };
        if let Err(e) = put(env, path, content) {
            return format!("put failed: {e}");
        }
        let r = env.call("edit_file", json!({"path": path, "old_str": old, "new_str": new}));
        if r.status == Status::Success {
            let after = vp(path).ok().and_then(|p| env.tree().read(&p).ok()).unwrap_or_default();
            let hits = find_all(content, old.as_bytes());
            assert_eq!(
                hits.len(),
                1,
                "edit_file succeeded but old_str occurs {} times in the file's bytes",
                hits.len()
            );
            let mut want = content.to_vec();
            want.splice(hits[0]..hits[0] + old.len(), new.bytes());
            assert!(
                after == want,
                "edit_file changed more than the matched bytes: {:?} became {:?} (old_str {old:?}, new_str {new:?})",
                String::from_utf8_lossy(content),
                String::from_utf8_lossy(&after)
            );
        }
        let hits = find_all(content, old.as_bytes()).len();
        let utf8 = std::str::from_utf8(content).is_ok();
        format!("{:?} {};hits {};utf8 {utf8} {:?}", r.status, gist(&r.message, 3), bucket(hits), r.status)
    }))
}

/// Every start offset of `needle` in `hay` (non-overlapping, as `str::matches` counts).
fn find_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    if needle.is_empty() {
        return out;
    }
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        if &hay[i..i + needle.len()] == needle {
            out.push(i);
            i += needle.len();
        } else {
            i += 1;
        }
    }
    out
}

// ---- verbs_line -----------------------------------------------------------------------------

pub(crate) fn verbs_dictionary() -> Vec<Vec<u8>> {
    let mut t: Vec<Vec<u8>> = folio_env::VERBS.iter().map(|v| format!("\"{}\"", v.name).into_bytes()).collect();
    t.extend(tokens(&[
        "{\"verb\": ",
        ", \"args\": {",
        "\"path\": ",
        "\"content\": ",
        "\"old_str\": ",
        "\"new_str\": ",
        "\"pattern\": ",
        "\"append\": true",
        "\"encoding\": \"base64\"",
        "\"start_line\": ",
        "\"end_line\": ",
        "\"timeout_ms\": ",
        "\"/inbox/a.txt\"",
        "\"/scripts/hello.js\"",
        "\"/out\"",
        "\"/.env\"",
        "\"/std\"",
        "\"../\"",
        "null",
        "[]",
        "{}",
        "\\u0000",
        "\\ud800",
        "\n",
        "(a+)+$",
        "\"**/*\"",
    ]));
    t
}

fn verbs_prepare(env: &Environment) -> Result<(), String> {
    put(env, "/inbox/a.txt", b"alpha\nbeta\ngamma\n")?;
    put(env, "/inbox/data.csv", b"region,total\nnorth,12\nsouth,7\n")?;
    let script = "/** Says hello.\n * @param {{name?: string}} args\n */\nexport default function (args) { return 'hi ' + (args.name ?? 'you'); }\n";
    let r = env.call("write_file", json!({"path": "/scripts/hello.js", "content": script}));
    if r.status == Status::Success { Ok(()) } else { Err(r.message) }
}

pub(crate) fn verbs_setup() -> Result<Run, String> {
    let mut fresh = Fresh::new(verbs_prepare)?;
    Ok(Box::new(move |input| {
        let env = fresh.get();
        let mut out = Vec::new();
        let ran = folio_env::run_jsonl(env, std::io::Cursor::new(input), &mut out);
        let text = String::from_utf8_lossy(&out);
        let mut sig: Vec<String> = Vec::new();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
            let status = v.get("status").and_then(Value::as_str);
            let event = v.get("event").and_then(Value::as_str);
            assert!(
                matches!(status, Some("success" | "error")) || event.is_some(),
                "a verbs output line is not a result or an event: {line}"
            );
            let verb = v.get("verb").and_then(Value::as_str).filter(|n| folio_env::verb(n).is_some()).unwrap_or("?");
            let message = v.get("message").and_then(Value::as_str).unwrap_or("");
            sig.push(format!("{verb}:{}:{}", status.or(event).unwrap_or(""), gist(message, 4)));
        }
        if ran.is_err() {
            sig.push("io-error".into());
        }
        // The set of outcomes, not their order or count.
        sig.sort();
        sig.dedup();
        sig.join(";")
    }))
}

// ---- unzip ----------------------------------------------------------------------------------

/// The extraction an agent writes: every entry of the archive through `env:fs`, so the
/// gateway's path rules and size limits apply to what an archive carries.
const UNZIP_JS: &str = r#"/** Extracts /inbox/in.zip into /out/unz. */
import { unzipSync } from 'env:zip';
import { readBytes, writeFile } from 'env:fs';
export default async function () {
  const files = unzipSync(await readBytes('/inbox/in.zip'));
  let written = 0, refused = 0;
  for (const [name, data] of Object.entries(files)) {
    if (name.endsWith('/')) continue;
    try { await writeFile('/out/unz/' + name, data); written++; } catch (e) { refused++; }
  }
  return { written, refused };
}
"#;

fn unzip_prepare(env: &Environment) -> Result<(), String> {
    let r = env.call("write_file", json!({"path": "/scripts/unzip.js", "content": UNZIP_JS}));
    if r.status == Status::Success { Ok(()) } else { Err(r.message) }
}

pub(crate) fn unzip_setup() -> Result<Run, String> {
    let mut fresh = Fresh::new(unzip_prepare)?;
    let max_file = limits().max_file_bytes;
    Ok(Box::new(move |input| {
        let env = fresh.get();
        let tree = env.tree();
        if let Ok(out) = vp("/out/unz") {
            let _ = tree.rm(&out);
        }
        if let Err(e) = put(env, "/inbox/in.zip", input) {
            return format!("put failed: {e}");
        }
        let r = env.call("run_script", json!({"path": "/scripts/unzip.js"}));
        let written = vp("/out/unz").ok().and_then(|p| tree.walk(&p).ok()).unwrap_or_default();
        for file in &written {
            let size = tree.stat(file).ok().flatten().map(|s| s.size).unwrap_or(0);
            assert!(size <= max_file, "{file} holds {size} bytes, over the {max_file}-byte file limit");
        }
        format!("{:?} {} files:{}", r.status, gist(&r.message, 4), bucket(written.len()))
    }))
}

#[cfg(test)]
mod tests {
    use super::find_all;

    #[test]
    fn find_all_counts_like_str_matches() {
        for (hay, needle) in [("aaaa", "aa"), ("abcabc", "bc"), ("", "a"), ("abc", "abcd"), ("xyx", "x")] {
            assert_eq!(
                find_all(hay.as_bytes(), needle.as_bytes()).len(),
                hay.matches(needle).count(),
                "{hay} {needle}"
            );
        }
    }
}
