//! The payloads of the review panel (diffs, conflict choices), drops into `/inbox`, the tree's
//! filter and open/reveal, the script catalogue's argument form, and recent folders.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod visual;
pub use visual::*;

/// Asks for the diff of one pending change.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewDiffParams {
    /// The change's path (`/out/report.md`).
    pub path: String,
}

/// How a change's content can be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum DiffKind {
    /// Both sides are text: `hunks` holds the line diff.
    Text,
    /// An image: the folder's version beside the agent's and a difference overlay, `review_image`.
    Image,
    /// Bytes that are neither text nor an image: sizes only.
    Binary,
    /// A directory: nothing to compare.
    Dir,
    /// A paged document (PDF, DOCX, PPTX, ODT, ODP): pages side by side, `review_pages` then
    /// `review_page` per pair.
    Pages,
    /// A workbook or CSV: a cell diff per sheet, `review_cells`.
    Cells,
    /// A video: changed frame ranges with thumbnails, `review_video`.
    Video,
    /// An archive (ZIP, TAR): the entry-list diff, `review_archive`.
    Archive,
}

/// What one diff line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum LineTag {
    /// The same on both sides.
    Context,
    /// Only in the agent's version.
    Added,
    /// Only in the folder's version.
    Removed,
}

/// One line of a diff hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DiffLine {
    /// Context, added or removed.
    pub tag: LineTag,
    /// The line number in the folder's version (1-based), when it is there.
    pub old_line: Option<u32>,
    /// The line number in the agent's version (1-based), when it is there.
    pub new_line: Option<u32>,
    /// The line's text, without its line ending.
    pub text: String,
}

/// A run of changed lines with a little context around them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DiffHunk {
    /// The unified-diff header (`@@ -1,3 +1,4 @@`).
    pub header: String,
    /// Its lines.
    pub lines: Vec<DiffLine>,
}

/// The diff of one pending change: the folder's version now against what a commit would write.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewDiffResponse {
    /// The change's path.
    pub path: String,
    /// Where the folder's side is read from (the rename's source, or the path itself).
    pub before_path: String,
    /// How the two sides compare.
    pub kind: DiffKind,
    /// The media type of the agent's version (or the folder's, for a deletion).
    pub media_type: String,
    /// Bytes in the folder now (`None`: nothing there).
    #[ts(type = "number | null")]
    pub before_size: Option<u64>,
    /// Bytes a commit would write (`None`: the change removes it).
    #[ts(type = "number | null")]
    pub after_size: Option<u64>,
    /// The line diff, for text.
    pub hunks: Vec<DiffHunk>,
    /// Lines added.
    pub added: u32,
    /// Lines removed.
    pub removed: u32,
    /// Why the diff is shortened or missing (a large file, too many lines), when it is.
    pub note: Option<String>,
}

/// Copies files dropped on the window into `/inbox`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InboxDropParams {
    /// The dropped files and folders, as host paths.
    pub paths: Vec<String>,
}

/// What happened to one dropped file.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DropResult {
    /// The host path that was dropped (a file inside a dropped folder is named by its own path).
    pub source: String,
    /// Where it landed in the working environment (`/inbox/data-2.csv`), when it did.
    pub added_as: Option<String>,
    /// Why it was refused, and the fix, when it was.
    pub refused: Option<String>,
}

/// Per-file results of a drop.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InboxDropResponse {
    /// One row per file (and per refused folder).
    pub results: Vec<DropResult>,
    /// Files added.
    pub added: u32,
    /// Files refused.
    pub refused: u32,
}

/// Finds files whose path contains a text.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeFindParams {
    /// The text to look for (case-insensitive).
    pub query: String,
}

/// The files and folders matching a filter.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeFindResponse {
    /// Matching rows, in path order, with their badges.
    pub entries: Vec<crate::api::TreeEntry>,
    /// True when more matched than are listed.
    pub truncated: bool,
}

/// Opens a file with the default application, or reveals it in the file manager.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeOpenParams {
    /// The agent's path.
    pub path: String,
    /// True to reveal it in the file manager instead of opening it.
    pub reveal: bool,
}

/// What was opened or revealed.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeOpenResponse {
    /// The host path handed to the system.
    pub host_path: String,
    /// True when the file exists only in Folio (pending), so a temporary copy was opened.
    pub exported: bool,
    /// What to tell the person.
    pub message: String,
}

/// Asks for the argument form of a script.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptsFormParams {
    /// The script's path.
    pub path: String,
}

/// Which input a form field uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum FieldInput {
    /// A text box; the value is sent as a string.
    Text,
    /// A number box.
    Number,
    /// A checkbox.
    Boolean,
    /// A JSON text box (arrays, objects, unions).
    Json,
}

/// One argument of a script.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptField {
    /// The argument's name (a key of the object the default export receives).
    pub name: String,
    /// Its TypeScript type, as the `.d.ts` declares it.
    pub ty: String,
    /// True when it may be left out.
    pub optional: bool,
    /// Which input to show.
    pub input: FieldInput,
}

/// A script's arguments, derived from its `.d.ts`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptsFormResponse {
    /// The declaration line (`declare function clean(args: { path: string }): Promise<string>;`).
    pub signature: Option<String>,
    /// The argument fields, when the arguments are an object type the form can show.
    pub fields: Vec<ScriptField>,
    /// True when only raw JSON fits (no declaration, or a type the form cannot show).
    pub raw_only: bool,
}

/// A folder opened before.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecentFolder {
    /// Its absolute path.
    pub path: String,
    /// Its last path component.
    pub name: String,
    /// False when it is no longer there.
    pub exists: bool,
    /// True when it was last opened read-only (opening it again from the list does the same).
    pub read_only: bool,
}

/// Recently opened folders, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecentListResponse {
    /// The folders.
    pub folders: Vec<RecentFolder>,
}

/// Sent to the window when another launch asked to open a folder (single instance).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderOpenedNotification {
    /// The folder now open, or `None` when opening failed.
    pub folder: Option<String>,
    /// Why it did not open.
    pub error: Option<String>,
}

/// The declarations of this module's payloads, for `ui/src/bindings/review.ts`.
pub(crate) fn review_decls() -> Vec<String> {
    vec![
        ReviewDiffParams::decl(),
        DiffKind::decl(),
        LineTag::decl(),
        DiffLine::decl(),
        DiffHunk::decl(),
        ReviewDiffResponse::decl(),
        InboxDropParams::decl(),
        DropResult::decl(),
        InboxDropResponse::decl(),
        TreeFindParams::decl(),
        TreeFindResponse::decl(),
        TreeOpenParams::decl(),
        TreeOpenResponse::decl(),
        ScriptsFormParams::decl(),
        FieldInput::decl(),
        ScriptField::decl(),
        ScriptsFormResponse::decl(),
        RecentFolder::decl(),
        RecentListResponse::decl(),
        FolderOpenedNotification::decl(),
    ]
    .into_iter()
    .chain(visual_decls())
    .collect()
}
