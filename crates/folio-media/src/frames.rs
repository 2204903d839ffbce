//! A video's frames for comparing two versions of it (folio-diff's video review): every frame
//! decoded small and gray, in decode order, and PNG thumbnails of chosen frames.
//!
//! [`FrameSource::stage`] copies the bytes into a staging directory under a neutral name and
//! probes them once; [`FrameSource::gray`] runs one ffmpeg that scales every frame to a fixed
//! small size as 8-bit gray into a raw file (`-fps_mode passthrough`: frame N of the file is
//! frame N here, none dropped or duplicated); [`FrameSource::pngs`] runs one ffmpeg that selects
//! the wanted frame numbers and writes each as a PNG. Only frame numbers reach the filter graph,
//! never a caller's path.

use std::ffi::OsString;
use std::time::Duration;

use folio_budget::child::ChildLimits;

use crate::discovery::Ffmpeg;
use crate::error::MediaError;
use crate::probe::{MediaInfo, StreamKind, probe_within};
use crate::run::{FfmpegCall, run_ffmpeg};
use crate::stage::Stage;

/// How long one decode may run: a long video is decoded small, so this is generous.
pub const FRAMES_TIMEOUT: Duration = Duration::from_secs(300);
/// The largest picture (either side) a frame source accepts, like every other media call.
const MAX_SIDE: u32 = 16_384;
/// The most bytes of small frames one side may hold in memory (256 MiB).
const MAX_FRAME_BYTES: u64 = 256 << 20;

/// Every frame of a video, small and gray.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrayFrames {
    /// Frame width in pixels.
    pub width: u32,
    /// Frame height in pixels.
    pub height: u32,
    /// One buffer of `width * height` bytes per frame, in decode order.
    pub frames: Vec<Vec<u8>>,
    /// True when decoding stopped at the frame cap before the end.
    pub capped: bool,
}

/// A video staged for reading its frames.
pub struct FrameSource {
    ffmpeg: Ffmpeg,
    stage: Stage,
    file: String,
    shown: String,
    /// What ffprobe says about it.
    pub info: MediaInfo,
}

impl FrameSource {
    /// Stages `bytes` (called `shown` in messages) and probes them. Refused when it is not
    /// readable media ([`MediaError::Unreadable`]), has no video stream
    /// ([`MediaError::NoStream`]) or is larger than any host decodes ([`MediaError::TooLarge`]).
    pub fn stage(ffmpeg: &Ffmpeg, shown: &str, bytes: &[u8]) -> Result<FrameSource, MediaError> {
        let mut stage = Stage::new(None)?;
        let file = stage.input(shown, bytes)?;
        let info = probe_within(ffmpeg, &stage.path(&file), shown, &ChildLimits::timeout(crate::probe::PROBE_TIMEOUT))?;
        let video = info.first(StreamKind::Video).ok_or_else(|| MediaError::NoStream {
            path: shown.to_string(),
            kind: "video",
            hint: "only a video's frames can be compared; an audio file is compared by its bytes".into(),
        })?;
        let (w, h) = (video.width.unwrap_or(0), video.height.unwrap_or(0));
        if w > MAX_SIDE || h > MAX_SIDE {
            return Err(MediaError::TooLarge {
                path: shown.to_string(),
                width: u64::from(w),
                height: u64::from(h),
                max: u64::from(MAX_SIDE),
            });
        }
        Ok(FrameSource { ffmpeg: ffmpeg.clone(), stage, file, shown: shown.to_string(), info })
    }

    /// The size frames come out at for a given width: the video's aspect ratio, even numbers.
    pub fn small_size(&self, width: u32) -> (u32, u32) {
        let (w, h) = self.info.size().unwrap_or((16, 9));
        let width = width.max(2) & !1;
        let height = ((u64::from(width) * u64::from(h.max(1)) / u64::from(w.max(1))) as u32).max(2) & !1;
        (width, height.max(2))
    }

    /// The arguments both decodes start with: this file's first video stream only, every frame
    /// as stored (no rate conversion).
    fn decode_args(&self) -> Vec<OsString> {
        ["-i", &self.file, "-map", "0:v:0", "-an", "-sn", "-fps_mode", "passthrough"]
            .into_iter()
            .map(OsString::from)
            .collect()
    }

    /// Decodes the first video stream's frames (at most `max_frames`) at `width` pixels wide
    /// (height by aspect ratio), 8-bit gray.
    pub fn gray(&self, width: u32, max_frames: u64) -> Result<GrayFrames, MediaError> {
        let (w, h) = self.small_size(width);
        let frame_bytes = u64::from(w) * u64::from(h);
        let max_frames = max_frames.min(MAX_FRAME_BYTES / frame_bytes.max(1)).max(1);
        let out = "frames.gray";
        let args: Vec<OsString> = [
            self.decode_args(),
            vec![
                "-vf".into(),
                format!("scale={w}:{h}:flags=area,format=gray"),
                // One more than the cap, to know whether the cap stopped it.
                "-frames:v".into(),
                (max_frames + 1).to_string(),
                "-f".into(),
                "rawvideo".into(),
                out.into(),
            ]
            .into_iter()
            .map(OsString::from)
            .collect(),
        ]
        .concat();
        let mut call = FfmpegCall::new(format!("decoding the frames of {}", self.shown), args);
        call.cwd = Some(self.stage.dir().to_path_buf());
        call.hint = "check that the file is a complete video; re-export it and try again".into();
        let run = run_ffmpeg(&self.ffmpeg, &call, &ChildLimits::timeout(FRAMES_TIMEOUT), &mut |_| Ok(()))?;
        let raw = self.stage.output(out, &call.what, &run.stderr)?;
        let mut frames: Vec<Vec<u8>> = raw.chunks_exact(frame_bytes as usize).map(<[u8]>::to_vec).collect();
        let capped = frames.len() as u64 > max_frames;
        frames.truncate(max_frames as usize);
        Ok(GrayFrames { width: w, height: h, frames, capped })
    }

    /// PNGs of the frames numbered `wanted` (0-based, decode order) at `width` pixels wide, in
    /// one decode; a frame past the end is left out of the answer.
    pub fn pngs(&self, wanted: &[u64], width: u32) -> Result<Vec<(u64, Vec<u8>)>, MediaError> {
        let mut frames: Vec<u64> = wanted.to_vec();
        frames.sort_unstable();
        frames.dedup();
        if frames.is_empty() {
            return Ok(Vec::new());
        }
        let (w, h) = self.small_size(width);
        let select: Vec<String> = frames.iter().map(|n| format!("eq(n\\,{n})")).collect();
        let args: Vec<OsString> = [
            self.decode_args(),
            vec![
                "-vf".into(),
                format!("select={},scale={w}:{h}", select.join("+")),
                "-frames:v".into(),
                frames.len().to_string(),
                "-f".into(),
                "image2".into(),
                "thumb-%05d.png".into(),
            ]
            .into_iter()
            .map(OsString::from)
            .collect(),
        ]
        .concat();
        let mut call = FfmpegCall::new(format!("taking thumbnails from {}", self.shown), args);
        call.cwd = Some(self.stage.dir().to_path_buf());
        call.hint = "check that the file is a complete video; re-export it and try again".into();
        run_ffmpeg(&self.ffmpeg, &call, &ChildLimits::timeout(FRAMES_TIMEOUT), &mut |_| Ok(()))?;
        let mut out = Vec::new();
        for (i, n) in frames.iter().enumerate() {
            if let Ok(png) = std::fs::read(self.stage.path(&format!("thumb-{:05}.png", i + 1))) {
                out.push((*n, png));
            }
        }
        Ok(out)
    }
}
