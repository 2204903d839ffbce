//! The tool set the agent sees, and the wrapper every call goes through: argument parsing against
//! the schema generated from the Rust argument type, dispatch, repeat escalation, the backstop
//! cap, and telemetry with a *measured* `mutated` flag (the gateway's mutation counter moved).

use std::time::Instant;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use folio_script::CancelToken;

use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::host::VerbEvent;
use crate::verbs::{self, Reply};

/// One tool as the model sees it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToolDef {
    /// The verb's name.
    pub name: &'static str,
    /// What it does, for the model.
    pub description: &'static str,
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
#[derive(Debug, Clone, serde::Serialize)]
pub struct ToolResult {
    /// Success or error.
    pub status: Status,
    /// The text for the model.
    pub message: String,
    /// Structured data (`describe`'s summary, `ask_user`'s answer, …), or null.
    pub data: Value,
}

fn schema<T: JsonSchema>() -> Value {
    let mut value = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null);
    if let Some(obj) = value.as_object_mut() {
        obj.remove("$schema");
        obj.remove("title");
        obj.entry("properties").or_insert_with(|| json!({}));
        obj.entry("required").or_insert_with(|| json!([]));
        obj.insert("additionalProperties".to_owned(), Value::Bool(false));
    }
    value
}

/// Parses a verb's arguments; a mismatch names the expected shape.
fn parse<T: DeserializeOwned + JsonSchema>(verb: &str, args: Value) -> Result<T> {
    let args = if args.is_null() { json!({}) } else { args };
    serde_json::from_value(args).map_err(|err| {
        let schema = schema::<T>();
        let required: Vec<&str> =
            schema["required"].as_array().map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        let optional = schema["properties"]
            .as_object()
            .map(|p| p.keys().filter(|k| !required.contains(&k.as_str())).map(|k| format!("{k}?")).collect::<Vec<_>>());
        let fields: Vec<String> =
            required.iter().map(|r| (*r).to_owned()).chain(optional.unwrap_or_default()).collect();
        EnvError::args(
            verb,
            format!("the arguments do not fit ({err}) — call it as {verb} {{ {} }}", fields.join(", ")),
        )
    })
}

impl Environment {
    /// The tools this environment offers, in a stable order. Host-gated verbs appear only when
    /// their seam is wired.
    pub fn tools(&self) -> Vec<ToolDef> {
        let mut out = vec![
            ToolDef {
                name: "write_file",
                description: verbs::write::WRITE_DOC,
                schema: schema::<verbs::write::WriteArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "edit_file",
                description: verbs::write::EDIT_DOC,
                schema: schema::<verbs::write::EditArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "rm",
                description: verbs::remove::RM_DOC,
                schema: schema::<verbs::remove::RmArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "mv",
                description: verbs::remove::MV_DOC,
                schema: schema::<verbs::remove::TransferArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "cp",
                description: verbs::remove::CP_DOC,
                schema: schema::<verbs::remove::TransferArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "read_file",
                description: verbs::read::READ_DOC,
                schema: schema::<verbs::read::ReadArgs>(),
                mutates: false,
            },
            ToolDef {
                name: "ls",
                description: verbs::ls::LS_DOC,
                schema: schema::<verbs::ls::LsArgs>(),
                mutates: false,
            },
            ToolDef {
                name: "grep",
                description: verbs::grep::GREP_DOC,
                schema: schema::<verbs::grep::GrepArgs>(),
                mutates: false,
            },
            ToolDef {
                name: "describe",
                description: verbs::describe::DESCRIBE_DOC,
                schema: schema::<verbs::describe::DescribeArgs>(),
                mutates: false,
            },
        ];
        if self.scripts.is_some() {
            out.push(ToolDef {
                name: "run_script",
                description: verbs::run::RUN_DOC,
                schema: schema::<verbs::run::RunArgs>(),
                mutates: true,
            });
            out.push(ToolDef {
                name: "run_tests",
                description: verbs::run::TESTS_DOC,
                schema: schema::<verbs::run::TestsArgs>(),
                mutates: true,
            });
        }
        out.extend([
            ToolDef {
                name: "undo",
                description: verbs::history::UNDO_DOC,
                schema: schema::<verbs::history::StepArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "redo",
                description: verbs::history::REDO_DOC,
                schema: schema::<verbs::history::StepArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "checkpoint",
                description: verbs::checkpoint::CHECKPOINT_DOC,
                schema: schema::<verbs::checkpoint::CheckpointArgs>(),
                mutates: true,
            },
            ToolDef {
                name: "diff",
                description: verbs::diff::DIFF_DOC,
                schema: schema::<verbs::diff::DiffArgs>(),
                mutates: false,
            },
            ToolDef {
                name: "history",
                description: verbs::history::HISTORY_DOC,
                schema: schema::<verbs::history::HistoryArgs>(),
                mutates: false,
            },
        ]);
        if self.opts.vision.is_some() {
            out.push(ToolDef {
                name: "view_image",
                description: verbs::view::VIEW_DOC,
                schema: schema::<verbs::view::ViewArgs>(),
                mutates: false,
            });
        }
        if self.opts.presenter.is_some() {
            out.push(ToolDef {
                name: "present",
                description: verbs::host::PRESENT_DOC,
                schema: schema::<verbs::host::PresentArgs>(),
                mutates: false,
            });
        }
        if self.opts.asker.is_some() {
            out.push(ToolDef {
                name: "ask_user",
                description: verbs::host::ASK_DOC,
                schema: schema::<verbs::host::AskArgs>(),
                mutates: false,
            });
        }
        out
    }

    fn dispatch(&self, name: &str, args: Value, cancel: Option<&CancelToken>) -> Result<Reply> {
        match name {
            "write_file" => verbs::write::write_file(self, parse(name, args)?),
            "edit_file" => verbs::write::edit_file(self, parse(name, args)?),
            "rm" => verbs::remove::rm(self, parse(name, args)?),
            "mv" => verbs::remove::transfer(self, parse(name, args)?, true),
            "cp" => verbs::remove::transfer(self, parse(name, args)?, false),
            "read_file" => verbs::read::read_file(self, parse(name, args)?),
            "ls" => verbs::ls::ls(self, parse(name, args)?),
            "grep" => verbs::grep::grep(self, parse(name, args)?),
            "describe" => verbs::describe::describe(self, parse(name, args)?),
            "undo" => verbs::history::step(self, parse(name, args)?, crate::versions::Side::Undo),
            "redo" => verbs::history::step(self, parse(name, args)?, crate::versions::Side::Redo),
            "history" => verbs::history::history(self, parse(name, args)?),
            "checkpoint" => verbs::checkpoint::checkpoint(self, parse(name, args)?),
            "diff" => verbs::diff::diff(self, parse(name, args)?),
            "run_script" | "run_tests" if self.scripts.is_some() => verbs::run::run(self, name, args, cancel),
            "view_image" if self.opts.vision.is_some() => verbs::view::view_image(self, parse(name, args)?),
            "present" if self.opts.presenter.is_some() => verbs::host::present(self, parse(name, args)?),
            "ask_user" if self.opts.asker.is_some() => verbs::host::ask_user(self, parse(name, args)?),
            other => {
                let names: Vec<&str> = self.tools().iter().map(|t| t.name).collect();
                Err(EnvError::refused(format!(
                    "there is no verb named \"{other}\" here — the verbs are: {}",
                    names.join(", ")
                )))
            }
        }
    }

    /// Calls the verb `name` with JSON `args`: the one entry point for agent loops and the JSONL
    /// driver. Never panics and never returns a Rust error — failures are `Status::Error` results.
    pub fn call(&self, name: &str, args: Value) -> ToolResult {
        self.call_inner(name, args, None)
    }

    /// [`Environment::call`] with a cancellation token: cancelling `cancel` (from any thread)
    /// stops a `run_script` or `run_tests` this call started — within the engine's interrupt
    /// interval while the script computes, at once while it awaits the host — and the call
    /// returns an error saying the host cancelled it. Other verbs finish normally. This is the
    /// agent loop's Stop: call verbs on a blocking thread with a token, cancel it from the loop.
    /// See also [`Environment::cancel_runs`], which stops every run in flight.
    pub fn call_with_cancel(&self, name: &str, args: Value, cancel: &CancelToken) -> ToolResult {
        self.call_inner(name, args, Some(cancel))
    }

    fn call_inner(&self, name: &str, args: Value, cancel: Option<&CancelToken>) -> ToolResult {
        let started = Instant::now();
        let before = self.gateway.counters().mutations;
        let outcome = self.dispatch(name, args.clone(), cancel);
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
                    EnvError::Run { full, .. } => Value::String(full.clone()),
                    _ => Value::Null,
                };
                let mut message =
                    self.repeat.lock().unwrap_or_else(|p| p.into_inner()).fail(name, &args, &err.to_string());
                let budget = (limits.max_tool_response_bytes / 2).max(1000);
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
