//! The typed probe: ffprobe's JSON (`-show_format -show_streams`) read into [`MediaInfo`] —
//! container, duration, bit rate, and per stream its kind, codec, track number within its kind,
//! size, frame rate, channels, sample rate, rotation and language.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use folio_budget::child::ChildLimits;
use serde::Serialize;
use serde_json::Value;

use crate::discovery::Ffmpeg;
use crate::error::{MediaError, last_lines};
use crate::run::{file_arg, run_ffprobe};

/// How long a probe may take.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// What a stream carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StreamKind {
    /// Pictures.
    Video,
    /// Sound.
    Audio,
    /// Subtitles.
    Subtitle,
    /// Data, attachments, anything else.
    Other,
}

impl StreamKind {
    fn from_codec_type(t: &str) -> StreamKind {
        match t {
            "video" => StreamKind::Video,
            "audio" => StreamKind::Audio,
            "subtitle" => StreamKind::Subtitle,
            _ => StreamKind::Other,
        }
    }
}

/// One stream of a media file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamInfo {
    /// Its index in the file.
    #[serde(skip)]
    pub index: u32,
    /// What it carries.
    pub kind: StreamKind,
    /// The codec's short name (`h264`, `aac`, `subrip`).
    pub codec: String,
    /// Its number among the streams of its kind (0-based), as `-map 0:a:N` counts.
    pub track: u32,
    /// Its language tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Its title tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Picture width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Picture height.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Frames per second (from the average frame rate, else the base rate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fps: Option<f64>,
    /// Audio channels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channels: Option<u32>,
    /// The channel layout (`stereo`, `mono`, `5.1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    /// Audio samples per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_rate: Option<u32>,
    /// Display rotation in degrees (from the display matrix or the `rotate` tag).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<i32>,
    /// The stream's own duration in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
}

/// What a media file is made of.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaInfo {
    /// The container as ffprobe names it (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
    pub format: String,
    /// Duration in seconds, millisecond precision, when known.
    pub duration: Option<f64>,
    /// Overall bits per second, when known.
    pub bitrate: Option<u64>,
    /// Every stream, in file order.
    pub streams: Vec<StreamInfo>,
}

impl MediaInfo {
    /// The first stream of `kind`.
    pub fn first(&self, kind: StreamKind) -> Option<&StreamInfo> {
        self.streams.iter().find(|s| s.kind == kind)
    }

    /// Streams of `kind`.
    pub fn of(&self, kind: StreamKind) -> impl Iterator<Item = &StreamInfo> {
        self.streams.iter().filter(move |s| s.kind == kind)
    }

    /// The first video stream's size.
    pub fn size(&self) -> Option<(u32, u32)> {
        self.first(StreamKind::Video).and_then(|v| Some((v.width?, v.height?)))
    }
}

/// Probes `path` (a host file) with ffprobe.
pub fn probe(ffmpeg: &Ffmpeg, path: &Path) -> Result<MediaInfo, MediaError> {
    probe_within(ffmpeg, path, &path.display().to_string(), &ChildLimits::timeout(PROBE_TIMEOUT))
}

/// Probes `path`, naming it `shown` in errors, under `limits`.
pub fn probe_within(ffmpeg: &Ffmpeg, path: &Path, shown: &str, limits: &ChildLimits) -> Result<MediaInfo, MediaError> {
    let ffprobe = ffmpeg.require_ffprobe()?;
    let len = std::fs::metadata(path).map_err(MediaError::io(format!("reading {shown}")))?.len();
    if len == 0 {
        return Err(MediaError::Unreadable { path: shown.to_string(), detail: "the file is empty (0 bytes)".into() });
    }
    let args: Vec<OsString> = ["-v", "error", "-print_format", "json", "-show_format", "-show_streams"]
        .map(OsString::from)
        .into_iter()
        .chain([file_arg(path)])
        .collect();
    let out = match run_ffprobe(ffprobe, &format!("probing {shown}"), &args, limits) {
        Ok(o) => o,
        Err(MediaError::Failed { stderr, .. }) => {
            return Err(MediaError::Unreadable { path: shown.to_string(), detail: strip_path(&stderr, path) });
        }
        Err(e) => return Err(e),
    };
    let json: Value = serde_json::from_slice(&out.stdout).map_err(|e| MediaError::Unreadable {
        path: shown.to_string(),
        detail: format!("ffprobe's answer is not JSON: {e}"),
    })?;
    let info = parse(&json);
    if info.streams.is_empty() {
        let detail = if out.stderr.trim().is_empty() {
            "no audio, video or subtitle stream found".to_string()
        } else {
            strip_path(&last_lines(&out.stderr, 2), path)
        };
        return Err(MediaError::Unreadable { path: shown.to_string(), detail });
    }
    Ok(info)
}

/// ffprobe's message without the host path (the caller knows the file by its tree path).
fn strip_path(text: &str, path: &Path) -> String {
    let p = path.display().to_string();
    let text =
        text.replace(&format!("file:{p}: "), "").replace(&format!("file:{p}"), "the file").replace(&p, "the file");
    crate::error::strip_contexts(&text)
}

/// Reads ffprobe's JSON.
pub fn parse(json: &Value) -> MediaInfo {
    let format = &json["format"];
    let num = |v: &Value| -> Option<f64> {
        match v {
            Value::String(s) => s.parse::<f64>().ok(),
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
        .filter(|x| x.is_finite())
    };
    let mut counts = [0u32; 4];
    let streams = json["streams"]
        .as_array()
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|s| {
            let kind = StreamKind::from_codec_type(s["codec_type"].as_str().unwrap_or(""));
            let slot = kind as usize;
            let track = counts[slot];
            counts[slot] += 1;
            let tag = |k: &str| s["tags"][k].as_str().map(str::to_string);
            let u32_of = |k: &str| s[k].as_u64().and_then(|v| u32::try_from(v).ok()).filter(|v| *v > 0);
            let fps = rate(s["avg_frame_rate"].as_str()).or_else(|| rate(s["r_frame_rate"].as_str()));
            let rotation = s["side_data_list"]
                .as_array()
                .and_then(|l| l.iter().find_map(|d| d["rotation"].as_i64()))
                .or_else(|| tag("rotate").and_then(|r| r.parse::<i64>().ok()))
                .map(|r| r as i32)
                .filter(|r| *r != 0);
            StreamInfo {
                index: s["index"].as_u64().unwrap_or(0) as u32,
                kind,
                codec: s["codec_name"].as_str().unwrap_or("unknown").to_string(),
                track,
                language: tag("language").filter(|l| l != "und"),
                title: tag("title"),
                width: (kind == StreamKind::Video).then(|| u32_of("width")).flatten(),
                height: (kind == StreamKind::Video).then(|| u32_of("height")).flatten(),
                fps: if kind == StreamKind::Video { fps } else { None },
                channels: u32_of("channels"),
                layout: s["channel_layout"].as_str().map(str::to_string),
                sample_rate: s["sample_rate"].as_str().and_then(|r| r.parse().ok()),
                rotation,
                duration: num(&s["duration"]).map(ms),
            }
        })
        .collect();
    MediaInfo {
        format: format["format_name"].as_str().unwrap_or("unknown").to_string(),
        duration: num(&format["duration"]).map(ms),
        bitrate: num(&format["bit_rate"]).map(|b| b as u64),
        streams,
    }
}

fn ms(secs: f64) -> f64 {
    (secs * 1000.0).round() / 1000.0
}

/// `30000/1001` → 29.97; `0/0` → None.
fn rate(r: Option<&str>) -> Option<f64> {
    let (n, d) = r?.split_once('/')?;
    let (n, d) = (n.parse::<f64>().ok()?, d.parse::<f64>().ok()?);
    (d > 0.0 && n > 0.0).then(|| (n / d * 1000.0).round() / 1000.0)
}
