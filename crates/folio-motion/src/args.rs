//! The arguments of `render` and `still`, with the reference's names and defaults, validated
//! before anything is launched.

use serde_json::Value;

use crate::error::MotionError;

/// How frames are driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Both the frame number and the clock move every frame (frame f is t = f/fps).
    Auto,
    /// Only the clock moves (requestAnimationFrame, timers, Reanimated); the frame stays 0.
    Clock,
    /// Only the frame number moves; the rAF queue is never drained.
    Frame,
}

impl Mode {
    /// The page's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Clock => "clock",
            Mode::Frame => "frame",
        }
    }
}

/// What the output path asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// H.264 in MP4 (yuv420p, even-padded, faststart).
    Mp4,
    /// VP9 in WebM.
    Webm,
    /// A GIF with one palette.
    Gif,
    /// One PNG.
    Png,
    /// A directory of `frame-00000.png` files.
    Frames,
}

/// The output formats, as `capabilities()` lists them.
pub const FORMATS: &[&str] = &[".mp4", ".webm", ".gif", ".png", "directory of frames"];

impl Output {
    /// From the output path's extension.
    pub fn from_path(out: &str) -> Result<Output, MotionError> {
        let name = out.rsplit('/').next().unwrap_or(out);
        let Some((_, ext)) = name.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()) else {
            return Ok(Output::Frames);
        };
        match ext.to_ascii_lowercase().as_str() {
            "mp4" => Ok(Output::Mp4),
            "webm" => Ok(Output::Webm),
            "gif" => Ok(Output::Gif),
            "png" => Ok(Output::Png),
            other => Err(MotionError::Invalid(format!(
                "{out}: .{other} is not an output env:motion writes; use one of {} (a path without an extension is a directory of PNG frames)",
                FORMATS[..4].join(", ")
            ))),
        }
    }

    /// Whether ffmpeg is needed.
    pub fn is_video(self) -> bool {
        matches!(self, Output::Mp4 | Output::Webm | Output::Gif)
    }
}

/// Validated arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderArgs {
    /// Frames per second.
    pub fps: u32,
    /// Frames in the whole scene.
    pub duration_in_frames: u64,
    /// Viewport width.
    pub width: u32,
    /// Viewport height.
    pub height: u32,
    /// The page's background (a CSS colour).
    pub background: String,
    /// How frames are driven.
    pub mode: Mode,
    /// Encoder quality.
    pub crf: u8,
    /// A tree directory that also receives the PNG frames (video outputs).
    pub keep_frames: Option<String>,
    /// The still's frame (stills only).
    pub frame: u64,
    /// Tabs to split a long render across (default: 2 on a multi-core host for ≥ 60 frames).
    pub tabs: Option<u32>,
}

const MAX_SIDE: u64 = 7680;

fn int(v: &Value, key: &str, min: u64, max: u64) -> Result<Option<u64>, MotionError> {
    let Some(x) = v.get(key).filter(|x| !x.is_null()) else { return Ok(None) };
    let n = match x {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match n {
        Some(n) if n.fract() == 0.0 && n >= min as f64 && n <= max as f64 => Ok(Some(n as u64)),
        _ => Err(MotionError::Invalid(format!("{key} must be an integer from {min} to {max}, got {x} ({})", kind(x)))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl RenderArgs {
    /// Reads `args` of `render` (still = false) or `still` (true).
    pub fn from_json(args: &Value, still: bool) -> Result<RenderArgs, MotionError> {
        if !args.is_null() && !args.is_object() {
            return Err(MotionError::Invalid(format!(
                "the options must be an object like {{fps: 30, durationSeconds: 3}}, got {}",
                kind(args)
            )));
        }
        const KNOWN: &[&str] = &[
            "fps",
            "durationInFrames",
            "durationSeconds",
            "width",
            "height",
            "background",
            "mode",
            "crf",
            "keepFrames",
            "frame",
            "tabs",
        ];
        if let Some(obj) = args.as_object()
            && let Some(bad) = obj.keys().find(|k| !KNOWN.contains(&k.as_str()))
        {
            return Err(MotionError::Invalid(format!("unknown option '{bad}' — the options are {}", KNOWN.join(", "))));
        }
        let fps = int(args, "fps", 1, 120)?.unwrap_or(30) as u32;
        let frame = match args.get("frame").filter(|f| !f.is_null()) {
            None => 0,
            Some(f) => {
                let n = match f {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().parse::<f64>().ok(),
                    _ => None,
                };
                match n {
                    Some(n) if n.fract() == 0.0 && n >= 0.0 => n as u64,
                    _ => {
                        return Err(MotionError::Invalid(format!(
                            "frame must be a whole number ≥ 0 (frames count from 0), got {f} ({})",
                            kind(f)
                        )));
                    }
                }
            }
        };
        let duration = match int(args, "durationInFrames", 1, 1_000_000)? {
            Some(n) => n,
            None => match args.get("durationSeconds").filter(|x| !x.is_null()) {
                None => 3 * u64::from(fps),
                Some(s) => match s.as_f64() {
                    Some(secs) if secs > 0.0 && secs.is_finite() => ((secs * f64::from(fps)).round() as u64).max(1),
                    _ => {
                        return Err(MotionError::Invalid(format!(
                            "durationSeconds must be a number above 0, got {s} ({})",
                            kind(s)
                        )));
                    }
                },
            },
        };
        let duration = if still { duration.max(frame + 1) } else { duration };
        let width = int(args, "width", 16, MAX_SIDE)?.unwrap_or(1280) as u32;
        let height = int(args, "height", 16, MAX_SIDE)?.unwrap_or(720) as u32;
        let background = match args.get("background") {
            None | Some(Value::Null) => "#ffffff".to_string(),
            Some(Value::String(s)) if valid_colour(s) => s.clone(),
            Some(x) => {
                return Err(MotionError::Invalid(format!(
                    "background must be a CSS colour such as '#0b1020', 'white' or 'rgb(10,16,32)', got {x}"
                )));
            }
        };
        let mode = match args.get("mode").and_then(Value::as_str) {
            None | Some("auto") => Mode::Auto,
            Some("clock") => Mode::Clock,
            Some("frame") => Mode::Frame,
            Some(other) => {
                return Err(MotionError::Invalid(format!(
                    "mode must be 'auto' (the default: frame and clock both move), 'clock' or 'frame', got '{other}'"
                )));
            }
        };
        let crf = int(args, "crf", 0, 51)?.unwrap_or(18) as u8;
        let keep_frames = match args.get("keepFrames") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s.starts_with('/') => Some(s.clone()),
            Some(x) => {
                return Err(MotionError::Invalid(format!(
                    "keepFrames must be an absolute tree directory such as '/out/frames', got {x}"
                )));
            }
        };
        let tabs = int(args, "tabs", 1, 4)?.map(|t| t as u32);
        Ok(RenderArgs {
            fps,
            duration_in_frames: duration,
            width,
            height,
            background,
            mode,
            crf,
            keep_frames,
            frame,
            tabs,
        })
    }
}

/// A CSS colour that cannot break out of the page's style block.
fn valid_colour(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.chars().all(|c| c.is_ascii_alphanumeric() || " #(),.%-".contains(c))
}
