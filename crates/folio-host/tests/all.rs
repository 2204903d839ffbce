#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! The one integration-test binary of `folio-host`; each concern is a module under `suite/`.

mod suite;
