//! `folio-render`: how Folio's agent sees what it made. Documents become page images, images are
//! described and transformed, and the host learns up front which of these work on this machine.
//!
//! # What is here
//!
//! - **Discovery** ([`discovery`]): where PDFium and LibreOffice are looked for, as a pure
//!   function of platform, environment and directories, so every platform's list is tested
//!   everywhere.
//! - **PDF** ([`pdf`]): PDFium through pdfium-render, bound once per process to a library that
//!   `scripts/get-pdfium.sh` takes from the pinned pypdfium2 wheel on PyPI (no PDFium is in
//!   Debian, and no registry ships a static build). Encrypted and damaged PDFs fail with named
//!   errors; pages render into a reused bitmap while another thread encodes the previous one.
//! - **Office** ([`office`]): headless LibreOffice converts to PDF with a reused profile; when it
//!   is absent, Office files are refused before anything runs, with the install command.
//! - **Images** ([`images`], [`ops`]): describe from the header (format, size, EXIF orientation,
//!   animation), decode within pixel limits, resize, crop, rotate, convert, composite, contact
//!   sheets — with the `image` crate built with only the PNG, JPEG, GIF and WebP codecs; TIFF
//!   pages ([`tiff`], BigTIFF too) and SVG ([`svg`]) are read as inputs, never written.
//! - **Rasterize** ([`rasterize`]): one entry point for any of the above, `rasterize(path,
//!   outDir, {pages, dpi | width, format})`.
//! - **Describe** ([`describe`]): summaries for PDFs, images and Office files (from their ZIP
//!   structure), claimed by magic bytes first, then extension.
//! - **Doctor** ([`doctor`]): one row per capability (PDFium, LibreOffice and its applications,
//!   Chromium, ffmpeg), `{name, ok, required, detail, fix}`; a found tool's version comes
//!   through [`doctor::Probe`], so folio-host can answer unchanged tools from its cache.
//!
//! # The script layer
//!
//! The core above knows nothing about QuickJS. With the default `adapters` feature, `modules`
//! defines the `env:render` and `env:images` native modules for folio-script's registry, and
//! `handler` the `describe` handlers for folio-env; folio-host registers both (this crate
//! assembles no environment); both are thin: they parse options, move bytes
//! between the agent's tree and the core, and shape results.
//!
//! # Decisions
//!
//! - **PDFium over a pure-Rust renderer.** It renders everything (encrypted files included, when
//!   there is a password) at ~17 ms a page at 150 DPI; the price is a 8 MB native library
//!   provisioned by the install script and refused loudly by the doctor when missing.
//! - **Bytes in, bytes out.** The core renders from memory, so the agent's virtual tree never has
//!   to be materialised on disk, except the single file LibreOffice needs.
//! - **Default pages: all, capped.** A call renders at most [`Renderer::max_pages`] pages; past
//!   that the result carries a warning saying which pages to ask for next, and an explicit list
//!   over the cap is refused.

pub mod describe;
pub mod discovery;
pub mod doctor;
mod error;
pub mod images;
mod limits;
pub mod office;
pub mod office_server;
pub mod ops;
pub mod pagepng;
pub mod pdf;
pub mod rasterize;
pub mod recalc;
pub mod sheet_fit;
pub mod svg;
pub mod text;
pub mod tiff;
mod zipdir;

#[cfg(feature = "adapters")]
pub mod handler;
#[cfg(feature = "adapters")]
pub mod modules;

pub use discovery::{HostPaths, Platform};
pub use doctor::{Capability, capabilities};
pub use error::{RenderError, Result};
pub use images::{ImageFormat, ImageInfo, ImageLimits};
pub use office::OfficeApp;
pub use pdf::{PdfEngine, PdfInfo, Size};
pub use rasterize::{DocKind, Pages, RasterOptions, RasterResult, Rasterized, Renderer};
