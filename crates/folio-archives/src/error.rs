//! The crate's one error enum. Every message says what happened, where (the archive and the
//! entry), and the fix; a refusal that enforces a limit names the limit and its value.

use thiserror::Error;

/// Why an archive operation failed. None of these is retried by this crate: each is a property
/// of the input or of the limits, so the caller (the agent) changes the call and tries again.
#[derive(Debug, Error)]
pub enum ArchiveError {
    /// The bytes are not a zip, tar or gzip stream (or are damaged). The caller checks the file.
    #[error(
        "{archive}: {detail} — hint: env:archives reads .zip, .tar and .tar.gz/.tgz; describe the file to see what it is"
    )]
    Unreadable {
        /// The archive's path.
        archive: String,
        /// What the reader said.
        detail: String,
    },
    /// An entry's name would land outside the target directory (`../`, an absolute name, a
    /// drive letter). Nothing was written. The caller extracts a subset with `include`, or not at all.
    #[error(
        "{archive}: entry \"{entry}\" is refused: {why} — nothing was extracted; the archive is unsafe (path traversal). Extract only safe entries with {{include: 'glob'}}, or do not extract it"
    )]
    Traversal {
        /// The archive's path.
        archive: String,
        /// The entry's name as stored.
        entry: String,
        /// Which rule it broke.
        why: &'static str,
    },
    /// A tar entry is a symbolic link, hard link, device or FIFO, or a zip entry is a symlink.
    /// Nothing was written. The caller excludes it with `include`.
    #[error(
        "{archive}: entry \"{entry}\" is a {kind}, which env:archives refuses (links and devices could reach outside the tree) — nothing was extracted; leave it out with {{include: 'glob'}}"
    )]
    Link {
        /// The archive's path.
        archive: String,
        /// The entry's name.
        entry: String,
        /// What it is (`symbolic link`, `hard link`, `character device`, …).
        kind: &'static str,
    },
    /// A zip entry is encrypted. Nothing was written; the person decrypts it with their tool.
    #[error(
        "{archive}: entry \"{entry}\" is encrypted (password-protected zip), which env:archives refuses — nothing was extracted; ask the person for an unencrypted copy, or leave the entry out with {{include: 'glob'}}"
    )]
    Encrypted {
        /// The archive's path.
        archive: String,
        /// The entry's name.
        entry: String,
    },
    /// A zip entry uses a compression method other than stored or deflated.
    #[error(
        "{archive}: entry \"{entry}\" uses compression method {method}; env:archives reads only Stored and Deflated — nothing was extracted; ask for the archive re-made with standard zip (deflate), or leave the entry out with {{include: 'glob'}}"
    )]
    Method {
        /// The archive's path.
        archive: String,
        /// The entry's name.
        entry: String,
        /// The method as the zip reader names it.
        method: String,
    },
    /// More entries than `limits.max_entries`, counted before anything is inflated.
    #[error(
        "{archive}: {count} entries is over the limit of {limit} entries (MAX_ENTRIES) — nothing was extracted; extract a subset with {{include: 'glob'}}"
    )]
    TooManyEntries {
        /// The archive's path.
        archive: String,
        /// How many entries were counted (at least).
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// Inflating would write more than the bytes left in the tree's budget (a zip bomb, or just
    /// too much). The caller extracts a subset, or the person raises the limit.
    #[error(
        "{archive}: {what} inflates past the {budget} bytes left of the tree's budget (limits.max_vfs_bytes = {cap}) — stopped before writing it; this looks like a decompression bomb, or the archive is too large: extract a subset with {{include: 'glob'}}"
    )]
    Bomb {
        /// The archive's path.
        archive: String,
        /// The entry (or `the gzip stream`).
        what: String,
        /// The bytes that were left.
        budget: u64,
        /// The whole cap.
        cap: u64,
    },
    /// Two selected entries resolve to the same output path.
    #[error(
        "{archive}: entries \"{first}\" and \"{second}\" both extract to {path} — nothing was extracted; pick one with {{include: 'glob'}}"
    )]
    Duplicate {
        /// The archive's path.
        archive: String,
        /// The first entry's name.
        first: String,
        /// The second entry's name.
        second: String,
        /// Where both would land.
        path: String,
    },
    /// `include` matched no file entry.
    #[error(
        "{archive}: include '{glob}' matches none of its {files} file entries — list(path) shows the names; a pattern is matched against the whole entry name (e.g. '**/*.csv')"
    )]
    NothingMatched {
        /// The archive's path.
        archive: String,
        /// The pattern.
        glob: String,
        /// How many file entries there are.
        files: usize,
    },
    /// A call's arguments are wrong (the message is the whole sentence).
    #[error("{0}")]
    Invalid(String),
    /// Reading or writing the tree failed (the gateway's own message, which names its fix).
    #[error("{0}")]
    Fs(String),
    /// The run's budget refused or stopped the job (its message names the budget).
    #[error("{0}")]
    Budget(#[from] folio_budget::BudgetError),
}
