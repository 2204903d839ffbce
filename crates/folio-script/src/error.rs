//! The one error type of the script layer. Every message says what happened, where, and the fix,
//! because the text goes to a model that has nothing else to go on.

use folio_vfs::VPath;

/// Why a load, a validation or a run failed.
///
/// Nothing here is retried automatically. Variants caused by the script (syntax, imports, the
/// contract, a thrown error, a budget) are fixed by the model rewriting the script; variants caused
/// by the host (cancellation, an engine failure) are for the host to report or retry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScriptError {
    /// The module source does not parse. Raised at write-time validation and at run time; the
    /// model fixes the source at the named position.
    #[error("{path}:{line}:{column}: syntax error: {message}\n  at line {line}:\n{excerpt}")]
    Syntax {
        /// The module that failed to parse.
        path: String,
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
        /// QuickJS's description of the problem.
        message: String,
        /// The offending line (at most 200 characters) and a caret under the column.
        excerpt: String,
    },
    /// An import could not be resolved or loaded: a bare specifier, an unknown `env:` module, a
    /// missing file or a static import cycle. The message lists what exists; the model fixes the
    /// import.
    #[error("{0}")]
    Import(String),
    /// The module loaded but breaks the script contract (no default export, or a default export
    /// that is not a function). The message shows the expected shape; the model rewrites it.
    #[error("{0}")]
    Contract(String),
    /// The script threw (or rejected) while loading or running. The message carries the error's
    /// class, text and the script's own stack frames; the model fixes the script.
    #[error("{0}")]
    Thrown(String),
    /// The run used up its wall-clock budget. `message` names the budget that applied and the
    /// option that raises it; the model makes the script faster or asks for a larger budget.
    #[error("{0}")]
    Timeout(String),
    /// The run exceeded its memory ceiling (including QuickJS throwing `null` while allocating).
    /// The model processes data in batches; the host may raise `limits.script_memory_mb`.
    #[error(
        "script exceeded the memory limit: {limit_mb}MB (limits.script_memory_mb) and was stopped. Process data in batches — read, write, release — instead of accumulating it all in memory."
    )]
    OutOfMemory {
        /// The ceiling that applied, in MiB.
        limit_mb: u64,
    },
    /// The host cancelled the run (before or during it). Nothing after the cancellation was
    /// applied; the host decides whether to run again.
    #[error("the script was cancelled by the host before it finished; none of its later changes were applied")]
    Cancelled,
    /// A path argument was not a usable VFS path.
    #[error("{path} is not a runnable script: {reason}")]
    NotRunnable {
        /// The path given.
        path: String,
        /// Why, with the fix.
        reason: String,
    },
    /// The engine itself failed (runtime creation, an internal QuickJS error, a host thread that
    /// died). Not the script's fault; the host reports it and may retry once.
    #[error(
        "the script engine failed: {0} — this is a Folio bug or resource problem, not a script error; retry once, then report it"
    )]
    Engine(String),
}

impl ScriptError {
    /// A run refused because the path is not a `.js` file.
    pub(crate) fn not_js(path: &VPath) -> ScriptError {
        ScriptError::NotRunnable {
            path: path.to_string(),
            reason: "only .js files are scripts — name the JavaScript module to run, like /scripts/main.js".into(),
        }
    }
}

/// Why an `env:fs` operation of a [`crate::ScriptFs`] failed. The script sees the message,
/// prefixed `env:fs.<function>: `; nothing here is retried automatically.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    /// The tree refused or failed (a missing file, a directory in the way, host I/O). The model
    /// fixes the path; host I/O failures are for the person.
    #[error(transparent)]
    Tree(#[from] folio_vfs::VfsError),
    /// The host's rules refused the change (a read-only zone, a size limit, a script that does
    /// not validate). The message is the host's own and names the fix.
    #[error(transparent)]
    Refused(Box<dyn std::error::Error + Send + Sync>),
    /// The operation cannot run in this context (a write while a module's top level is being
    /// validated). The model moves the work into the default export.
    #[error("{op} {why}")]
    NotNow {
        /// The `env:fs` function (`writeFile`, `mkdir`, …).
        op: &'static str,
        /// Why, and what to do instead.
        why: &'static str,
    },
    /// The host side of the call went away before answering (the validation ended). The run is
    /// over; nothing to retry.
    #[error("{0}")]
    Gone(&'static str),
}

/// A script sees an `env:fs` failure as its message.
impl From<FsError> for String {
    fn from(e: FsError) -> String {
        e.to_string()
    }
}
