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
        // serde_json's default map is ordered by key, so equal arguments serialise equally.
        let key = format!("{verb}\u{1}{args}\u{1}{blurred}");
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
