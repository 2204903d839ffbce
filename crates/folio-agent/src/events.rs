//! The typed event stream of a turn, for the UI and for `--json` transcripts.

use serde::{Deserialize, Serialize};

use crate::message::Usage;

/// How one tool call ended. Serialised as `success`, `error` or `aborted`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallStatus {
    /// The tool did what was asked.
    Success,
    /// The tool refused or failed; its output says why, and the model sees it.
    Error,
    /// The person stopped the turn before the call finished.
    Aborted,
}

impl ToolCallStatus {
    /// The wire name (`success`, `error`, `aborted`).
    pub fn name(self) -> &'static str {
        match self {
            ToolCallStatus::Success => "success",
            ToolCallStatus::Error => "error",
            ToolCallStatus::Aborted => "aborted",
        }
    }
}

/// How a run of the loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// The model answered without asking for tools.
    Done,
    /// The person pressed Stop.
    Cancelled,
    /// The turn limit was reached; calling the loop again without a message continues.
    MaxTurns,
}

/// Everything the loop reports while it works.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AgentEvent {
    /// A model call is starting (1-based within this run).
    TurnStarted {
        /// Which call.
        turn: u32,
    },
    /// More reply text.
    TextDelta {
        /// The text.
        text: String,
    },
    /// The model began a tool call.
    ToolCallStarted {
        /// Call id.
        id: String,
        /// Tool name.
        name: String,
    },
    /// More of a tool call's arguments as the model writes them (a script filling in).
    ToolInputDelta {
        /// Call id.
        id: String,
        /// The fragment.
        fragment: String,
    },
    /// A tool call finished.
    ToolCallFinished {
        /// Call id.
        id: String,
        /// Tool name.
        name: String,
        /// How it ended (`success`, `error` or `aborted` on the wire).
        status: ToolCallStatus,
        /// What the model is sent back.
        output: String,
        /// Wall time of the call.
        duration_ms: u64,
    },
    /// Console output of a running script, as it is printed.
    ScriptProgress {
        /// The run.
        run_id: String,
        /// The script's path.
        script: String,
        /// `stdout` or `stderr`.
        stream: String,
        /// The line.
        text: String,
        /// Set when the line is a long job's progress (`text` is then its human line): a view
        /// replaces the job's previous line with it instead of appending it to the console.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        job: Option<folio_budget::JobProgress>,
    },
    /// The agent handed a finished file over.
    Presented {
        /// VFS path (under `/out`).
        path: String,
        /// File name.
        name: String,
        /// Media type, which decides the preview.
        media_type: String,
        /// Bytes.
        size: u64,
        /// The agent's caption.
        caption: String,
    },
    /// The agent asked the person something; answer with [`crate::HostEvents::answer`].
    Ask {
        /// Identifies the question when answering.
        id: u64,
        /// The question, self-contained.
        question: String,
        /// Named choices, when the answer is one of them (free text is always allowed).
        options: Vec<String>,
    },
    /// The pending changes of the folder changed.
    OverlayChanged {
        /// How many changes are pending now.
        pending: usize,
    },
    /// The provider is being retried.
    Retrying {
        /// The attempt about to be made.
        attempt: u32,
        /// Wait before it.
        delay_ms: u64,
        /// Why.
        reason: String,
    },
    /// Token counts of the last model call.
    Usage {
        /// The counts.
        usage: Usage,
        /// The model's context window.
        context_window: u64,
        /// Cost of the call in USD, when the model's prices are known.
        cost_usd: Option<f64>,
    },
    /// Earlier history was summarised to stay within the context window.
    Compacted {
        /// Messages summarised.
        messages: usize,
        /// Prompt tokens that triggered it.
        prompt_tokens: u64,
    },
    /// The turn limit was reached.
    MaxTurns {
        /// The limit.
        turns: u32,
    },
    /// The run ended.
    Finished {
        /// How.
        reason: FinishReason,
    },
    /// A model request was sent (one per attempt): what it carried, for the egress ledger.
    ModelRequest {
        /// The entry.
        entry: Box<crate::ledger::LedgerEntry>,
    },
    /// The run failed.
    Error {
        /// What happened, with the fix.
        message: String,
    },
}
