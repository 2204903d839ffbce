//! Escalation of repeated identical failures. An agent that resends a failing call unchanged is
//! stuck; the second identical failure says so, and the third tells it to stop and look around.
//! The key is the verb, its arguments (keys sorted) and the error with digits blurred, so the
//! same mistake with a different timestamp or count still counts as the same.

use std::collections::VecDeque;

const KEYS: usize = 256;

/// Counts identical failures per call (most recent 256 keys).
#[derive(Default)]
pub struct RepeatTracker {
    seen: VecDeque<(String, u32)>,
}

impl RepeatTracker {
    /// Records a failure and returns the message to show.
    pub fn fail(&mut self, verb: &str, args: &serde_json::Value, message: &str) -> String {
        let mut blurred = String::new();
        let mut last_digit = false;
        for c in message.split_whitespace().collect::<Vec<_>>().join(" ").chars() {
            if c.is_ascii_digit() {
                if !last_digit {
                    blurred.push('#');
                }
                last_digit = true;
            } else {
                blurred.push(c);
                last_digit = false;
            }
        }
        // Objects keep the order their keys were sent in (serde_json's `preserve_order`), so the
        // key writes them canonically: the same arguments in another order are the same call.
        let mut canonical = String::new();
        write_canonical(args, &mut canonical);
        let key = format!("{verb}\u{1}{canonical}\u{1}{blurred}");
        let count = match self.seen.iter().position(|(k, _)| *k == key) {
            Some(at) => {
                let (k, n) = self.seen.remove(at).unwrap_or((key, 0));
                self.seen.push_back((k, n + 1));
                n + 1
            }
            None => {
                self.seen.push_back((key, 1));
                if self.seen.len() > KEYS {
                    self.seen.pop_front();
                }
                1
            }
        };
        match count {
            1 => message.to_owned(),
            2 => format!(
                "{message}\n\nSecond time this exact call returned this exact error — sending it again will not change the answer. Change the arguments, or use a different verb."
            ),
            n => format!(
                "STOP: this call has failed {n} times with the same error and will keep failing. Do not send it again. Check what actually exists with ls or read_file, then do something different.\n\nThe unchanged error was:\n{message}"
            ),
        }
    }
}

/// Writes `value` as JSON with every object's keys sorted, at every depth.
fn write_canonical(value: &serde_json::Value, out: &mut String) {
    match value {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::Value::String(key.clone()).to_string());
                out.push(':');
                if let Some(v) = map.get(key) {
                    write_canonical(v, out);
                }
            }
            out.push('}');
        }
        serde_json::Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::RepeatTracker;
    use serde_json::json;

    /// The same arguments sent with their keys in another order are the same call; different
    /// arguments are not.
    #[test]
    fn key_order_does_not_make_a_new_call() {
        let mut t = RepeatTracker::default();
        let first = t.fail("read_file", &json!({ "path": "/in/a", "opts": { "x": 1, "y": 2 } }), "no such file");
        assert_eq!(first, "no such file");
        let second = t.fail("read_file", &json!({ "opts": { "y": 2, "x": 1 }, "path": "/in/a" }), "no such file");
        assert!(second.contains("Second time"), "{second}");
        let other = t.fail("read_file", &json!({ "path": "/in/b" }), "no such file");
        assert_eq!(other, "no such file");
    }
}
