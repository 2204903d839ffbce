//! `folio-docs`: env:documents.
pub mod docxread;
pub mod docxwrite;
pub mod error;
pub mod image;
pub mod pdffont;
pub mod pdfops;
pub mod pdftext;
pub mod pdfwrite;
pub mod spec;

pub use error::{DocsError, Result};
