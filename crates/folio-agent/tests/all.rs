//! Single integration-test binary for `folio-agent`; the cases live in `suite/`. Every model
//! provider here is a fake HTTP server on 127.0.0.1 speaking the provider's real wire format.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod suite;
