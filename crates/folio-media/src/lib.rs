//! `folio-media`: the only crate that knows ffmpeg and ffprobe.
//!
//! (The essay is completed below as the crate grows.)

pub mod discovery;
pub mod doctor;
pub mod encode;
mod error;
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
