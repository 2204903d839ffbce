//! The one table of what each output extension is encoded with: containers, video and audio
//! codecs, and the caller's audio options. Shared by every binding (a leaf: it imports no
//! sibling).

use crate::error::MediaError;
use crate::ops::args::Opts;

/// Containers a picture binding writes video into.
pub const VIDEO_OUT: &[&str] = &["mp4", "m4v", "mov", "mkv", "webm", "gif"];
/// Still images a picture binding writes.
pub const IMAGE_OUT: &[&str] = &["png", "jpg", "jpeg", "webp"];
/// Audio containers (a transcode to one of them drops the pictures).
pub const AUDIO_OUT: &[&str] = &["mp3", "m4a", "aac", "wav", "flac", "ogg", "oga", "opus"];

/// The codec arguments for a video output of extension `ext` (`crf`: the caller's quality),
/// without filters; `has_audio`: whether an audio stream goes along.
pub fn video_codec_args(ext: &str, crf: Option<i64>, has_audio: bool) -> Vec<String> {
    let crf = |d: i64| crf.unwrap_or(d).to_string();
    let mut v: Vec<String> = match ext {
        "webm" => [
            "-c:v",
            "libvpx-vp9",
            "-b:v",
            "0",
            "-crf",
            &crf(32),
            "-deadline",
            "good",
            "-cpu-used",
            "4",
            "-row-mt",
            "1",
            "-pix_fmt",
            "yuv420p",
        ]
        .map(String::from)
        .to_vec(),
        "gif" => ["-c:v", "gif"].map(String::from).to_vec(),
        _ => {
            ["-c:v", "libx264", "-preset", "medium", "-crf", &crf(23), "-pix_fmt", "yuv420p"].map(String::from).to_vec()
        }
    };
    if matches!(ext, "mp4" | "m4v" | "mov") {
        v.extend(["-movflags", "+faststart"].map(String::from));
    }
    if ext == "gif" || !has_audio {
        v.push("-an".into());
    } else if ext == "webm" {
        v.extend(["-c:a", "libopus", "-b:a", "128k"].map(String::from));
    } else {
        v.extend(["-c:a", "aac", "-b:a", "160k"].map(String::from));
    }
    v
}

/// The filter that makes a picture's sides even (H.264 and VP9 in yuv420p need it).
pub const EVEN: &str = "pad=ceil(iw/2)*2:ceil(ih/2)*2";

/// The `codec` names scripts use and ffmpeg's encoder for each.
pub const CODECS: &[(&str, &str)] = &[
    ("mp3", "libmp3lame"),
    ("aac", "aac"),
    ("flac", "flac"),
    ("opus", "libopus"),
    ("vorbis", "libvorbis"),
    ("pcm", "pcm_s16le"),
    ("copy", "copy"),
];

/// The encoder an audio extension gets by default.
fn default_encoder(ext: &str) -> Option<&'static str> {
    Some(match ext {
        "mp3" => "libmp3lame",
        "m4a" | "aac" | "mp4" | "m4v" | "mov" | "mkv" => "aac",
        "wav" => "pcm_s16le",
        "flac" => "flac",
        "ogg" | "oga" => "libvorbis",
        "opus" | "webm" => "libopus",
        _ => return None,
    })
}

/// The caller's audio options (`codec`, `bitrate` kbps, `sampleRate`, `channels`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AudioOptions {
    /// The encoder (ffmpeg's name).
    pub encoder: Option<&'static str>,
    /// Kilobits per second.
    pub bitrate: Option<i64>,
    /// Samples per second.
    pub sample_rate: Option<i64>,
    /// Channels.
    pub channels: Option<i64>,
}

/// The option keys [`AudioOptions`] reads.
pub const AUDIO_KEYS: &[&str] = &["codec", "bitrate", "sampleRate", "channels"];

impl AudioOptions {
    /// Reads and checks them.
    pub fn read(o: &Opts<'_>) -> Result<AudioOptions, MediaError> {
        let encoder = match o.string("codec")? {
            None => None,
            Some(c) => Some(CODECS.iter().find(|(n, _)| *n == c).map(|(_, e)| *e).ok_or_else(|| {
                MediaError::Invalid(format!(
                    "codec \"{c}\" is not one of {}",
                    CODECS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                ))
            })?),
        };
        let opts = AudioOptions {
            encoder,
            bitrate: o.int("bitrate", 8, 3000, None)?,
            sample_rate: o.int("sampleRate", 8000, 384_000, None)?,
            channels: o.int("channels", 1, 8, None)?,
        };
        if opts.encoder == Some("copy")
            && (opts.bitrate.is_some() || opts.sample_rate.is_some() || opts.channels.is_some())
        {
            return Err(MediaError::Invalid(
                "codec 'copy' keeps the audio as it is, so it cannot be combined with bitrate, sampleRate or channels — hint: drop them, or name a codec".into(),
            ));
        }
        Ok(opts)
    }
}

/// Encoder arguments for audio into `ext` with `opts` (`None`: the extension's defaults).
pub fn audio_codec_args(ext: &str, opts: Option<&AudioOptions>) -> Result<Vec<String>, MediaError> {
    let def = AudioOptions::default();
    let o = opts.unwrap_or(&def);
    let encoder = match o.encoder.or_else(|| default_encoder(ext)) {
        Some(e) => e,
        None => {
            return Err(MediaError::Invalid(format!(
                "there is no audio codec for .{ext} — hint: end the output with one of .{}",
                AUDIO_OUT.join(", .")
            )));
        }
    };
    let mut v = vec!["-c:a".to_string(), encoder.to_string()];
    if let Some(b) = o.bitrate {
        v.extend(["-b:a".to_string(), format!("{b}k")]);
    } else if matches!(encoder, "libmp3lame" | "aac" | "libopus" | "libvorbis") {
        v.extend(["-b:a".to_string(), "160k".to_string()]);
    }
    if let Some(r) = o.sample_rate {
        v.extend(["-ar".to_string(), r.to_string()]);
    } else if encoder == "libopus" {
        v.extend(["-ar".to_string(), "48000".to_string()]);
    }
    if let Some(c) = o.channels {
        v.extend(["-ac".to_string(), c.to_string()]);
    }
    Ok(v)
}
