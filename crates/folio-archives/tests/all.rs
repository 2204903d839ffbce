#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! folio-archives' integration tests: crafted archives (traversal, links, bombs, encryption,
//! methods, entry counts), round trips, the corpus, and env:archives through real scripts.

mod suite;
