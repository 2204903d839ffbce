//! `describe` and the summary every writing binding returns about its output.

use serde::Serialize;
use serde_json::{Value, json};

use crate::error::MediaError;
use crate::ops::{Call, args};
use crate::probe::{MediaInfo, StreamInfo, StreamKind};

/// What `describe` returns.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaSummary {
    /// The tree path.
    pub path: String,
    /// The container, as ffprobe names it.
    pub format: String,
    /// File size.
    pub bytes: u64,
    /// Seconds (millisecond precision), or null.
    pub duration: Option<f64>,
    /// Bits per second, or null.
    pub bitrate: Option<u64>,
    /// Every stream.
    pub streams: Vec<StreamInfo>,
    /// The first video stream's width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// The first video stream's height.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// The first video stream's frame rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fps: Option<f64>,
    /// The first audio stream's channel layout (`stereo`, `mono`, `5.1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audio: Option<String>,
}

impl MediaSummary {
    /// The summary of `info` for the file at `path` of `bytes` bytes.
    pub fn new(path: &str, bytes: u64, info: &MediaInfo) -> MediaSummary {
        let v = info.first(StreamKind::Video);
        let a = info.first(StreamKind::Audio);
        MediaSummary {
            path: path.to_string(),
            format: info.format.clone(),
            bytes,
            duration: info.duration,
            bitrate: info.bitrate,
            streams: info.streams.clone(),
            width: v.and_then(|v| v.width),
            height: v.and_then(|v| v.height),
            fps: v.and_then(|v| v.fps),
            audio: a.map(|a| a.layout.clone().unwrap_or_else(|| format!("{} channel(s)", a.channels.unwrap_or(0)))),
        }
    }
}

/// `describe(path)`.
pub fn describe(cx: &Call<'_>, a: &[Value]) -> Result<Value, MediaError> {
    let path = args::path(a, 0, "the media file")?;
    let mut stage = cx.probe_stage()?;
    let input = cx.load(&mut stage, &path, true)?;
    serde_json::to_value(MediaSummary::new(&path, input.bytes, &input.info))
        .map_err(|e| MediaError::Invalid(e.to_string()))
}

/// What a writing binding returns: `{path, bytes}` and, when the output probes, its duration,
/// size and codecs.
pub fn output(path: &str, bytes: u64, info: Option<&MediaInfo>) -> Value {
    let mut v = json!({ "path": path, "bytes": bytes });
    if let Some(info) = info {
        let vid = info.first(StreamKind::Video);
        let aud = info.first(StreamKind::Audio);
        v["duration"] = json!(info.duration);
        if let Some(s) = vid {
            v["width"] = json!(s.width);
            v["height"] = json!(s.height);
            v["video"] = json!(s.codec);
        }
        if let Some(s) = aud {
            v["audio"] = json!(s.codec);
        }
    }
    v
}
