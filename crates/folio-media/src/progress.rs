//! An ffmpeg run as a job of the run's budget: the estimate from the media's duration and the
//! rate measured on this host (refused up front, naming what to change, when it does not fit),
//! progress from ffmpeg's `out_time_us` as `{done, total, unit: seconds, eta}` on the run's
//! progress stream, and a stop by the budget turned into the budget's own error.
//!
//! Cost is counted in *media seconds*, weighted by how heavy the work is ([`Weight`]): an encode
//! of 1080p pictures counts each second once, smaller pictures less, audio-only and decode-only
//! work a tenth, a stream copy a fiftieth. One rate per host then estimates all of them.

use std::time::Duration;

use folio_budget::{BudgetError, JobKind, Plan, RunBudget};

use crate::discovery::Ffmpeg;
use crate::error::MediaError;
use crate::run::{FfmpegCall, RunOutput, run_ffmpeg};

/// The memory cap of one ffmpeg process group, in MB.
pub const MEMORY_MB: u64 = 2048;

/// How heavy a run is per second of media.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Weight {
    /// Encoding pictures of this many pixels (1080p counts 1).
    Video {
        /// Output pixels per frame.
        pixels: u64,
    },
    /// Decoding or encoding sound only, or decoding without encoding pictures.
    Light,
    /// Copying streams without decoding.
    Copy,
}

impl Weight {
    /// Cost units per media second.
    pub fn factor(self) -> f64 {
        match self {
            Weight::Video { pixels } => (pixels as f64 / (1920.0 * 1080.0)).clamp(0.05, 16.0),
            Weight::Light => 0.1,
            Weight::Copy => 0.02,
        }
    }
}

/// What one budgeted run is.
pub struct JobSpec<'a> {
    /// Who is working (`env:media.transcode /in/a.mp4`).
    pub job: String,
    /// The work in words (`transcoding`).
    pub verb: &'a str,
    /// Seconds of media the run goes through.
    pub media_secs: f64,
    /// How heavy each second is.
    pub weight: Weight,
    /// The call's own time limit.
    pub timeout: Duration,
}

/// Runs `call` as a job of `budget`.
pub fn run_job(
    ffmpeg: &Ffmpeg,
    budget: &RunBudget,
    spec: &JobSpec<'_>,
    call: &FfmpegCall,
) -> Result<RunOutput, MediaError> {
    let secs = spec.media_secs.max(0.0);
    let total = secs.ceil().max(1.0) as u64;
    let mut job = budget.start(Plan {
        kind: JobKind::Media,
        job: spec.job.clone(),
        what: format!("{} {secs:.1} s of media", spec.verb),
        total,
        cost: secs.max(0.1) * spec.weight.factor(),
        smaller: "process a shorter part per call (cut it with env:media.clip first)".into(),
    })?;
    let limits = job.child_limits(spec.timeout, MEMORY_MB);
    let out = run_ffmpeg(ffmpeg, call, &limits, &mut |done| job.step(done.floor() as u64).map_err(MediaError::from));
    match out {
        Ok(o) => {
            job.finish();
            Ok(o)
        }
        Err(MediaError::Deadline { .. }) => Err(job.out_of_time().into()),
        Err(e @ MediaError::Cancelled { .. }) => Err(job.check().err().map_or(e, MediaError::from)),
        Err(e) => Err(e),
    }
}

/// Whether `e` is a budget stop (nothing more should run in this call).
pub fn is_stop(e: &MediaError) -> bool {
    matches!(
        e,
        MediaError::Budget(BudgetError::Cancelled { .. } | BudgetError::OutOfTime { .. })
            | MediaError::Cancelled { .. }
            | MediaError::Deadline { .. }
    )
}
