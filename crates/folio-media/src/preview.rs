//! The desktop app's media previews, on this crate's runner so the app never starts ffmpeg or
//! ffprobe itself: [`probe_preview`] (the typed probe, plus which video streams are really cover
//! art) and [`transcode_preview`] (a webm any WebKit, Blink or Gecko build with a webm demuxer
//! plays: VP8 + Opus, at most 1280 pixels wide, or Opus alone for audio).
//!
//! Both run supervised under the caller's [`ChildLimits`] (timeout, cancel, memory). The webm is
//! written beside its final name and renamed into place only when ffmpeg succeeded, so a
//! half-made preview is never served; a failed or stopped run leaves no partial file.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use folio_budget::child::ChildLimits;
use serde_json::Value;

use crate::discovery::Ffmpeg;
use crate::error::MediaError;
use crate::probe::{MediaInfo, StreamInfo, StreamKind, parse};
use crate::run::{FfmpegCall, file_arg, run_ffmpeg, run_ffprobe};

/// What a preview needs to know of a media file.
#[derive(Debug, Clone, PartialEq)]
pub struct PreviewProbe {
    /// ffprobe's answer.
    pub info: MediaInfo,
    /// Indexes of video streams that are attached pictures (an mp3's cover art), not video.
    pub pictures: Vec<u32>,
}

impl PreviewProbe {
    /// The first video stream that is not cover art.
    pub fn video(&self) -> Option<&StreamInfo> {
        self.info.of(StreamKind::Video).find(|s| !self.pictures.contains(&s.index))
    }

    /// The first audio stream.
    pub fn audio(&self) -> Option<&StreamInfo> {
        self.info.first(StreamKind::Audio)
    }
}

/// Reads ffprobe's JSON for a preview (the typed probe and the attached pictures).
pub fn parse_preview(json: &Value) -> PreviewProbe {
    let pictures = json["streams"]
        .as_array()
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .filter(|s| s["disposition"]["attached_pic"].as_i64() == Some(1))
        .filter_map(|s| s["index"].as_u64().map(|i| i as u32))
        .collect();
    PreviewProbe { info: parse(json), pictures }
}

/// Probes the host file `path` (named `shown` in errors) under `limits`.
pub fn probe_preview(
    ffmpeg: &Ffmpeg,
    path: &Path,
    shown: &str,
    limits: &ChildLimits,
) -> Result<PreviewProbe, MediaError> {
    let ffprobe = ffmpeg.require_ffprobe()?;
    let args: Vec<OsString> = ["-v", "error", "-print_format", "json", "-show_format", "-show_streams"]
        .map(OsString::from)
        .into_iter()
        .chain([file_arg(path)])
        .collect();
    let out = match run_ffprobe(ffprobe, &format!("probing {shown}"), &args, limits) {
        Ok(o) => o,
        Err(MediaError::Failed { stderr, .. }) => {
            return Err(MediaError::Unreadable { path: shown.to_string(), detail: stderr });
        }
        Err(e) => return Err(e),
    };
    let json: Value = serde_json::from_slice(&out.stdout).map_err(|e| MediaError::Unreadable {
        path: shown.to_string(),
        detail: format!("ffprobe's answer is not JSON: {e}"),
    })?;
    let probe = parse_preview(&json);
    if probe.info.streams.is_empty() {
        return Err(MediaError::Unreadable {
            path: shown.to_string(),
            detail: "no audio, video or subtitle stream found".into(),
        });
    }
    Ok(probe)
}

/// ffmpeg's arguments (after the runner's common flags) for the webm preview of `input` into
/// `output`; `audio_only` drops any picture.
pub fn preview_arguments(input: &Path, output: &Path, audio_only: bool) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["-i".into(), file_arg(input)];
    let video: &[&str] = &[
        "-map",
        "0:v:0",
        "-map",
        "0:a:0?",
        "-c:v",
        "libvpx",
        "-deadline",
        "realtime",
        "-cpu-used",
        "8",
        "-b:v",
        "2M",
        "-qmin",
        "4",
        "-qmax",
        "42",
        "-pix_fmt",
        "yuv420p",
        "-vf",
        "scale='min(1280,iw)':-2",
    ];
    let audio: &[&str] = &["-c:a", "libopus", "-b:a", "128k", "-ac", "2", "-f", "webm"];
    let picture: &[&str] = if audio_only { &["-vn"] } else { video };
    args.extend(picture.iter().chain(audio).map(OsString::from));
    args.push(file_arg(output));
    args
}

/// The file a preview is written to before it is renamed into place.
pub fn part_path(output: &Path) -> PathBuf {
    output.with_extension("part")
}

/// Makes the webm preview of the host file `input` at `output` under `limits`, calling
/// `on_progress` with the seconds of media written as ffmpeg reports them. `output` appears only
/// when ffmpeg succeeded; otherwise the partial file is removed and ffmpeg's last stderr lines
/// are in the error.
pub fn transcode_preview(
    ffmpeg: &Ffmpeg,
    input: &Path,
    output: &Path,
    audio_only: bool,
    limits: &ChildLimits,
    on_progress: &mut dyn FnMut(f64),
) -> Result<(), MediaError> {
    let part = part_path(output);
    let mut call = FfmpegCall::new(
        format!("the webm preview of {}", input.display()),
        preview_arguments(input, &part, audio_only),
    );
    call.hint = "the file may be damaged; open it with another app".into();
    let ran = run_ffmpeg(ffmpeg, &call, limits, &mut |secs| {
        on_progress(secs);
        Ok(())
    });
    if let Err(e) = ran {
        let _ = std::fs::remove_file(&part);
        return Err(e);
    }
    std::fs::rename(&part, output).map_err(|e| {
        let _ = std::fs::remove_file(&part);
        MediaError::io(format!("moving the preview into place at {}", output.display()))(e)
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn cover_art_is_not_video() {
        let json: Value = serde_json::from_str(
            r#"{"streams":[
            {"index":0,"codec_type":"audio","codec_name":"mp3"},
            {"index":1,"codec_type":"video","codec_name":"mjpeg","width":500,"height":500,"disposition":{"attached_pic":1}}],
          "format":{"format_name":"mp3","duration":"12.5"}}"#,
        )
        .unwrap();
        let p = parse_preview(&json);
        assert_eq!((p.video().map(|v| v.codec.as_str()), p.audio().map(|a| a.codec.as_str())), (None, Some("mp3")));
        assert_eq!((p.pictures.as_slice(), p.info.duration), (&[1][..], Some(12.5)));
    }

    #[test]
    fn audio_previews_drop_the_picture_and_paths_are_files() {
        let args = preview_arguments(Path::new("/in/-a.m4a"), Path::new("/out.part"), true);
        let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        assert!(args.contains(&"-vn".to_string()) && !args.contains(&"libvpx".to_string()));
        assert!(args.contains(&"file:/in/-a.m4a".to_string()), "{args:?}");
        let args = preview_arguments(Path::new("/in.mp4"), Path::new("/out.part"), false);
        let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        assert!(args.contains(&"libvpx".to_string()) && args.contains(&"libopus".to_string()));
        assert_eq!(args.last().unwrap(), "file:/out.part");
    }
}
