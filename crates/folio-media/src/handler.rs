//! The `describe` handler for folio-env's registry: [`MediaHandler`] claims the audio and video
//! kinds the workspace's kind table (`folio_kinds`) gives `env:media` — by magic bytes first
//! (`ftyp`, EBML, `RIFF…AVI `/`WAVE`, `ID3`, `fLaC`, `OggS`), then by extension — and describes
//! them with ffprobe: duration, codecs, size, fps, audio layout.

use std::sync::Arc;

use folio_env::{FileHandler, Magic};
use folio_kinds::Handler;
use folio_vfs::VPath;

use crate::ops::{MediaHost, MediaSummary};
use crate::stage::Stage;

/// Audio and video, summarised for `describe` and marked "open with env:media".
pub struct MediaHandler {
    host: Arc<MediaHost>,
}

impl MediaHandler {
    /// A handler probing with `host`'s ffprobe.
    pub fn new(host: Arc<MediaHost>) -> MediaHandler {
        MediaHandler { host }
    }
}

impl FileHandler for MediaHandler {
    fn module(&self) -> &str {
        Handler::Media.module()
    }
    fn description(&self) -> &str {
        "audio and video: duration, codecs, size, frame rate, audio layout; cut, join, convert, mix, subtitle"
    }
    fn extensions(&self) -> Vec<String> {
        Handler::Media.extensions().iter().map(|e| format!(".{e}")).collect()
    }
    fn magic(&self) -> Vec<Magic> {
        Handler::Media.signatures().into_iter().map(|(offset, bytes)| Magic { offset, bytes: bytes.to_vec() }).collect()
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        let describe = || -> Result<serde_json::Value, crate::MediaError> {
            let ffmpeg = self.host.ffmpeg()?;
            if bytes.is_empty() {
                return Err(crate::MediaError::Unreadable {
                    path: path.to_string(),
                    detail: "the file is empty (0 bytes)".into(),
                });
            }
            let mut stage = Stage::for_probe(None)?;
            let file = stage.input(path.as_str(), bytes)?;
            let info = crate::probe::probe_within(
                ffmpeg,
                &stage.path(&file),
                path.as_str(),
                &folio_budget::ChildLimits::timeout(crate::probe::PROBE_TIMEOUT),
            )?;
            let mut v = serde_json::to_value(MediaSummary::new(path.as_str(), bytes.len() as u64, &info))
                .map_err(|e| crate::MediaError::Invalid(e.to_string()))?;
            v["kind"] = serde_json::json!("media");
            Ok(v)
        };
        describe().map_err(|e| e.to_string())
    }
}
