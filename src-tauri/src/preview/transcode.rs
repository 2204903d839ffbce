//! The webm preview of a video or audio file this webview cannot play: ffmpeg re-encodes it as
//! VP8 + Opus (the pair every WebKit, Blink and Gecko build with a webm demuxer plays), scaled to
//! at most 1280 pixels wide, reporting progress from `-progress pipe:1`. The output is written
//! beside its final name and renamed into place, so a half-made preview is never served.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::PoisonError;
use std::time::Instant;

use folio_render::discovery::{HostPaths, Platform, Tool, find_tool};
use folio_vfs::VPath;

use super::error::PreviewError;
use super::{Previews, Version, checked_path, content_hash, kind, read};
use crate::api::{PreviewKind, PreviewTranscodeResponse, TranscodeProgressNotification};
use crate::session::Session;

/// Where ffmpeg and ffprobe are, or why they are not usable.
#[derive(Debug, Clone)]
pub struct Tools {
    /// ffmpeg, when usable.
    pub ffmpeg: Result<PathBuf, String>,
    /// ffprobe, when usable.
    pub ffprobe: Result<PathBuf, String>,
}

/// The install command for ffmpeg on this platform (the doctor's fix for its ffmpeg row).
pub fn ffmpeg_fix() -> String {
    format!("install ffmpeg: {}", Tool::Ffmpeg.fix(Platform::current()))
}

/// ffprobe beside an ffmpeg executable (every ffmpeg distribution ships both).
pub fn ffprobe_beside(ffmpeg: &Path) -> Result<PathBuf, String> {
    let name = if cfg!(windows) { "ffprobe.exe" } else { "ffprobe" };
    let probe = ffmpeg.with_file_name(name);
    if probe.is_file() { Ok(probe) } else { Err(format!("ffprobe is not beside {}", ffmpeg.display())) }
}

impl Tools {
    /// Finds ffmpeg with folio-render's discovery (`FOLIO_FFMPEG_PATH`, `PATH`, the usual
    /// locations — what `folio doctor` reports), and ffprobe beside it.
    pub fn discover(host: &HostPaths) -> Tools {
        let ffmpeg = find_tool(Tool::Ffmpeg, host).map_err(|e| format!("ffmpeg: {e}"));
        let ffprobe = match &ffmpeg {
            Ok(ffmpeg) => ffprobe_beside(ffmpeg),
            Err(e) => Err(e.clone()),
        };
        Tools { ffmpeg, ffprobe }
    }
}

/// ffmpeg's arguments for a webm preview of `src` into `out` (`audio_only` drops any video,
/// such as cover art).
pub fn arguments(src: &Path, out: &Path, audio_only: bool) -> Vec<String> {
    let mut args: Vec<String> =
        ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-i"].into_iter().map(String::from).collect();
    args.push(src.display().to_string());
    if audio_only {
        args.extend(["-vn"].map(String::from));
    } else {
        args.extend(
            [
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
            ]
            .map(String::from),
        );
    }
    args.extend(
        ["-c:a", "libopus", "-b:a", "128k", "-ac", "2", "-f", "webm", "-progress", "pipe:1", "-nostats"]
            .map(String::from),
    );
    args.push(out.display().to_string());
    args
}

/// Reads one `-progress` line: the seconds of output written, from `out_time_us` (which
/// ffmpeg also prints, in microseconds, as `out_time_ms`).
pub fn progress_seconds(line: &str) -> Option<f64> {
    let (key, value) = line.split_once('=')?;
    match key {
        "out_time_us" | "out_time_ms" => value.trim().parse::<i64>().ok().filter(|v| *v >= 0).map(|us| us as f64 / 1e6),
        _ => None,
    }
}

/// Runs ffmpeg, calling `progress` with the seconds written so far. The output appears at
/// `out` only when ffmpeg succeeded.
pub fn run(ffmpeg: &Path, src: &Path, out: &Path, audio_only: bool, progress: &dyn Fn(f64)) -> Result<(), String> {
    let part = out.with_extension("part");
    let mut child = Command::new(ffmpeg)
        .args(arguments(src, &part, audio_only))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{} could not start: {e}", ffmpeg.display()))?;
    let stderr = child.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut err) = stderr {
            let _ = err.read_to_string(&mut text);
        }
        text
    });
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(seconds) = progress_seconds(&line) {
                progress(seconds);
            }
        }
    }
    let status = child.wait().map_err(|e| format!("ffmpeg did not finish: {e}"))?;
    let errors = errors.join().unwrap_or_default();
    if !status.success() {
        let _ = std::fs::remove_file(&part);
        let lines: Vec<&str> = errors.lines().collect();
        let tail = &lines[lines.len().saturating_sub(4)..];
        return Err(if tail.is_empty() { format!("ffmpeg exited with {status}") } else { tail.join("; ") });
    }
    std::fs::rename(&part, out)
        .map_err(|e| format!("the preview could not be moved into place at {}: {e}", out.display()))
}

/// Where the webm preview of content `hash` is cached.
fn cached_path(dir: &Path, hash: &str) -> PathBuf {
    dir.join(format!("{hash}.webm"))
}

impl Previews {
    /// The cached webm preview of `path`'s current content, if one was made.
    pub fn transcoded(&self, session: &Session, at: &VPath) -> Result<PathBuf, PreviewError> {
        let bytes = read(session, at, Version::Current)?;
        let file = cached_path(&self.cache_dir(session, "media")?, &content_hash(&bytes));
        if file.is_file() { Ok(file) } else { Err(PreviewError::NoTranscode { path: at.to_string() }) }
    }

    /// Makes (or finds) the webm preview of a video or audio file, reporting progress.
    pub fn transcode(
        &self,
        session: &Session,
        raw: &str,
        progress: &dyn Fn(TranscodeProgressNotification),
    ) -> Result<PreviewTranscodeResponse, PreviewError> {
        let started = Instant::now();
        let at = checked_path(raw)?;
        let path = at.to_string();
        let bytes = read(session, &at, Version::Current)?;
        let (kind, _) = kind::classify(&path, &bytes[..bytes.len().min(8192)]);
        let audio_only = match kind {
            PreviewKind::Audio => true,
            PreviewKind::Video => false,
            other => {
                return Err(PreviewError::Unsupported {
                    path,
                    why: format!("it is previewed as {other:?}; only video and audio are transcoded"),
                });
            }
        };
        let ffmpeg = self.tools.ffmpeg.clone().map_err(|why| PreviewError::NoTranscoder {
            path: path.clone(),
            why,
            fix: ffmpeg_fix(),
        })?;
        let probe = self.probe(session, &bytes)?;
        let audio_only = audio_only || probe.video.is_none();
        let mime = if audio_only { "audio/webm; codecs=\"opus\"" } else { "video/webm; codecs=\"vp8, opus\"" };
        let dir = self.cache_dir(session, "media")?;
        let hash = content_hash(&bytes);
        let out = cached_path(&dir, &hash);
        let done = |cached: bool| -> Result<PreviewTranscodeResponse, PreviewError> {
            let size = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
            let duration_ms = if cached { 0 } else { started.elapsed().as_millis() as u64 };
            Ok(PreviewTranscodeResponse { path: path.clone(), mime: mime.into(), size, cached, duration_ms })
        };
        if out.is_file() {
            return done(true);
        }
        let _one_at_a_time = self.transcoding.lock().unwrap_or_else(PoisonError::into_inner);
        if out.is_file() {
            return done(true);
        }
        let src = self.source_file(&dir, &hash, &bytes)?;
        drop(bytes);
        let total = probe.duration_s.filter(|d| *d > 0.0);
        let report = |seconds: f64| {
            progress(TranscodeProgressNotification {
                path: path.clone(),
                fraction: total.map(|t| (seconds / t).clamp(0.0, 1.0)),
                seconds,
            })
        };
        let result = run(&ffmpeg, &src, &out, audio_only, &report);
        let _ = std::fs::remove_file(&src);
        result.map_err(|why| PreviewError::Transcode { path: path.clone(), why })?;
        done(false)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn progress_lines() {
        let cases = [
            ("out_time_us=1500000", Some(1.5)),
            ("out_time_ms=2000000", Some(2.0)),
            ("out_time_us=N/A", None),
            ("out_time_us=-9223372036854775807", None),
            ("frame=12", None),
            ("progress=end", None),
        ];
        for (line, want) in cases {
            assert_eq!(progress_seconds(line), want, "{line}");
        }
    }

    #[test]
    fn ffmpeg_is_found_by_the_doctors_discovery_and_a_bad_override_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ffmpeg"), "").unwrap();
        std::fs::write(dir.path().join("ffprobe"), "").unwrap();
        let mut host = HostPaths::isolated(Platform::Linux);
        host.env.insert("PATH".into(), dir.path().display().to_string());
        let tools = Tools::discover(&host);
        assert_eq!(tools.ffmpeg.unwrap(), dir.path().join("ffmpeg"));
        assert_eq!(tools.ffprobe.unwrap(), dir.path().join("ffprobe"));
        host.env.insert("FOLIO_FFMPEG_PATH".into(), "/nowhere/ffmpeg".into());
        let tools = Tools::discover(&host);
        assert_eq!(tools.ffmpeg.unwrap_err(), "ffmpeg: FOLIO_FFMPEG_PATH names /nowhere/ffmpeg, which does not exist");
        assert!(tools.ffprobe.is_err());
    }

    #[test]
    fn audio_only_previews_drop_the_picture() {
        let args = arguments(Path::new("/in.m4a"), Path::new("/out.part"), true);
        assert!(args.contains(&"-vn".to_string()) && !args.contains(&"libvpx".to_string()));
        let args = arguments(Path::new("/in.mp4"), Path::new("/out.part"), false);
        assert!(args.contains(&"libvpx".to_string()) && args.contains(&"libopus".to_string()));
        assert_eq!(args.last().unwrap(), "/out.part");
    }
}
