#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! env:motion's suite. A Chromium-family browser and ffmpeg must be present: `scripts/install.sh`
//! provides chromium-headless-shell and ffmpeg, so a missing one fails loudly instead of skipping.

mod suite;
