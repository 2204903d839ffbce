//! `present` and `ask_user`: the two verbs that reach the person, present only when the host
//! wires them.

use folio_vfs::{Kind, Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::fmt_bytes;
use crate::seams::Presented;

/// Tool description of `present`.
pub const PRESENT_DOC: &str = "Hand a finished file under /out to the person, with a caption saying what it is. Writing to /out is not delivering: call this once per deliverable.";
/// Tool description of `ask_user`.
pub const ASK_DOC: &str = "Ask the person a question only they can answer (a choice, a missing fact), ideally before an expensive step. Offer `options` for a named choice. If nobody answers, carry on with a stated assumption.";

/// Arguments of `present`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PresentArgs {
    /// The file, under /out.
    pub path: String,
    /// One or two sentences on what the file is and holds.
    pub caption: String,
}

/// Arguments of `ask_user`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AskArgs {
    /// A self-contained question.
    pub question: String,
    /// Named choices to offer, if the answer is one of them.
    pub options: Option<Vec<String>>,
}

/// `present`.
pub fn present(env: &Environment, args: PresentArgs) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    let caption = args.caption.trim();
    if caption.is_empty() {
        return Err(EnvError::args(
            "present",
            "a caption is required — say what the file is and what is in it. Example: \"Q2 revenue by region, with the three outliers flagged on page 2.\"",
        ));
    }
    if !path.is_under(&VPath::parse("/out")?) {
        return Err(EnvError::refused(format!(
            "present only works on files under /out, and {path} is not one. Copy it there first (cp {path} /out/{}) — /out is what counts as finished.",
            path.name()
        )));
    }
    let tree = env.tree();
    match tree.stat(&path)? {
        None => return Err(VfsError::NoSuchEntry(path).into()),
        Some(s) if s.kind == Kind::Dir => {
            return Err(EnvError::refused(format!(
                "{path} is a directory — present takes one file at a time; present each file in it separately"
            )));
        }
        Some(_) => {}
    }
    let bytes = tree.read(&path)?;
    let item = Presented {
        name: path.name().to_owned(),
        media_type: crate::media::media_type(path.extension(), &bytes),
        size: bytes.len() as u64,
        caption: caption.to_owned(),
        path,
        bytes,
    };
    if let Some(presenter) = &env.opts.presenter {
        presenter
            .present(&item)
            .map_err(|reason| EnvError::Host { what: format!("presenting {}", item.path), reason })?;
    }
    let text = format!("presented {} ({}) — {}", item.name, fmt_bytes(item.size), item.caption);
    let data = json!({"path": item.path, "name": item.name, "media_type": item.media_type, "size": item.size, "caption": item.caption});
    env.presented.lock().unwrap_or_else(|p| p.into_inner()).push(item);
    Ok(Reply { text, data })
}

/// `ask_user`.
pub fn ask_user(env: &Environment, args: AskArgs) -> Result<Reply> {
    let question = args.question.trim();
    if question.is_empty() {
        return Err(EnvError::args(
            "ask_user",
            "question must be a non-empty string — write the question out in full, with the context the person needs",
        ));
    }
    let options: Vec<String> =
        args.options.unwrap_or_default().iter().map(|o| o.trim().to_owned()).filter(|o| !o.is_empty()).collect();
    let Some(asker) = &env.opts.asker else {
        return Err(EnvError::refused(
            "ask_user is not available in this environment — carry on with a stated assumption",
        ));
    };
    let answer = asker
        .ask(question, &options)
        .map_err(|reason| EnvError::Host { what: "asking the person".to_owned(), reason })?;
    match answer.as_deref().map(str::trim) {
        Some(a) if !a.is_empty() => Ok(Reply { text: a.to_owned(), data: json!({"answer": a}) }),
        _ => Err(EnvError::refused(
            "no answer came back — the person did not respond. Carry on with the most reasonable assumption, and say in your final message which one you made and why.",
        )),
    }
}
