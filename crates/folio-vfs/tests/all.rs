//! Single integration-test binary for `folio-vfs`; the cases live in `suite/`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::type_complexity, missing_docs)]

mod suite;
