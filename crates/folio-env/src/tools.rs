//! The tool set the agent sees, and the wrapper every call goes through: the tool list and the
//! dispatch (both read from the verb table, `verbs::table`), repeat escalation, the backstop cap,
//! and telemetry with a *measured* `mutated` flag (the gateway's mutation counter moved).

use std::time::Instant;

use serde_json::Value;

use folio_script::CancelToken;

use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::provenance::RunOrigin;
use crate::seams::VerbEvent;
use crate::verbs::Reply;
use crate::verbs::args::Call;
use crate::verbs::table::{VERBS, VerbSpec, verb};

/// One tool as the model sees it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToolDef {
    /// The verb's name.
    pub name: &'static str,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of its arguments (`additionalProperties: false`).
    pub schema: Value,
    /// True when the verb can change the tree.
    pub mutates: bool,
}

/// Whether a call succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It did what was asked.
    Success,
    /// It refused or failed; `message` says why and what to do.
    Error,
}

/// The outcome of one call.
///
/// `message` is the whole of what the model reads, said once: a failed run's message is the
/// full formatted run (error, console output), a `describe` message is its JSON. `data` is the
/// same answer structured for hosts and tests and never goes to the model — an agent loop that
/// appended it would send every payload twice (a wide sheet's `describe` came to 32.7 KB that
/// way, against the 8 KB cap). [`ToolResult::model_text`] is the text to send.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToolResult {
    /// Success or error.
    pub status: Status,
    /// The text for the model, complete.
    pub message: String,
    /// Structured data for hosts (`describe`'s summary, `ask_user`'s answer, `view_image`'s
    /// attachment, a failed run's first error line), or null. Not for the model.
    pub data: Value,
}

impl ToolResult {
    /// What the model reads of this result: the message, and nothing else.
    pub fn model_text(&self) -> &str {
        &self.message
    }
}

impl Environment {
    /// The tools this environment offers, in the verb table's order. Host-gated verbs appear
    /// only when their seam is wired.
    pub fn tools(&self) -> Vec<ToolDef> {
        self.verbs()
            .map(|spec| ToolDef {
                name: spec.name,
                description: spec.description(self),
                schema: (spec.schema)(),
                mutates: spec.mutates,
            })
            .collect()
    }

    /// The host-gated verbs this environment does not offer (its seam is not wired), by name:
    /// no page of `/std` or `/skills` may tell the model to call them.
    pub fn verbs_not_offered(&self) -> Vec<&'static str> {
        VERBS.iter().filter(|spec| spec.needs.is_some() && !spec.offered(self)).map(|spec| spec.name).collect()
    }

    /// The rows of the verb table this environment offers, in table order.
    pub fn verbs(&self) -> impl Iterator<Item = &'static VerbSpec> + '_ {
        VERBS.iter().filter(|spec| spec.offered(self))
    }

    fn dispatch(&self, name: &str, args: Value, cancel: Option<&CancelToken>, origin: &RunOrigin) -> Result<Reply> {
        match verb(name).filter(|spec| spec.offered(self)) {
            Some(spec) => (spec.call)(self, Call { verb: spec.name, args, cancel, origin }),
            None => {
                let names: Vec<&str> = self.verbs().map(|s| s.name).collect();
                Err(EnvError::refused(format!(
                    "there is no verb named \"{name}\" here — the verbs are: {}",
                    names.join(", ")
                )))
            }
        }
    }

    /// Calls the verb `name` with JSON `args`: the one entry point for agent loops and the JSONL
    /// driver. Never panics and never returns a Rust error — failures are `Status::Error` results.
    pub fn call(&self, name: &str, args: Value) -> ToolResult {
        self.call_inner(name, args, None, &RunOrigin::Direct)
    }

    /// [`Environment::call`] with a cancellation token: cancelling `cancel` (from any thread)
    /// stops a `run_script` or `run_tests` this call started — within the engine's interrupt
    /// interval while the script computes, at once while it awaits the host — and the call
    /// returns an error saying the host cancelled it. Other verbs finish normally. This is the
    /// agent loop's Stop: call verbs on a blocking thread with a token, cancel it from the loop.
    /// See also [`Environment::cancel_runs`], which stops every run in flight.
    pub fn call_with_cancel(&self, name: &str, args: Value, cancel: &CancelToken) -> ToolResult {
        self.call_inner(name, args, Some(cancel), &RunOrigin::Direct)
    }

    /// [`Environment::call_with_cancel`] on behalf of `origin`: the agent loop passes the
    /// conversation, turn and model, so a script run's provenance records who asked for it
    /// (calls without it count as [`RunOrigin::Direct`], no model).
    pub fn call_as(&self, name: &str, args: Value, cancel: &CancelToken, origin: &RunOrigin) -> ToolResult {
        self.call_inner(name, args, Some(cancel), origin)
    }

    fn call_inner(&self, name: &str, args: Value, cancel: Option<&CancelToken>, origin: &RunOrigin) -> ToolResult {
        let started = Instant::now();
        let before = self.gateway.counters().mutations;
        let outcome = self.dispatch(name, args.clone(), cancel, origin);
        let limits = self.gateway.limits();
        let result = match outcome {
            Ok(reply) => {
                let budget = ((limits.max_tool_response_bytes as f64 * 1.5) as usize).max(1000);
                let text =
                    if reply.text.chars().count() > budget { self.spill(&reply.text, 1.5, "out") } else { reply.text };
                ToolResult { status: Status::Success, message: text, data: reply.data }
            }
            Err(err) => {
                let data = match &err {
                    EnvError::Run { short, .. } => serde_json::json!({ "error": short }),
                    _ => Value::Null,
                };
                let mut message =
                    self.repeat.lock().unwrap_or_else(|p| p.into_inner()).fail(name, &args, &err.to_string());
                // A failed run is keyed by its first error line (so repeats are recognised
                // whatever the console said) but told whole, once: the escalation quotes the
                // short line, which the full run replaces in place.
                if let EnvError::Run { short, full } = &err {
                    message = if short.is_empty() || !message.contains(short.as_str()) {
                        format!("{message}\n{full}")
                    } else {
                        message.replacen(short.as_str(), full, 1)
                    };
                }
                // A failed run's sections are already fitted and spilled like a success's.
                let share = if matches!(err, EnvError::Run { .. }) { 1.5 } else { 0.5 };
                let budget = ((limits.max_tool_response_bytes as f64 * share) as usize).max(1000);
                if message.chars().count() > budget {
                    let total = message.chars().count();
                    message = message.chars().take(budget).collect();
                    message.push_str(&format!(
                        "\n… [response truncated at {budget} of {total} chars (limits.max_tool_response_bytes)]"
                    ));
                }
                ToolResult { status: Status::Error, message, data }
            }
        };
        if let Some(on_verb) = &self.opts.on_verb {
            let event = VerbEvent {
                name: name.to_owned(),
                ok: result.status == Status::Success,
                duration_ms: started.elapsed().as_millis() as u64,
                mutated: self.gateway.counters().mutations > before,
            };
            // A broken telemetry sink must not fail the verb it watches.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| on_verb(&event)));
        }
        result
    }
}
