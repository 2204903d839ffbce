//! The payloads of the conversation (transcript, composer, questions, Stop), the Settings dialog
//! and the Doctor view.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::JobProgressNotice;

/// A provider Folio knows by name, for the Settings dialog.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProviderPreset {
    /// The name (`anthropic`, `openai`, …).
    pub name: String,
    /// The model used when none is chosen; empty for local servers, where one must be.
    pub default_model: String,
    /// The default endpoint.
    pub base_url: String,
    /// The environment variable that can hold its key; `None` for keyless local servers.
    pub key_env: Option<String>,
}

/// The provider names the settings hold.
pub use folio_workspace::ProviderName;
/// The agent's settings, as saved and as the dialog shows them: folio-workspace's typed
/// [`folio_workspace::Settings`] (the provider an enum, the budget's bounds checked there), its
/// TypeScript type generated under this name.
pub use folio_workspace::Settings as AgentSettings;
/// The script run budget when none was saved, and its bounds (folio-workspace's).
pub use folio_workspace::{DEFAULT_SCRIPT_BUDGET_MS, SCRIPT_BUDGET_MAX_MS, SCRIPT_BUDGET_MIN_MS};

/// Where the provider's key is, for the Settings dialog (never the key itself).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeyStatus {
    /// True when a key was found.
    pub present: bool,
    /// Where it was found (the keychain, the key file, an environment variable).
    pub source: Option<String>,
    /// Why the keychain was not used, when it was not.
    pub notice: Option<String>,
}

/// The Settings dialog's content.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsGetResponse {
    /// The saved settings.
    pub settings: AgentSettings,
    /// Every named provider.
    pub presets: Vec<ProviderPreset>,
    /// The saved provider's key.
    pub key: KeyStatus,
}

/// Saves the settings and, when given, the API key.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SettingsSaveParams {
    /// The settings.
    pub settings: AgentSettings,
    /// A new key for the provider (`None` keeps the saved one; empty removes it).
    pub api_key: Option<String>,
}

/// Tests a connection with the dialog's values, saved or not.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionTestParams {
    /// The settings to test.
    pub settings: AgentSettings,
    /// A key typed but not saved yet (`None`: the saved key).
    pub api_key: Option<String>,
}

/// How a connection test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ConnectionOutcomeName {
    /// The model answered.
    Ok,
    /// The key was refused.
    Unauthorised,
    /// The endpoint or model does not exist there.
    NotFound,
    /// Nothing answered at the base URL.
    Unreachable,
    /// The provider is rate-limiting the key.
    RateLimited,
    /// Anything else, including settings that are not complete.
    Failed,
}

/// The outcome of a connection test.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionTestResponse {
    /// How it ended.
    pub outcome: ConnectionOutcomeName,
    /// The model asked.
    pub model: String,
    /// Wall time of the request.
    pub latency_ms: u32,
    /// One line: what happened and, unless it worked, the fix.
    pub message: String,
}

/// One conversation of the open folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationSummary {
    /// Its id.
    pub id: String,
    /// Its first request, shortened.
    pub title: String,
    /// Seconds since the epoch of its last change.
    #[ts(type = "number")]
    pub updated_at: i64,
}

/// The conversations of the open folder, most recent first.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationListResponse {
    /// The conversations.
    pub conversations: Vec<ConversationSummary>,
}

/// Opens a stored conversation to replay its transcript.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationOpenParams {
    /// Its id.
    pub id: String,
}

/// A stored conversation, replayed.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationOpenResponse {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The transcript, as the notifications that built it.
    pub items: Vec<ConversationNotification>,
    /// True while a turn of it is running (its questions can still be answered).
    pub running: bool,
}

/// Sends a request (or continues after the turn limit or a Stop).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationSendParams {
    /// The conversation to continue; `None` starts a new one.
    pub conversation_id: Option<String>,
    /// The request; `None` continues where the last turn stopped.
    pub text: Option<String>,
}

/// How a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum TurnEnd {
    /// The agent answered.
    Done,
    /// The person pressed Stop.
    Stopped,
    /// The run budget was spent; Continue resumes.
    MaxTurns,
    /// The turn failed (the transcript holds the error).
    Failed,
}

/// A turn that ended.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationSendResponse {
    /// The conversation (new or continued).
    pub conversation_id: String,
    /// How the turn ended.
    pub end: TurnEnd,
}

/// Stops the running turn of a conversation.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationStopParams {
    /// The conversation.
    pub conversation_id: String,
}

/// Whether there was a turn to stop.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationStopResponse {
    /// True when a running turn was told to stop.
    pub stopped: bool,
}

/// Answers the agent's question.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversationAnswerParams {
    /// The question's id (from the `ask` notification).
    #[ts(type = "number")]
    pub question_id: u64,
    /// The answer: an option's text or free text; `None` declines.
    pub answer: Option<String>,
}

/// What kind of work a tool call does, which tints its row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum VerbClass {
    /// Looks without changing anything.
    Read,
    /// Changes files (pending until commit).
    Write,
    /// Runs a script.
    Run,
    /// Hands a file over.
    Present,
    /// Asks the person.
    Ask,
}

/// How a tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ToolStatus {
    /// It worked.
    Success,
    /// It failed (the output says why and holds the data).
    Error,
    /// Stop ended it.
    Aborted,
}

/// A capability this machine lacks that a tool call needed, for the banner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum MissingCapability {
    /// PDFium, which renders PDFs.
    Pdfium,
    /// LibreOffice, which renders Office files.
    Libreoffice,
    /// Chromium, which renders HTML.
    Chromium,
    /// ffmpeg, which converts media.
    Ffmpeg,
}

/// One step of a turn, streamed to the transcript as it happens (and replayed from the store).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ConversationNotification {
    /// The turn belongs to this conversation (sent first, also for a new one).
    Started {
        /// The conversation.
        conversation_id: String,
        /// Its title.
        title: String,
    },
    /// The person's request.
    User {
        /// What they typed.
        text: String,
    },
    /// A model call starts (1-based within the turn).
    ModelCall {
        /// Which call.
        turn: u32,
    },
    /// More reply text (markdown).
    Text {
        /// The text.
        text: String,
    },
    /// The model began a tool call.
    ToolStarted {
        /// Call id.
        id: String,
        /// The verb.
        name: String,
        /// Its class.
        class: VerbClass,
    },
    /// More of a tool call's arguments, as the model writes them (a script filling in).
    ToolInput {
        /// Call id.
        id: String,
        /// The fragment of JSON.
        fragment: String,
    },
    /// A line a running script printed, or its long job's progress.
    ToolProgress {
        /// The script.
        script: String,
        /// True for stderr.
        is_error: bool,
        /// The line.
        text: String,
        /// Set when the line is a long job's progress: it replaces the call's progress bar
        /// instead of joining its console lines.
        job: Option<JobProgressNotice>,
    },
    /// A tool call finished.
    ToolFinished {
        /// Call id.
        id: String,
        /// The verb.
        name: String,
        /// Its class.
        class: VerbClass,
        /// How it ended.
        status: ToolStatus,
        /// Its arguments.
        #[ts(type = "unknown")]
        input: serde_json::Value,
        /// The arguments in one line.
        summary: String,
        /// What the model got back (message and data).
        output: String,
        /// Wall time.
        duration_ms: u32,
        /// A capability this machine lacks, when that is why it failed.
        missing: Option<MissingCapability>,
    },
    /// The agent handed a file over.
    Presented {
        /// The agent's path.
        path: String,
        /// The file name.
        name: String,
        /// Its media type.
        media_type: String,
        /// Bytes.
        #[ts(type = "number")]
        size: u64,
        /// The agent's caption.
        caption: String,
    },
    /// The agent asks the person; answer with `conversation_answer`.
    Ask {
        /// The question's id.
        #[ts(type = "number")]
        id: u64,
        /// The question.
        question: String,
        /// Choices (free text is always allowed).
        options: Vec<String>,
    },
    /// How many changes are pending now.
    Pending {
        /// The count.
        count: u32,
    },
    /// The provider is being retried.
    Retrying {
        /// The attempt about to be made.
        attempt: u32,
        /// Wait before it.
        delay_ms: u32,
        /// Why.
        reason: String,
    },
    /// Tokens and cost of the last model call.
    Usage {
        /// Prompt tokens (cached included).
        input_tokens: u32,
        /// Generated tokens.
        output_tokens: u32,
        /// The model's context window.
        context_window: u32,
        /// Cost in USD, when the model's prices are known.
        cost_usd: Option<f64>,
    },
    /// Earlier history was summarised to fit the context window.
    Compacted {
        /// Messages summarised.
        messages: u32,
    },
    /// The run budget was spent; Continue resumes.
    MaxTurns {
        /// The budget.
        turns: u32,
    },
    /// The turn ended.
    Finished {
        /// How.
        end: TurnEnd,
    },
    /// A model request left the machine (one per attempt, vision calls included): what it
    /// carried, for the turn's "What was sent" panel.
    ModelRequest {
        /// The ledger's entry, as the panel shows it.
        request: super::SentRequest,
    },
    /// The turn failed: what happened, and the fix.
    Error {
        /// The message.
        message: String,
        /// A capability this machine lacks, when that is why.
        missing: Option<MissingCapability>,
    },
}

/// One capability row of the Doctor view.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DoctorRow {
    /// `pdfium`, `libreoffice`, `chromium`, `ffmpeg`, `provider`.
    pub name: String,
    /// True when it works here.
    pub ok: bool,
    /// True when Folio is not ready without it.
    pub required: bool,
    /// What was found, or what is wrong.
    pub detail: String,
    /// The command that fixes it; empty when it works.
    pub fix: String,
}

/// The Doctor view.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DoctorGetResponse {
    /// One row per capability, the provider last.
    pub rows: Vec<DoctorRow>,
    /// True when every required capability works.
    pub ready: bool,
    /// What went wrong around the check itself (a torn or unwritable doctor cache), each with
    /// its fix; shown above the rows.
    pub warnings: Vec<String>,
}

/// Saves a presented file somewhere outside the folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HandoffSaveParams {
    /// The agent's path of the file.
    pub path: String,
    /// Where to write it (an absolute path outside the folder).
    pub destination: String,
}

/// A saved copy.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HandoffSaveResponse {
    /// Where it went.
    pub saved: String,
    /// Bytes written.
    #[ts(type = "number")]
    pub size: u64,
}

/// The TypeScript declarations of this module's payloads.
pub(crate) fn decls() -> Vec<String> {
    vec![
        ProviderPreset::decl(),
        AgentSettings::decl(),
        KeyStatus::decl(),
        SettingsGetResponse::decl(),
        SettingsSaveParams::decl(),
        ConnectionTestParams::decl(),
        ConnectionOutcomeName::decl(),
        ConnectionTestResponse::decl(),
        ConversationSummary::decl(),
        ConversationListResponse::decl(),
        ConversationOpenParams::decl(),
        ConversationOpenResponse::decl(),
        ConversationSendParams::decl(),
        TurnEnd::decl(),
        ConversationSendResponse::decl(),
        ConversationStopParams::decl(),
        ConversationStopResponse::decl(),
        ConversationAnswerParams::decl(),
        VerbClass::decl(),
        ToolStatus::decl(),
        MissingCapability::decl(),
        ConversationNotification::decl(),
        DoctorRow::decl(),
        DoctorGetResponse::decl(),
        HandoffSaveParams::decl(),
        HandoffSaveResponse::decl(),
    ]
}
