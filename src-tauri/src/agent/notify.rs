//! From the loop's events to the transcript's notifications. The same [`Mapper`] serves a live
//! turn and the replay of a stored one, so a conversation reopened after a restart looks exactly as
//! it did while it ran.

use std::collections::HashMap;

use folio_agent::{AgentEvent, FinishReason, ToolCallStatus};
use serde_json::Value;

use crate::api::{ConversationNotification as N, JobProgressNotice, MissingCapability, ToolStatus, TurnEnd, VerbClass};

/// The longest one-line argument summary.
const SUMMARY_CHARS: usize = 90;

/// The class of a verb, which tints its row.
pub fn verb_class(name: &str) -> VerbClass {
    match name {
        "write_file" | "edit_file" | "rm" | "mv" | "cp" | "undo" | "redo" | "checkpoint" | "mkdir" => VerbClass::Write,
        "run_script" | "run_tests" => VerbClass::Run,
        "present" => VerbClass::Present,
        "ask_user" => VerbClass::Ask,
        _ => VerbClass::Read,
    }
}

fn shorten(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    if line.chars().count() > SUMMARY_CHARS {
        format!("{}…", line.chars().take(SUMMARY_CHARS).collect::<String>())
    } else {
        line.to_owned()
    }
}

/// A call's arguments in one line: the path (and destination) first, then what the verb is about.
pub fn summary(name: &str, input: &Value) -> String {
    let field = |key: &str| input.get(key).and_then(Value::as_str).map(str::to_owned);
    let path = field("path").or_else(|| field("script")).or_else(|| field("from"));
    let line = match (name, path) {
        ("mv" | "cp", _) => match (field("from"), field("to")) {
            (Some(from), Some(to)) => format!("{from} → {to}"),
            _ => String::new(),
        },
        ("grep", path) => {
            let pattern = field("pattern").unwrap_or_default();
            match path {
                Some(p) => format!("{pattern} in {p}"),
                None => pattern,
            }
        }
        ("ask_user", _) => field("question").unwrap_or_default(),
        ("present", Some(path)) => match field("caption") {
            Some(caption) if !caption.is_empty() => format!("{path} — {caption}"),
            _ => path,
        },
        ("run_script" | "run_tests", Some(path)) => match input.get("args") {
            Some(args) if !args.is_null() && args.as_object().is_none_or(|o| !o.is_empty()) => {
                format!("{path} {args}")
            }
            _ => path,
        },
        (_, Some(path)) => path,
        (_, None) => match input {
            Value::Object(map) if map.is_empty() => String::new(),
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => format!("{k}: {s}"),
                    other => format!("{k}: {other}"),
                })
                .collect::<Vec<_>>()
                .join(", "),
            Value::Null => String::new(),
            other => other.to_string(),
        },
    };
    shorten(&line)
}

/// The capability a failure names as missing on this machine, if any. The rendering layer's
/// errors say "PDFium is not available", "needs LibreOffice … none was found", and so on.
pub fn missing_capability(text: &str) -> Option<MissingCapability> {
    let lower = text.to_lowercase();
    let absent = ["not available", "none was found", "not found", "is missing", "not installed", "not loadable"];
    if !absent.iter().any(|a| lower.contains(a)) {
        return None;
    }
    [
        ("pdfium", MissingCapability::Pdfium),
        ("libreoffice", MissingCapability::Libreoffice),
        ("soffice", MissingCapability::Libreoffice),
        ("chromium", MissingCapability::Chromium),
        ("chrome", MissingCapability::Chromium),
        ("ffmpeg", MissingCapability::Ffmpeg),
    ]
    .into_iter()
    .find(|(needle, _)| lower.contains(needle))
    .map(|(_, capability)| capability)
}

fn clamp(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Turns events into notifications, remembering each tool call's name and argument fragments so
/// its finished row carries the arguments and their summary.
#[derive(Debug, Default)]
pub struct Mapper {
    calls: HashMap<String, (String, String)>,
}

impl Mapper {
    /// The notification for one event (`None` for events the transcript does not show).
    pub fn map(&mut self, event: &AgentEvent) -> Option<N> {
        Some(match event {
            AgentEvent::TurnStarted { turn } => N::ModelCall { turn: *turn },
            AgentEvent::TextDelta { text } => N::Text { text: text.clone() },
            AgentEvent::ToolCallStarted { id, name } => {
                self.calls.insert(id.clone(), (name.clone(), String::new()));
                N::ToolStarted { id: id.clone(), name: name.clone(), class: verb_class(name) }
            }
            AgentEvent::ToolInputDelta { id, fragment } => {
                if let Some((_, json)) = self.calls.get_mut(id) {
                    json.push_str(fragment);
                }
                N::ToolInput { id: id.clone(), fragment: fragment.clone() }
            }
            AgentEvent::ToolCallFinished { id, name, status, output, duration_ms } => {
                let json = self.calls.remove(id).map(|(_, json)| json).unwrap_or_default();
                let input = if json.trim().is_empty() {
                    Value::Object(Default::default())
                } else {
                    serde_json::from_str(&json).unwrap_or(Value::String(json))
                };
                let status = match status {
                    ToolCallStatus::Success => ToolStatus::Success,
                    ToolCallStatus::Aborted => ToolStatus::Aborted,
                    ToolCallStatus::Error => ToolStatus::Error,
                };
                let missing = if status == ToolStatus::Error { missing_capability(output) } else { None };
                N::ToolFinished {
                    id: id.clone(),
                    name: name.clone(),
                    class: verb_class(name),
                    status,
                    summary: summary(name, &input),
                    input,
                    output: output.clone(),
                    duration_ms: clamp(*duration_ms),
                    missing,
                }
            }
            AgentEvent::ScriptProgress { script, stream, text, job, .. } => N::ToolProgress {
                script: script.clone(),
                is_error: stream == "stderr",
                text: text.clone(),
                job: job.as_ref().map(JobProgressNotice::from),
            },
            AgentEvent::Presented { path, name, media_type, size, caption } => N::Presented {
                path: path.clone(),
                name: name.clone(),
                media_type: media_type.clone(),
                size: *size,
                caption: caption.clone(),
            },
            AgentEvent::Ask { id, question, options } => {
                N::Ask { id: *id, question: question.clone(), options: options.clone() }
            }
            AgentEvent::OverlayChanged { pending } => N::Pending { count: clamp(*pending as u64) },
            AgentEvent::Retrying { attempt, delay_ms, reason } => {
                N::Retrying { attempt: *attempt, delay_ms: clamp(*delay_ms), reason: reason.clone() }
            }
            AgentEvent::Usage { usage, context_window, cost_usd } => N::Usage {
                input_tokens: clamp(usage.prompt_tokens()),
                output_tokens: clamp(usage.output_tokens),
                context_window: clamp(*context_window),
                cost_usd: *cost_usd,
            },
            AgentEvent::Compacted { messages, .. } => N::Compacted { messages: clamp(*messages as u64) },
            AgentEvent::MaxTurns { turns } => N::MaxTurns { turns: *turns },
            AgentEvent::Finished { reason } => N::Finished { end: turn_end(*reason) },
            AgentEvent::Error { message } => {
                N::Error { message: message.clone(), missing: missing_capability(message) }
            }
            AgentEvent::ModelRequest { entry } => N::ModelRequest { request: super::egress::sent(entry) },
        })
    }

    /// The notification for one stored event: the person's requests are stored as
    /// `{"type": "user", "text": …}`, everything else as the loop's events. Events this version
    /// cannot read are skipped rather than failing the whole replay.
    pub fn replay(&mut self, stored: &Value) -> Option<N> {
        if stored.get("type").and_then(Value::as_str) == Some("user") {
            return Some(N::User { text: stored.get("text").and_then(Value::as_str).unwrap_or_default().to_owned() });
        }
        let event: AgentEvent = serde_json::from_value(stored.clone()).ok()?;
        self.map(&event)
    }
}

/// The UI's name for how the loop ended.
pub fn turn_end(reason: FinishReason) -> TurnEnd {
    match reason {
        FinishReason::Done => TurnEnd::Done,
        FinishReason::Cancelled => TurnEnd::Stopped,
        FinishReason::MaxTurns => TurnEnd::MaxTurns,
    }
}

#[cfg(test)]
#[path = "notify_tests.rs"]
mod tests;
