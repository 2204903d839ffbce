// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.

export type FolderOpenParams = { 
/**
 * The folder on disk.
 */
path: string, 
/**
 * Open it read-only: the agent reads everything and changes nothing in it (its `/tmp`
 * still works), so nothing ever becomes pending. `None`: the choice remembered for this
 * folder in the recent list (writable when there is none).
 */
readOnly: boolean | null, };

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
recovery: string | null, 
/**
 * True when the folder is open read-only (every change to it is refused, nothing pends).
 */
readOnly: boolean, };

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
notice: string | null, 
/**
 * What opening the folder named on the command line answered (its warnings — a server
 * that did not mount, a torn cache — and a crash recovery), given once, as `folder.open`
 * answers a folder opened from the window.
 */
opened: FolderOpenResponse | null, 
/**
 * True when the open folder is open read-only: nothing can become pending.
 */
readOnly: boolean, };

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

export type TreeZone = { 
/**
 * What the zone holds ("holds the generated module documentation").
 */
holds: string, 
/**
 * True when the agent may change what is in it.
 */
writable: boolean, };

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
badge: Badge | null, 
/**
 * Set on the root of an environment zone (`/tmp`, `/std`, `/skills`): not one of the
 * person's folders, never part of a commit, listed apart.
 */
zone: TreeZone | null, };

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
 * The line (for a job's progress, its human line: `/in/a.pdf: 12/300 pages, about 31 s left`).
 */
text: string, 
/**
 * Set when the line is a long job's progress, not console output: it replaces the job's
 * previous line (a progress bar) instead of joining the console transcript.
 */
job: JobProgressNotice | null, };

export type JobUnit = "page" | "file" | "frame" | "second" | "row";

export type JobProgressNotice = { 
/**
 * Who is working (`env:render.rasterize /in/report.pdf`).
 */
job: string, 
/**
 * Units finished.
 */
done: number, 
/**
 * Units in the whole job.
 */
total: number, 
/**
 * What is counted.
 */
unit: JobUnit, 
/**
 * The unit's name as the total reads (`pages`, `file`).
 */
units: string, 
/**
 * Milliseconds still expected, when known.
 */
etaMs: number | null, 
/**
 * Milliseconds since the job started.
 */
elapsedMs: number, 
/**
 * The time left in words while the job runs (`about 31 s left`), `None` once done or unknown.
 */
left: string | null, };

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

export type ErrorKind = "noFolder" | "badRequest" | "notFound" | "refused" | "unavailable" | "failed" | "internal";

export type CommandError = { 
/**
 * What sort of failure it is.
 */
kind: ErrorKind, 
/**
 * What happened, and where.
 */
message: string, 
/**
 * The fix, when one is known (shown apart, as "Fix: …").
 */
hint: string | null, };
