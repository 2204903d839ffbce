//! The operations behind `env:media`, one function per binding, over the agent's tree through
//! [`MediaFs`] (the environment's gateway in a run). Each one: validates its arguments into
//! sentences before anything runs; reads its inputs from the tree into a [`Stage`] under safe
//! names; probes them (refusing huge pictures, missing streams and unreadable files by name);
//! runs ffmpeg as a budgeted job with the stage as its working directory, so no caller's path
//! ever reaches an argument or a filter graph; writes the result back through the tree; and
//! returns what ffprobe says the result is.
//!
//! [`BINDINGS`] is the one table of bindings (name, whether it writes, the function): the
//! module, its audit test and the docs read it.

mod args;
mod audio;
pub mod codecs;
mod speech;
mod subtitles;
mod summary;
pub mod video;

use std::path::PathBuf;
use std::time::Duration;

use folio_budget::RunBudget;
use serde_json::Value;

pub use args::Opts;
pub use summary::MediaSummary;

use crate::discovery::{Ffmpeg, Search, Tool, find};
use crate::error::MediaError;
use crate::probe::{MediaInfo, StreamKind, probe_within};
use crate::progress::{JobSpec, Weight, run_job};
use crate::run::{FfmpegCall, RunOutput};
use crate::stage::Stage;

/// Pictures larger than this on either side are refused before ffmpeg decodes them.
pub const MAX_SIDE: u32 = 16_384;
/// A call's own time limit unless `timeoutMs` says otherwise.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;

/// How the operations reach the agent's tree (the run's gateway; a host folder in tests).
pub trait MediaFs: Send + Sync {
    /// The whole content of a file.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    /// Creates or replaces a file (its directory is made when missing).
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), String>;
}

/// What this host has for media work, found once per start.
#[derive(Debug, Clone)]
pub struct MediaHost {
    ffmpeg: Result<Ffmpeg, String>,
    espeak: Result<PathBuf, String>,
    temp_root: Option<PathBuf>,
    /// espeak-ng's voices, asked once (`espeak-ng --voices`).
    voices: std::sync::Arc<std::sync::OnceLock<Result<Vec<String>, String>>>,
}

impl MediaHost {
    /// Looks for ffmpeg, ffprobe and espeak-ng as `search` says.
    pub fn discover(search: &Search<'_>) -> MediaHost {
        let ffmpeg = Ffmpeg::discover_with(search, None).map_err(|e| e.to_string());
        let espeak = find(search, Tool::Espeak, None, None).map(|c| c.path).map_err(|e| e.to_string());
        MediaHost { ffmpeg, espeak, temp_root: None, voices: Default::default() }
    }

    /// This machine.
    pub fn from_host() -> MediaHost {
        MediaHost::discover(&Search::host())
    }

    /// Known tools (`espeak`: `None` when there is no speech engine).
    pub fn with(ffmpeg: Ffmpeg, espeak: Option<PathBuf>) -> MediaHost {
        let espeak = espeak.ok_or_else(|| {
            MediaError::NotFound {
                tool: "espeak-ng",
                searched: "not configured".into(),
                fix: Tool::Espeak.fix(crate::Platform::current()),
            }
            .to_string()
        });
        MediaHost { ffmpeg: Ok(ffmpeg), espeak, temp_root: None, voices: Default::default() }
    }

    /// Stages under `root` instead of the system's temporary directory.
    pub fn temp_root(mut self, root: PathBuf) -> MediaHost {
        self.temp_root = Some(root);
        self
    }

    /// ffmpeg, or why it is missing.
    pub fn ffmpeg(&self) -> Result<&Ffmpeg, MediaError> {
        self.ffmpeg.as_ref().map_err(|e| MediaError::Unavailable(e.clone()))
    }

    /// The speech engine's voice names (languages, voice files), asked once.
    pub fn voices(&self) -> Result<&[String], MediaError> {
        let espeak = self.espeak()?;
        self.voices
            .get_or_init(|| speech::list_voices(espeak).map_err(|e| e.to_string()))
            .as_ref()
            .map(Vec::as_slice)
            .map_err(|e| MediaError::Unavailable(e.clone()))
    }

    /// The speech engine, or why it is missing (with its install line).
    pub fn espeak(&self) -> Result<&PathBuf, MediaError> {
        self.espeak.as_ref().map_err(|e| MediaError::Unavailable(e.clone()))
    }
}

/// One binding call: the host's tools, the tree, the run's budget, and the binding's name.
pub struct Call<'a> {
    /// The tools.
    pub host: &'a MediaHost,
    /// The tree.
    pub fs: &'a dyn MediaFs,
    /// The run's budget.
    pub budget: &'a RunBudget,
    /// The binding (`transcode`).
    pub op: &'static str,
}

/// A staged input: its safe name in the stage and its probe.
pub struct Input {
    /// The caller's tree path.
    pub path: String,
    /// The staged file name.
    pub file: String,
    /// What it is.
    pub info: MediaInfo,
    /// Its size in bytes.
    pub bytes: u64,
}

impl Input {
    /// Its duration, or 0 for a still.
    pub fn secs(&self) -> f64 {
        self.info.duration.unwrap_or(0.0)
    }

    /// Refuses an input without a stream of `kind`.
    pub fn require(&self, kind: StreamKind, hint: &str) -> Result<(), MediaError> {
        if self.info.first(kind).is_some() {
            return Ok(());
        }
        let name = match kind {
            StreamKind::Video => "video",
            StreamKind::Audio => "audio",
            StreamKind::Subtitle => "subtitle",
            StreamKind::Other => "data",
        };
        Err(MediaError::NoStream { path: self.path.clone(), kind: name, hint: hint.to_string() })
    }
}

impl Call<'_> {
    /// The job name progress and errors use.
    pub fn job(&self, path: &str) -> String {
        format!("env:media.{} {path}", self.op)
    }

    /// A fresh stage.
    pub fn stage(&self) -> Result<Stage, MediaError> {
        Stage::new(self.host.temp_root.as_deref())
    }

    /// A fresh stage for a probe only ([`Stage::for_probe`]).
    pub fn probe_stage(&self) -> Result<Stage, MediaError> {
        Stage::for_probe(self.host.temp_root.as_deref())
    }

    /// Reads `path` from the tree into `stage` and probes it; pictures over [`MAX_SIDE`] are
    /// refused unless `describe_only`.
    pub fn load(&self, stage: &mut Stage, path: &str, describe_only: bool) -> Result<Input, MediaError> {
        let ffmpeg = self.host.ffmpeg()?;
        let bytes = self.fs.read(path).map_err(MediaError::Tree)?;
        if bytes.is_empty() {
            return Err(MediaError::Unreadable {
                path: path.to_string(),
                detail: "the file is empty (0 bytes)".into(),
            });
        }
        let file = stage.input(path, &bytes)?;
        let limits = folio_budget::ChildLimits {
            cancel: Some(cancel_of(self.budget)),
            deadline: self.budget.remaining().map(|left| std::time::Instant::now() + left),
            ..folio_budget::ChildLimits::timeout(crate::probe::PROBE_TIMEOUT)
        };
        let info = probe_within(ffmpeg, &stage.path(&file), path, &limits)?;
        if !describe_only {
            let d = info.duration.unwrap_or(0.0);
            let still = info.first(StreamKind::Video).is_some() && info.duration.is_none();
            if d <= 0.0 && !still {
                return Err(MediaError::Unreadable {
                    path: path.to_string(),
                    detail: "it is 0 s long: there is no sound or picture to work on".into(),
                });
            }
            for v in info.of(StreamKind::Video) {
                let (w, h) = (v.width.unwrap_or(0), v.height.unwrap_or(0));
                if w > MAX_SIDE || h > MAX_SIDE {
                    return Err(MediaError::TooLarge {
                        path: path.to_string(),
                        width: u64::from(w),
                        height: u64::from(h),
                        max: u64::from(MAX_SIDE),
                    });
                }
            }
        }
        Ok(Input { path: path.to_string(), file, info, bytes: bytes.len() as u64 })
    }

    /// Runs ffmpeg in `stage` as a job of the run's budget.
    #[allow(clippy::too_many_arguments)]
    pub fn exec(
        &self,
        stage: &Stage,
        subject: &str,
        verb: &str,
        media_secs: f64,
        weight: Weight,
        timeout: Duration,
        args: Vec<String>,
    ) -> Result<RunOutput, MediaError> {
        self.exec_at(stage, subject, verb, media_secs, weight, timeout, args, crate::run::LogLevel::Error)
    }

    /// [`Self::exec`] with ffmpeg's log at `log` (`Info` keeps filter messages such as
    /// libass's font choices in the run's stderr).
    #[allow(clippy::too_many_arguments)]
    pub fn exec_at(
        &self,
        stage: &Stage,
        subject: &str,
        verb: &str,
        media_secs: f64,
        weight: Weight,
        timeout: Duration,
        args: Vec<String>,
        log: crate::run::LogLevel,
    ) -> Result<RunOutput, MediaError> {
        let ffmpeg = self.host.ffmpeg()?;
        let mut call = FfmpegCall::new(self.job(subject), args.into_iter().map(Into::into).collect());
        call.cwd = Some(stage.dir().to_path_buf());
        call.log = log;
        let spec = JobSpec { job: self.job(subject), verb, media_secs, weight, timeout };
        run_job(ffmpeg, self.budget, &spec, &call)
    }

    /// Reads `file` from the stage, writes it to `out` in the tree, and describes it.
    pub fn save(&self, stage: &Stage, file: &str, out: &str, stderr: &str) -> Result<Value, MediaError> {
        let bytes = stage.output(file, &format!("{} → {out}", self.op), stderr)?;
        self.budget_check()?;
        self.fs.write(out, &bytes).map_err(MediaError::Tree)?;
        let info = crate::probe::probe(self.host.ffmpeg()?, &stage.path(file)).ok();
        Ok(summary::output(out, bytes.len() as u64, info.as_ref()))
    }

    /// Stops before a write when the run was cancelled or its time is up.
    pub fn budget_check(&self) -> Result<(), MediaError> {
        if self.budget.is_cancelled() {
            return Err(MediaError::Cancelled { what: format!("env:media.{}", self.op) });
        }
        if self.budget.remaining().is_some_and(|r| r.is_zero()) {
            return Err(MediaError::Deadline { what: format!("env:media.{}", self.op) });
        }
        Ok(())
    }
}

fn cancel_of(budget: &RunBudget) -> folio_budget::CancelFn {
    let b = budget.clone();
    std::sync::Arc::new(move || b.is_cancelled())
}

/// A binding: its name, whether it writes to the tree, and its function over JSON arguments.
pub struct Binding {
    /// The exported name.
    pub name: &'static str,
    /// True when it writes (refused during validation).
    pub writes: bool,
    /// The operation.
    pub run: fn(&Call<'_>, &[Value]) -> Result<Value, MediaError>,
}

/// Every binding of `env:media`, in the order the docs list them.
pub const BINDINGS: &[Binding] = &[
    Binding { name: "describe", writes: false, run: summary::describe },
    Binding { name: "thumbnail", writes: true, run: video::thumbnail },
    Binding { name: "frames", writes: true, run: video::frames },
    Binding { name: "clip", writes: true, run: video::clip },
    Binding { name: "concat", writes: true, run: video::concat },
    Binding { name: "transcode", writes: true, run: video::transcode },
    Binding { name: "extractAudio", writes: true, run: audio::extract_audio },
    Binding { name: "loudness", writes: false, run: audio::loudness },
    Binding { name: "normalize", writes: true, run: audio::normalize },
    Binding { name: "waveform", writes: true, run: audio::waveform },
    Binding { name: "extractSubtitles", writes: true, run: subtitles::extract },
    Binding { name: "burnSubtitles", writes: true, run: subtitles::burn },
    Binding { name: "slideshow", writes: true, run: video::slideshow },
    Binding { name: "contactSheet", writes: true, run: video::contact_sheet },
    Binding { name: "mixAudio", writes: true, run: audio::mix_audio },
    Binding { name: "speak", writes: true, run: speech::speak },
];

/// The binding called `name`.
pub fn binding(name: &str) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.name == name)
}

/// Runs binding `name` with `args` (JSON; `null` for a missing argument).
pub fn call(name: &str, cx: &Call<'_>, args: &[Value]) -> Result<Value, MediaError> {
    let b = binding(name).ok_or_else(|| MediaError::Invalid(format!("env:media has no function {name}")))?;
    (b.run)(cx, args)
}
