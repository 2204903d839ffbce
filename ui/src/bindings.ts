// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.

export type FolderOpenParams = { 
/**
 * The folder on disk.
 */
path: string, };

export type FolderOpenResponse = { 
/**
 * The folder's absolute path.
 */
folder: string, 
/**
 * Its last path component, for the title bar.
 */
name: string, 
/**
 * What the environment warned about when it opened (missing tools, skipped settings).
 */
warnings: Array<string>, 
/**
 * What crash recovery did, when it had to.
 */
recovery: string | null, };

export type StatusGetResponse = { 
/**
 * The open folder, or `None` before one is opened.
 */
folder: string | null, 
/**
 * Every pending change, in path order.
 */
changes: Array<PendingChange>, 
/**
 * How many of them are in conflict.
 */
conflicts: number, 
/**
 * A message to show once (why the folder on the command line did not open).
 */
notice: string | null, };

export type ChangeKindName = "added" | "modified" | "deleted" | "renamed";

export type PendingChange = { 
/**
 * The agent's path (`/out/report.md`).
 */
path: string, 
/**
 * What it does.
 */
kind: ChangeKindName, 
/**
 * The source of a rename.
 */
from: string | null, 
/**
 * True for a directory.
 */
isDir: boolean, 
/**
 * Bytes after the change.
 */
size: number | null, 
/**
 * Bytes of the folder's file before the change.
 */
baseSize: number | null, 
/**
 * Why committing it would overwrite something changed outside Folio, if it would.
 */
conflict: string | null, };

export type TreeListParams = { 
/**
 * The directory (`/` for the top).
 */
path: string, };

export type Badge = "added" | "modified" | "deleted" | "conflict";

export type TreeEntry = { 
/**
 * The file or directory name.
 */
name: string, 
/**
 * The agent's path.
 */
path: string, 
/**
 * True for a directory.
 */
isDir: boolean, 
/**
 * Bytes (0 for directories).
 */
size: number, 
/**
 * The pending-change badge, if any.
 */
badge: Badge | null, };

export type TreeListResponse = { 
/**
 * The directory listed.
 */
path: string, 
/**
 * Its rows.
 */
entries: Array<TreeEntry>, };

export type FileReadParams = { 
/**
 * The agent's path.
 */
path: string, };

export type FileReadResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * The file's size in bytes.
 */
size: number, 
/**
 * The media type guessed from the name and bytes.
 */
mediaType: string, 
/**
 * The text (up to the preview limit), or `None` for a binary file.
 */
text: string | null, 
/**
 * True when `text` stops at the preview limit.
 */
truncated: boolean, };

export type CommitApplyParams = { 
/**
 * The changes to write (each path and everything below it).
 */
paths: Array<string>, 
/**
 * Conflicting paths whose agent version may overwrite the folder's.
 */
overwrite: Array<string>, };

export type SkippedChange = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * Why it was skipped.
 */
reason: string, };

export type CommitApplyResponse = { 
/**
 * Files written into the folder.
 */
written: Array<string>, 
/**
 * Paths removed from the folder.
 */
removed: Array<string>, 
/**
 * Changes left pending because of conflicts.
 */
skipped: Array<SkippedChange>, 
/**
 * Changes still pending after the commit.
 */
pendingLeft: number, };

export type DiscardApplyParams = { 
/**
 * The changes to drop (each path and everything below it).
 */
paths: Array<string>, };

export type DiscardApplyResponse = { 
/**
 * The changes dropped.
 */
discarded: Array<string>, };

export type ScriptInfo = { 
/**
 * The script's path (`/scripts/clean.js`).
 */
path: string, 
/**
 * Its file name.
 */
name: string, 
/**
 * Its one-line summary (the first sentence of its doc comment).
 */
summary: string, };

export type ScriptsListResponse = { 
/**
 * Every script, by name.
 */
scripts: Array<ScriptInfo>, };

export type ScriptsRunParams = { 
/**
 * The script's path.
 */
path: string, 
/**
 * The object its default export receives (`{}` when absent).
 */
args: Record<string, unknown> | null, };

export type ScriptProgressNotification = { 
/**
 * The run's id.
 */
runId: string, 
/**
 * True for `console.error` / `console.warn`.
 */
isError: boolean, 
/**
 * The line.
 */
text: string, };

export type ScriptsRunResponse = { 
/**
 * The script.
 */
path: string, 
/**
 * True when the default export returned without throwing.
 */
ok: boolean, 
/**
 * The result as text.
 */
resultText: string | null, 
/**
 * The error, when it failed.
 */
error: string | null, 
/**
 * Wall-clock milliseconds.
 */
durationMs: number, 
/**
 * Changes pending after the run.
 */
pending: number, };

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
 * The provider's name.
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
maxTurns: number, };

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
text: string, } | { "type": "toolFinished", 
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
end: TurnEnd, } | { "type": "error", 
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
ready: boolean, };

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

export type PreviewKind = "image" | "video" | "audio" | "pdf" | "office" | "spreadsheet" | "csv" | "markdown" | "json" | "code" | "text" | "binary";

export type PreviewInfoParams = { 
/**
 * The agent's path (`/out/chart.png`).
 */
path: string, };

export type MediaProbe = { 
/**
 * The container (`mp4`, `webm`, `matroska`, `ogg`, `mp3`, `wav`, `flac`, `avi`, …).
 */
container: string, 
/**
 * The first video stream's codec (`h264`, `vp8`, `vp9`, `av1`, `hevc`, …), if any.
 */
videoCodec: string | null, 
/**
 * The first audio stream's codec (`aac`, `opus`, `vorbis`, `mp3`, `flac`, `pcm`, …), if any.
 */
audioCodec: string | null, 
/**
 * The media type with codecs to ask the webview about (`video/mp4; codecs="avc1.42E01E"`),
 * or `None` when a codec is unknown (then only a transcode can play it).
 */
mime: string | null, 
/**
 * Seconds, when known.
 */
durationS: number | null, 
/**
 * Frame width and height, when known.
 */
width: number | null, 
/**
 * Frame height, when known.
 */
height: number | null, 
/**
 * `ffprobe` or `magic` (the container's own bytes, when ffprobe is missing).
 */
probedBy: string, 
/**
 * True when ffmpeg is here, so a webm preview can be made.
 */
canTranscode: boolean, 
/**
 * Why a transcode is impossible and the fix, when it is.
 */
transcodeFix: string | null, };

export type PreviewInfoResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * Bytes.
 */
size: number, 
/**
 * The content's hash: the UI reloads a preview only when it changes.
 */
hash: string, 
/**
 * The media type by name and bytes.
 */
mediaType: string, 
/**
 * How to show it.
 */
kind: PreviewKind, 
/**
 * For video and audio: what it is and what can be done with it.
 */
media: MediaProbe | null, 
/**
 * Something the person should know before the preview loads (a missing tool and its fix).
 */
note: string | null, };

export type PreviewTranscodeParams = { 
/**
 * The agent's path.
 */
path: string, };

export type TranscodeProgressNotification = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * 0 to 1, when the duration is known.
 */
fraction: number | null, 
/**
 * Seconds of output written so far.
 */
seconds: number, };

export type PreviewTranscodeResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * `video/webm` or `audio/webm`, with codecs.
 */
mime: string, 
/**
 * Bytes of the preview.
 */
size: number, 
/**
 * True when it came from the cache (the same content was transcoded before).
 */
cached: boolean, 
/**
 * Milliseconds the transcode took (0 when cached).
 */
durationMs: number, };

export type PreviewPagesParams = { 
/**
 * The agent's path.
 */
path: string, };

export type PreviewPagesResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * How many pages.
 */
pageCount: number, 
/**
 * The first page's size in points (1/72 inch), for placeholders.
 */
pageSizePt: [number, number] | null, };

export type PreviewTableParams = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * The sheet of a workbook (`None`: the first).
 */
sheet: string | null, 
/**
 * Most rows to return (`None`: 500).
 */
limit: number | null, };

export type PreviewTableResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * The workbook's sheets (empty for CSV).
 */
sheets: Array<string>, 
/**
 * The sheet shown (`None` for CSV).
 */
sheet: string | null, 
/**
 * The rows, the first usually the header; cells as text.
 */
rows: Array<Array<string>>, 
/**
 * Rows in the whole table or sheet.
 */
totalRows: number, 
/**
 * True when `rows` stops before `total_rows`.
 */
truncated: boolean, };

export type ReviewDiffParams = { 
/**
 * The change's path (`/out/report.md`).
 */
path: string, };

export type DiffKind = "text" | "image" | "binary" | "dir";

export type LineTag = "context" | "added" | "removed";

export type DiffLine = { 
/**
 * Context, added or removed.
 */
tag: LineTag, 
/**
 * The line number in the folder's version (1-based), when it is there.
 */
oldLine: number | null, 
/**
 * The line number in the agent's version (1-based), when it is there.
 */
newLine: number | null, 
/**
 * The line's text, without its line ending.
 */
text: string, };

export type DiffHunk = { 
/**
 * The unified-diff header (`@@ -1,3 +1,4 @@`).
 */
header: string, 
/**
 * Its lines.
 */
lines: Array<DiffLine>, };

export type ReviewDiffResponse = { 
/**
 * The change's path.
 */
path: string, 
/**
 * Where the folder's side is read from (the rename's source, or the path itself).
 */
beforePath: string, 
/**
 * How the two sides compare.
 */
kind: DiffKind, 
/**
 * The media type of the agent's version (or the folder's, for a deletion).
 */
mediaType: string, 
/**
 * Bytes in the folder now (`None`: nothing there).
 */
beforeSize: number | null, 
/**
 * Bytes a commit would write (`None`: the change removes it).
 */
afterSize: number | null, 
/**
 * The line diff, for text.
 */
hunks: Array<DiffHunk>, 
/**
 * Lines added.
 */
added: number, 
/**
 * Lines removed.
 */
removed: number, 
/**
 * Why the diff is shortened or missing (a large file, too many lines), when it is.
 */
note: string | null, };

export type InboxDropParams = { 
/**
 * The dropped files and folders, as host paths.
 */
paths: Array<string>, };

export type DropResult = { 
/**
 * The host path that was dropped (a file inside a dropped folder is named by its own path).
 */
source: string, 
/**
 * Where it landed in the working environment (`/inbox/data-2.csv`), when it did.
 */
addedAs: string | null, 
/**
 * Why it was refused, and the fix, when it was.
 */
refused: string | null, };

export type InboxDropResponse = { 
/**
 * One row per file (and per refused folder).
 */
results: Array<DropResult>, 
/**
 * Files added.
 */
added: number, 
/**
 * Files refused.
 */
refused: number, };

export type TreeFindParams = { 
/**
 * The text to look for (case-insensitive).
 */
query: string, };

export type TreeFindResponse = { 
/**
 * Matching rows, in path order, with their badges.
 */
entries: Array<TreeEntry>, 
/**
 * True when more matched than are listed.
 */
truncated: boolean, };

export type TreeOpenParams = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * True to reveal it in the file manager instead of opening it.
 */
reveal: boolean, };

export type TreeOpenResponse = { 
/**
 * The host path handed to the system.
 */
hostPath: string, 
/**
 * True when the file exists only in Folio (pending), so a temporary copy was opened.
 */
exported: boolean, 
/**
 * What to tell the person.
 */
message: string, };

export type ScriptsFormParams = { 
/**
 * The script's path.
 */
path: string, };

export type FieldInput = "text" | "number" | "boolean" | "json";

export type ScriptField = { 
/**
 * The argument's name (a key of the object the default export receives).
 */
name: string, 
/**
 * Its TypeScript type, as the `.d.ts` declares it.
 */
ty: string, 
/**
 * True when it may be left out.
 */
optional: boolean, 
/**
 * Which input to show.
 */
input: FieldInput, };

export type ScriptsFormResponse = { 
/**
 * The declaration line (`declare function clean(args: { path: string }): Promise<string>;`).
 */
signature: string | null, 
/**
 * The argument fields, when the arguments are an object type the form can show.
 */
fields: Array<ScriptField>, 
/**
 * True when only raw JSON fits (no declaration, or a type the form cannot show).
 */
rawOnly: boolean, };

export type RecentFolder = { 
/**
 * Its absolute path.
 */
path: string, 
/**
 * Its last path component.
 */
name: string, 
/**
 * False when it is no longer there.
 */
exists: boolean, };

export type RecentListResponse = { 
/**
 * The folders.
 */
folders: Array<RecentFolder>, };

export type FolderOpenedNotification = { 
/**
 * The folder now open, or `None` when opening failed.
 */
folder: string | null, 
/**
 * Why it did not open.
 */
error: string | null, };
