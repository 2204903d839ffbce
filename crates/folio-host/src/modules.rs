//! The registration table: every `env:*` module and every file handler a host gives its
//! environments, each one line. Adding a module is adding a row to [`MODULES`] — nothing else in
//! the workspace lists them: the script registry, `run_script`'s catalogue, `/std/<name>/` docs
//! and the folio-host test that imports each module all read this table.
//!
//! A constructor gets the host's shared [`Parts`] (the renderer and the doctor rows computed once
//! per start) and returns the module; it fails only for a defect in the module's own definition,
//! which the host reports as a bug before any folder opens.

use std::sync::Arc;

use folio_env::FileHandler;
use folio_media::handler::MediaHandler;
use folio_motion::modules::MotionHost;
use folio_render::handler::{ImagesHandler, RenderHandler};
use folio_render::{Capability, ImageLimits, Renderer};
use folio_script::NativeModule;

/// What a module or handler constructor may use: built once per host.
pub struct Parts {
    /// PDFium, LibreOffice and the image limits, found by the doctor's discovery.
    pub renderer: Arc<Renderer>,
    /// The doctor's rows for this start (`env:render` writes them into its README).
    pub doctor: Vec<Capability>,
    /// The browser and encoder env:motion found; each environment gets its own browser from it.
    pub motion: Arc<MotionHost>,
    /// env:spreadsheets' LibreOffice (for `recalculate`) and its per-environment sheet cache,
    /// shared by the module and the workbook handler.
    pub sheets: Arc<folio_sheets::SheetsHost>,
    /// env:ocr's tesseract beside the renderer's PDFium, when tesseract was found (`None`: the
    /// module is absent and the `tesseract` doctor row says why).
    pub ocr: Option<Arc<folio_ocr::Ocr>>,
}

impl Parts {
    /// The parts over a renderer, the doctor's rows and env:motion's host; the spreadsheet host
    /// (its LibreOffice and cache) is derived from the renderer's host paths, and tesseract is
    /// looked for through them (its doctor rows, tesseract and one per language, join `doctor`).
    pub fn new(renderer: Arc<Renderer>, mut doctor: Vec<Capability>, motion: Arc<MotionHost>) -> Parts {
        let sheets = Arc::new(folio_sheets::SheetsHost::new(renderer.host.clone()));
        let found = folio_ocr::Tesseract::discover_with(&|k| renderer.host.env.get(k).cloned());
        doctor.extend(folio_ocr::doctor_rows(&found));
        let ocr = found.ok().map(|tesseract| {
            Arc::new(folio_ocr::Ocr { tesseract, renderer: renderer.clone(), limits: folio_ocr::Limits::default() })
        });
        Parts { renderer, doctor, motion, sheets, ocr }
    }
}

/// One `env:<name>` module the host registers.
pub struct Registration {
    /// The name scripts import, without `env:` (the built module must carry the same one).
    pub name: &'static str,
    /// Builds the module from the host's parts; `Err` is a defect in its definition.
    pub build: fn(&Parts) -> Result<NativeModule, String>,
    /// The skill (`name`, `summary`, `body`) that teaches the module, listed in `/skills` only
    /// when the module is registered.
    pub skill: Option<Skill>,
}

/// A skill as `(name, summary, markdown body)`.
pub type Skill = (&'static str, &'static str, &'static str);

/// The modules every environment gets after the builtins `env:fs`, `env:std` and `env:assert`,
/// in registration order. Modules that need a per-session seam (`env:vision` needs the model
/// provider) come through [`crate::HostBuilder::module`] instead.
pub const MODULES: &[Registration] = &[
    Registration { name: "render", build: render, skill: None },
    Registration { name: "images", build: images, skill: None },
    Registration { name: "zip", build: zip, skill: None },
    Registration { name: "media", build: media, skill: Some(folio_media::modules::SKILL) },
    Registration { name: "motion", build: motion, skill: Some(folio_motion::docs::SKILL) },
    Registration { name: "documents", build: documents, skill: Some(folio_docs::modules::SKILL) },
    Registration { name: "charts", build: charts, skill: Some(folio_charts::modules::SKILL) },
    Registration { name: "slides", build: slides, skill: Some(folio_slides::modules::SKILL) },
    Registration { name: "spreadsheets", build: spreadsheets, skill: Some(folio_sheets::modules::SKILL) },
    Registration { name: "archives", build: archives, skill: Some(folio_archives::SKILL) },
    Registration { name: "email", build: email, skill: Some(folio_email::SKILL) },
    Registration { name: "ocr", build: ocr, skill: Some(folio_ocr::SKILL) },
];

/// Rows of [`MODULES`] offered only when their tool was found: `(name, present)`. An absent
/// module is not registered (a script's import names it missing, its skill is not written) and
/// its doctor row names the install line.
pub const CONDITIONAL: &[(&str, Present)] = &[("ocr", |p| p.ocr.is_some())];

/// Whether a conditional module's tool was found.
pub type Present = fn(&Parts) -> bool;

/// Whether `row` is offered with these parts (every row not in [`CONDITIONAL`] is).
pub fn present(row: &Registration, parts: &Parts) -> bool {
    CONDITIONAL.iter().all(|(name, present)| *name != row.name || present(parts))
}

/// Scanned PDFs and photos read by tesseract; present only when tesseract was found.
fn ocr(p: &Parts) -> Result<NativeModule, String> {
    let ocr = p.ocr.clone().ok_or("env:ocr was built without tesseract: folio_host::CONDITIONAL must skip it")?;
    Ok(folio_ocr::ocr_module(ocr))
}

/// .eml and Outlook .msg: describe and extract, attachments written through the gateway.
fn email(_: &Parts) -> Result<NativeModule, String> {
    Ok(folio_email::email_module(folio_email::Limits::default()))
}

/// Workbooks read in pages, written from records or a spec, recalculated and checked.
fn spreadsheets(p: &Parts) -> Result<NativeModule, String> {
    Ok(folio_sheets::modules::spreadsheets_module(p.sheets.clone()))
}

/// Zip, tar and tar.gz in and out, with the reference's defences.
fn archives(_: &Parts) -> Result<NativeModule, String> {
    Ok(folio_archives::archives_module(folio_archives::Limits::default()))
}

/// PDF and DOCX from one spec, and their readers and edits (PDFium reads the text).
fn documents(p: &Parts) -> Result<NativeModule, String> {
    Ok(folio_docs::modules::documents_module(p.renderer.clone()))
}

/// Charts from a small spec, drawn as SVG and rasterised with the bundled fonts.
fn charts(_: &Parts) -> Result<NativeModule, String> {
    Ok(folio_charts::modules::charts_module())
}

/// Decks from a spec with native charts, and their readers and edits.
fn slides(_: &Parts) -> Result<NativeModule, String> {
    Ok(folio_slides::modules::slides_module())
}

fn motion(p: &Parts) -> Result<NativeModule, String> {
    Ok(folio_motion::modules::motion_module(p.motion.clone()))
}

fn render(p: &Parts) -> Result<NativeModule, String> {
    Ok(folio_render::modules::render_module_with(p.renderer.clone(), &p.doctor))
}

fn images(_: &Parts) -> Result<NativeModule, String> {
    Ok(folio_render::modules::images_module(ImageLimits::default()))
}

/// ffmpeg, ffprobe and espeak-ng as the host's paths see them, with their doctor rows.
fn media(p: &Parts) -> Result<NativeModule, String> {
    let host = Arc::new(crate::media::media_host(&p.renderer.host));
    Ok(folio_media::modules::media_module(host, &crate::media::media_rows(&p.doctor)))
}

/// The library route's proof: fflate, vendored and evaluated inside the sandbox — at a script's
/// first import, not at every start (evaluating it costs ~8 ms, more than the rest of a start).
/// That it loads is a build property: folio-script's tests and this crate's import test check it.
fn zip(_: &Parts) -> Result<NativeModule, String> {
    folio_script::zip_module_deferred().map_err(|e| e.to_string())
}

/// Builds one file handler from the host's parts; `None` when its tool was not found (env:ocr
/// without tesseract), so a handler that would fail on use is never registered.
pub type MakeHandler = fn(&Parts) -> Option<Arc<dyn FileHandler>>;

/// The file handlers, in priority order (the first that claims a file describes it).
///
/// env:documents and env:slides come before env:render: they summarise PDFs, DOCX and PPTX with
/// pages, words and titles, and `view_image` falls through to env:render, which draws them.
pub const HANDLERS: &[MakeHandler] = &[
    |p| Some(Arc::new(folio_docs::handler::DocumentsHandler::new(p.renderer.clone()))),
    |_| Some(Arc::new(folio_slides::handler::SlidesHandler)),
    |p| Some(Arc::new(folio_sheets::handler::SheetsHandler::new(p.sheets.clone()))),
    |p| Some(Arc::new(RenderHandler::new(p.renderer.clone()))),
    |p| Some(Arc::new(ImagesHandler::new(p.renderer.clone()))),
    |p| Some(Arc::new(MediaHandler::new(Arc::new(crate::media::media_host(&p.renderer.host))))),
    |_| Some(Arc::new(folio_render::svg::SvgHandler)),
    |_| Some(Arc::new(folio_email::EmailHandler::new(folio_email::Limits::default()))),
    // After every describer of PDFs and images: it only adds to their summaries and reads scans
    // for grep with `ocr: true`; present only when tesseract was found.
    |p| {
        p.ocr.clone().map(|ocr| {
            Arc::new(folio_ocr::OcrHandler::new(ocr, p.renderer.host.state_dir.clone())) as Arc<dyn FileHandler>
        })
    },
    // Last: it claims the `PK` signature every Office file shares.
    |_| Some(Arc::new(folio_archives::ArchivesHandler::new(folio_archives::Limits::default()))),
];

/// The names every environment of a host can import, in order: the builtins, then [`MODULES`].
pub fn registered_names() -> Vec<String> {
    let builtins = folio_script::ModuleRegistry::with_builtins();
    builtins.modules().iter().map(|m| m.name.clone()).chain(MODULES.iter().map(|r| r.name.to_string())).collect()
}
