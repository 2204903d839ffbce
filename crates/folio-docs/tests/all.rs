#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! folio-docs' integration tests: documents written through the script module and re-read by
//! independent readers (pdftotext, pdfinfo, PDFium, LibreOffice), hostile inputs, the corpus.

mod suite;
