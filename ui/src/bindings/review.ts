// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.
import type { TreeEntry } from "./core";

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
exists: boolean, 
/**
 * True when it was last opened read-only (opening it again from the list does the same).
 */
readOnly: boolean, };

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
