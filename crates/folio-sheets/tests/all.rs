#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! folio-sheets' integration tests: real scripts calling env:spreadsheets, results re-read by
//! independent readers (python3 openpyxl, LibreOffice, unzip), hostile inputs, the corpus.

mod suite;
