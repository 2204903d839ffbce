//! Video: each side decoded by ffmpeg (through folio-media's frame reader) to small gray frames,
//! compared frame by frame with a tolerance, so encoder noise in untouched frames does not count
//! and a re-render with frames 30–45 changed reports exactly 30–45. Renders are deterministic,
//! so unchanged frames are equal or within noise. Each changed range gets a thumbnail of its first
//! and last frame on both sides.

use std::time::Instant;

use folio_media::frames::{FrameSource, GrayFrames};
use folio_media::{Ffmpeg, MediaError, StreamKind};
use serde::Serialize;

use crate::error::{DiffError, Result, Side};

/// One side's facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoInfo {
    /// Seconds.
    pub duration: Option<f64>,
    /// The video codec (`h264`, `vp9`).
    pub codec: String,
    /// Frames per second.
    pub fps: Option<f64>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Frames decoded.
    pub frames: u64,
    /// The container (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
    pub container: String,
}

/// Frames `first..=last` (0-based frame numbers: frame N is the N-th frame decoded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameRange {
    /// The first changed frame.
    pub first: u64,
    /// The last changed frame (inclusive).
    pub last: u64,
}

/// Thumbnails of one changed range: its first and last frame on each side (PNG, 320 pixels
/// wide); a side's frame is `None` past that side's end.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RangeThumbs {
    /// The range.
    pub range: FrameRange,
    /// The old side's first frame of the range.
    pub old_first: Option<Vec<u8>>,
    /// The old side's last frame of the range.
    pub old_last: Option<Vec<u8>>,
    /// The new side's first frame of the range.
    pub new_first: Option<Vec<u8>>,
    /// The new side's last frame of the range.
    pub new_last: Option<Vec<u8>>,
}

/// Two versions of a video compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoDiff {
    /// The old side's facts (`None`: no old side).
    pub old: Option<VideoInfo>,
    /// The new side's facts.
    pub new: Option<VideoInfo>,
    /// The changed frame ranges, in order (frames past the shorter side's end count as changed).
    pub changed: Vec<FrameRange>,
    /// Thumbnails for the first [`VideoOptions::max_thumbs`] ranges.
    pub thumbs: Vec<RangeThumbs>,
    /// Remarks (sizes differ, frames capped…).
    pub notes: Vec<String>,
    /// What decoding and comparing cost, in milliseconds.
    pub ms: u64,
}

/// How frames are compared.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VideoOptions {
    /// The width frames are decoded at for comparing (default 160; the height follows).
    pub width: u32,
    /// A pixel counts as different when its gray levels differ by more than this (0–255;
    /// default 24), so encoder noise does not.
    pub pixel_tolerance: u8,
    /// A frame counts as changed when more than this share of its pixels differ (default 0.002).
    pub changed_share: f64,
    /// Most frames decoded per side (default 18 000: ten minutes at 30 fps); past it a note says
    /// the rest was not compared.
    pub max_frames: u64,
    /// Most ranges given thumbnails (default 12).
    pub max_thumbs: usize,
}

impl Default for VideoOptions {
    fn default() -> VideoOptions {
        VideoOptions { width: 160, pixel_tolerance: 24, changed_share: 0.002, max_frames: 18_000, max_thumbs: 12 }
    }
}

/// Compares two versions of a video (`None`: the file does not exist on that side) with the
/// default options. A side that is not video ffmpeg decodes is refused with
/// [`DiffError::NotVideo`]; a missing ffmpeg with [`DiffError::Media`] naming the install command.
pub fn video(ffmpeg: &Ffmpeg, old: Option<&[u8]>, new: Option<&[u8]>, name: &str) -> Result<VideoDiff> {
    video_with(ffmpeg, old, new, name, &VideoOptions::default())
}

/// [`video`] with explicit options.
pub fn video_with(
    ffmpeg: &Ffmpeg,
    old: Option<&[u8]>,
    new: Option<&[u8]>,
    name: &str,
    options: &VideoOptions,
) -> Result<VideoDiff> {
    let started = Instant::now();
    if old.is_none() && new.is_none() {
        return Err(DiffError::NothingToCompare { name: name.to_string() });
    }
    let mut notes = Vec::new();
    let open = |bytes: Option<&[u8]>, side: Side| -> Result<Option<(FrameSource, GrayFrames)>> {
        let Some(bytes) = bytes else { return Ok(None) };
        let source = FrameSource::stage(ffmpeg, name, bytes).map_err(|e| media_error(name, side, e))?;
        let frames = source.gray(options.width, options.max_frames).map_err(|e| media_error(name, side, e))?;
        Ok(Some((source, frames)))
    };
    let o = open(old, Side::Old)?;
    let n = open(new, Side::New)?;
    for (side, got) in [(Side::Old, &o), (Side::New, &n)] {
        if let Some((_, f)) = got
            && f.capped
        {
            notes.push(format!(
                "{side}: only the first {} frames were compared (the cap); later frames were not looked at",
                f.frames.len()
            ));
        }
    }
    let changed = match (&o, &n) {
        (Some((os, of)), Some((ns, nf))) => {
            if os.info.size() != ns.info.size() {
                notes.push(format!(
                    "the picture sizes differ ({} before, {} after): frames were compared scaled to the same small size",
                    size_text(os), size_text(ns)
                ));
            }
            ranges(&changed_frames(of, nf, options))
        }
        (Some((_, f)), None) | (None, Some((_, f))) if !f.frames.is_empty() => {
            vec![FrameRange { first: 0, last: f.frames.len() as u64 - 1 }]
        }
        _ => Vec::new(),
    };
    if changed.len() > options.max_thumbs {
        notes.push(format!("{} changed ranges; thumbnails for the first {}", changed.len(), options.max_thumbs));
    }
    let shown = &changed[..changed.len().min(options.max_thumbs)];
    let wanted: Vec<u64> = shown.iter().flat_map(|r| [r.first, r.last]).collect();
    let thumbs_of = |got: &Option<(FrameSource, GrayFrames)>, side: Side| -> Result<Vec<(u64, Vec<u8>)>> {
        match got {
            Some((source, frames)) => {
                let within: Vec<u64> = wanted.iter().copied().filter(|&f| f < frames.frames.len() as u64).collect();
                source.pngs(&within, THUMB_WIDTH).map_err(|e| media_error(name, side, e))
            }
            None => Ok(Vec::new()),
        }
    };
    let (ot, nt) = (thumbs_of(&o, Side::Old)?, thumbs_of(&n, Side::New)?);
    let find = |t: &[(u64, Vec<u8>)], f: u64| t.iter().find(|(n, _)| *n == f).map(|(_, p)| p.clone());
    let thumbs = shown
        .iter()
        .map(|r| RangeThumbs {
            range: *r,
            old_first: find(&ot, r.first),
            old_last: find(&ot, r.last),
            new_first: find(&nt, r.first),
            new_last: find(&nt, r.last),
        })
        .collect();
    Ok(VideoDiff {
        old: o.as_ref().map(info),
        new: n.as_ref().map(info),
        changed,
        thumbs,
        notes,
        ms: started.elapsed().as_millis() as u64,
    })
}

/// Thumbnails' width in pixels.
const THUMB_WIDTH: u32 = 320;

fn size_text(s: &FrameSource) -> String {
    s.info.size().map_or_else(|| "unknown".into(), |(w, h)| format!("{w}×{h}"))
}

/// A media error on `side`: a file that is not video becomes [`DiffError::NotVideo`].
fn media_error(name: &str, side: Side, e: MediaError) -> DiffError {
    let ext = folio_kinds::extension(name).unwrap_or_default();
    match e {
        MediaError::Unreadable { detail, .. } => DiffError::NotVideo { name: name.to_string(), side, detail, ext },
        MediaError::NoStream { .. } => {
            DiffError::NotVideo { name: name.to_string(), side, detail: "it has no video stream".into(), ext }
        }
        source => DiffError::Media { name: name.to_string(), side, source: Box::new(source) },
    }
}

fn info((source, frames): &(FrameSource, GrayFrames)) -> VideoInfo {
    let v = source.info.first(StreamKind::Video);
    VideoInfo {
        duration: source.info.duration,
        codec: v.map(|v| v.codec.clone()).unwrap_or_default(),
        fps: v.and_then(|v| v.fps),
        width: v.and_then(|v| v.width).unwrap_or(0),
        height: v.and_then(|v| v.height).unwrap_or(0),
        frames: frames.frames.len() as u64,
        container: source.info.format.clone(),
    }
}

/// For each frame number up to the longer side's end, whether it changed: beyond the shorter
/// side's end it did; otherwise when more than `changed_share` of its pixels differ by more
/// than `pixel_tolerance` gray levels.
pub(crate) fn changed_frames(old: &GrayFrames, new: &GrayFrames, options: &VideoOptions) -> Vec<bool> {
    let count = old.frames.len().max(new.frames.len());
    (0..count)
        .map(|i| match (old.frames.get(i), new.frames.get(i)) {
            (Some(a), Some(b)) if a == b => false,
            (Some(a), Some(b)) if a.len() == b.len() => {
                let differing = a.iter().zip(b).filter(|(p, q)| p.abs_diff(**q) > options.pixel_tolerance).count();
                differing as f64 > options.changed_share * a.len() as f64
            }
            _ => true,
        })
        .collect()
}

/// Runs of `true` as inclusive ranges.
pub(crate) fn ranges(changed: &[bool]) -> Vec<FrameRange> {
    let mut out: Vec<FrameRange> = Vec::new();
    for (i, &c) in changed.iter().enumerate() {
        if !c {
            continue;
        }
        let i = i as u64;
        match out.last_mut() {
            Some(r) if r.last + 1 == i => r.last = i,
            _ => out.push(FrameRange { first: i, last: i }),
        }
    }
    out
}
