// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.
import type { JobProgressNotice } from "./core";
import type { SentRequest } from "./privacy";

export type ProviderPreset = { 
/**
 * The name (`anthropic`, `openai`, …).
 */
name: string, 
/**
 * The model used when none is chosen; empty for local servers, where one must be.
 */
defaultModel: string, 
/**
 * The default endpoint.
 */
baseUrl: string, 
/**
 * The environment variable that can hold its key; `None` for keyless local servers.
 */
keyEnv: string | null, };

export type AgentSettings = { 
/**
 * The provider's name (one of the presets').
 */
provider: string, 
/**
 * The model id; empty for the provider's default.
 */
model: string, 
/**
 * Another endpoint speaking the provider's API; empty for the provider's own.
 */
baseUrl: string, 
/**
 * How the agent sees images: empty (it does not), `main`, or `PROVIDER:MODEL`. Applies to
 * folders opened after it is saved.
 */
visionModel: string, 
/**
 * The run budget: model calls per request before the agent stops and offers Continue.
 */
maxTurns: number, 
/**
 * The script run budget: the wall-clock milliseconds one script run may take (the agent's
 * and the catalogue's alike), from 1 s to 60 min; 30 s when never saved. Applies to folders
 * opened after it is saved.
 */
scriptBudgetMs: number, };

export type KeyStatus = { 
/**
 * True when a key was found.
 */
present: boolean, 
/**
 * Where it was found (the keychain, the key file, an environment variable).
 */
source: string | null, 
/**
 * Why the keychain was not used, when it was not.
 */
notice: string | null, };

export type SettingsGetResponse = { 
/**
 * The saved settings.
 */
settings: AgentSettings, 
/**
 * Every named provider.
 */
presets: Array<ProviderPreset>, 
/**
 * The saved provider's key.
 */
key: KeyStatus, };

export type SettingsSaveParams = { 
/**
 * The settings.
 */
settings: AgentSettings, 
/**
 * A new key for the provider (`None` keeps the saved one; empty removes it).
 */
apiKey: string | null, };

export type ConnectionTestParams = { 
/**
 * The settings to test.
 */
settings: AgentSettings, 
/**
 * A key typed but not saved yet (`None`: the saved key).
 */
apiKey: string | null, };

export type ConnectionOutcomeName = "ok" | "unauthorised" | "notFound" | "unreachable" | "rateLimited" | "failed";

export type ConnectionTestResponse = { 
/**
 * How it ended.
 */
outcome: ConnectionOutcomeName, 
/**
 * The model asked.
 */
model: string, 
/**
 * Wall time of the request.
 */
latencyMs: number, 
/**
 * One line: what happened and, unless it worked, the fix.
 */
message: string, };

export type ConversationSummary = { 
/**
 * Its id.
 */
id: string, 
/**
 * Its first request, shortened.
 */
title: string, 
/**
 * Seconds since the epoch of its last change.
 */
updatedAt: number, };

export type ConversationListResponse = { 
/**
 * The conversations.
 */
conversations: Array<ConversationSummary>, };

export type ConversationOpenParams = { 
/**
 * Its id.
 */
id: string, };

export type ConversationOpenResponse = { 
/**
 * Its id.
 */
id: string, 
/**
 * Its title.
 */
title: string, 
/**
 * The transcript, as the notifications that built it.
 */
items: Array<ConversationNotification>, 
/**
 * True while a turn of it is running (its questions can still be answered).
 */
running: boolean, };

export type ConversationSendParams = { 
/**
 * The conversation to continue; `None` starts a new one.
 */
conversationId: string | null, 
/**
 * The request; `None` continues where the last turn stopped.
 */
text: string | null, };

export type TurnEnd = "done" | "stopped" | "maxTurns" | "failed";

export type ConversationSendResponse = { 
/**
 * The conversation (new or continued).
 */
conversationId: string, 
/**
 * How the turn ended.
 */
end: TurnEnd, };

export type ConversationStopParams = { 
/**
 * The conversation.
 */
conversationId: string, };

export type ConversationStopResponse = { 
/**
 * True when a running turn was told to stop.
 */
stopped: boolean, };

export type ConversationAnswerParams = { 
/**
 * The question's id (from the `ask` notification).
 */
questionId: number, 
/**
 * The answer: an option's text or free text; `None` declines.
 */
answer: string | null, };

export type VerbClass = "read" | "write" | "run" | "present" | "ask";

export type ToolStatus = "success" | "error" | "aborted";

export type MissingCapability = "pdfium" | "libreoffice" | "chromium" | "ffmpeg";

export type ConversationNotification = { "type": "started", 
/**
 * The conversation.
 */
conversationId: string, 
/**
 * Its title.
 */
title: string, } | { "type": "user", 
/**
 * What they typed.
 */
text: string, } | { "type": "modelCall", 
/**
 * Which call.
 */
turn: number, } | { "type": "text", 
/**
 * The text.
 */
text: string, } | { "type": "toolStarted", 
/**
 * Call id.
 */
id: string, 
/**
 * The verb.
 */
name: string, 
/**
 * Its class.
 */
class: VerbClass, } | { "type": "toolInput", 
/**
 * Call id.
 */
id: string, 
/**
 * The fragment of JSON.
 */
fragment: string, } | { "type": "toolProgress", 
/**
 * The script.
 */
script: string, 
/**
 * True for stderr.
 */
isError: boolean, 
/**
 * The line.
 */
text: string, 
/**
 * Set when the line is a long job's progress: it replaces the call's progress bar
 * instead of joining its console lines.
 */
job: JobProgressNotice | null, } | { "type": "toolFinished", 
/**
 * Call id.
 */
id: string, 
/**
 * The verb.
 */
name: string, 
/**
 * Its class.
 */
class: VerbClass, 
/**
 * How it ended.
 */
status: ToolStatus, 
/**
 * Its arguments.
 */
input: unknown, 
/**
 * The arguments in one line.
 */
summary: string, 
/**
 * What the model got back (message and data).
 */
output: string, 
/**
 * Wall time.
 */
durationMs: number, 
/**
 * A capability this machine lacks, when that is why it failed.
 */
missing: MissingCapability | null, } | { "type": "presented", 
/**
 * The agent's path.
 */
path: string, 
/**
 * The file name.
 */
name: string, 
/**
 * Its media type.
 */
mediaType: string, 
/**
 * Bytes.
 */
size: number, 
/**
 * The agent's caption.
 */
caption: string, } | { "type": "ask", 
/**
 * The question's id.
 */
id: number, 
/**
 * The question.
 */
question: string, 
/**
 * Choices (free text is always allowed).
 */
options: Array<string>, } | { "type": "pending", 
/**
 * The count.
 */
count: number, } | { "type": "retrying", 
/**
 * The attempt about to be made.
 */
attempt: number, 
/**
 * Wait before it.
 */
delayMs: number, 
/**
 * Why.
 */
reason: string, } | { "type": "usage", 
/**
 * Prompt tokens (cached included).
 */
inputTokens: number, 
/**
 * Generated tokens.
 */
outputTokens: number, 
/**
 * The model's context window.
 */
contextWindow: number, 
/**
 * Cost in USD, when the model's prices are known.
 */
costUsd: number | null, } | { "type": "compacted", 
/**
 * Messages summarised.
 */
messages: number, } | { "type": "maxTurns", 
/**
 * The budget.
 */
turns: number, } | { "type": "finished", 
/**
 * How.
 */
end: TurnEnd, } | { "type": "modelRequest", 
/**
 * The ledger's entry, as the panel shows it.
 */
request: SentRequest, } | { "type": "error", 
/**
 * The message.
 */
message: string, 
/**
 * A capability this machine lacks, when that is why.
 */
missing: MissingCapability | null, };

export type DoctorRow = { 
/**
 * `pdfium`, `libreoffice`, `chromium`, `ffmpeg`, `provider`.
 */
name: string, 
/**
 * True when it works here.
 */
ok: boolean, 
/**
 * True when Folio is not ready without it.
 */
required: boolean, 
/**
 * What was found, or what is wrong.
 */
detail: string, 
/**
 * The command that fixes it; empty when it works.
 */
fix: string, };

export type DoctorGetResponse = { 
/**
 * One row per capability, the provider last.
 */
rows: Array<DoctorRow>, 
/**
 * True when every required capability works.
 */
ready: boolean, 
/**
 * What went wrong around the check itself (a torn or unwritable doctor cache), each with
 * its fix; shown above the rows.
 */
warnings: Array<string>, };

export type HandoffSaveParams = { 
/**
 * The agent's path of the file.
 */
path: string, 
/**
 * Where to write it (an absolute path outside the folder).
 */
destination: string, };

export type HandoffSaveResponse = { 
/**
 * Where it went.
 */
saved: string, 
/**
 * Bytes written.
 */
size: number, };
