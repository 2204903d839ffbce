#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]
//! The one integration-test binary of `folio-script`; each concern is a module under `suite/`.

mod suite;
