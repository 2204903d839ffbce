//! `folio-docs`: env:documents.
pub mod error;
pub mod image;
pub mod pdffont;
pub mod pdfwrite;
pub mod spec;

pub use error::{DocsError, Result};
