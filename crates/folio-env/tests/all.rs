#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The integration suite, one binary: see `suite/`.

mod suite;
