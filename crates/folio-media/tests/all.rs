#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! folio-media's integration tests: real media made in each test with ffmpeg's own sources.

mod suite;
