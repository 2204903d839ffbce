//! The errors of env:spreadsheets: one enum, each variant a sentence that says what happened,
//! where, and what to do (`… — hint: …`). The script sees the sentence; nothing retries on its own.

use folio_budget::BudgetError;

/// Why a workbook operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    /// The arguments do not say what to do (a missing path, a wrong type). The script author fixes the call.
    #[error("{0}")]
    Invalid(String),
    /// The tree refused a read or a write (missing file, a read-only zone, a limit). The script fixes the path.
    #[error("{0}")]
    Tree(String),
    /// The file's format is not one this module reads or writes (Numbers, a PDF renamed, …).
    #[error("{path}: {detail} — hint: {hint}")]
    Unsupported {
        /// The file.
        path: String,
        /// What it is.
        detail: String,
        /// What to do instead.
        hint: String,
    },
    /// The file claims to be a workbook but is not one (a renamed text file, a zip of something else).
    #[error(
        "{path}: {detail} — hint: it is not a workbook; open it in a text editor to see what it is, or export it again from its application as .xlsx"
    )]
    NotAWorkbook {
        /// The file.
        path: String,
        /// What was found instead.
        detail: String,
    },
    /// The workbook is damaged: its zip or XML does not read, or the reader failed inside it.
    #[error(
        "{path}: the workbook is damaged ({detail}) — hint: open it in Excel or LibreOffice, which may repair it, and save a fresh copy"
    )]
    Damaged {
        /// The file.
        path: String,
        /// What broke.
        detail: String,
    },
    /// The workbook would inflate past what a sheet can sensibly hold (a decompression bomb or a
    /// repeat count past a sheet's size). Refused before anything is expanded.
    #[error(
        "{path}: {detail}, so it is not opened (a decompression bomb, or damaged) — hint: if the file is yours, open it in its application and save a trimmed copy"
    )]
    Bomb {
        /// The file.
        path: String,
        /// Which limit it passed.
        detail: String,
    },
    /// The workbook is password-protected (encrypted OOXML in an OLE container).
    #[error(
        "{path}: the workbook is encrypted with a password — hint: open it in Excel with its password, remove the password (File → Info → Protect Workbook) and save a copy"
    )]
    Encrypted {
        /// The file.
        path: String,
    },
    /// No sheet has the name or index asked for; the message lists the real ones.
    #[error(
        "{path}: there is no sheet {wanted}; its sheets are {have} — hint: pass one of these names, or a 1-based index"
    )]
    NoSuchSheet {
        /// The file.
        path: String,
        /// What was asked (quoted name or index).
        wanted: String,
        /// The real names, quoted, in workbook order.
        have: String,
    },
    /// A cell reference or range in the arguments does not parse.
    #[error(
        "{what}: {reference:?} is not a cell reference — hint: use A1-style references such as \"B2\" or \"A1:D10\""
    )]
    BadReference {
        /// Where it appeared.
        what: String,
        /// The text.
        reference: String,
    },
    /// The workbook writer refused the content (a sheet name too long, too many rows, …).
    #[error("{path}: the workbook could not be written: {detail} — hint: {hint}")]
    Write {
        /// The file.
        path: String,
        /// The writer's reason.
        detail: String,
        /// What to change.
        hint: String,
    },
    /// LibreOffice is needed (recalculate) but absent or failed; the message carries its fix.
    #[error("{0}")]
    Office(String),
    /// The run's budget refused the job up front, ran out, or the run was cancelled.
    #[error(transparent)]
    Budget(#[from] BudgetError),
}

impl SheetError {
    /// An [`SheetError::Invalid`] from any text.
    pub fn invalid(msg: impl Into<String>) -> SheetError {
        SheetError::Invalid(msg.into())
    }
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, SheetError>;
