//! What can go wrong while previewing a file. Every message says what happened, where, and the
//! fix; the commands hand it to the UI as is, and the `folio://` scheme answers it as the body of
//! an error response.

use thiserror::Error;

/// A preview that could not be made.
#[derive(Debug, Error)]
pub enum PreviewError {
    /// The UI asked for something before a folder was opened.
    #[error("no folder is open — choose one with Open Folder")]
    NoFolder,
    /// The path is not an absolute path of the working environment (or climbs out of it).
    #[error("`{raw}` is not a path in the folder: {why} — use an absolute path like /out/chart.png")]
    BadPath {
        /// The path as given.
        raw: String,
        /// Why it was refused.
        why: String,
    },
    /// The path is the environment's own settings zone, which is never served.
    #[error("{path} is the environment's private settings zone and is not previewed — pick a file elsewhere")]
    Private {
        /// The refused path.
        path: String,
    },
    /// No file at that path (anymore).
    #[error("{path} does not exist (it may have just been removed) — pick it again in the tree")]
    NotFound {
        /// The missing path.
        path: String,
    },
    /// The path resolves outside the folder (a symlink that leaves it).
    #[error("{path} is refused: {why}")]
    Outside {
        /// The refused path.
        path: String,
        /// The containment check's message.
        why: String,
    },
    /// Reading the file failed for another reason (permissions, I/O).
    #[error("{path} could not be read: {why}")]
    Read {
        /// The path.
        path: String,
        /// The underlying error.
        why: String,
    },
    /// The file is larger than a preview reads into memory.
    #[error("{path} is {size_mb} MB, more than the {cap_mb} MB a preview reads — open it with its own application")]
    TooLarge {
        /// The file.
        path: String,
        /// Its size in MiB.
        size_mb: u64,
        /// The cap in MiB.
        cap_mb: u64,
    },
    /// `?version=base` for a file that has no committed version (new, or in a zone).
    #[error("{path} has no committed version in the folder (it is new, or lives in an environment zone)")]
    NoBase {
        /// The path.
        path: String,
    },
    /// The request asked for something this kind of file does not have.
    #[error("{path}: {why}")]
    Unsupported {
        /// The path.
        path: String,
        /// What was asked and why it cannot be done.
        why: String,
    },
    /// ffmpeg (or ffprobe) is missing or misconfigured, so no webm preview can be made.
    #[error("{path} cannot be converted for this webview: {why} — hint: {fix}")]
    NoTranscoder {
        /// The media file.
        path: String,
        /// What is missing.
        why: String,
        /// The install command.
        fix: String,
    },
    /// ffmpeg ran and failed.
    #[error(
        "ffmpeg could not convert {path} to a webm preview: {why} — the file may be damaged; open it with another app"
    )]
    Transcode {
        /// The media file.
        path: String,
        /// ffmpeg's last error lines.
        why: String,
    },
    /// `?version=preview` before `preview_transcode` made the preview.
    #[error("{path} has no webm preview yet — the preview pane makes one with preview_transcode")]
    NoTranscode {
        /// The media file.
        path: String,
    },
    /// PDFium or LibreOffice refused or failed (the message carries its own fix).
    #[error("{0}")]
    Render(String),
    /// A table (CSV or workbook) could not be parsed.
    #[error("{path} could not be read as a table: {why}")]
    Table {
        /// The file.
        path: String,
        /// The parser's message.
        why: String,
    },
    /// env:motion could not render the scene's frame (the scene threw, never mounted, imports
    /// a file that is not there, …); the renderer's message names the error and its fix. The
    /// person (or the agent) fixes the scene and scrubs again.
    #[error("{path} could not be previewed: {why}")]
    Scene {
        /// The scene file.
        path: String,
        /// The renderer's message, with its hint.
        why: String,
    },
    /// No browser env:motion can drive is installed, so no scene is previewed here.
    #[error("{path} cannot be previewed: {why}")]
    NoBrowser {
        /// The scene file.
        path: String,
        /// The renderer's message, with the install hint.
        why: String,
    },
    /// A newer frame of the same scene was asked for before this one was rendered (the
    /// scrubber moved on); the UI drops it, nobody retries.
    #[error("{path}: frame {frame} was superseded by a newer request before it was rendered")]
    Superseded {
        /// The scene file.
        path: String,
        /// The frame that was dropped.
        frame: u32,
    },
    /// The state directory's preview cache could not be written.
    #[error(
        "the preview cache at {dir} could not be written: {why} — check the disk has space and the folder is writable"
    )]
    Cache {
        /// The cache directory.
        dir: String,
        /// The I/O error.
        why: String,
    },
}

impl PreviewError {
    /// The HTTP status the `folio://` scheme answers this error with.
    pub fn status(&self) -> u16 {
        match self {
            PreviewError::BadPath { .. } | PreviewError::Unsupported { .. } => 400,
            PreviewError::Private { .. } | PreviewError::Outside { .. } => 403,
            PreviewError::NotFound { .. } | PreviewError::NoBase { .. } | PreviewError::NoTranscode { .. } => 404,
            PreviewError::NoFolder => 409,
            PreviewError::TooLarge { .. } => 413,
            _ => 500,
        }
    }
}

impl From<PreviewError> for String {
    fn from(e: PreviewError) -> String {
        e.to_string()
    }
}
