//! `rasterize`: pictures of a document's pages, whatever the document is. PDFs go through
//! PDFium, Office files through LibreOffice then PDFium, images are passed through or resized.
//! The [`Renderer`] holds the host facts (where the tools are, limits); the functions take bytes
//! so the same code serves host files ([`Renderer::rasterize_file`]) and the agent's virtual tree.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use folio_budget::{ChildLimits, JobKind, Plan, RunBudget};
use folio_kinds::{FileKind, Handler, OfficeApp};
use serde::Serialize;
use serde_json::Value;

use crate::discovery::HostPaths;
use crate::error::{RenderError, Result};
use crate::images::{self, FORMAT_NAMES, ImageFormat, ImageLimits};
use crate::office;
use crate::ops;
use crate::pdf::{PageRequest, PdfEngine, RenderedPage, Size};

/// What kind of document a file is, for rendering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DocKind {
    /// A PDF (`%PDF` near the start).
    Pdf,
    /// An Office document (by extension, with a ZIP, OLE or RTF signature).
    Office,
    /// A PNG, JPEG, GIF, WebP or TIFF image (by magic), or an SVG drawing (`<svg` near the start).
    Image,
}

/// Classifies a file by the workspace's kind table (magic bytes first, then the extension). A
/// kind is rendered only when its bytes agree: a `.docx` must be a ZIP (or an OLE container, as
/// an encrypted one is), a `.pdf` must carry `%PDF-`.
pub fn classify(name: &str, bytes: &[u8]) -> Result<DocKind> {
    let head = &bytes[..bytes.len().min(1024)];
    let kind = FileKind::detect(name, head);
    if let Some(kind) = kind.filter(|k| k.confirmed_by(head)) {
        match (kind, kind.handler()) {
            (FileKind::Pdf, _) => return Ok(DocKind::Pdf),
            (_, Some(Handler::Images)) => return Ok(DocKind::Image),
            _ if kind.office().is_some() => return Ok(DocKind::Office),
            _ => {}
        }
    }
    if crate::svg::looks_like_svg(head) {
        return Ok(DocKind::Image);
    }
    let ext = folio_kinds::extension(name).unwrap_or_default();
    let why = match kind {
        _ if bytes.is_empty() => "the file is empty".to_string(),
        Some(k) if k.office().is_some() => {
            format!("it is named .{ext} but its bytes are not an Office document (no ZIP, OLE or RTF signature)")
        }
        Some(FileKind::Pdf) => "it is named .pdf but has no %PDF- header (damaged or not a PDF)".to_string(),
        _ => "its bytes match no supported format".to_string(),
    };
    Err(RenderError::Unsupported { path: name.to_string(), why })
}

/// Which pages to render.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Pages {
    /// Every page, up to [`Renderer::max_pages`] (a warning names the rest).
    #[default]
    All,
    /// These 1-based pages, in this order.
    List(Vec<u32>),
}

/// The options of `rasterize(path, outDir, {pages?, dpi? | width?, format?, quality?})`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RasterOptions {
    /// Which pages.
    pub pages: Pages,
    /// Resolution: `dpi` (default 150) or a pixel `width`, never both.
    pub size: Option<Size>,
    /// Output format (default PNG; images default to their own format).
    pub format: Option<ImageFormat>,
    /// JPEG quality (1–100).
    pub quality: Option<u8>,
    /// Room in the tree the pages go to, `(bytes left, its cap)` (`limits.max_vfs_bytes`); not
    /// a script option — the module fills it from the script's file system. When set, pages
    /// that will not fit are refused before the first is written.
    pub room: Option<(u64, u64)>,
}

fn bad(msg: String) -> RenderError {
    RenderError::BadOption(msg)
}

impl RasterOptions {
    /// Parses the script's options object, naming every mistake.
    pub fn from_json(v: &Value) -> Result<RasterOptions> {
        let mut o = RasterOptions::default();
        let obj = match v {
            Value::Null => return Ok(o),
            Value::Object(m) => m,
            other => return Err(bad(format!("options must be an object like {{pages: [1], dpi: 150}}, got {other}"))),
        };
        for key in obj.keys() {
            if !["pages", "dpi", "width", "format", "quality"].contains(&key.as_str()) {
                return Err(bad(format!(
                    "unknown option \"{key}\" — hint: the options are pages, dpi, width, format, quality"
                )));
            }
        }
        o.pages = match obj.get("pages") {
            None | Some(Value::Null) => Pages::All,
            Some(Value::String(s)) if s == "all" => Pages::All,
            Some(Value::Number(n)) => Pages::List(vec![page_number(n.as_u64())?]),
            Some(Value::Array(a)) if !a.is_empty() => {
                Pages::List(a.iter().map(|x| page_number(x.as_u64())).collect::<Result<Vec<_>>>()?)
            }
            Some(other) => {
                return Err(bad(format!(
                    "pages must be \"all\", a page number or a non-empty list of 1-based page numbers, got {other}"
                )));
            }
        };
        let dpi = obj.get("dpi").filter(|x| !x.is_null());
        let width = obj.get("width").filter(|x| !x.is_null());
        o.size = match (dpi, width) {
            (Some(_), Some(_)) => {
                return Err(bad(
                    "give dpi or width, not both — hint: width fixes the pixel width, dpi the resolution".into()
                ));
            }
            (Some(d), None) => match d.as_f64() {
                Some(d) if (10.0..=1200.0).contains(&d) => Some(Size::Dpi(d as f32)),
                _ => return Err(bad(format!("dpi must be a number from 10 to 1200, got {d}"))),
            },
            (None, Some(w)) => match w.as_u64() {
                Some(w) if (16..=20_000).contains(&w) => Some(Size::Width(w as u32)),
                _ => return Err(bad(format!("width must be a whole number of pixels from 16 to 20000, got {w}"))),
            },
            (None, None) => None,
        };
        if let Some(f) = obj.get("format").filter(|x| !x.is_null()) {
            let name = f.as_str().unwrap_or_default();
            o.format = Some(
                ImageFormat::from_name(name)
                    .ok_or_else(|| bad(format!("format {f} is not supported — hint: use one of {FORMAT_NAMES}")))?,
            );
        }
        if let Some(q) = obj.get("quality").filter(|x| !x.is_null()) {
            o.quality = Some(match q.as_u64() {
                Some(q @ 1..=100) => q as u8,
                _ => return Err(bad(format!("quality must be a whole number from 1 to 100, got {q}"))),
            });
        }
        Ok(o)
    }
}

fn page_number(n: Option<u64>) -> Result<u32> {
    match n {
        Some(n) if n >= 1 && n <= u64::from(u32::MAX) => Ok(n as u32),
        _ => Err(bad("page numbers are whole numbers starting at 1".into())),
    }
}

/// One output image, encoded, with the file name it should get.
#[derive(Debug, Clone)]
pub struct OutPage {
    /// The page (1 for an image).
    pub page: u32,
    /// `<stem>-p<N>.<ext>`, or `<stem>.<ext>` for an image.
    pub file_name: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The encoded image.
    pub bytes: Vec<u8>,
}

/// The rendered pages, in memory.
#[derive(Debug, Clone)]
pub struct Rasterized {
    /// What the input was.
    pub kind: DocKind,
    /// The pages of the whole document.
    pub page_count: u32,
    /// The rendered pages.
    pub pages: Vec<OutPage>,
    /// Things the caller should know (pages left out, options ignored).
    pub warnings: Vec<String>,
}

/// What a rasterize call reports besides its pages.
#[derive(Debug, Clone)]
pub struct RasterSummary {
    /// What the input was.
    pub kind: DocKind,
    /// The pages of the whole document.
    pub page_count: u32,
    /// Things the caller should know (pages left out, options ignored).
    pub warnings: Vec<String>,
}

/// One page as written, for the script's result.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PageFile {
    /// The page number.
    pub page: u32,
    /// Where it was written.
    pub path: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// `{pages: [{page, path, width, height}], pageCount, warnings, kind}`.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RasterResult {
    /// The written pages.
    pub pages: Vec<PageFile>,
    /// Pages in the document.
    pub page_count: u32,
    /// Things the caller should know.
    pub warnings: Vec<String>,
    /// `pdf`, `office` or `image`.
    pub kind: DocKind,
}

/// The host facts rendering needs. Build once, share.
#[derive(Debug, Clone)]
pub struct Renderer {
    /// Where discovery looks.
    pub host: HostPaths,
    /// An explicit PDFium library (first candidate).
    pub pdfium_path: Option<PathBuf>,
    /// An explicit `soffice` (first candidate).
    pub soffice_path: Option<PathBuf>,
    /// The reused LibreOffice profile directory.
    pub office_profile: PathBuf,
    /// How long one LibreOffice conversion may take. Default 120 s; inside a run, never longer
    /// than what is left of the run's budget.
    pub office_timeout: Duration,
    /// The most resident memory one LibreOffice conversion (its whole process group) may use,
    /// in MiB. Default 2048.
    pub office_memory_mb: u64,
    /// Most pages one call renders. Default 50.
    pub max_pages: u32,
    /// Image decode limits (also caps one rendered page's pixels).
    pub limits: ImageLimits,
}

impl Renderer {
    /// A renderer discovering tools with `host`.
    pub fn new(host: HostPaths) -> Renderer {
        Renderer {
            host,
            pdfium_path: None,
            soffice_path: None,
            office_profile: office::default_profile_dir(),
            office_timeout: Duration::from_secs(120),
            office_memory_mb: 2048,
            max_pages: 50,
            limits: ImageLimits::default(),
        }
    }

    /// The limits of a LibreOffice conversion outside any run (a preview): the renderer's own
    /// timeout and memory cap.
    pub fn office_limits(&self) -> ChildLimits {
        ChildLimits {
            memory_bytes: Some(self.office_memory_mb.saturating_mul(1024 * 1024)),
            ..ChildLimits::timeout(self.office_timeout)
        }
    }

    /// The process's PDFium.
    pub fn pdfium(&self) -> Result<Arc<PdfEngine>> {
        PdfEngine::load(self.pdfium_path.as_deref(), &self.host)
    }

    /// Renders `bytes` (named `name`, a path used in messages and for the output stems) into
    /// memory.
    pub fn rasterize_bytes(&self, name: &str, bytes: &[u8], opts: &RasterOptions) -> Result<Rasterized> {
        let mut pages = Vec::new();
        let done = self.rasterize_each(name, bytes, opts, |page| {
            pages.push(page);
            Ok(())
        })?;
        Ok(Rasterized { kind: done.kind, page_count: done.page_count, pages, warnings: done.warnings })
    }

    /// Renders `bytes` and hands each page to `sink` as soon as it is encoded, in page order —
    /// for a PDF on the encoder thread while PDFium renders the next page, so writing the files
    /// overlaps rendering. Everything that can be refused up front (a missing tool, a page that
    /// does not exist or is too large) is refused before `sink` sees a page. The first error
    /// `sink` returns stops the work and is returned.
    pub fn rasterize_each(
        &self,
        name: &str,
        bytes: &[u8],
        opts: &RasterOptions,
        sink: impl FnMut(OutPage) -> Result<()> + Send,
    ) -> Result<RasterSummary> {
        self.rasterize_within(name, bytes, opts, &RunBudget::unbounded(), sink)
    }

    /// [`Renderer::rasterize_each`] under a run's budget: the pages are estimated from this
    /// host's rates and refused up front when they cannot finish in what is left of the run;
    /// progress goes to the run after every page; a cancelled or spent run stops the work
    /// before the next page is handed to `sink`, and a LibreOffice conversion is bounded by
    /// the run and killed with it.
    pub fn rasterize_within(
        &self,
        name: &str,
        bytes: &[u8],
        opts: &RasterOptions,
        budget: &RunBudget,
        mut sink: impl FnMut(OutPage) -> Result<()> + Send,
    ) -> Result<RasterSummary> {
        match classify(name, bytes)? {
            DocKind::Pdf => {
                let engine = self.pdfium()?;
                self.pdf_pages(&engine, name, bytes, opts, DocKind::Pdf, budget, sink)
            }
            DocKind::Office => {
                let app = FileKind::detect(name, bytes).and_then(FileKind::office).unwrap_or(OfficeApp::Writer);
                let soffice = office::find_soffice_for(name, app, self.soffice_path.as_deref(), &self.host)?;
                if bytes.starts_with(b"PK\x03\x04")
                    && let Err(detail) = crate::zipdir::entries(bytes)
                {
                    return Err(RenderError::DamagedOffice { path: name.to_string(), detail });
                }
                let engine = self.pdfium()?;
                if let Some(pdf) = office::converted(bytes, "pdf") {
                    return self.pdf_pages(&engine, name, &pdf, opts, DocKind::Office, budget, sink);
                }
                let mut job = budget.start(Plan {
                    kind: JobKind::OfficeConvert,
                    job: name.to_string(),
                    what: "converting it with LibreOffice".into(),
                    total: 1,
                    cost: 1.0,
                    smaller: "render it in a run of its own".into(),
                })?;
                let limits = job.child_limits(self.office_timeout, self.office_memory_mb);
                let pdf = match office::convert_to_pdf(name, bytes, &soffice, &self.office_profile, &limits) {
                    Err(RenderError::OutOfBudget { .. }) => return Err(job.out_of_time().into()),
                    Err(RenderError::Cancelled { .. }) => {
                        return Err(job
                            .check()
                            .err()
                            .map_or_else(|| RenderError::Cancelled { path: name.to_string() }, RenderError::from));
                    }
                    other => other?,
                };
                job.step(1)?;
                job.finish();
                self.pdf_pages(&engine, name, &pdf, opts, DocKind::Office, budget, sink)
            }
            DocKind::Image if ImageFormat::sniff(bytes) == Some(ImageFormat::Tiff) => {
                self.tiff_pages(name, bytes, opts, budget, sink)
            }
            DocKind::Image => {
                let (page, summary) = self.image_page(name, bytes, opts)?;
                sink(page)?;
                Ok(summary)
            }
        }
    }

    /// The pages a call renders out of a document's `count`: a list longer than the per-call
    /// limit is refused, "all" of a longer document is cut to the limit with a warning naming
    /// how to ask for the rest.
    fn select_pages(&self, name: &str, asked: &Pages, count: u32, warnings: &mut Vec<String>) -> Result<Vec<u32>> {
        Ok(match asked {
            Pages::List(list) if list.len() > self.max_pages as usize => {
                return Err(bad(format!(
                    "{} pages requested, the limit is {} per call — hint: split the list into several calls",
                    list.len(),
                    self.max_pages
                )));
            }
            Pages::List(list) => list.clone(),
            Pages::All if count > self.max_pages => {
                warnings.push(format!(
                        "{name} has {count} pages; rendered pages 1–{} only (the per-call limit) — pass pages: [{}, …] for the rest",
                        self.max_pages,
                        self.max_pages + 1
                    ));
                (1..=self.max_pages).collect()
            }
            Pages::All => (1..=count).collect(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn pdf_pages(
        &self,
        engine: &PdfEngine,
        name: &str,
        bytes: &[u8],
        opts: &RasterOptions,
        kind: DocKind,
        budget: &RunBudget,
        mut sink: impl FnMut(OutPage) -> Result<()> + Send,
    ) -> Result<RasterSummary> {
        let count = crate::pdf::page_count(engine, name, bytes)?;
        let mut warnings = Vec::new();
        let pages = self.select_pages(name, &opts.pages, count, &mut warnings)?;
        let format = opts.format.unwrap_or(ImageFormat::Png);
        let req = PageRequest {
            pages,
            size: opts.size.unwrap_or(Size::Dpi(150.0)),
            format,
            quality: opts.quality,
            max_pixels: self.limits.max_pixels,
        };
        let stem = stem(name);
        let total = req.pages.len() as u64;
        self.probe_pdf(engine, name, bytes, &req, opts.room, budget)?;
        let mut job = budget.start(Plan {
            kind: JobKind::PdfPage,
            job: name.to_string(),
            what: format!("rendering {total} page{}", if total == 1 { "" } else { "s" }),
            total,
            cost: total as f64 * page_megapixels(req.size),
            smaller: format!(
                "render fewer pages per call (pages: [{}])",
                req.pages.iter().take(3).map(u32::to_string).collect::<Vec<_>>().join(", ")
                    + if total > 3 { ", …" } else { "" }
            ),
        })?;
        let mut done = 0u64;
        engine.rasterize_each(name, bytes, &req, |p| {
            // Cancel and the deadline are checked before each page is handed on, so nothing
            // lands in the tree after the run was stopped.
            job.check()?;
            done += 1;
            sink(OutPage {
                page: p.page,
                file_name: format!("{stem}-p{}.{}", p.page, format.extension()),
                width: p.width,
                height: p.height,
                bytes: p.bytes,
            })?;
            job.step(done)?;
            Ok(())
        })?;
        job.finish();
        Ok(RasterSummary { kind, page_count: count, warnings })
    }

    /// Before any page is written: on a host that has not measured PDF pages yet, one page is
    /// rendered in memory and timed, so the estimate that follows is this machine's; and when
    /// the pages might not fit the tree's `room` (their uncompressed size is over what is left),
    /// that page's encoded size times the page count is what they need — refused when it is
    /// over, naming both sizes and the setting that raises the budget.
    fn probe_pdf(
        &self,
        engine: &PdfEngine,
        name: &str,
        bytes: &[u8],
        req: &PageRequest,
        room: Option<(u64, u64)>,
        budget: &RunBudget,
    ) -> Result<()> {
        let Some(&first) = req.pages.first() else { return Ok(()) };
        let total = req.pages.len() as u64;
        let one_page = || -> Result<RenderedPage> {
            let single = PageRequest { pages: vec![first], ..req.clone() };
            let mut out = None;
            engine.rasterize_each(name, bytes, &single, |p| {
                out = Some(p);
                Ok(())
            })?;
            out.ok_or_else(|| RenderError::NoSuchPage { path: name.to_string(), page: first, count: 0 })
        };
        let mut probe = budget.calibrate(JobKind::PdfPage, page_megapixels(req.size), one_page)?;
        let Some((left, cap)) = room else { return Ok(()) };
        // Uncompressed RGBA is the most a page can take; below what is left, nothing to measure.
        let raw = (total as f64 * page_megapixels(req.size) * 1e6 * 4.0) as u64;
        if raw <= left {
            return Ok(());
        }
        let page = match probe.take() {
            Some(p) => p,
            None => one_page()?,
        };
        let need = page.bytes.len() as u64 * total;
        if need <= left {
            return Ok(());
        }
        let words = |n: u64| {
            if n >= 1024 * 1024 {
                format!("{:.1} MB", n as f64 / (1024.0 * 1024.0))
            } else {
                format!("{:.1} KB", n as f64 / 1024.0)
            }
        };
        Err(RenderError::TreeTooSmall {
            path: name.to_string(),
            shortfall: format!(
                "rendering {total} pages needs about {} in the tree (page {first} alone encodes to {}), but only {} of its {} size budget is left",
                words(need),
                words(page.bytes.len() as u64),
                words(left),
                words(cap)
            ),
            probe_page: first,
        })
    }

    /// A TIFF's pages, each decoded on its own (within the pixel limits), resized to `width` when
    /// asked, and encoded (PNG by default), under the run's budget like a PDF's pages.
    fn tiff_pages(
        &self,
        name: &str,
        bytes: &[u8],
        opts: &RasterOptions,
        budget: &RunBudget,
        mut sink: impl FnMut(OutPage) -> Result<()> + Send,
    ) -> Result<RasterSummary> {
        let info = crate::tiff::describe(name, bytes)?;
        let count = info.pages.len() as u32;
        let mut warnings = Vec::new();
        let pages = self.select_pages(name, &opts.pages, count, &mut warnings)?;
        // Everything refusable is refused before the first page is handed on.
        let mut megapixels = 0.0;
        for &p in &pages {
            let Some(page) = info.pages.get(p as usize - 1).filter(|_| p >= 1) else {
                return Err(RenderError::NoSuchPage { path: name.to_string(), page: p, count });
            };
            if let Some(why) = &page.unsupported {
                return Err(RenderError::Image {
                    path: name.to_string(),
                    detail: format!("TIFF page {p} {}", why.split(" — hint:").next().unwrap_or(why)),
                    fix: crate::tiff::CONVERT_HINT.into(),
                });
            }
            megapixels += f64::from(page.width) * f64::from(page.height) / 1e6;
        }
        let width = match opts.size {
            Some(Size::Width(w)) => Some(w),
            Some(Size::Dpi(_)) => {
                warnings.push("dpi does not apply to a TIFF's pages; pass width to resize them".into());
                None
            }
            None => None,
        };
        let format = opts.format.unwrap_or(ImageFormat::Png);
        let total = pages.len() as u64;
        let mut job = budget.start(Plan {
            kind: JobKind::PdfPage,
            job: name.to_string(),
            what: format!("decoding {total} TIFF page{}", if total == 1 { "" } else { "s" }),
            total,
            cost: megapixels,
            smaller: "render fewer pages per call (pages: [1])".into(),
        })?;
        let stem = stem(name);
        for (done, &p) in pages.iter().enumerate() {
            job.check()?;
            let img = crate::tiff::decode_page(name, bytes, p, &self.limits)?;
            let img = match width {
                Some(w) => ops::resize(name, &img, &ops::ResizeOptions { width: Some(w), ..Default::default() })?,
                None => img,
            };
            let encoded = images::encode(name, &img, format, opts.quality)?;
            sink(OutPage {
                page: p,
                file_name: format!("{stem}-p{p}.{}", format.extension()),
                width: img.width(),
                height: img.height(),
                bytes: encoded,
            })?;
            job.step(done as u64 + 1)?;
        }
        job.finish();
        Ok(RasterSummary { kind: DocKind::Image, page_count: count, warnings })
    }

    fn image_page(&self, name: &str, bytes: &[u8], opts: &RasterOptions) -> Result<(OutPage, RasterSummary)> {
        let mut warnings = Vec::new();
        if let Pages::List(list) = &opts.pages
            && list.iter().any(|&p| p != 1)
        {
            return Err(RenderError::NoSuchPage {
                path: name.to_string(),
                page: list.iter().copied().find(|&p| p != 1).unwrap_or(2),
                count: 1,
            });
        }
        let source = ImageFormat::sniff(bytes).unwrap_or(ImageFormat::Svg);
        // An SVG is drawn; its picture is a PNG unless another format is asked for.
        let format = opts.format.unwrap_or(if source.writable() { source } else { ImageFormat::Png });
        let info = images::describe(name, bytes)?;
        if info.animated {
            warnings.push(format!("{name} is animated ({} frames); only the first frame is shown", info.frames));
        }
        let width = match opts.size {
            Some(Size::Width(w)) => Some(w),
            Some(Size::Dpi(_)) => {
                warnings.push("dpi does not apply to an image; pass width to resize it".into());
                None
            }
            None => None,
        };
        let out = if source == ImageFormat::Svg {
            let size = crate::svg::SvgSize { width, ..crate::svg::SvgSize::default() };
            let rgba = crate::svg::svg_to_rgba(name, bytes, size).map_err(|e| bad(e.to_string()))?;
            let img = image::DynamicImage::ImageRgba8(rgba);
            let encoded = images::encode(name, &img, format, opts.quality)?;
            OutPage { page: 1, file_name: String::new(), width: img.width(), height: img.height(), bytes: encoded }
        } else if width.is_none() && format == source && !info.animated {
            OutPage { page: 1, file_name: String::new(), width: info.width, height: info.height, bytes: bytes.to_vec() }
        } else {
            let img = images::decode(name, bytes, &self.limits)?;
            let img = match width {
                Some(w) => ops::resize(name, &img, &ops::ResizeOptions { width: Some(w), ..Default::default() })?,
                None => img,
            };
            let encoded = images::encode(name, &img, format, opts.quality)?;
            OutPage { page: 1, file_name: String::new(), width: img.width(), height: img.height(), bytes: encoded }
        };
        let file_name = format!("{}.{}", stem(name), format.extension());
        Ok((OutPage { file_name, ..out }, RasterSummary { kind: DocKind::Image, page_count: 1, warnings }))
    }

    /// Renders the host file `path` into the host directory `out_dir` (created when the first
    /// page is ready), each file written as soon as its page is encoded.
    pub fn rasterize_file(&self, path: &Path, out_dir: &Path, opts: &RasterOptions) -> Result<RasterResult> {
        let bytes = std::fs::read(path).map_err(|e| RenderError::io(path, e))?;
        let mut pages = Vec::new();
        let mut made_dir = false;
        let done = self.rasterize_each(&path.to_string_lossy(), &bytes, opts, |p| {
            if !made_dir {
                std::fs::create_dir_all(out_dir).map_err(|e| RenderError::io(out_dir, e))?;
                made_dir = true;
            }
            let target = out_dir.join(&p.file_name);
            std::fs::write(&target, &p.bytes).map_err(|e| RenderError::io(&target, e))?;
            pages.push(PageFile {
                page: p.page,
                path: target.to_string_lossy().into_owned(),
                width: p.width,
                height: p.height,
            });
            Ok(())
        })?;
        Ok(RasterResult { pages, page_count: done.page_count, warnings: done.warnings, kind: done.kind })
    }
}

/// Megapixels of a typical (US Letter) page at `size`: the cost unit of a page's estimate.
fn page_megapixels(size: Size) -> f64 {
    let dpi = match size {
        Size::Dpi(d) => f64::from(d),
        Size::Width(w) => f64::from(w) / 8.5,
    };
    8.5 * 11.0 * dpi * dpi / 1e6
}

/// The file name without directories and extension.
pub fn stem(name: &str) -> String {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    if stem.is_empty() { "page".into() } else { stem.to_string() }
}
