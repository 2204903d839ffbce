//! Save-as for a presented file: its bytes as the agent sees them (pending or committed) written
//! to a place outside the folder. The folder itself only changes by a commit, so a destination
//! inside it is refused with that fix.

use std::path::Path;

use folio_vfs::{Tree, VPath};

use crate::api::{HandoffSaveParams, HandoffSaveResponse};
use crate::session::Session;

/// Writes the file at `params.path` to `params.destination`.
pub fn save(session: &Session, params: &HandoffSaveParams) -> Result<HandoffSaveResponse, String> {
    let at = VPath::parse(&params.path).map_err(|e| format!("`{}` is not a path in the folder: {e}", params.path))?;
    let destination = Path::new(&params.destination);
    if !destination.is_absolute() {
        return Err(format!(
            "{} is not an absolute path — choose where to save with the dialog",
            destination.display()
        ));
    }
    let parent = destination.parent().unwrap_or(destination);
    let real_parent = parent
        .canonicalize()
        .map_err(|e| format!("{} cannot be written: {e} — choose an existing folder to save into", parent.display()))?;
    if real_parent.starts_with(session.folder()) {
        return Err(format!(
            "{} is inside the open folder, which only changes when you commit — commit {} from the review bar instead, or save it elsewhere",
            destination.display(),
            params.path
        ));
    }
    let bytes = session.environment().tree().read(&at).map_err(|e| format!("{at} could not be read: {e}"))?;
    std::fs::write(destination, &bytes).map_err(|e| {
        format!("{} could not be written: {e} — check that the folder is writable", destination.display())
    })?;
    Ok(HandoffSaveResponse { saved: destination.display().to_string(), size: bytes.len() as u64 })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn saves_pending_bytes_outside_the_folder_and_refuses_inside() {
        let folder = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let session = Session::open(folder.path(), Some(state.path().to_path_buf())).unwrap();
        let reply =
            session.environment().call("write_file", serde_json::json!({"path": "/out/a.md", "content": "# A\n"}));
        assert_eq!(reply.status, folio_env::Status::Success, "{}", reply.message);
        let target = elsewhere.path().join("a.md");
        let params = HandoffSaveParams { path: "/out/a.md".into(), destination: target.display().to_string() };
        let saved = save(&session, &params).unwrap();
        assert_eq!((std::fs::read_to_string(&target).unwrap().as_str(), saved.size), ("# A\n", 4));
        let inside = HandoffSaveParams {
            path: "/out/a.md".into(),
            destination: folder.path().join("a.md").display().to_string(),
        };
        let err = save(&session, &inside).unwrap_err();
        assert!(err.contains("commit /out/a.md from the review bar"), "{err}");
        assert!(!folder.path().join("a.md").exists());
    }
}
