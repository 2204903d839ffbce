//! `folio-media`: the only crate that knows ffmpeg and ffprobe. Analysts hand over recordings,
//! clips and audio as often as documents; this crate is how a script (through `env:media`),
//! env:motion's encoder and, later, the desktop's previews reach them.
//!
//! # What is here
//!
//! - **Discovery** ([`discovery`]): ffmpeg, ffprobe and espeak-ng as a pure function of
//!   ([`Platform`], environment, explicit option) — the option, `FOLIO_FFMPEG_PATH` /
//!   `FOLIO_FFPROBE_PATH` / `FOLIO_ESPEAK_PATH`, `PATH`, each platform's usual places — so the
//!   macOS and Windows lists are tested on Linux. A variable naming a missing file is an error,
//!   never a reason to look elsewhere.
//! - **The typed probe** ([`probe`]): ffprobe's JSON read into [`MediaInfo`] (streams, codecs,
//!   duration, fps, size, channels, sample rate, rotation, language).
//! - **One runner** ([`run`]): an argv, never a shell; `-hide_banner -nostdin -y`; the child in
//!   its own process group under `folio_budget::child::Supervised` (timeout, the run's deadline,
//!   cancel, memory: each kills the group); the last stderr lines in every failure; progress
//!   from `-progress pipe:1`. [`progress`] makes each run a job of the run's budget: estimated
//!   from the media's duration and this host's measured rate, refused up front with what to
//!   change, reporting `{done, total, unit: seconds, eta}`.
//! - **The frame encoder** ([`encode`]): [`FrameEncoder`] takes PNGs on ffmpeg's stdin and writes
//!   mp4, webm or gif with reproducible bytes; env:motion codes against it.
//! - **The operations** ([`ops`]): one function per `env:media` binding over the agent's tree,
//!   staged in a temporary directory ([`stage`]) under safe names; [`ops::BINDINGS`] is their one
//!   table. [`doctor`] gives the rows `folio doctor` prints.
//!
//! # The script layer
//!
//! With the default `adapters` feature, [`modules`] defines the `env:media` native module and
//! [`handler`] the `describe`/`ls` handler (claiming audio and video by magic bytes, then by
//! extension, through `folio_kinds`); folio-host registers both.
//!
//! # Decisions
//!
//! - **ffmpeg as a process, not libav bindings.** The ABI of `ffmpeg-next` follows the system's
//!   libav; a process is isolated (a crash or a hang is a killed group, not a dead host), and the
//!   same binary serves the doctor, scripts and the encoder.
//! - **Stage, never pass.** Inputs are copied from the tree into a private directory under names
//!   like `in-1.mp4` and ffmpeg runs there, so no caller's name — quotes, a leading `-`, `:`,
//!   `$(…)` — ever becomes an option, a protocol or part of a filter graph (the subtitles filter
//!   reads a file *named inside its graph*). Paths that must be passed go through
//!   [`run::file_arg`] (`file:` prefix).
//! - **Validate into sentences first.** Every option is checked before ffmpeg starts, and broken
//!   inputs are named (truncated, corrupt, empty, zero-length, no such stream, pictures over
//!   16384 pixels a side) so the agent reads what to do rather than ffmpeg's last line.
//! - **Reproducible encodes.** The encoder fixes the thread count and writes `+bitexact` with no
//!   metadata: equal frames give equal bytes on any machine with the same ffmpeg.

pub mod discovery;
pub mod doctor;
pub mod encode;
mod error;
pub mod frames;
pub mod ops;
pub mod preview;
pub mod probe;
pub mod progress;
pub mod run;
pub mod stage;

#[cfg(feature = "adapters")]
pub mod handler;
#[cfg(feature = "adapters")]
pub mod modules;

pub use discovery::{Ffmpeg, Platform, Search, Tool};
pub use encode::{EncodeOutcome, FrameEncoder, FrameEncoderParams, VideoFormat};
pub use error::{MediaError, last_lines};
pub use ops::{BINDINGS, Call, MediaFs, MediaHost};
pub use probe::{MediaInfo, StreamInfo, StreamKind, probe};
