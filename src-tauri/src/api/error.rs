//! The one error every command answers with: what kind of failure it is (so the UI can tell a
//! missing folder from a refused path), the message (what happened, and where), and the fix on
//! its own line. It is built from the library errors by `From`; where a library only gives text,
//! the text's `— hint: …` suffix becomes [`CommandError::hint`].

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What sort of failure a command met. The UI may style or act on it (offer Open Folder for
/// [`ErrorKind::NoFolder`]); the message and hint stay the words the person reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ErrorKind {
    /// A command that needs an open folder ran before one was opened. The person opens one.
    NoFolder,
    /// The request itself is wrong (a bad path, an empty selection, a kind of file that has no
    /// such preview). The UI or the person changes the request.
    BadRequest,
    /// The file or entry named is not there (anymore). The person picks it again.
    NotFound,
    /// The path is refused: a private zone, or a symlink leading out of the folder.
    Refused,
    /// A tool or setting the command needs is missing (ffmpeg, LibreOffice, a provider key). The
    /// hint says what to install or configure.
    Unavailable,
    /// The command ran and failed (I/O, a tool's own failure, a store error). The message says
    /// why; trying again may help once the cause is fixed.
    Failed,
    /// The command's task stopped unexpectedly (a panic on the blocking pool). Trying again is
    /// the only move.
    Internal,
}

/// A failed command, as the UI receives it: `{kind, message, hint}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, thiserror::Error)]
#[serde(rename_all = "camelCase")]
#[error("{}", self.text())]
pub struct CommandError {
    /// What sort of failure it is.
    pub kind: ErrorKind,
    /// What happened, and where.
    pub message: String,
    /// The fix, when one is known (shown apart, as "Fix: …").
    pub hint: Option<String>,
}

/// The separator the library messages put before their fix.
const HINT: &str = " — hint: ";

impl CommandError {
    /// An error of `kind` from a library message, splitting its `— hint: …` suffix into the hint.
    pub fn new(kind: ErrorKind, text: impl Into<String>) -> CommandError {
        let text = text.into();
        match text.split_once(HINT) {
            Some((message, hint)) => {
                CommandError { kind, message: message.trim_end().to_string(), hint: Some(hint.trim().to_string()) }
            }
            None => CommandError { kind, message: text, hint: None },
        }
    }

    /// An error of `kind` whose fix is known apart from the message.
    pub fn with_hint(kind: ErrorKind, message: impl Into<String>, hint: impl Into<String>) -> CommandError {
        CommandError { kind, message: message.into(), hint: Some(hint.into()) }
    }

    /// The error no open folder gives.
    pub fn no_folder() -> CommandError {
        CommandError::with_hint(ErrorKind::NoFolder, "no folder is open", "choose one with Open Folder")
    }

    /// A task of the blocking pool (or a spawned turn) that stopped without answering.
    pub fn stopped(what: &str, why: impl std::fmt::Display, retry: &str) -> CommandError {
        CommandError::with_hint(ErrorKind::Internal, format!("{what} stopped unexpectedly: {why}"), retry)
    }

    /// The message and hint as one line, in the libraries' own `… — hint: …` form.
    pub fn text(&self) -> String {
        match &self.hint {
            Some(hint) => format!("{}{HINT}{hint}", self.message),
            None => self.message.clone(),
        }
    }
}

/// A library message with no more structure than its text: a failure, its hint split off.
impl From<String> for CommandError {
    fn from(text: String) -> CommandError {
        CommandError::new(ErrorKind::Failed, text)
    }
}

impl From<crate::preview::error::PreviewError> for CommandError {
    fn from(e: crate::preview::error::PreviewError) -> CommandError {
        use crate::preview::error::PreviewError as P;
        // Whether the message ends in ` — <the fix>` (the variants whose text is written so).
        let (kind, ends_in_fix) = match &e {
            P::NoFolder => return CommandError::no_folder(),
            P::NoTranscoder { path, why, fix } => {
                return CommandError::with_hint(
                    ErrorKind::Unavailable,
                    format!("{path} cannot be converted for this webview: {why}"),
                    fix.clone(),
                );
            }
            P::BadPath { .. } | P::TooLarge { .. } => (ErrorKind::BadRequest, true),
            P::NoBrowser { .. } => (ErrorKind::Unavailable, false),
            P::Scene { .. } | P::Superseded { .. } => (ErrorKind::Failed, false),
            P::Unsupported { .. } => (ErrorKind::BadRequest, false),
            P::NotFound { .. } | P::NoTranscode { .. } => (ErrorKind::NotFound, true),
            P::NoBase { .. } => (ErrorKind::NotFound, false),
            P::Private { .. } => (ErrorKind::Refused, true),
            P::Outside { .. } => (ErrorKind::Refused, false),
            P::Transcode { .. } | P::Cache { .. } => (ErrorKind::Failed, true),
            P::Read { .. } | P::Render(_) | P::Table { .. } => (ErrorKind::Failed, false),
        };
        let text = e.to_string();
        match text.rsplit_once(" — ") {
            Some((message, fix)) if ends_in_fix && !text.contains(HINT) => {
                CommandError::with_hint(kind, message, fix.trim_start_matches("hint: "))
            }
            _ => CommandError::new(kind, text),
        }
    }
}

impl From<folio_vfs::VfsError> for CommandError {
    fn from(e: folio_vfs::VfsError) -> CommandError {
        use folio_vfs::VfsError as V;
        let kind = match &e {
            V::NoSuchFile(_) | V::NoSuchEntry(_) | V::NoSuchDirectory(_) => ErrorKind::NotFound,
            V::EscapesFolder { .. } | V::ReadOnly { .. } => ErrorKind::Refused,
            V::Path(_) | V::ReadDirectory(_) | V::NotADirectory(_) | V::SamePath(_) | V::IntoItself { .. } => {
                ErrorKind::BadRequest
            }
            _ => ErrorKind::Failed,
        };
        CommandError::new(kind, e.to_string())
    }
}

/// The error payload defined in this file.
pub(crate) fn decls() -> Vec<String> {
    vec![ErrorKind::decl(), CommandError::decl()]
}

#[cfg(test)]
mod tests {
    use super::{CommandError, ErrorKind};

    fn check(text: &str, message: &str, hint: Option<&str>) {
        let e = CommandError::from(text.to_string());
        assert_eq!((e.kind, e.message.as_str(), e.hint.as_deref()), (ErrorKind::Failed, message, hint), "{text}");
        assert_eq!(e.text(), text, "the one-line form is the library's text again");
    }

    #[test]
    fn a_hint_suffix_is_split_off_and_text_without_one_is_the_message() {
        check("no such file: /a — hint: ls its directory", "no such file: /a", Some("ls its directory"));
        check("the store failed", "the store failed", None);
        check("a — b — hint: c — hint: d", "a — b", Some("c — hint: d"));
    }

    #[test]
    fn it_serialises_as_kind_message_hint() {
        let json = serde_json::to_value(CommandError::no_folder()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "noFolder", "message": "no folder is open", "hint": "choose one with Open Folder"})
        );
    }
}
