//! The payloads of the review panel's visual diffs: a change whose shape is pages, cells, an
//! image, a video or an archive is compared by folio-diff, through one command per shape.
//!
//! Pages come lazily: `review_pages` answers the summary (page counts, the alignment, the pages
//! already known unchanged without rendering), then `review_page` renders and compares one pair.
//! Every image these answers name (a rendered page, a difference overlay, a video thumbnail) is a
//! key into the folder's preview cache, served by the `folio://` scheme as `?diff=<key>`
//! (`crate::scheme`), the way previews serve pages — never inlined in the JSON.
//! Each answer says what it cost (`ms`), so the panel can show "page 3 compared in 180 ms".

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Asks for a visual diff of one pending change (`review_pages`, `review_cells`, `review_image`,
/// `review_video`, `review_archive`).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewVisualParams {
    /// The change's path (`/out/deck.pptx`).
    pub path: String,
}

/// What is known about one aligned page pair before (or after) it is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PageState {
    /// Both sides are there and differ.
    Changed,
    /// Both sides are there and are the same (known without rendering, or compared).
    Unchanged,
    /// Both sides are there; only rendering them will tell (`review_page`).
    Unknown,
    /// Only the new side has this page.
    Added,
    /// Only the folder's side has this page.
    Removed,
}

/// One aligned pair of pages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewPagePair {
    /// Its position in the alignment (what `review_page` takes), from 0.
    pub index: u32,
    /// The page number in the folder's version (1-based), when that side has it.
    pub old: Option<u32>,
    /// The page number in the new version (1-based), when that side has it.
    pub new: Option<u32>,
    /// What is known about it.
    pub state: PageState,
}

/// The summary of a paged document's diff: counts and alignment, nothing rendered yet.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewPagesResponse {
    /// The change's path.
    pub path: String,
    /// Pages in the folder's version (0: the file is new).
    pub old_pages: u32,
    /// Pages in the new version (0: the change removes the file).
    pub new_pages: u32,
    /// The aligned pairs, in reading order.
    pub pairs: Vec<ReviewPagePair>,
    /// What opening both sides cost (Office documents are converted to PDF first), in ms.
    pub ms: u32,
    /// A note on the comparison (how pages were aligned, what was capped), when there is one.
    pub note: Option<String>,
}

/// Asks for one aligned page pair, rendered and compared.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewPageParams {
    /// The change's path.
    pub path: String,
    /// The pair's index in [`ReviewPagesResponse::pairs`].
    pub index: u32,
    /// The render resolution (default 72 dpi; at most 200).
    pub dpi: Option<u32>,
}

/// A rectangle, as fractions (0–1) of the page's or image's width and height.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DiffBox {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// One page pair rendered and compared.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewPageResponse {
    /// The pair's index.
    pub index: u32,
    /// The folder's page as a PNG: its key for `folio://…?diff=<key>` (`None`: an added page).
    pub old_png: Option<String>,
    /// The new page as a PNG key (`None`: a removed page).
    pub new_png: Option<String>,
    /// Changed, unchanged, added or removed — never unknown once compared.
    pub state: PageState,
    /// The share of pixels that differ (0–1).
    pub changed_fraction: f64,
    /// Where the differences are on the new page.
    pub boxes: Vec<DiffBox>,
    /// What rendering and comparing this pair cost, in ms.
    pub ms: u32,
}

/// How one sheet of a workbook changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum SheetState {
    /// Only in the new version.
    Added,
    /// Only in the folder's version.
    Removed,
    /// In both, with differences.
    Changed,
    /// In both, the same.
    Same,
}

/// One changed cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CellChange {
    /// Its A1 address in the new version (`C7`).
    pub address: String,
    /// Its A1 address in the folder's version (differs when rows or columns moved).
    pub old_address: String,
    /// Its row in the new version, from 0.
    pub row: u32,
    /// Its column in the new version, from 0.
    pub col: u32,
    /// The folder's value as text (`None`: empty).
    pub old: Option<String>,
    /// The new value as text (`None`: empty).
    pub new: Option<String>,
    /// The folder's formula, when the cell had one (`=SUM(B2:B9)`).
    pub old_formula: Option<String>,
    /// The new formula, when it has one.
    pub new_formula: Option<String>,
}

/// A row the new version added, with its values (the panel shows it in the grid).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AddedRow {
    /// Its row in the new version, from 0.
    pub row: u32,
    /// Its cells' values as text, from column A.
    pub values: Vec<String>,
}

/// The cell diff of one sheet.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SheetDiff {
    /// The sheet's name (its tab).
    pub name: String,
    /// Added, removed, changed or the same.
    pub state: SheetState,
    /// The changed cells listed (at most the engine's cap; see `left_out`).
    pub cells: Vec<CellChange>,
    /// Rows only the new version has (rows from 0 in the new version).
    pub added_rows: Vec<AddedRow>,
    /// Rows only the folder's version has (rows from 0 in the folder's version).
    pub removed_rows: Vec<u32>,
    /// Columns only the new version has (from 0).
    pub added_cols: Vec<u32>,
    /// Columns only the folder's version has (from 0).
    pub removed_cols: Vec<u32>,
    /// Changed cells in all, listed or not.
    pub changed_count: u32,
    /// Changed cells and rows not listed, because of the cap.
    pub left_out: u32,
    /// How rows were matched (`by the key column Region`, `by a sequence diff of rows`).
    pub matched_by: String,
    /// The new version's values around the changes, for the grid (`None`: the sheet is removed,
    /// or its values could not be read again).
    pub grid: Option<CellGrid>,
}

/// A window of a sheet's new values: the changed region, with the header row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CellGrid {
    /// The window's first row, from 0.
    pub first_row: u32,
    /// Its rows' values as text, from column A (at most the grid's width).
    pub rows: Vec<Vec<String>>,
    /// The sheet's first row (its header, when it has one), at most the grid's width.
    pub header: Vec<String>,
    /// True when the changes reach beyond the window (the list below the grid has them all).
    pub cut: bool,
}

/// The cell diff of a workbook or CSV.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewCellsResponse {
    /// The change's path.
    pub path: String,
    /// One entry per sheet of either side, in the new version's order.
    pub sheets: Vec<SheetDiff>,
    /// What the diff cost, in ms.
    pub ms: u32,
    /// How rows were aligned, what was capped, when there is something to say.
    pub note: Option<String>,
}

/// An image compared with the folder's version.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewImageResponse {
    /// The change's path.
    pub path: String,
    /// The compared width in pixels.
    pub width: u32,
    /// The compared height in pixels.
    pub height: u32,
    /// The folder's version as a PNG key (`None`: the file is new).
    pub old_png: Option<String>,
    /// The new version as a PNG key (`None`: the change removes it).
    pub new_png: Option<String>,
    /// The difference overlay as a PNG key (changed pixels opaque, the rest transparent).
    pub diff_png: Option<String>,
    /// How many pixels differ.
    #[ts(type = "number")]
    pub changed_pixels: u64,
    /// Their share of all pixels (0–1).
    pub changed_fraction: f64,
    /// The box around every changed pixel, as fractions of the size.
    pub bbox: Option<DiffBox>,
    /// Why the comparison is approximate (different sizes are letterboxed), when it is.
    pub note: Option<String>,
    /// What decoding and comparing cost, in ms.
    pub ms: u32,
}

/// What one side of a video is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VideoSide {
    /// Its length in seconds, when the container says.
    pub duration_s: Option<f64>,
    /// Its video codec (`h264`).
    pub codec: String,
    /// Its container (`mov,mp4,m4a,3gp,3g2,mj2`).
    pub container: String,
    /// Frames per second, when the stream says.
    pub fps: Option<f64>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Frames in all.
    #[ts(type = "number")]
    pub frames: u64,
}

/// A run of changed frames, with thumbnails of its first and last frame on both sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FrameRun {
    /// The first changed frame, from 0.
    #[ts(type = "number")]
    pub first: u64,
    /// The last changed frame, inclusive.
    #[ts(type = "number")]
    pub last: u64,
    /// The folder's first frame of the run, as a PNG key (`None`: that side has no such frame).
    pub old_first: Option<String>,
    /// The folder's last frame of the run.
    pub old_last: Option<String>,
    /// The new first frame of the run.
    pub new_first: Option<String>,
    /// The new last frame of the run.
    pub new_last: Option<String>,
}

/// A video compared frame by frame with the folder's version.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewVideoResponse {
    /// The change's path.
    pub path: String,
    /// The folder's version (`None`: the file is new).
    pub old: Option<VideoSide>,
    /// The new version (`None`: the change removes it).
    pub new: Option<VideoSide>,
    /// The changed frame ranges, in order.
    pub ranges: Vec<FrameRun>,
    /// What decoding and comparing cost, in ms.
    pub ms: u32,
    /// What was capped or approximated, when something was.
    pub note: Option<String>,
}

/// One entry of an archive diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveEntryChange {
    /// The entry's path inside the archive.
    pub path: String,
    /// Its size in the folder's version (`None`: not there).
    #[ts(type = "number | null")]
    pub old_size: Option<u64>,
    /// Its size in the new version (`None`: not there).
    #[ts(type = "number | null")]
    pub new_size: Option<u64>,
    /// Its checksum in the folder's version (CRC-32 or content hash, as hex).
    pub old_hash: Option<String>,
    /// Its checksum in the new version.
    pub new_hash: Option<String>,
}

/// An archive's entry list compared with the folder's version.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewArchiveResponse {
    /// The change's path.
    pub path: String,
    /// Entries only the new version has.
    pub added: Vec<ArchiveEntryChange>,
    /// Entries only the folder's version has.
    pub removed: Vec<ArchiveEntryChange>,
    /// Entries in both whose content differs.
    pub changed: Vec<ArchiveEntryChange>,
    /// Entries that are the same on both sides.
    pub same_count: u32,
    /// What listing and comparing cost, in ms.
    pub ms: u32,
    /// What was capped, when something was.
    pub note: Option<String>,
}

/// The declarations of this module's payloads, appended to `ui/src/bindings/review.ts`.
pub(crate) fn visual_decls() -> Vec<String> {
    vec![
        ReviewVisualParams::decl(),
        PageState::decl(),
        ReviewPagePair::decl(),
        ReviewPagesResponse::decl(),
        ReviewPageParams::decl(),
        DiffBox::decl(),
        ReviewPageResponse::decl(),
        SheetState::decl(),
        CellChange::decl(),
        AddedRow::decl(),
        SheetDiff::decl(),
        CellGrid::decl(),
        ReviewCellsResponse::decl(),
        ReviewImageResponse::decl(),
        VideoSide::decl(),
        FrameRun::decl(),
        ReviewVideoResponse::decl(),
        ArchiveEntryChange::decl(),
        ReviewArchiveResponse::decl(),
    ]
}
