//! The JSONL driver behind `folio verbs`: one call per input line, one result per output line.
//!
//! Input lines are `{"verb": NAME, "args": {…}}` (blank lines are skipped). Each produces
//! `{"verb", "status": "success"|"error", "message", "data"}`; a line that is not valid JSON or
//! has no `verb` produces an error line naming the expected shape, and the driver carries on.
//! After a successful `present`, a `{"event": "presented", "path", "name", "media_type", "size",
//! "caption"}` line follows.

use std::io::{self, BufRead, Write};

use serde_json::{Value, json};

use crate::env::Environment;

/// Runs every line of `input` against `env`, writing results to `output`.
pub fn run_jsonl(env: &Environment, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Option<(String, Value)> = serde_json::from_str::<Value>(&line)
            .ok()
            .and_then(|v| Some((v.get("verb")?.as_str()?.to_owned(), v.get("args").cloned().unwrap_or(Value::Null))));
        let Some((verb, args)) = parsed else {
            let message = format!(
                "could not read this line as a call: {} — each line must be a JSON object like {{\"verb\": \"ls\", \"args\": {{\"path\": \"/\"}}}}",
                line.chars().take(200).collect::<String>()
            );
            writeln!(
                output,
                "{}",
                json!({"verb": Value::Null, "status": "error", "message": message, "data": Value::Null})
            )?;
            continue;
        };
        let result = env.call(&verb, args);
        writeln!(
            output,
            "{}",
            json!({"verb": verb, "status": result.status, "message": result.message, "data": result.data})
        )?;
        for item in env.take_presented() {
            writeln!(
                output,
                "{}",
                json!({"event": "presented", "path": item.path, "name": item.name, "media_type": item.media_type, "size": item.size, "caption": item.caption})
            )?;
        }
        output.flush()?;
    }
    Ok(())
}
