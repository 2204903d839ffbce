//! `describe` and `recognize` over a file's bytes.
//!
//! A PDF's pages are drawn by env:render's PDFium ([`PdfEngine::render_pixels`]) one at a time,
//! written as a PPM scratch file, shown to tesseract's OSD as PDFium drew them, turned upright
//! when OSD says so, then recognised. A page whose text layer already holds 100 characters is
//! still recognised (a copier's own OCR layer can be out of order or wrong) but flagged
//! `textLayer`, with a pointer to `documents.extractText` in the note. An image (PNG, JPEG, TIFF, BMP, GIF, WebP) goes to tesseract as it is.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use folio_budget::{ChildLimits, JobKind, Plan, RunBudget};
use folio_render::pdf::{PageRequest, PdfEngine};
use folio_render::{ImageFormat, Size};
use serde::Serialize;

use crate::error::OcrError;
use crate::tesseract::{Tesseract, Word, parse_tsv};

/// Characters a page's text layer needs to count as text (the reference's floor).
pub const TEXT_LAYER_FLOOR: usize = 100;
/// Mean confidence below which the result is flagged as likely wrong in places.
pub const LOW_CONFIDENCE: f32 = 65.0;
/// The long edge, in pixels, under which an image is too small to read well.
pub const SMALL_EDGE: u32 = 1000;

/// What one call may do.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Pages recognised per call at most (the rest are named in the note).
    pub max_pages: u32,
    /// The default resolution for PDF pages.
    pub dpi: u32,
    /// The highest resolution asked for.
    pub max_dpi: u32,
    /// Memory cap of one tesseract run, MiB.
    pub memory_mb: u64,
    /// Wall-clock limit of one tesseract run.
    pub page_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_pages: 20, dpi: 300, max_dpi: 600, memory_mb: 2048, page_timeout: Duration::from_secs(120) }
    }
}

/// A file OCR reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A PDF (pages drawn by PDFium).
    Pdf,
    /// An image tesseract reads directly.
    Image,
}

/// By magic bytes: PDF, PNG, JPEG, GIF, BMP, TIFF, WebP.
pub fn classify(path: &str, bytes: &[u8]) -> Result<Format, OcrError> {
    let starts = |m: &[u8]| bytes.starts_with(m);
    if starts(b"%PDF") {
        Ok(Format::Pdf)
    } else if starts(b"\x89PNG")
        || starts(b"\xFF\xD8\xFF")
        || starts(b"GIF8")
        || starts(b"BM")
        || starts(b"II*\0")
        || starts(b"MM\0*")
        || (starts(b"RIFF") && bytes.get(8..12) == Some(b"WEBP"))
    {
        Ok(Format::Image)
    } else {
        Err(OcrError::Kind { path: path.into() })
    }
}

/// What `describe` answers.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Description {
    /// `pdf` or `image`.
    pub format: Format,
    /// The file's size.
    pub bytes: u64,
    /// Pages (1 for an image).
    pub total_pages: u32,
    /// 1-based pages whose text layer holds at least [`TEXT_LAYER_FLOOR`] characters.
    pub text_layer_pages: Vec<u32>,
    /// Whether some page has no text layer.
    pub needs_ocr: bool,
    /// The installed languages.
    pub languages: Vec<String>,
}

/// One page's recognised text.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageResult {
    /// 1-based.
    pub page: u32,
    /// The text, lines in reading order, paragraphs separated by a blank line.
    pub text: String,
    /// Mean word confidence, 0–100 (0 when nothing was read).
    pub confidence: f32,
    /// The words with their boxes.
    pub words: Vec<Word>,
    /// True when the page also has a text layer of its own (documents.extractText reads it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text_layer: bool,
    /// Clockwise degrees the page was turned before recognition (OSD).
    #[serde(skip_serializing_if = "is_zero")]
    pub rotated: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// What `recognize` answers.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recognition {
    /// The file read.
    pub source: String,
    /// The language used.
    pub language: String,
    /// Every page's text joined by `\n\f\n`.
    pub text: String,
    /// Characters in `text`.
    pub characters: usize,
    /// The pages read.
    pub pages: Vec<PageResult>,
    /// Pages in the file.
    pub total_pages: u32,
    /// Mean confidence over the pages with text.
    pub confidence: f32,
    /// What to know about the result, when something is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Which pages, language and resolution.
#[derive(Debug, Clone, Default)]
pub struct RecognizeOptions {
    /// 1-based pages (`None`: all).
    pub pages: Option<Vec<u32>>,
    /// The tesseract language (`eng`, `deu+eng`).
    pub lang: Option<String>,
    /// PDF resolution.
    pub dpi: Option<u32>,
}

impl RecognizeOptions {
    /// From a script's options object (`{pages: 'all' | [1, 2], lang, dpi}`).
    pub fn from_json(v: &serde_json::Value) -> Result<RecognizeOptions, OcrError> {
        let bad = |m: &str| OcrError::Argument(format!("recognize: {m}"));
        if v.is_null() {
            return Ok(RecognizeOptions::default());
        }
        let obj =
            v.as_object().ok_or_else(|| bad("options must be an object like {pages: [1], lang: 'eng', dpi: 300}"))?;
        let mut out = RecognizeOptions::default();
        for (k, val) in obj {
            match k.as_str() {
                "pages" if val.as_str() == Some("all") => {}
                "pages" => {
                    let list = val
                        .as_array()
                        .ok_or_else(|| bad("pages must be 'all' or a list of page numbers like [1, 2]"))?;
                    let pages: Option<Vec<u32>> = list
                        .iter()
                        .map(|p| p.as_u64().and_then(|n| u32::try_from(n).ok()).filter(|n| *n > 0))
                        .collect();
                    out.pages = Some(
                        pages
                            .filter(|p| !p.is_empty())
                            .ok_or_else(|| bad("pages must be page numbers from 1, e.g. [1, 2]"))?,
                    );
                }
                "lang" => {
                    out.lang = Some(
                        val.as_str().ok_or_else(|| bad("lang must be a string like 'eng' or 'deu+eng'"))?.to_string(),
                    )
                }
                "dpi" => {
                    out.dpi = Some(
                        val.as_u64()
                            .and_then(|n| u32::try_from(n).ok())
                            .ok_or_else(|| bad("dpi must be a whole number like 300"))?,
                    )
                }
                other => return Err(bad(&format!("unknown option '{other}'; the options are pages, lang and dpi"))),
            }
        }
        Ok(out)
    }
}

/// tesseract with PDFium beside it.
pub struct Ocr {
    /// The tesseract found.
    pub tesseract: Tesseract,
    /// The renderer whose PDFium draws PDF pages.
    pub renderer: Arc<folio_render::Renderer>,
    /// Per-call limits.
    pub limits: Limits,
}

fn text_layers(
    engine: &PdfEngine,
    path: &str,
    bytes: &[u8],
) -> Result<(u32, Vec<folio_render::text::PageText>), OcrError> {
    folio_render::text::page_texts(engine, path, bytes, None, &mut |_| true)
        .map_err(|source| OcrError::Render { path: path.into(), source })
}

fn has_layer(text: &str) -> bool {
    text.chars().filter(|c| !c.is_whitespace()).count() >= TEXT_LAYER_FLOOR
}

impl Ocr {
    fn pdfium(&self, path: &str) -> Result<Arc<PdfEngine>, OcrError> {
        self.renderer.pdfium().map_err(|source| OcrError::Render { path: path.into(), source })
    }

    /// Format, pages, text layers and languages; recognises nothing.
    pub fn describe(&self, path: &str, bytes: &[u8]) -> Result<Description, OcrError> {
        let format = classify(path, bytes)?;
        let (total_pages, text_layer_pages) = match format {
            Format::Image => (1, Vec::new()),
            Format::Pdf => {
                let (count, texts) = text_layers(&*self.pdfium(path)?, path, bytes)?;
                (count, texts.iter().filter(|t| has_layer(&t.text)).map(|t| t.page).collect())
            }
        };
        Ok(Description {
            format,
            bytes: bytes.len() as u64,
            total_pages,
            needs_ocr: (text_layer_pages.len() as u32) < total_pages,
            text_layer_pages,
            languages: self.tesseract.languages(),
        })
    }

    /// Checks every part of `lang` (`deu+eng`) is installed.
    fn check_lang(&self, path: &str, lang: &str) -> Result<(), OcrError> {
        let installed = self.tesseract.languages();
        for part in lang.split('+') {
            let valid = !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid || !installed.iter().any(|l| l == part) {
                return Err(OcrError::Language {
                    path: path.into(),
                    lang: part.into(),
                    installed: installed.join(", "),
                });
            }
        }
        Ok(())
    }

    /// Reads the pages of `bytes` (named `path`) under `budget`.
    pub fn recognize(
        &self,
        path: &str,
        bytes: &[u8],
        opts: &RecognizeOptions,
        budget: &RunBudget,
    ) -> Result<Recognition, OcrError> {
        let format = classify(path, bytes)?;
        let lang = opts.lang.clone().unwrap_or_else(|| "eng".into());
        self.check_lang(path, &lang)?;
        let dpi = opts.dpi.unwrap_or(self.limits.dpi);
        if !(70..=self.limits.max_dpi).contains(&dpi) {
            return Err(OcrError::Argument(format!(
                "recognize: dpi {dpi} is outside 70–{}; 300 reads most scans",
                self.limits.max_dpi
            )));
        }
        let mut notes = Vec::new();
        let (total_pages, layers) = match format {
            Format::Image => (1, Vec::new()),
            Format::Pdf => text_layers(&*self.pdfium(path)?, path, bytes)?,
        };
        let mut wanted = opts.pages.clone().unwrap_or_else(|| (1..=total_pages).collect());
        if let Some(past) = wanted.iter().find(|p| **p > total_pages) {
            return Err(OcrError::Argument(format!(
                "recognize: {path} has {total_pages} pages; page {past} does not exist"
            )));
        }
        if wanted.len() > self.limits.max_pages as usize {
            notes.push(format!(
                "read the first {} of {} pages asked for (at most {} a call): ask again with {{pages: [{}, ...]}} for the rest",
                self.limits.max_pages,
                wanted.len(),
                self.limits.max_pages,
                wanted[self.limits.max_pages as usize]
            ));
            wanted.truncate(self.limits.max_pages as usize);
        }
        let layered = |p: u32| layers.iter().any(|t| t.page == p && has_layer(&t.text));
        let to_read = wanted.len() as u64;
        let scale = f64::from(dpi) / 300.0;
        let mut job = budget.start(Plan {
            kind: JobKind::OcrPage,
            job: format!("env:ocr.recognize {path}"),
            what: format!("recognising {to_read} page{} at {dpi} dpi", if to_read == 1 { "" } else { "s" }),
            total: to_read.max(1),
            cost: to_read as f64 * scale * scale,
            smaller: "read fewer pages per call: {pages: [1, 2]}".into(),
        })?;
        let scratch = tempfile::tempdir()?;
        let mut pages = Vec::new();
        let mut done = 0;
        for &page in &wanted {
            let limits = job.child_limits(self.limits.page_timeout, self.limits.memory_mb);
            let result = match format {
                Format::Image => {
                    let file = scratch.path().join("image");
                    std::fs::write(&file, bytes)?;
                    self.read_image(path, page, &file, &lang, dpi, &limits, 0)?
                }
                Format::Pdf => self.read_pdf_page(path, bytes, page, &lang, dpi, &limits, scratch.path())?,
            };
            pages.push(PageResult { text_layer: layered(page), ..result.0 });
            if let Some(small) = result.1 {
                notes.push(format!("page {page} is {small} px on its long edge (under {SMALL_EDGE}): too small to read well; use a larger scan or a higher dpi"));
            }
            done += 1;
            job.step(done)?;
        }
        job.finish();
        let layered: Vec<u32> = pages.iter().filter(|p| p.text_layer).map(|p| p.page).collect();
        if !layered.is_empty() {
            notes.push(format!("page(s) {layered:?} already have a text layer: documents.extractText reads it instantly (it may differ from what is recognised here)"));
        }
        let read: Vec<&PageResult> = pages.iter().filter(|p| !p.text.is_empty()).collect();
        let confidence =
            if read.is_empty() { 0.0 } else { read.iter().map(|p| p.confidence).sum::<f32>() / read.len() as f32 };
        if read.is_empty() {
            notes.push("nothing was read: the pages hold no recognisable text in this language (blank, a picture, or another script: try lang)".into());
        } else if confidence < LOW_CONFIDENCE {
            notes.push(format!("mean confidence {confidence:.0} is under {LOW_CONFIDENCE:.0}: the text is likely wrong in places; try a higher dpi or check the page with render"));
        }
        let text = pages.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join("\n\u{c}\n");
        Ok(Recognition {
            source: path.into(),
            language: lang,
            characters: text.chars().count(),
            text,
            pages,
            total_pages,
            confidence: (confidence * 10.0).round() / 10.0,
            note: (!notes.is_empty()).then(|| notes.join(" ")),
        })
    }

    /// Draws `page`, turns it upright by OSD, and recognises it.
    #[allow(clippy::too_many_arguments)]
    fn read_pdf_page(
        &self,
        path: &str,
        bytes: &[u8],
        page: u32,
        lang: &str,
        dpi: u32,
        limits: &ChildLimits,
        dir: &Path,
    ) -> Result<(PageResult, Option<u32>), OcrError> {
        let engine = self.pdfium(path)?;
        let req = PageRequest {
            pages: vec![page],
            size: Size::Dpi(dpi as f32),
            format: ImageFormat::Png,
            quality: None,
            max_pixels: 200_000_000,
        };
        let mut image: Option<(u32, u32, Vec<u8>)> = None;
        engine
            .render_pixels(path, bytes, &req, |_, rows| image = Some((rows.width, rows.height, rows.packed())))
            .map_err(|source| OcrError::Render { path: path.into(), source })?;
        let (w, h, rgb) = image.ok_or_else(|| OcrError::Engine {
            path: path.into(),
            page,
            what: "PDFium drew no pixels for the page".into(),
        })?;
        let file = dir.join(format!("page-{page}.ppm"));
        write_ppm(&file, w, h, &rgb)?;
        let turn = if self.tesseract.has_osd() {
            self.tesseract.rotation(&file, dpi, limits, path, page).unwrap_or(0)
        } else {
            0
        };
        if turn != 0 {
            let (w2, h2, turned) = rotate(w, h, &rgb, turn);
            write_ppm(&file, w2, h2, &turned)?;
        }
        self.read_image(path, page, &file, lang, dpi, limits, turn)
    }

    #[allow(clippy::too_many_arguments)]
    fn read_image(
        &self,
        path: &str,
        page: u32,
        file: &Path,
        lang: &str,
        dpi: u32,
        limits: &ChildLimits,
        rotated: u32,
    ) -> Result<(PageResult, Option<u32>), OcrError> {
        let tsv = self.tesseract.tsv(file, lang, dpi, limits, path, page)?;
        let (text, words) = parse_tsv(&tsv);
        let confidence =
            if words.is_empty() { 0.0 } else { words.iter().map(|w| w.confidence).sum::<f32>() / words.len() as f32 };
        let edge = page_edge(&tsv);
        let small = edge.filter(|e| *e < SMALL_EDGE);
        Ok((
            PageResult {
                page,
                text,
                confidence: (confidence * 10.0).round() / 10.0,
                words,
                text_layer: false,
                rotated,
            },
            small,
        ))
    }
}

/// The long edge of the page row (level 1) of a TSV.
fn page_edge(tsv: &str) -> Option<u32> {
    tsv.lines().skip(1).map(|r| r.split('\t').collect::<Vec<_>>()).find(|f| f.len() >= 10 && f[0] == "1").map(|f| {
        let n = |i: usize| f[i].trim().parse::<u32>().unwrap_or(0);
        n(8).max(n(9))
    })
}

/// Writes packed RGB as a binary PPM (tesseract reads it without a decoder of ours).
pub fn write_ppm(file: &Path, w: u32, h: u32, rgb: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
    write!(out, "P6\n{w} {h}\n255\n")?;
    out.write_all(rgb)?;
    out.flush()
}

/// Turns packed RGB `turn` degrees clockwise (90, 180 or 270).
pub fn rotate(w: u32, h: u32, rgb: &[u8], turn: u32) -> (u32, u32, Vec<u8>) {
    let (w, h) = (w as usize, h as usize);
    let mut out = vec![0u8; rgb.len()];
    let (nw, nh) = if turn == 180 { (w, h) } else { (h, w) };
    for y in 0..h {
        for x in 0..w {
            let (nx, ny) = match turn {
                90 => (h - 1 - y, x),
                180 => (w - 1 - x, h - 1 - y),
                _ => (y, w - 1 - x),
            };
            let s = (y * w + x) * 3;
            let d = (ny * nw + nx) * 3;
            out[d..d + 3].copy_from_slice(&rgb[s..s + 3]);
        }
    }
    (nw as u32, nh as u32, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_moves_the_top_left_pixel_to_the_top_right() {
        // 2×1: red, green. Clockwise 90 → 1×2: red on top.
        let rgb = [255, 0, 0, 0, 255, 0];
        assert_eq!(rotate(2, 1, &rgb, 90), (1, 2, vec![255, 0, 0, 0, 255, 0]));
        assert_eq!(rotate(2, 1, &rgb, 270), (1, 2, vec![0, 255, 0, 255, 0, 0]));
        assert_eq!(rotate(2, 1, &rgb, 180), (2, 1, vec![0, 255, 0, 255, 0, 0]));
    }
}
