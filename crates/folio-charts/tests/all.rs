#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! folio-charts' integration tests: every chart type drawn and decoded, the spec's refusals,
//! env:charts through a real script, and SVG rasterising on the corpus' hostile files.

mod suite;
