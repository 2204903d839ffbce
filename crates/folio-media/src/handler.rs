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

/// The major brands (offset 8 of an ISO-BMFF file) of MP4 video and audio; the kind table's
/// M4A/M4B and QuickTime brands come from its own rows.
pub const MP4_BRANDS: &[&[u8; 4]] = &[
    b"isom", b"iso2", b"iso4", b"iso5", b"iso6", b"mp41", b"mp42", b"avc1", b"M4V ", b"dash", b"3gp4", b"3gp5",
    b"3g2a", b"MSNV", b"f4v ",
];

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
    /// The kind table's signatures, except the bare `ftyp` box: HEIC and AVIF stills carry it
    /// too, and the registry matches one signature at a time, so it would claim photos. An
    /// ISO-BMFF file is claimed instead by the major brands of audio and video ([`MP4_BRANDS`]
    /// at offset 8); any other `.mp4`/`.mov` is still claimed by its extension.
    fn magic(&self) -> Vec<Magic> {
        Handler::Media
            .signatures()
            .into_iter()
            .filter(|(offset, bytes)| !(*offset == 4 && *bytes == b"ftyp"))
            .map(|(offset, bytes)| Magic { offset, bytes: bytes.to_vec() })
            .chain(MP4_BRANDS.iter().map(|b| Magic { offset: 8, bytes: b.to_vec() }))
            .collect()
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
