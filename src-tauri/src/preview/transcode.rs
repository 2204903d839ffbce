//! The webm preview of a video or audio file this webview cannot play, made by folio-media
//! (`folio_media::preview::transcode_preview`, the crate scripts' `env:media` runs on, and the only
//! one that starts ffmpeg): VP8 + Opus at most 1280 pixels wide, progress from ffmpeg's
//! `-progress` stream, supervised in its own process group with a timeout, written beside its
//! final name and renamed into place, so a half-made preview is never served.

use std::path::{Path, PathBuf};
use std::sync::PoisonError;
use std::time::{Duration, Instant};

use folio_budget::child::ChildLimits;
use folio_media::{Ffmpeg, MediaError, Platform, Tool};
use folio_render::HostPaths;
use folio_vfs::VPath;

use super::error::PreviewError;
use super::{Previews, Version, checked_path, content_hash, kind, read};
use crate::api::{PreviewKind, PreviewTranscodeResponse, TranscodeProgressNotification};
use crate::session::Session;

/// The memory cap of one preview transcode's process group, in MB.
const MEMORY_MB: u64 = 2048;

/// ffmpeg and ffprobe as folio-media found them, or why they are not usable.
#[derive(Debug, Clone)]
pub struct Tools {
    /// ffmpeg (and ffprobe, when it is beside it or on PATH), when usable.
    pub ffmpeg: Result<Ffmpeg, String>,
}

/// The install command for ffmpeg on this platform (the doctor's fix for its ffmpeg row).
pub fn ffmpeg_fix() -> String {
    format!("install ffmpeg: {}", Tool::Ffmpeg.fix(Platform::current()))
}

impl Tools {
    /// Finds ffmpeg with folio-media's discovery over the host's paths (`FOLIO_FFMPEG_PATH`,
    /// `PATH`, the usual locations — what `folio doctor` reports), and ffprobe with it.
    pub fn discover(host: &HostPaths) -> Tools {
        let found = folio_host::media::with_search(host, |s| Ffmpeg::discover_with(s, None));
        let ffmpeg = found.map_err(|e| match e {
            MediaError::NotFound { tool, searched, .. } => format!("{tool}: {searched}"),
            other => other.to_string(),
        });
        Tools { ffmpeg }
    }

    /// ffprobe, when one was found.
    pub fn ffprobe(&self) -> Option<&Ffmpeg> {
        self.ffmpeg.as_ref().ok().filter(|f| f.ffprobe().is_some())
    }
}

/// The time limit of a preview transcode of `seconds` of media: ten minutes, plus twice the
/// media's length (a realtime VP8 encode runs faster than playback on any host Folio supports).
pub fn time_limit(seconds: Option<f64>) -> Duration {
    Duration::from_secs(600)
        + Duration::from_secs_f64(2.0 * seconds.filter(|s| s.is_finite()).unwrap_or(0.0).clamp(0.0, 86_400.0))
}

/// Runs folio-media's preview transcode of `src` into `out`, calling `progress` with the seconds
/// written so far. The output appears at `out` only when ffmpeg succeeded.
pub fn run(
    ffmpeg: &Ffmpeg,
    src: &Path,
    out: &Path,
    audio_only: bool,
    limits: &ChildLimits,
    progress: &dyn Fn(f64),
) -> Result<(), String> {
    folio_media::preview::transcode_preview(ffmpeg, src, out, audio_only, limits, &mut |s| progress(s)).map_err(|e| {
        match e {
            MediaError::Failed { stderr, .. } if !stderr.trim().is_empty() => stderr,
            other => other.to_string(),
        }
    })
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
        let limits = ChildLimits {
            memory_bytes: Some(MEMORY_MB * 1024 * 1024),
            ..ChildLimits::timeout(time_limit(probe.duration_s))
        };
        let result = run(&ffmpeg, &src, &out, audio_only, &limits, &report);
        let _ = std::fs::remove_file(&src);
        result.map_err(|why| PreviewError::Transcode { path: path.clone(), why })?;
        done(false)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use folio_render::Platform as HostPlatform;

    #[test]
    fn ffmpeg_is_found_by_folio_medias_discovery_and_a_bad_override_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ffmpeg"), "").unwrap();
        std::fs::write(dir.path().join("ffprobe"), "").unwrap();
        let mut host = HostPaths::isolated(HostPlatform::Linux);
        host.env.insert("PATH".into(), dir.path().display().to_string());
        let tools = Tools::discover(&host);
        let found = tools.ffmpeg.clone().unwrap();
        assert_eq!(found.path(), dir.path().join("ffmpeg"));
        assert_eq!(found.ffprobe(), Some(dir.path().join("ffprobe").as_path()));
        assert!(tools.ffprobe().is_some());
        host.env.insert("FOLIO_FFMPEG_PATH".into(), "/nowhere/ffmpeg".into());
        let tools = Tools::discover(&host);
        assert_eq!(tools.ffmpeg.unwrap_err(), "ffmpeg: FOLIO_FFMPEG_PATH names /nowhere/ffmpeg, which does not exist");
    }

    #[test]
    fn the_time_limit_grows_with_the_media() {
        assert_eq!(time_limit(None), Duration::from_secs(600));
        assert_eq!(time_limit(Some(60.0)), Duration::from_secs(720));
        assert_eq!(time_limit(Some(f64::NAN)), Duration::from_secs(600));
    }
}
