//! Every way comparing two versions of a file can fail. Each message names the file, which side
//! (before: the folder's version; after: the pending one), what happened and the fix, because the
//! reader is a person in the review panel deciding whether to commit.

use std::fmt;

use folio_archives::ArchiveError;
use folio_media::MediaError;
use folio_render::RenderError;
use folio_sheets::SheetError;

/// Which version of the file an error or a value is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Side {
    /// The version in the person's folder (before the change).
    Old,
    /// The pending version (after the change).
    New,
}

impl Side {
    /// `before` or `after`.
    pub fn short(self) -> &'static str {
        match self {
            Side::Old => "before",
            Side::New => "after",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Old => "the folder's version (before)",
            Side::New => "the pending version (after)",
        })
    }
}

/// Why a diff could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// Neither side has bytes (the caller passed `None` twice). A caller's mistake; nobody
    /// retries.
    #[error(
        "{name}: there is nothing to compare (neither side has a version) — hint: pass the folder's bytes, the pending bytes, or both"
    )]
    NothingToCompare {
        /// The file.
        name: String,
    },
    /// A page index past the alignment's end was asked for. The caller asks for `0..pairs.len()`.
    #[error("{name}: page pair {index} does not exist — the alignment has {count} pair(s) — hint: ask for 0 to {}", .count.saturating_sub(1))]
    NoSuchPair {
        /// The file.
        name: String,
        /// The index asked for.
        index: usize,
        /// How many pairs there are.
        count: usize,
    },
    /// A PDF needs a password, so its pages cannot be rendered or compared. Nobody retries; the
    /// person provides an unprotected copy.
    #[error(
        "{name}: {side} is an encrypted PDF (it needs a password to open), so its pages cannot be compared — hint: review an unprotected copy (qpdf --decrypt --password=… in.pdf out.pdf), or compare the files outside Folio"
    )]
    Encrypted {
        /// The file.
        name: String,
        /// Which version is encrypted.
        side: Side,
    },
    /// A side could not be rendered (PDFium, LibreOffice or an image decoder refused it). The
    /// inner message says why and how to fix it; retrying the same bytes fails the same way,
    /// except when it names a missing tool (install it, then retry).
    #[error("in {side}: {source}")]
    Render {
        /// The file.
        name: String,
        /// Which version.
        side: Side,
        /// What folio-render said (boxed, as every wrapped error: they are large).
        source: Box<RenderError>,
    },
    /// A side is not a workbook the sheet reader reads (truncated, damaged, encrypted, not a
    /// workbook). Retrying the same bytes fails the same way.
    #[error("in {side}: {source}")]
    Workbook {
        /// The file.
        name: String,
        /// Which version.
        side: Side,
        /// What folio-sheets said (with its hint).
        source: Box<SheetError>,
    },
    /// A side is not video ffmpeg can decode (not media at all, truncated, or audio only). Retrying
    /// the same bytes fails the same way.
    #[error(
        "{name}: {side} is not a video Folio can decode ({detail}) — hint: check that the file was written completely and really is a video (re-export or re-render it); a file that is not video should not be named .{ext}"
    )]
    NotVideo {
        /// The file.
        name: String,
        /// Which version.
        side: Side,
        /// What ffprobe or ffmpeg said.
        detail: String,
        /// The file's extension, for the hint.
        ext: String,
    },
    /// ffmpeg failed or is missing (the inner message names the fix). Retried by the person after
    /// installing ffmpeg, or never when the input is at fault.
    #[error("in {side}: {source}")]
    Media {
        /// The file.
        name: String,
        /// Which version.
        side: Side,
        /// What folio-media said (boxed: it is large).
        source: Box<MediaError>,
    },
    /// A side is not an archive folio-archives reads, or breaks one of its limits (entries,
    /// bytes, encryption). Retrying the same bytes fails the same way.
    #[error("in {side}: {source}")]
    Archive {
        /// The file.
        name: String,
        /// Which version.
        side: Side,
        /// What folio-archives said (with its hint).
        source: Box<ArchiveError>,
    },
    /// Writing a picture of the diff failed (an encoder error; never expected). Reported as a
    /// bug.
    #[error(
        "{name}: cannot encode {what} as PNG ({detail}) — hint: this is a bug; report it with the two files attached"
    )]
    Encode {
        /// The file.
        name: String,
        /// Which picture.
        what: String,
        /// The encoder's message.
        detail: String,
    },
    /// The review's budget stopped a long step (a LibreOffice conversion): the person closed the
    /// review or the budget ran out. The inner message says which and what to do; the next
    /// request starts again.
    #[error("{name}: {source}")]
    Budget {
        /// The file.
        name: String,
        /// What stopped it.
        #[source]
        source: folio_budget::BudgetError,
    },
    /// A reader thread stopped without an answer (a panic outside the readers' own guards). A
    /// bug, never expected; reported as such.
    #[error("{name}: {what} stopped unexpectedly — hint: this is a bug; report it with the two files attached")]
    Internal {
        /// The file.
        name: String,
        /// What was running.
        what: String,
    },
}

/// The result of every diff call.
pub type Result<T> = std::result::Result<T, DiffError>;

impl DiffError {
    /// A render error on `side`, with encryption named as its own variant.
    pub(crate) fn render(name: &str, side: Side, source: RenderError) -> DiffError {
        match source {
            RenderError::Encrypted { .. } => DiffError::Encrypted { name: name.to_string(), side },
            source => DiffError::Render { name: name.to_string(), side, source: Box::new(source) },
        }
    }

    /// A PNG encoder error.
    pub(crate) fn encode(name: &str, what: &str, detail: impl fmt::Display) -> DiffError {
        DiffError::Encode { name: name.to_string(), what: what.to_string(), detail: detail.to_string() }
    }
}
