//! Pages: PDFs (PDFium), and the documents and decks LibreOffice converts to PDF (once per side,
//! through folio-render's warm office), aligned page to page and compared lazily.
//!
//! [`PageDiff::open`] reads only what the alignment needs, never pixels: each side's page count
//! and what each page is made of (`pdfprint.rs`); when most pages are made of the same objects
//! on both sides, pages are aligned by those hashes and only the unmatched pages' text is read,
//! else every page's text is read. Either way a sequence diff of the fingerprints aligns them,
//! so one inserted page is one added page and every later page still meets its twin. [`PageDiff::compare`] renders ONE pair and compares the pixels, so the first
//! page's diff of two 100-page PDFs costs one page's render. [`PageDiff::status`] answers
//! without rendering: added, removed, unchanged when the two pages are made of the same objects
//! (`pdfprint.rs`: content streams and everything they reach, hashed), the result of a
//! comparison already made, else [`PageStatus::Unknown`].

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use folio_budget::{Job, JobKind, Plan, RunBudget};
use folio_kinds::{FileKind, OfficeApp};
use folio_render::pagepng::{self, RgbRows};
use folio_render::pdf::{PageRequest, PdfEngine, page_count};
use folio_render::rasterize::{DocKind, classify};
use folio_render::text::page_texts;
use folio_render::{ImageFormat, RenderError, Renderer, Size, office};
use serde::Serialize;

use crate::error::{DiffError, Result, Side};
use crate::pixels::{self, Picture, PixelBox};
use crate::{pdfprint, seq};

/// One row of the alignment: a page of the old side, of the new side, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PagePair {
    /// The old side's page (1-based); `None` for an added page.
    pub old: Option<u32>,
    /// The new side's page (1-based); `None` for a removed page.
    pub new: Option<u32>,
}

/// What is known about one pair without (or after) rendering it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PageStatus {
    /// Only on the new side.
    Added,
    /// Only on the old side.
    Removed,
    /// Known equal: the pages are made of the same objects (content streams, resources, fonts,
    /// images), or their pixels were compared.
    Unchanged,
    /// Known different: their pixels were compared.
    Changed,
    /// Not known until [`PageDiff::compare`] renders the pair.
    Unknown,
}

/// One pair rendered and compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageCompare {
    /// The pair compared.
    pub pair: PagePair,
    /// The compared picture's size in pixels (the larger of the two pages when they differ; the
    /// smaller is letterboxed on white at the top left).
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// The old page as PNG (`None` for an added page).
    pub old_png: Option<Vec<u8>>,
    /// The new page as PNG (`None` for a removed page).
    pub new_png: Option<Vec<u8>>,
    /// True when any pixel differs beyond the anti-aliasing tolerance (always true for an added or
    /// removed page).
    pub changed: bool,
    /// The share of pixels that differ, 0–1.
    pub changed_fraction: f64,
    /// Where they differ: boxes in the compared picture's pixels, at most 64 (merged).
    pub changed_boxes: Vec<PixelBox>,
    /// What this comparison cost (render, compare, encode), in milliseconds.
    pub ms: u64,
}

/// What [`PageDiff::open`] found, for the review panel's first paint.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageOverview {
    /// Pages of the old side (0 when there is none).
    pub old_pages: u32,
    /// Pages of the new side.
    pub new_pages: u32,
    /// The alignment.
    pub pairs: Vec<PagePair>,
    /// Each pair's status as known now (same order as `pairs`).
    pub status: Vec<PageStatus>,
    /// What opening cost (conversion, text and fingerprints), in milliseconds.
    pub ms: u64,
    /// Remarks for the person (a side converted by LibreOffice, pages past the cap…).
    pub notes: Vec<String>,
}

/// One side, as PDF bytes, with what the alignment read of its pages.
#[derive(Debug)]
struct SideDoc {
    pdf: Vec<u8>,
    pages: u32,
    /// Each page's objects hashed (`pdfprint`), when lopdf reads the file.
    content: Option<Vec<[u8; 32]>>,
}

/// Two versions of a paged document, aligned; pairs rendered on demand.
#[derive(Debug)]
pub struct PageDiff {
    name: String,
    renderer: Renderer,
    old: Option<SideDoc>,
    new: Option<SideDoc>,
    pairs: Vec<PagePair>,
    known: Mutex<Vec<PageStatus>>,
    notes: Vec<String>,
    ms: u64,
}

/// The lowest and highest resolution [`PageDiff::compare`] renders at.
const DPI_RANGE: (f32, f32) = (20.0, 300.0);

impl PageDiff {
    /// Opens both sides (`None`: the file does not exist on that side), converting Office
    /// documents to PDF through LibreOffice once per side, and aligns their pages. Refuses up
    /// front an encrypted or damaged side ([`DiffError::Encrypted`], [`DiffError::Render`]) and
    /// a missing PDFium or LibreOffice (the render error names the install command).
    pub fn open(renderer: &Renderer, old: Option<Vec<u8>>, new: Option<Vec<u8>>, name: &str) -> Result<PageDiff> {
        PageDiff::open_with(renderer, old, new, name, &RunBudget::unbounded())
    }

    /// As [`open`](Self::open), with the LibreOffice conversions (the slow part: seconds a
    /// side) run as one job of `budget`: its progress, with an ETA from this host's measured
    /// conversion rate, goes to the budget's progress stream before the first conversion and
    /// after each, and its cancel stops the next one.
    pub fn open_with(
        renderer: &Renderer,
        old: Option<Vec<u8>>,
        new: Option<Vec<u8>>,
        name: &str,
        budget: &RunBudget,
    ) -> Result<PageDiff> {
        let started = Instant::now();
        if old.is_none() && new.is_none() {
            return Err(DiffError::NothingToCompare { name: name.to_string() });
        }
        let stopped = |source| DiffError::Budget { name: name.to_string(), source };
        let converting =
            [old.as_deref(), new.as_deref()].into_iter().flatten().filter(|b| needs_conversion(name, b)).count();
        let mut job = match converting {
            0 => None,
            n => Some(
                budget
                    .start(Plan {
                        kind: JobKind::OfficeConvert,
                        job: format!("review {name}"),
                        what: format!(
                            "converting {n} version{} to PDF with LibreOffice",
                            if n == 1 { "" } else { "s" }
                        ),
                        total: n as u64,
                        cost: n as f64,
                        smaller: "compare the two versions outside Folio".into(),
                    })
                    .map_err(stopped)?,
            ),
        };
        let mut notes = Vec::new();
        let old = old.map(|b| side_doc(renderer, name, Side::Old, b, &mut notes, job.as_mut())).transpose()?;
        let new = new.map(|b| side_doc(renderer, name, Side::New, b, &mut notes, job.as_mut())).transpose()?;
        if let Some(job) = job {
            job.finish();
        }
        let pairs: Vec<PagePair> = align(renderer, name, old.as_ref(), new.as_ref(), &mut notes)?
            .into_iter()
            .map(|(i, j)| PagePair { old: i.map(|i| i as u32 + 1), new: j.map(|j| j as u32 + 1) })
            .collect();
        let content = |side: &Option<SideDoc>, page: u32| {
            side.as_ref().and_then(|s| s.content.as_ref()).and_then(|c| c.get(page as usize - 1)).copied()
        };
        let known = pairs
            .iter()
            .map(|p| match (p.old, p.new) {
                (None, _) => PageStatus::Added,
                (_, None) => PageStatus::Removed,
                (Some(a), Some(b)) => match (content(&old, a), content(&new, b)) {
                    (Some(x), Some(y)) if x == y => PageStatus::Unchanged,
                    _ => PageStatus::Unknown,
                },
            })
            .collect();
        Ok(PageDiff {
            name: name.to_string(),
            renderer: renderer.clone(),
            old,
            new,
            pairs,
            known: Mutex::new(known),
            notes,
            ms: started.elapsed().as_millis() as u64,
        })
    }

    /// The file's name, as messages use it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Pages of the old side (0 when there is none).
    pub fn old_pages(&self) -> u32 {
        self.old.as_ref().map_or(0, |s| s.pages)
    }

    /// Pages of the new side (0 when there is none).
    pub fn new_pages(&self) -> u32 {
        self.new.as_ref().map_or(0, |s| s.pages)
    }

    /// The alignment, in reading order.
    pub fn pairs(&self) -> &[PagePair] {
        &self.pairs
    }

    /// The counts, the alignment and what is known of each pair, without rendering.
    pub fn overview(&self) -> PageOverview {
        PageOverview {
            old_pages: self.old_pages(),
            new_pages: self.new_pages(),
            pairs: self.pairs.clone(),
            status: self.known().clone(),
            ms: self.ms,
            notes: self.notes.clone(),
        }
    }

    fn known(&self) -> std::sync::MutexGuard<'_, Vec<PageStatus>> {
        self.known.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn pair(&self, i: usize) -> Result<PagePair> {
        self.pairs.get(i).copied().ok_or_else(|| DiffError::NoSuchPair {
            name: self.name.clone(),
            index: i,
            count: self.pairs.len(),
        })
    }

    /// What is known of pair `i` without rendering: added, removed, unchanged when both pages
    /// are made of the same objects, the result of an earlier [`PageDiff::compare`], else
    /// [`PageStatus::Unknown`].
    pub fn status(&self, i: usize) -> Result<PageStatus> {
        self.pair(i)?;
        Ok(self.known()[i])
    }

    /// Renders pair `i` at `dpi` (clamped to 20–300) and compares the pixels. An added or
    /// removed page is rendered on its one side and is changed by definition.
    pub fn compare(&self, i: usize, dpi: f32) -> Result<PageCompare> {
        let started = Instant::now();
        let pair = self.pair(i)?;
        let dpi = if dpi.is_finite() { dpi.clamp(DPI_RANGE.0, DPI_RANGE.1) } else { 100.0 };
        let engine = self.renderer.pdfium().map_err(|e| DiffError::render(&self.name, Side::New, e))?;
        let render = |side: Option<&SideDoc>, page: Option<u32>, which: Side| -> Result<Option<Pixels>> {
            let (Some(doc), Some(page)) = (side, page) else { return Ok(None) };
            let req = PageRequest {
                pages: vec![page],
                size: Size::Dpi(dpi),
                format: ImageFormat::Png,
                quality: None,
                max_pixels: self.renderer.limits.max_pixels,
            };
            let mut got = None;
            engine
                .render_pixels(&self.name, &doc.pdf, &req, |_, rows| {
                    got = Some(Pixels {
                        width: rows.width,
                        height: rows.height,
                        stride: rows.stride,
                        data: rows.data.to_vec(),
                    });
                })
                .map_err(|e| DiffError::render(&self.name, which, e))?;
            Ok(got)
        };
        let old = render(self.old.as_ref(), pair.old, Side::Old)?;
        let new = render(self.new.as_ref(), pair.new, Side::New)?;
        let blank = Pixels { width: 0, height: 0, stride: 0, data: Vec::new() };
        let compared =
            pixels::compare(&old.as_ref().unwrap_or(&blank).picture(), &new.as_ref().unwrap_or(&blank).picture());
        let one_sided = old.is_none() || new.is_none();
        let changed = one_sided || compared.changed > 0;
        let encode = |p: &Option<Pixels>, what: &str| -> Result<Option<Vec<u8>>> {
            let Some(p) = p else { return Ok(None) };
            let mut out = Vec::with_capacity(p.width as usize * p.height as usize / 2);
            let rows = RgbRows { width: p.width, height: p.height, stride: p.stride, data: &p.data };
            pagepng::encode(&rows, &mut out).map_err(|e| DiffError::encode(&self.name, what, e))?;
            Ok(Some(out))
        };
        let result = PageCompare {
            pair,
            width: compared.width,
            height: compared.height,
            old_png: encode(&old, "the old page")?,
            new_png: encode(&new, "the new page")?,
            changed,
            changed_fraction: if one_sided { 1.0 } else { compared.fraction() },
            changed_boxes: if one_sided { Vec::new() } else { compared.boxes() },
            ms: started.elapsed().as_millis() as u64,
        };
        if !one_sided {
            self.known()[i] = if changed { PageStatus::Changed } else { PageStatus::Unchanged };
        }
        Ok(result)
    }
}

/// One rendered page's RGB rows.
struct Pixels {
    width: u32,
    height: u32,
    stride: usize,
    data: Vec<u8>,
}

impl Pixels {
    fn picture(&self) -> Picture<'_> {
        Picture { width: self.width, height: self.height, channels: 3, stride: self.stride, data: &self.data }
    }
}

/// True when `bytes` is an Office document LibreOffice has not converted lately (a conversion
/// to come, seconds long).
fn needs_conversion(name: &str, bytes: &[u8]) -> bool {
    matches!(classify(name, bytes), Ok(DocKind::Office)) && office::converted(bytes, "pdf").is_none()
}

/// Reads one side: converted to PDF when it is an Office document, then every page's text.
fn side_doc(
    renderer: &Renderer,
    name: &str,
    side: Side,
    bytes: Vec<u8>,
    notes: &mut Vec<String>,
    job: Option<&mut Job>,
) -> Result<SideDoc> {
    let label = name.to_string();
    let fail = |e| DiffError::render(name, side, e);
    let pdf = match classify(&label, &bytes).map_err(fail)? {
        DocKind::Pdf => bytes,
        DocKind::Office => {
            let converted = match office::converted(&bytes, "pdf") {
                Some(pdf) => pdf,
                None => {
                    let app = FileKind::detect(name, &bytes).and_then(FileKind::office).unwrap_or(OfficeApp::Writer);
                    let soffice =
                        office::find_soffice_for(&label, app, renderer.soffice_path.as_deref(), &renderer.host)
                            .map_err(fail)?;
                    let limits = match job.as_deref() {
                        Some(job) => {
                            job.check().map_err(|source| DiffError::Budget { name: name.to_string(), source })?;
                            job.child_limits(renderer.office_timeout, renderer.office_memory_mb)
                        }
                        None => renderer.office_limits(),
                    };
                    let pdf = office::convert_to_pdf(&label, &bytes, &soffice, &renderer.office_profile, &limits)
                        .map_err(fail)?;
                    if let Some(job) = job {
                        let done = job.done() + 1;
                        job.step(done).map_err(|source| DiffError::Budget { name: name.to_string(), source })?;
                    }
                    pdf
                }
            };
            notes.push(format!("{} was converted to PDF by LibreOffice to compare its pages", side.short()));
            converted
        }
        DocKind::Image => {
            return Err(fail(RenderError::Unsupported {
                path: label,
                why: "it is an image, not a paged document (compare it as an image)".into(),
            }));
        }
    };
    let engine = renderer.pdfium().map_err(fail)?;
    // PDFium opens it now, so an encrypted or damaged side is refused before anything else.
    let pages = page_count(&engine, name, &pdf).map_err(fail)?;
    let content = pdfprint::page_prints(&pdf).filter(|c| c.len() == pages as usize);
    Ok(SideDoc { pdf, pages, content })
}

/// The alignment of two sides' pages, as 0-based indexes. When at least half the pages of the
/// shorter side are made of the same objects on both sides (`pdfprint`), pages are aligned by
/// those hashes and only the pages left unmatched have their text read (to pair them by shared
/// words); otherwise every page's text is read and pages are aligned by it.
fn align(
    renderer: &Renderer,
    name: &str,
    old: Option<&SideDoc>,
    new: Option<&SideDoc>,
    notes: &mut Vec<String>,
) -> Result<Vec<seq::Pair>> {
    let (o, n) = match (old, new) {
        (Some(o), Some(n)) => (o, n),
        (Some(o), None) => return Ok((0..o.pages as usize).map(|i| (Some(i), None)).collect()),
        (None, Some(n)) => return Ok((0..n.pages as usize).map(|j| (None, Some(j))).collect()),
        (None, None) => return Ok(Vec::new()),
    };
    let engine = renderer.pdfium().map_err(|e| DiffError::render(name, Side::New, e))?;
    if let (Some(a), Some(b)) = (&o.content, &n.content) {
        let short = |h: &[u8; 32]| u64::from_le_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]]);
        let (a, b): (Vec<u64>, Vec<u64>) = (a.iter().map(short).collect(), b.iter().map(short).collect());
        let mut count: HashMap<u64, i64> = HashMap::new();
        for x in &a {
            *count.entry(*x).or_default() += 1;
        }
        let shared = b
            .iter()
            .filter(|y| {
                count.get_mut(y).is_some_and(|c| {
                    *c > 0 && {
                        *c -= 1;
                        true
                    }
                })
            })
            .count();
        if shared > 0 && shared * 2 >= a.len().min(b.len()) {
            // Which pages the object hashes leave unmatched does not depend on how they are
            // then paired: find them, read their text in one pass per side, then pair them.
            let rough = seq::align(&a, &b, &mut |_, _| 1);
            let unmatched = |side_new: bool| -> Vec<u32> {
                rough
                    .iter()
                    .filter(|(i, j)| match (i, j) {
                        (Some(i), Some(j)) => a[*i] != b[*j],
                        _ => true,
                    })
                    .filter_map(|(i, j)| if side_new { *j } else { *i })
                    .map(|p| p as u32 + 1)
                    .collect()
            };
            let aw = words_of(&engine, name, Side::Old, o, &unmatched(false))?;
            let bw = words_of(&engine, name, Side::New, n, &unmatched(true))?;
            let none = Vec::new();
            notes.push(ALIGNED_BY_OBJECTS.into());
            return Ok(seq::align(&a, &b, &mut |i, j| {
                1 + shared_words(aw.get(&i).unwrap_or(&none), bw.get(&j).unwrap_or(&none))
            }));
        }
    }
    notes.push(ALIGNED_BY_TEXT.into());
    let (ap, aw) = text_prints(&engine, name, Side::Old, o)?;
    let (bp, bw) = text_prints(&engine, name, Side::New, n)?;
    // Any two unmatched pages may pair (a page rewritten is a changed page, not a removed and
    // an added one); shared words decide which.
    Ok(seq::align(&ap, &bp, &mut |i, j| 1 + shared_words(&aw[i], &bw[j])))
}

/// The note when pages were aligned by what they are made of.
pub const ALIGNED_BY_OBJECTS: &str = "pages were aligned by what they are made of (their PDF objects)";
/// The note when pages were aligned by their text.
pub const ALIGNED_BY_TEXT: &str = "pages were aligned by their text";

/// The words of `pages` (1-based) by 0-based index, read in one pass.
fn words_of(
    engine: &PdfEngine,
    name: &str,
    side: Side,
    doc: &SideDoc,
    pages: &[u32],
) -> Result<HashMap<usize, Vec<String>>> {
    if pages.is_empty() {
        return Ok(HashMap::new());
    }
    let (_, texts) =
        page_texts(engine, name, &doc.pdf, Some(pages), &mut |_| true).map_err(|e| DiffError::render(name, side, e))?;
    Ok(texts.iter().map(|t| (t.page as usize - 1, page_words(&t.text))).collect())
}

/// A page's words, at most 400.
fn page_words(text: &str) -> Vec<String> {
    text.split_whitespace().take(400).map(str::to_string).collect()
}

/// Every page's text fingerprint (its words, or its size and image count when it has none) and
/// words.
fn text_prints(engine: &PdfEngine, name: &str, side: Side, doc: &SideDoc) -> Result<(Vec<u64>, Vec<Vec<String>>)> {
    let (_, texts) =
        page_texts(engine, name, &doc.pdf, None, &mut |_| true).map_err(|e| DiffError::render(name, side, e))?;
    let mut prints = Vec::with_capacity(texts.len());
    let mut words = Vec::with_capacity(texts.len());
    for t in &texts {
        let w: Vec<&str> = t.text.split_whitespace().collect();
        let mut h = blake3::Hasher::new();
        if w.is_empty() {
            // No text (a scan, a picture): its size and image count are all the alignment has.
            h.update(format!("{}x{}:{}", t.size[0].round(), t.size[1].round(), t.images).as_bytes());
        } else {
            for word in &w {
                h.update(word.as_bytes());
                h.update(b" ");
            }
        }
        let bytes = h.finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&bytes.as_bytes()[..8]);
        prints.push(u64::from_le_bytes(first));
        words.push(page_words(&t.text));
    }
    Ok((prints, words))
}

/// How many words two pages share (as a multiset), at most 10 000.
fn shared_words(a: &[String], b: &[String]) -> u32 {
    let mut count: HashMap<&str, i32> = HashMap::new();
    for w in a {
        *count.entry(w).or_default() += 1;
    }
    let mut shared = 0u32;
    for w in b {
        if let Some(c) = count.get_mut(w.as_str())
            && *c > 0
        {
            *c -= 1;
            shared += 1;
        }
    }
    shared.min(10_000)
}
