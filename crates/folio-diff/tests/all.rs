//! folio-diff against real files made in each test by the project's own writers (folio-docs
//! PDFs, folio-slides decks, folio-sheets workbooks, folio-archives archives, ffmpeg clips) and
//! the real PDFium, LibreOffice and ffmpeg of this host.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod suite;
