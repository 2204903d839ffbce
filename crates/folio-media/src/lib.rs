//! `folio-media`: the only crate that knows ffmpeg and ffprobe.
//!
//! (The essay is completed below as the crate grows.)

pub mod discovery;
pub mod encode;
mod error;
pub mod probe;
pub mod run;

pub use discovery::{Ffmpeg, Platform, Tool};
pub use encode::{EncodeOutcome, FrameEncoder, FrameEncoderParams, VideoFormat};
pub use error::{MediaError, last_lines};
pub use probe::{MediaInfo, StreamInfo, StreamKind, probe};
