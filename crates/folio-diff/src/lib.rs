//! `folio-diff`: what changed between two versions of one file, shown the way the file is seen.
//!
//! Folio's review step is why it exists: nothing reaches the person's folder until they have
//! looked. Text gets a line diff elsewhere (the desktop's review panel); this crate compares the
//! binaries analysts hand on, each by its [`Shape`] — read from folio-kinds' table, so the
//! preview, the renderers and the review agree on what a file is:
//!
//! - **Pages** ([`PageDiff`]): PDF through PDFium; Word, PowerPoint and OpenDocument converted
//!   to PDF by folio-render's warm LibreOffice once per side. Pages are aligned by a sequence
//!   diff of what they are made of, or of their text (an inserted page is one added page), and a
//!   pair is rendered and compared pixel by pixel only when asked ([`PageDiff::compare`]), so the
//!   first page of two 100-page PDFs costs one page's render; pages made of the same PDF objects
//!   are known unchanged without any render.
//! - **Cells** ([`cells`]): workbooks and CSV through folio-sheets' calamine readers; sheets
//!   matched by name, rows by a key column or a sequence diff, columns by header; values and
//!   formulas; capped lists with exact counts.
//! - **Image** ([`image()`]): decoded by folio-render, compared pixel by pixel, with an overlay.
//! - **Video** ([`video()`]): frames decoded small by folio-media's ffmpeg reader and compared
//!   with a tolerance; the changed frame ranges with thumbnails.
//! - **Archive** ([`archive()`]): entry lists through folio-archives' reader and its limits.
//!
//! # Decisions
//!
//! - **Bytes in, values out.** Every function takes each side's bytes (`None`: the file does not
//!   exist on that side) and a name for messages; none reads the tree or the disk, so the app,
//!   the CLI and tests call it alike. Tools are passed in (a folio-render `Renderer`, a
//!   folio-media `Ffmpeg`): this crate knows no outside tool itself.
//! - **Bounded, and the cost said.** Pages are lazy; cells, rows, thumbnails and frames are
//!   capped with a note of what was left out; every result carries the milliseconds it cost.
//! - **Errors name the side.** A reader's own message (with its hint) is kept whole and prefixed
//!   with the version it is about (`in the pending version (after): /out/q.xlsx: the workbook is
//!   damaged … — hint: …`); [`DiffError`] keeps the side as a field.

mod archive;
mod cells;
mod error;
mod formula;
mod image;
mod pages;
mod pdfprint;
mod pixels;
mod seq;
mod shape;
mod sheetread;
mod video;

pub use archive::{ArchiveDiff, ArchiveEntry, EntryChange, archive};
pub use cells::{
    CellChange, CellCounts, CellOptions, ColumnChange, RowChange, RowMatch, SheetDiff, SheetStatus, WorkbookDiff,
    cells, cells_with,
};
pub use error::{DiffError, Result, Side};
pub use image::{ImageDiff, image};
pub use pages::{ALIGNED_BY_OBJECTS, ALIGNED_BY_TEXT, PageCompare, PageDiff, PageOverview, PagePair, PageStatus};
pub use pixels::PixelBox;
pub use shape::{Shape, shape_of};
pub use video::{FrameRange, RangeThumbs, VideoDiff, VideoInfo, VideoOptions, video, video_with};
