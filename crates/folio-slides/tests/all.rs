#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! folio-slides' integration tests: a six-slide deck checked by LibreOffice and poppler, the
//! reader on our decks and the corpus, replaceText's raw copy, hostile packages, env:slides.

mod suite;
