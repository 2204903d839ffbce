//! End to end: the real window under X (Xvfb in CI) driven through WebDriver — fantoccini talks
//! to WebKitGTK's own driver (`/usr/bin/WebKitWebDriver`), which starts the app binary.
//!
//! Runs only with `FOLIO_E2E=1` (scripts/test.sh sets it and wraps the run in `xvfb-run` and
//! `timeout`); with it set and no `DISPLAY`, it fails rather than skipping. Screenshots of each
//! state are saved under `$FOLIO_E2E_OUT` (default: `target/e2e`). Each scenario is a module;
//! [`harness`] starts one app per test on its own driver port, so scenarios may run in parallel.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod agent;
mod capabilities;
#[path = "../common/mod.rs"]
mod common;
mod csp;
mod harness;
mod mail_scan;
mod media;
mod motion;
mod privacy;
mod progress;
mod provenance;
mod review;
#[path = "../review_fixtures/mod.rs"]
mod review_fixtures;
mod review_visual;
