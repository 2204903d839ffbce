//! What a video or audio file is made of, decided on the Rust side before any player is shown:
//! folio-media's probe (ffprobe, run by the one crate that knows it) when ffprobe is installed,
//! otherwise the container's own bytes (MP4 sample entries,
//! Matroska codec IDs, Ogg headers). The answer becomes a media type with codecs that the UI asks
//! the webview about with `canPlayType`; an unknown codec has no media type, so only a transcode
//! can play it.

use std::path::Path;
use std::time::Duration;

use folio_budget::child::ChildLimits;
use folio_media::Ffmpeg;
use folio_media::preview::PreviewProbe;
use serde::{Deserialize, Serialize};

/// How long a preview's probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// Container and codecs of one media file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Probe {
    /// `mp4`, `mov`, `webm`, `matroska`, `ogg`, `mp3`, `wav`, `flac`, `avi`, or what ffprobe says.
    pub container: String,
    /// The first video stream's codec.
    pub video: Option<String>,
    /// The first audio stream's codec.
    pub audio: Option<String>,
    /// Seconds.
    pub duration_s: Option<f64>,
    /// Frame width.
    pub width: Option<u32>,
    /// Frame height.
    pub height: Option<u32>,
    /// `ffprobe` or `magic`.
    pub probed_by: String,
}

fn has(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The container by magic number.
pub fn container(bytes: &[u8]) -> Option<&'static str> {
    let at = |offset: usize, sig: &[u8]| bytes.get(offset..offset + sig.len()) == Some(sig);
    if at(4, b"ftyp") {
        Some(if at(8, b"qt  ") { "mov" } else { "mp4" })
    } else if at(0, b"\x1a\x45\xdf\xa3") {
        // The EBML header names its DocType near the start.
        Some(if has(&bytes[..bytes.len().min(64)], b"webm") { "webm" } else { "matroska" })
    } else if at(0, b"OggS") {
        Some("ogg")
    } else if at(0, b"fLaC") {
        Some("flac")
    } else if at(0, b"RIFF") && at(8, b"WAVE") {
        Some("wav")
    } else if at(0, b"RIFF") && at(8, b"AVI ") {
        Some("avi")
    } else if at(0, b"ID3") || (bytes.len() > 1 && bytes[0] == 0xff && bytes[1] & 0xe0 == 0xe0) {
        Some("mp3")
    } else {
        None
    }
}

/// Reads container and codecs from the bytes alone. MP4 sample entries and Matroska codec IDs
/// are found by their four-character codes and ID strings; anything else is left unknown.
pub fn magic(bytes: &[u8]) -> Probe {
    let container = container(bytes).unwrap_or("unknown");
    let first = |table: &[(&[u8], &str)], hay: &[u8]| {
        table.iter().find(|(sig, _)| has(hay, sig)).map(|(_, name)| (*name).to_string())
    };
    let (video, audio) = match container {
        "mp4" | "mov" => (
            first(
                &[
                    (b"avc1", "h264"),
                    (b"avc3", "h264"),
                    (b"hvc1", "hevc"),
                    (b"hev1", "hevc"),
                    (b"av01", "av1"),
                    (b"vp09", "vp9"),
                    (b"mp4v", "mpeg4"),
                ],
                bytes,
            ),
            first(
                &[(b"mp4a", "aac"), (b"Opus", "opus"), (b"fLaC", "flac"), (b"ac-3", "ac3"), (b"alac", "alac")],
                bytes,
            ),
        ),
        "webm" | "matroska" => {
            let head = &bytes[..bytes.len().min(1 << 16)];
            (
                first(
                    &[
                        (b"V_VP8", "vp8"),
                        (b"V_VP9", "vp9"),
                        (b"V_AV1", "av1"),
                        (b"V_MPEG4/ISO/AVC", "h264"),
                        (b"V_MPEGH/ISO/HEVC", "hevc"),
                    ],
                    head,
                ),
                first(
                    &[
                        (b"A_OPUS", "opus"),
                        (b"A_VORBIS", "vorbis"),
                        (b"A_AAC", "aac"),
                        (b"A_MPEG/L3", "mp3"),
                        (b"A_FLAC", "flac"),
                    ],
                    head,
                ),
            )
        }
        "ogg" => {
            let head = &bytes[..bytes.len().min(1 << 12)];
            (
                first(&[(b"\x80theora", "theora")], head),
                first(&[(b"OpusHead", "opus"), (b"\x01vorbis", "vorbis"), (b"\x7fFLAC", "flac")], head),
            )
        }
        "mp3" => (None, Some("mp3".into())),
        "flac" => (None, Some("flac".into())),
        "wav" => (None, Some("pcm".into())),
        _ => (None, None),
    };
    Probe { container: container.into(), video, audio, probed_by: "magic".into(), ..Probe::default() }
}

/// The preview's view of folio-media's probe. `bytes_container` is the container the magic
/// number says (ffprobe names mp4 and mov alike, and webm and Matroska).
pub fn from_probe(p: &PreviewProbe, bytes_container: Option<&str>) -> Probe {
    let video = p.video();
    let named = p.info.format.split(',').next().unwrap_or("unknown");
    let audio = p.audio().map(|s| if s.codec.starts_with("pcm_") { "pcm".to_string() } else { s.codec.clone() });
    Probe {
        container: bytes_container.unwrap_or(named).to_string(),
        video: video.map(|s| s.codec.clone()),
        audio,
        duration_s: p.info.duration,
        width: video.and_then(|s| s.width),
        height: video.and_then(|s| s.height),
        probed_by: "ffprobe".into(),
    }
}

/// Probes a host file through folio-media.
pub fn ffprobe(ffmpeg: &Ffmpeg, file: &Path, bytes_container: Option<&str>) -> Result<Probe, String> {
    let limits = ChildLimits::timeout(PROBE_TIMEOUT);
    folio_media::preview::probe_preview(ffmpeg, file, "the media file", &limits)
        .map(|p| from_probe(&p, bytes_container))
        .map_err(|e| e.to_string())
}

/// The RFC 6381 codec string of a codec, as `canPlayType` understands it.
fn codec_id(codec: &str) -> Option<&'static str> {
    Some(match codec {
        "h264" => "avc1.42E01E",
        "hevc" => "hvc1.1.6.L93.B0",
        "av1" => "av01.0.05M.08",
        "vp8" => "vp8",
        "vp9" => "vp9",
        "theora" => "theora",
        "mpeg4" => "mp4v.20.9",
        "aac" => "mp4a.40.2",
        "opus" => "opus",
        "vorbis" => "vorbis",
        "mp3" => "mp3",
        "flac" => "flac",
        _ => return None,
    })
}

/// The media type with codecs to ask the webview about, or `None` when a codec or the container
/// is one no browser engine names (then only a transcode can play it).
pub fn mime(probe: &Probe) -> Option<String> {
    let is_video = probe.video.is_some();
    match probe.container.as_str() {
        "mp3" if probe.audio.as_deref() == Some("mp3") && !is_video => return Some("audio/mpeg".into()),
        "flac" if probe.audio.as_deref() == Some("flac") && !is_video => return Some("audio/flac".into()),
        "wav" if probe.audio.as_deref() == Some("pcm") && !is_video => return Some("audio/wav".into()),
        _ => {}
    }
    let codecs: Vec<&str> =
        [&probe.video, &probe.audio].into_iter().flatten().map(|c| codec_id(c)).collect::<Option<Vec<_>>>()?;
    let base = match (probe.container.as_str(), is_video) {
        ("mp4" | "mov", true) => "video/mp4",
        ("mp4" | "mov", false) => "audio/mp4",
        ("webm", true) => "video/webm",
        ("webm", false) => "audio/webm",
        ("matroska", true) => "video/x-matroska",
        ("matroska", false) => "audio/x-matroska",
        ("ogg", true) => "video/ogg",
        ("ogg", false) => "audio/ogg",
        _ => return None,
    };
    if codecs.is_empty() {
        return None;
    }
    Some(format!("{base}; codecs=\"{}\"", codecs.join(", ")))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn probe(container: &str, video: Option<&str>, audio: Option<&str>) -> Probe {
        Probe {
            container: container.into(),
            video: video.map(Into::into),
            audio: audio.map(Into::into),
            ..Probe::default()
        }
    }

    #[test]
    fn media_types_with_codecs() {
        let cases = [
            (probe("mp4", Some("h264"), Some("aac")), Some("video/mp4; codecs=\"avc1.42E01E, mp4a.40.2\"")),
            (probe("mp4", Some("h264"), None), Some("video/mp4; codecs=\"avc1.42E01E\"")),
            (probe("webm", Some("vp8"), Some("opus")), Some("video/webm; codecs=\"vp8, opus\"")),
            (probe("webm", Some("vp9"), None), Some("video/webm; codecs=\"vp9\"")),
            (probe("webm", None, Some("opus")), Some("audio/webm; codecs=\"opus\"")),
            (probe("ogg", None, Some("vorbis")), Some("audio/ogg; codecs=\"vorbis\"")),
            (probe("mp4", None, Some("aac")), Some("audio/mp4; codecs=\"mp4a.40.2\"")),
            (probe("mp3", None, Some("mp3")), Some("audio/mpeg")),
            (probe("wav", None, Some("pcm")), Some("audio/wav")),
            // Codecs no engine names, or containers none plays: only a transcode helps.
            (probe("avi", Some("h264"), None), None),
            (probe("mp4", Some("prores"), None), None),
            (probe("mp4", None, None), None),
            (probe("wav", None, Some("adpcm_ms")), None),
        ];
        for (p, want) in cases {
            assert_eq!(mime(&p).as_deref(), want, "{p:?}");
        }
    }

    #[test]
    fn magic_reads_containers_and_codecs() {
        let mut mp4 = b"\0\0\0\x18ftypisom\0\0\0\0".to_vec();
        mp4.extend_from_slice(b"....moov....stsd....avc1....mp4a....");
        let p = magic(&mp4);
        assert_eq!((p.container.as_str(), p.video.as_deref(), p.audio.as_deref()), ("mp4", Some("h264"), Some("aac")));
        let mut webm = b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x84webm".to_vec();
        webm.extend_from_slice(b"....\x86\x85V_VP9....\x86\x86A_OPUS");
        let p = magic(&webm);
        assert_eq!((p.container.as_str(), p.video.as_deref(), p.audio.as_deref()), ("webm", Some("vp9"), Some("opus")));
        let p = magic(b"OggS\0\x02........OpusHead");
        assert_eq!((p.container.as_str(), p.audio.as_deref()), ("ogg", Some("opus")));
        assert_eq!(magic(b"ID3\x04").audio.as_deref(), Some("mp3"));
        assert_eq!(magic(b"hello").container, "unknown");
    }

    #[test]
    fn folio_medias_probe_is_read_and_cover_art_is_not_video() {
        let read = |json: &str, container| {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            from_probe(&folio_media::preview::parse_preview(&v), container)
        };
        let p = read(
            r#"{"streams":[
            {"index":0,"codec_type":"audio","codec_name":"mp3"},
            {"index":1,"codec_type":"video","codec_name":"mjpeg","width":500,"height":500,"disposition":{"attached_pic":1}}],
          "format":{"format_name":"mp3","duration":"12.5"}}"#,
            Some("mp3"),
        );
        assert_eq!((p.video, p.audio.as_deref(), p.duration_s), (None, Some("mp3"), Some(12.5)));
        let p = read(
            r#"{"streams":[{"index":0,"codec_type":"video","codec_name":"h264","width":320,"height":240},
            {"index":1,"codec_type":"audio","codec_name":"pcm_s16le"}],"format":{"format_name":"mov,mp4,m4a,3gp,3g2,mj2","duration":"4.0"}}"#,
            None,
        );
        assert_eq!((p.container.as_str(), p.video.as_deref(), p.audio.as_deref()), ("mov", Some("h264"), Some("pcm")));
        assert_eq!((p.width, p.height, p.probed_by.as_str()), (Some(320), Some(240), "ffprobe"));
    }
}
