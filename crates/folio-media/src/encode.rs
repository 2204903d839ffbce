//! The frame encoder env:motion feeds: ffmpeg reading PNGs on stdin (`-f image2pipe -framerate F
//! -c:v png -i -`) and writing mp4 (H.264), webm (VP9) or gif (one palette for the whole
//! sequence), with the arguments of the reference (§1.9) plus what makes the bytes reproducible:
//! a fixed thread count, `+bitexact` muxing and no metadata, so equal frames give equal files on
//! any machine with the same ffmpeg.
//!
//! The child is supervised by `folio_budget::child::Supervised` in its own process group: every
//! push first polls it against the limits (timeout, the run's deadline, cancel, memory), frames
//! travel through a small bounded queue to a writer thread so a stalled ffmpeg cannot block the
//! caller past its limits, and dropping an unfinished encoder kills the group and removes the
//! partial output.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use folio_budget::child::{ChildEnd, ChildLimits, ChildOutcome, Supervised};

use crate::discovery::Ffmpeg;
use crate::error::{MediaError, last_lines};
use crate::run::{StderrTail, end_error, file_arg};

/// Threads every encoder uses: fixed, so the output does not depend on the machine's cores.
pub const ENCODER_THREADS: u32 = 4;

/// The video containers the encoder writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VideoFormat {
    /// H.264 in MP4 (`libx264`, `yuv420p`, odd sizes padded, `+faststart`): for people.
    Mp4,
    /// VP9 in WebM (`libvpx-vp9`, constant quality): plays in a bare Chromium.
    Webm,
    /// An animated GIF with one palette for the whole sequence.
    Gif,
}

impl VideoFormat {
    /// The format an extension names (`mp4`, `m4v`, `webm`, `gif`; case-insensitive, with or
    /// without the dot).
    pub fn from_extension(ext: &str) -> Option<VideoFormat> {
        match ext.trim_start_matches('.').to_ascii_lowercase().as_str() {
            "mp4" | "m4v" => Some(VideoFormat::Mp4),
            "webm" => Some(VideoFormat::Webm),
            "gif" => Some(VideoFormat::Gif),
            _ => None,
        }
    }

    /// The usual extension.
    pub fn extension(self) -> &'static str {
        match self {
            VideoFormat::Mp4 => "mp4",
            VideoFormat::Webm => "webm",
            VideoFormat::Gif => "gif",
        }
    }

    /// The encoder arguments after the input (codec, quality, pixel format, filters, muxer flags).
    pub fn codec_args(self, crf: u8) -> Vec<String> {
        let threads = ENCODER_THREADS.to_string();
        let v: Vec<&str> = match self {
            VideoFormat::Mp4 => vec![
                "-c:v",
                "libx264",
                "-crf",
                "",
                "-preset",
                // veryfast: ~1.7x the frames per second of medium on two cores, about 10 % larger
                // files at the same crf; the encoder is what a 960x540 render waits for.
                "veryfast",
                "-pix_fmt",
                "yuv420p",
                "-vf",
                "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                "-movflags",
                "+faststart",
                "-threads",
                &threads,
                "-f",
                "mp4",
            ],
            VideoFormat::Webm => vec![
                "-c:v",
                "libvpx-vp9",
                "-crf",
                "",
                "-b:v",
                "0",
                "-pix_fmt",
                "yuv420p",
                "-deadline",
                "good",
                "-cpu-used",
                "4",
                "-row-mt",
                "1",
                "-threads",
                &threads,
                "-f",
                "webm",
            ],
            VideoFormat::Gif => vec![
                "-vf",
                "split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer:bayer_scale=3",
                "-f",
                "gif",
            ],
        };
        let crf = crf.to_string();
        let mut out: Vec<String> =
            v.into_iter().map(|a| if a.is_empty() { crf.clone() } else { a.to_string() }).collect();
        out.extend(["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact"].map(String::from));
        out
    }
}

/// What an encoder is asked to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameEncoderParams {
    /// Frames per second of the input sequence (and the output).
    pub fps: u32,
    /// Constant quality, 0 (lossless) to 51 (worst) for H.264, 0–63 for VP9; ignored for gif.
    pub crf: u8,
    /// The container and codec.
    pub format: VideoFormat,
    /// The output file on the host (replaced when it exists).
    pub out: PathBuf,
}

/// A finished encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOutcome {
    /// Bytes written to the output.
    pub bytes: u64,
    /// From start to the end of ffmpeg.
    pub took: Duration,
}

/// Frames queued to the writer thread at most (each is one PNG).
const QUEUE: usize = 2;
/// How often a full queue re-polls the child.
const WAIT: Duration = Duration::from_millis(5);

/// ffmpeg encoding a PNG sequence fed on its stdin.
pub struct FrameEncoder {
    child: Option<Supervised>,
    frames: Option<SyncSender<Vec<u8>>>,
    writer: Option<JoinHandle<std::io::Result<()>>>,
    stderr: StderrTail,
    limits: ChildLimits,
    out: PathBuf,
    pushed: u64,
    started: Instant,
}

impl FrameEncoder {
    /// Starts ffmpeg for `params` under `limits` (the lead's job limits: timeout, deadline,
    /// cancel, memory).
    pub fn start(ffmpeg: &Ffmpeg, params: FrameEncoderParams, limits: ChildLimits) -> Result<FrameEncoder, MediaError> {
        if params.fps == 0 || params.fps > 240 {
            return Err(MediaError::Invalid(format!(
                "fps must be 1 to 240, got {} — hint: pass {{fps: 30}}",
                params.fps
            )));
        }
        let max_crf = if params.format == VideoFormat::Webm { 63 } else { 51 };
        if params.crf > max_crf {
            return Err(MediaError::Invalid(format!(
                "crf must be 0 to {max_crf} for {}, got {} — hint: 18–28 is usual (lower is better and larger)",
                params.format.extension(),
                params.crf
            )));
        }
        let mut args: Vec<OsString> =
            ["-hide_banner", "-nostdin", "-y", "-loglevel", "error", "-f", "image2pipe", "-framerate"]
                .iter()
                .map(OsString::from)
                .collect();
        args.push(params.fps.to_string().into());
        args.extend(["-c:v", "png", "-i", "-"].map(OsString::from));
        args.extend(params.format.codec_args(params.crf).into_iter().map(OsString::from));
        args.push(file_arg(&params.out));
        let mut cmd = Command::new(ffmpeg.path());
        cmd.args(&args).stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped());
        let mut child =
            Supervised::spawn(&mut cmd).map_err(MediaError::io(format!("starting {}", ffmpeg.path().display())))?;
        let stderr = StderrTail::collect(child.child_mut().stderr.take());
        let stdin = child.child_mut().stdin.take();
        let (tx, rx) = sync_channel::<Vec<u8>>(QUEUE);
        let writer = std::thread::Builder::new()
            .name("folio-media-encode".into())
            .spawn(move || write_frames(stdin, rx))
            .map_err(MediaError::io("starting the encoder's writer thread"))?;
        Ok(FrameEncoder {
            child: Some(child),
            frames: Some(tx),
            writer: Some(writer),
            stderr,
            limits,
            out: params.out,
            pushed: 0,
            started: Instant::now(),
        })
    }

    /// ffmpeg's pid (its process group's id) while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Supervised::id)
    }

    /// Frames pushed so far.
    pub fn frames(&self) -> u64 {
        self.pushed
    }

    /// Queues one PNG for ffmpeg; blocks while the queue is full, polling the child's limits.
    /// An ffmpeg that died (a PNG it cannot read, a different size) gives its stderr.
    pub fn push_png(&mut self, png: &[u8]) -> Result<(), MediaError> {
        let mut frame = png.to_vec();
        loop {
            self.poll()?;
            let Some(tx) = &self.frames else { return Err(self.died()) };
            match tx.try_send(frame) {
                Ok(()) => {
                    self.pushed += 1;
                    return Ok(());
                }
                Err(TrySendError::Full(back)) => {
                    frame = back;
                    std::thread::sleep(WAIT);
                }
                Err(TrySendError::Disconnected(_)) => return Err(self.died()),
            }
        }
    }

    /// Closes ffmpeg's stdin, waits for it under the limits and checks the output.
    pub fn finish(mut self) -> Result<EncodeOutcome, MediaError> {
        if self.pushed == 0 {
            return Err(MediaError::EmptyOutput {
                what: format!("encoding 0 frame(s) to {}", self.out.display()),
                stderr: "no frame was pushed".into(),
            });
        }
        self.frames = None; // the writer drains the queue, then closes stdin
        let outcome = loop {
            match self.poll_outcome()? {
                Some(o) => break o,
                None => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        self.child = None;
        let written = self.writer.take().map(|w| w.join());
        let stderr = self.stderr.take();
        match outcome.end {
            ChildEnd::Exited(status) if status.success() => {}
            ChildEnd::Exited(status) => {
                return Err(MediaError::Failed {
                    what: "encoding frames".into(),
                    status: status.to_string(),
                    stderr: last_lines(&stderr, 4),
                    hint: "check that every frame is a PNG of the same size".into(),
                });
            }
            end => return Err(end_error("encoding frames", end, &self.limits)),
        }
        if let Some(Ok(Err(e))) = written {
            return Err(MediaError::Io { what: "feeding frames to ffmpeg".into(), source: e });
        }
        let bytes = std::fs::metadata(&self.out).map(|m| m.len()).unwrap_or(0);
        if bytes == 0 || self.pushed == 0 {
            return Err(MediaError::EmptyOutput {
                what: format!("encoding {} frame(s) to {}", self.pushed, self.out.display()),
                stderr: last_lines(&stderr, 4),
            });
        }
        self.out = PathBuf::new(); // kept: Drop removes only an unfinished output
        Ok(EncodeOutcome { bytes, took: self.started.elapsed() })
    }

    /// Polls the child; a stop by a limit becomes its error.
    fn poll(&mut self) -> Result<(), MediaError> {
        match self.poll_outcome()? {
            None => Ok(()),
            Some(ChildOutcome { end: ChildEnd::Exited(_), .. }) => Err(self.died()),
            Some(o) => Err(end_error("encoding frames", o.end, &self.limits)),
        }
    }

    fn poll_outcome(&mut self) -> Result<Option<ChildOutcome>, MediaError> {
        let Some(child) = self.child.as_mut() else { return Ok(Some(dead())) };
        let got = child.check(&self.limits).map_err(MediaError::io("waiting for ffmpeg"))?;
        if got.is_some() {
            self.child = None;
        }
        Ok(got)
    }

    /// The error for an ffmpeg that exited while frames were still coming.
    fn died(&mut self) -> MediaError {
        if let Some(mut child) = self.child.take() {
            // It may be exiting right now: give it a moment to be reaped, then kill the group.
            let deadline = Instant::now() + Duration::from_secs(2);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.check(&self.limits) {
                    break;
                }
                std::thread::sleep(WAIT);
            }
            child.kill(ChildEnd::Cancelled);
        }
        self.frames = None;
        let stderr = self.stderr.take();
        MediaError::Failed {
            what: format!("encoding frames to {}", self.out.display()),
            status: format!("ffmpeg exited after {} frame(s)", self.pushed),
            stderr: last_lines(&stderr, 4),
            hint: "check that every frame is a PNG of the same size".into(),
        }
    }
}

fn dead() -> ChildOutcome {
    ChildOutcome { end: ChildEnd::Cancelled, peak_bytes: 0, took: Duration::ZERO }
}

impl Drop for FrameEncoder {
    fn drop(&mut self) {
        self.frames = None;
        if let Some(mut child) = self.child.take() {
            child.kill(ChildEnd::Cancelled);
        }
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
        if !self.out.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.out);
        }
    }
}

fn write_frames(stdin: Option<std::process::ChildStdin>, rx: Receiver<Vec<u8>>) -> std::io::Result<()> {
    let Some(mut stdin) = stdin else { return Err(std::io::Error::other("ffmpeg's stdin was not piped")) };
    for frame in rx {
        stdin.write_all(&frame)?;
    }
    stdin.flush()
}

/// Whether `path` names a format the encoder writes (by its extension).
pub fn format_of(path: &Path) -> Option<VideoFormat> {
    path.extension().and_then(|e| e.to_str()).and_then(VideoFormat::from_extension)
}
