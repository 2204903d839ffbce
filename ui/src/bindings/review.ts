// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.
import type { TreeEntry } from "./core";

export type ReviewDiffParams = { 
/**
 * The change's path (`/out/report.md`).
 */
path: string, };

export type DiffKind = "text" | "image" | "binary" | "dir" | "pages" | "cells" | "video" | "archive";

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

export type ReviewVisualParams = { 
/**
 * The change's path (`/out/deck.pptx`).
 */
path: string, };

export type PageState = "changed" | "unchanged" | "unknown" | "added" | "removed";

export type ReviewPagePair = { 
/**
 * Its position in the alignment (what `review_page` takes), from 0.
 */
index: number, 
/**
 * The page number in the folder's version (1-based), when that side has it.
 */
old: number | null, 
/**
 * The page number in the new version (1-based), when that side has it.
 */
new: number | null, 
/**
 * What is known about it.
 */
state: PageState, };

export type ReviewPagesResponse = { 
/**
 * The change's path.
 */
path: string, 
/**
 * Pages in the folder's version (0: the file is new).
 */
oldPages: number, 
/**
 * Pages in the new version (0: the change removes the file).
 */
newPages: number, 
/**
 * The aligned pairs, in reading order.
 */
pairs: Array<ReviewPagePair>, 
/**
 * What opening both sides cost (Office documents are converted to PDF first), in ms.
 */
ms: number, 
/**
 * A note on the comparison (how pages were aligned, what was capped), when there is one.
 */
note: string | null, };

export type ReviewPageParams = { 
/**
 * The change's path.
 */
path: string, 
/**
 * The pair's index in [`ReviewPagesResponse::pairs`].
 */
index: number, 
/**
 * The render resolution (default 72 dpi; at most 200).
 */
dpi: number | null, };

export type DiffBox = { 
/**
 * Left edge.
 */
x: number, 
/**
 * Top edge.
 */
y: number, 
/**
 * Width.
 */
w: number, 
/**
 * Height.
 */
h: number, };

export type ReviewPageResponse = { 
/**
 * The pair's index.
 */
index: number, 
/**
 * The folder's page as a PNG: its key for `folio://…?diff=<key>` (`None`: an added page).
 */
oldPng: string | null, 
/**
 * The new page as a PNG key (`None`: a removed page).
 */
newPng: string | null, 
/**
 * Changed, unchanged, added or removed — never unknown once compared.
 */
state: PageState, 
/**
 * The share of pixels that differ (0–1).
 */
changedFraction: number, 
/**
 * Where the differences are on the new page.
 */
boxes: Array<DiffBox>, 
/**
 * What rendering and comparing this pair cost, in ms.
 */
ms: number, };

export type SheetState = "added" | "removed" | "changed" | "same";

export type CellChange = { 
/**
 * Its A1 address in the new version (`C7`).
 */
address: string, 
/**
 * Its A1 address in the folder's version (differs when rows or columns moved).
 */
oldAddress: string, 
/**
 * Its row in the new version, from 0.
 */
row: number, 
/**
 * Its column in the new version, from 0.
 */
col: number, 
/**
 * The folder's value as text (`None`: empty).
 */
old: string | null, 
/**
 * The new value as text (`None`: empty).
 */
new: string | null, 
/**
 * The folder's formula, when the cell had one (`=SUM(B2:B9)`).
 */
oldFormula: string | null, 
/**
 * The new formula, when it has one.
 */
newFormula: string | null, };

export type AddedRow = { 
/**
 * Its row in the new version, from 0.
 */
row: number, 
/**
 * Its cells' values as text, from column A.
 */
values: Array<string>, };

export type SheetDiff = { 
/**
 * The sheet's name (its tab).
 */
name: string, 
/**
 * Added, removed, changed or the same.
 */
state: SheetState, 
/**
 * The changed cells listed (at most the engine's cap; see `left_out`).
 */
cells: Array<CellChange>, 
/**
 * Rows only the new version has (rows from 0 in the new version).
 */
addedRows: Array<AddedRow>, 
/**
 * Rows only the folder's version has (rows from 0 in the folder's version).
 */
removedRows: Array<number>, 
/**
 * Columns only the new version has (from 0).
 */
addedCols: Array<number>, 
/**
 * Columns only the folder's version has (from 0).
 */
removedCols: Array<number>, 
/**
 * Changed cells in all, listed or not.
 */
changedCount: number, 
/**
 * Changed cells and rows not listed, because of the cap.
 */
leftOut: number, 
/**
 * How rows were matched (`by the key column Region`, `by a sequence diff of rows`).
 */
matchedBy: string, 
/**
 * The new version's values around the changes, for the grid (`None`: the sheet is removed,
 * or its values could not be read again).
 */
grid: CellGrid | null, };

export type CellGrid = { 
/**
 * The window's first row, from 0.
 */
firstRow: number, 
/**
 * Its rows' values as text, from column A (at most the grid's width).
 */
rows: Array<Array<string>>, 
/**
 * The sheet's first row (its header, when it has one), at most the grid's width.
 */
header: Array<string>, 
/**
 * True when the changes reach beyond the window (the list below the grid has them all).
 */
cut: boolean, };

export type ReviewCellsResponse = { 
/**
 * The change's path.
 */
path: string, 
/**
 * One entry per sheet of either side, in the new version's order.
 */
sheets: Array<SheetDiff>, 
/**
 * What the diff cost, in ms.
 */
ms: number, 
/**
 * How rows were aligned, what was capped, when there is something to say.
 */
note: string | null, };

export type ReviewImageResponse = { 
/**
 * The change's path.
 */
path: string, 
/**
 * The compared width in pixels.
 */
width: number, 
/**
 * The compared height in pixels.
 */
height: number, 
/**
 * The folder's version as a PNG key (`None`: the file is new).
 */
oldPng: string | null, 
/**
 * The new version as a PNG key (`None`: the change removes it).
 */
newPng: string | null, 
/**
 * The difference overlay as a PNG key (changed pixels opaque, the rest transparent).
 */
diffPng: string | null, 
/**
 * How many pixels differ.
 */
changedPixels: number, 
/**
 * Their share of all pixels (0–1).
 */
changedFraction: number, 
/**
 * The box around every changed pixel, as fractions of the size.
 */
bbox: DiffBox | null, 
/**
 * Why the comparison is approximate (different sizes are letterboxed), when it is.
 */
note: string | null, 
/**
 * What decoding and comparing cost, in ms.
 */
ms: number, };

export type VideoSide = { 
/**
 * Its length in seconds, when the container says.
 */
durationS: number | null, 
/**
 * Its video codec (`h264`).
 */
codec: string, 
/**
 * Its container (`mov,mp4,m4a,3gp,3g2,mj2`).
 */
container: string, 
/**
 * Frames per second, when the stream says.
 */
fps: number | null, 
/**
 * Width in pixels.
 */
width: number, 
/**
 * Height in pixels.
 */
height: number, 
/**
 * Frames in all.
 */
frames: number, };

export type FrameRun = { 
/**
 * The first changed frame, from 0.
 */
first: number, 
/**
 * The last changed frame, inclusive.
 */
last: number, 
/**
 * The folder's first frame of the run, as a PNG key (`None`: that side has no such frame).
 */
oldFirst: string | null, 
/**
 * The folder's last frame of the run.
 */
oldLast: string | null, 
/**
 * The new first frame of the run.
 */
newFirst: string | null, 
/**
 * The new last frame of the run.
 */
newLast: string | null, };

export type ReviewVideoResponse = { 
/**
 * The change's path.
 */
path: string, 
/**
 * The folder's version (`None`: the file is new).
 */
old: VideoSide | null, 
/**
 * The new version (`None`: the change removes it).
 */
new: VideoSide | null, 
/**
 * The changed frame ranges, in order.
 */
ranges: Array<FrameRun>, 
/**
 * What decoding and comparing cost, in ms.
 */
ms: number, 
/**
 * What was capped or approximated, when something was.
 */
note: string | null, };

export type ArchiveEntryChange = { 
/**
 * The entry's path inside the archive.
 */
path: string, 
/**
 * Its size in the folder's version (`None`: not there).
 */
oldSize: number | null, 
/**
 * Its size in the new version (`None`: not there).
 */
newSize: number | null, 
/**
 * Its checksum in the folder's version (CRC-32 or content hash, as hex).
 */
oldHash: string | null, 
/**
 * Its checksum in the new version.
 */
newHash: string | null, };

export type ReviewArchiveResponse = { 
/**
 * The change's path.
 */
path: string, 
/**
 * Entries only the new version has.
 */
added: Array<ArchiveEntryChange>, 
/**
 * Entries only the folder's version has.
 */
removed: Array<ArchiveEntryChange>, 
/**
 * Entries in both whose content differs.
 */
changed: Array<ArchiveEntryChange>, 
/**
 * Entries that are the same on both sides.
 */
sameCount: number, 
/**
 * What listing and comparing cost, in ms.
 */
ms: number, 
/**
 * What was capped, when something was.
 */
note: string | null, };
