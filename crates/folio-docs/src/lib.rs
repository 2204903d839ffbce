//! `folio-docs`: env:documents, the reports and memos an analyst hands on.
//!
//! # What is here
//!
//! - **One spec, two formats** ([`spec`]): `{title, pageSize, header, footer, pageNumbers,
//!   content: [heading | text | bullets | table | image | pageBreak]}` is parsed once into a
//!   [`spec::Doc`]; every string is checked against the bundled DejaVu faces first, so a
//!   character they cannot draw is refused by name before a byte is written.
//! - **PDF writing** ([`pdfwrite`], [`pdffont`]): a single-pass layout (wrapping, tables whose
//!   header row repeats, number columns right-aligned, images, running header and footer,
//!   "Page N of M") emitted with pdf-writer; DejaVu is subset with subsetter and embedded as
//!   CIDFontType2 with a ToUnicode map, so pdftotext and PDFium read the text back.
//! - **DOCX writing** ([`docxwrite`]): OOXML written as strings (styles Heading1–3, bullet
//!   numbering, tables with a repeated header row, inline images, header and footer with
//!   PAGE/NUMPAGES fields), zipped.
//! - **PDF reading and editing** ([`pdfops`], [`pdftext`]): lopdf for describe, pages, split,
//!   merge, rotate, metadata and AcroForm read/fill; text through PDFium (folio-render's
//!   `text` module — this crate never links PDFium itself), each page classified.
//! - **DOCX reading and editing** ([`docxread`]): describe, text, and `replaceText` that
//!   rewrites only the parts it changed and copies the rest still compressed; text with
//!   tracked changes accepted, rejected or marked up, comments and notes counted
//!   ([`docxtext`]).
//! - **The script layer** ([`modules`], [`handler`]): the `env:documents` native module and
//!   the `describe`/`ls` handler.
//!
//! # Decisions
//!
//! - **pdf-writer + subsetter 0.2.0 over krilla.** krilla brings a shaping and colour stack
//!   (rustybuzz, skrifa, image codecs) that the workspace does not otherwise build; pdf-writer
//!   and subsetter 0.2.0 have no dependencies of their own and build in seconds (the whole new
//!   tree, lopdf included, built in 1 min 25 s here). The price: no shaping, so the PDF writer
//!   refuses Hebrew and Arabic by name and points at `docx.create` (Latin, Greek and Cyrillic
//!   are exact; kerning is not applied).
//! - **OOXML by hand over docx-rs.** The memo needs a handful of parts; strings keep the
//!   dependency tree to `zip`, which the workspace already builds.
//! - **Bytes in, bytes out.** Every operation builds its output in memory; the caller writes
//!   once, so failures leave no partial file.

pub mod docxpkg;
pub mod docxread;
pub mod docxtext;
pub mod docxwrite;
pub mod error;
pub mod image;
pub mod ops;
pub mod pdffont;
pub mod pdfops;
pub mod pdfstamp;
pub mod pdftext;
pub mod pdfwrite;
pub mod qpdf;
pub mod spec;

#[cfg(feature = "adapters")]
pub mod handler;
#[cfg(feature = "adapters")]
pub mod modules;

pub use error::{DocsError, Result};
pub use ops::{BINDINGS, DocFs, extract_text};
