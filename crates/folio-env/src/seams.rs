//! The seams the host fills: delivering files (`present`), asking the person (`ask_user`),
//! claiming file formats (`describe`, `ls`), and watching verbs. (Scripts are wired directly; see
//! `crate::scripts`.)
//! A verb whose seam is empty is absent from the tool set, so the agent is never shown a
//! capability that would fail on use.

use folio_vfs::VPath;
use serde::Serialize;

/// A file the agent handed over with `present`.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Presented {
    /// Its path (always under `/out`).
    pub path: VPath,
    /// Its file name.
    pub name: String,
    /// The media type, from the extension (or the bytes for an extensionless file).
    pub media_type: String,
    /// Its size in bytes.
    pub size: u64,
    /// What the agent says it is (trimmed, never empty).
    pub caption: String,
    /// The content.
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

/// Receives presented files. An `Err` becomes the verb's error, naming the reason.
pub trait Presenter: Send + Sync {
    /// Takes delivery of one file.
    fn present(&self, item: &Presented) -> std::result::Result<(), String>;
}

/// A presenter that only accepts: the environment keeps its own log of presented files
/// ([`crate::Environment::take_presented`]), which is all the JSONL driver needs.
pub struct KeepPresented;

impl Presenter for KeepPresented {
    fn present(&self, _: &Presented) -> std::result::Result<(), String> {
        Ok(())
    }
}

/// Puts a question to the person. `Ok(None)` (or a blank answer) means nobody answered.
pub trait Asker: Send + Sync {
    /// Asks `question`, offering `options` when there are any.
    fn ask(&self, question: &str, options: &[String]) -> std::result::Result<Option<String>, String>;
}

/// Answers questions from a fixed list, in order; once it runs out, nobody answers.
pub struct Answers {
    queue: std::sync::Mutex<std::collections::VecDeque<String>>,
}

impl Answers {
    /// Answers taken from `answers` in order.
    pub fn new(answers: Vec<String>) -> Answers {
        Answers { queue: std::sync::Mutex::new(answers.into()) }
    }

    /// Parses an answers file: a JSON array of strings, or else one answer per line.
    pub fn parse(text: &str) -> Answers {
        match serde_json::from_str::<Vec<String>>(text) {
            Ok(list) => Answers::new(list),
            Err(_) => Answers::new(text.lines().map(str::to_owned).collect()),
        }
    }
}

impl Asker for Answers {
    fn ask(&self, _: &str, _: &[String]) -> std::result::Result<Option<String>, String> {
        Ok(self.queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front())
    }
}

/// A byte signature at an offset within the first 64 bytes of a file.
#[derive(Debug, Clone)]
pub struct Magic {
    /// Where the signature starts.
    pub offset: usize,
    /// The bytes that must be there.
    pub bytes: Vec<u8>,
}

/// A module that claims a file format: `describe` asks it for a summary and `ls` says
/// "open with env:<module>" next to files it claims. Magic bytes beat extensions.
pub trait FileHandler: Send + Sync {
    /// The module name without `env:`.
    fn module(&self) -> &str;
    /// One line saying what the module does.
    fn description(&self) -> &str;
    /// Extensions it claims, with the dot (`.xlsx`), matched case-insensitively.
    fn extensions(&self) -> Vec<String>;
    /// Signatures it claims.
    fn magic(&self) -> Vec<Magic>;
    /// A structured summary of the file; `Err` is reported beside a generic summary.
    fn describe(&self, path: &VPath, bytes: &[u8]) -> std::result::Result<serde_json::Value, String>;
    /// Renders one page (1-based) of the file to PNG for `view_image`; `None` when this module
    /// does not render.
    fn render_page(
        &self,
        _path: &VPath,
        _bytes: &[u8],
        _page: u32,
    ) -> Option<std::result::Result<RenderedPage, String>> {
        None
    }
    /// The file's text, for `grep` with `documents: true` (and anything else that searches
    /// inside documents); `None` when this module has no text for it (the default). A line of
    /// the form `--- page 2 ---`, `--- sheet Revenue ---` or `--- slide 3 ---` (see
    /// [`part_marker`]) marks where a part begins, so a match is reported with its page, sheet
    /// or slide.
    fn text(&self, _path: &VPath, _bytes: &[u8]) -> Option<std::result::Result<String, String>> {
        None
    }
    /// A few words `ls` says beside the file before "open with env:…" (env:email: the sender and
    /// subject); `read` reads the whole file, which a handler calls only when `size` is small
    /// enough for a listing to afford it. `None`: nothing to say (the default).
    fn listing(&self, _path: &VPath, _size: u64, _read: &dyn Fn() -> Option<Vec<u8>>) -> Option<String> {
        None
    }
    /// Pages of the file whose text must be recognised from pixels (a scan: an image, or a PDF
    /// page with no text layer) and are not recognised yet, for `grep` with `ocr: true` to
    /// estimate its whole job up front; `None` when this module does not read pixels (the default).
    fn scan_pages(&self, _path: &VPath, _bytes: &[u8]) -> Option<std::result::Result<u32, String>> {
        None
    }
    /// The text recognised from the file's scanned pages, with `--- page N ---` markers, under
    /// `budget` (each page is a budget job; a recognised file is answered from a cache keyed by
    /// its content); `None` when this module does not read pixels (the default).
    fn scan_text(
        &self,
        _path: &VPath,
        _bytes: &[u8],
        _budget: &folio_budget::RunBudget,
    ) -> Option<std::result::Result<String, String>> {
        None
    }
    /// Fields this module adds to `describe`'s summary of a file another module describes (env:ocr
    /// says a scan needs OCR and how); `None` when it has nothing to add (the default).
    fn describe_more(&self, _path: &VPath, _bytes: &[u8]) -> Option<serde_json::Map<String, serde_json::Value>> {
        None
    }
    /// True for a handler of a container format whose signature other formats share (env:archives
    /// claims `PK`, which every xlsx, docx and pptx starts with): its signature match never
    /// outranks a handler that claims the file's extension.
    fn container(&self) -> bool {
        false
    }
}

/// The part a marker line of a handler's [`FileHandler::text`] begins — `page 2`, `sheet
/// Revenue`, `slide 3` — or `None` for an ordinary line. A marker is the unit (page, sheet or
/// slide, any case), an optional `:`, and a label, wrapped in any of `-`, `=`, `#`, `[`, `]`,
/// form feeds and spaces: `--- page 2 ---`, `=== Sheet: Q1 ===`, `[slide 3]`, `\f# Page 4`.
pub fn part_marker(line: &str) -> Option<String> {
    let wrap = |c: char| matches!(c, '-' | '=' | '#' | '[' | ']' | '\u{c}' | ' ' | '\t');
    let inner = line.trim_matches(wrap);
    if inner.len() == line.len() {
        // "Page 2 of the report" in running text is not a marker: a marker is wrapped.
        return None;
    }
    let lower = inner.to_lowercase();
    let unit = ["page", "sheet", "slide"].into_iter().find(|u| lower.starts_with(u))?;
    let rest = inner.get(unit.len()..)?.trim_start_matches(':').trim();
    if unit == "sheet" {
        return (!rest.is_empty()).then(|| format!("sheet {rest}"));
    }
    let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!number.is_empty()).then(|| format!("{unit} {number}"))
}

/// One page a [`FileHandler`] rendered.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    /// The page as PNG.
    pub png: Vec<u8>,
    /// How many pages the document has.
    pub page_count: u32,
}

/// What the vision seam does with an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sight {
    /// A separate vision model looked and answered in words.
    Answer(String),
    /// The main model can see: the image goes back with the verb's result.
    Attach,
}

/// Lets the agent see images. Wiring it adds `view_image` to the tool set; without it the verb is
/// absent, never shown and failing.
pub trait Vision: Send + Sync {
    /// Looks at `image` (`media_type`) with the agent's question.
    fn look(&self, image: &[u8], media_type: &str, prompt: &str) -> std::result::Result<Sight, String>;
}

/// One verb call, as telemetry sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct VerbEvent {
    /// The verb's name.
    pub name: String,
    /// True when it succeeded.
    pub ok: bool,
    /// Wall-clock milliseconds.
    pub duration_ms: u64,
    /// True when the mutation counter moved during the call.
    pub mutated: bool,
}

/// The host's telemetry callback.
pub type OnVerb = std::sync::Arc<dyn Fn(&VerbEvent) + Send + Sync>;

/// Finds the handler claiming a file: the first of [`claimants`]. `head` is the first 64 bytes.
pub fn claim<'a>(
    handlers: &'a [std::sync::Arc<dyn FileHandler>],
    path: &VPath,
    head: &[u8],
) -> Option<&'a dyn FileHandler> {
    claimants(handlers, path, head).into_iter().next()
}

/// Every handler claiming a file, best first. `describe` takes the first; `view_image` takes the
/// first that renders pages, so a module that summarises a format better (env:spreadsheets for a
/// workbook's sheets) sits before the one that draws it (env:render).
///
/// Which comes first depends on whether the bytes agree with the name. When some handler claims
/// both the file's signature and its extension (a real `.xlsx` is a `PK` zip, which env:render
/// claims for `.xlsx`), or when only a [`FileHandler::container`] handler claims the signature
/// (env:archives for any zip), the name is trusted: handlers claiming the extension come first,
/// in registration order, then those claiming only the signature. When another handler claims
/// the signature but not the name (`report.xlsx` that starts with `%PDF`), the name lies and the
/// signature's handlers come first. With no signature match, the extension decides.
pub fn claimants<'a>(
    handlers: &'a [std::sync::Arc<dyn FileHandler>],
    path: &VPath,
    head: &[u8],
) -> Vec<&'a dyn FileHandler> {
    let ext = path.extension().map(|e| format!(".{}", e.to_lowercase()));
    let by_magic: Vec<bool> = handlers
        .iter()
        .map(|h| {
            h.magic().iter().any(|m| {
                head.len() >= m.offset + m.bytes.len() && head[m.offset..m.offset + m.bytes.len()] == m.bytes[..]
            })
        })
        .collect();
    let by_ext: Vec<bool> = handlers
        .iter()
        .map(|h| ext.as_ref().is_some_and(|e| h.extensions().iter().any(|x| x.to_lowercase() == *e)))
        .collect();
    let agree = by_magic.iter().zip(&by_ext).any(|(m, e)| *m && *e);
    let specific = (0..handlers.len()).any(|i| by_magic[i] && !handlers[i].container());
    let trust_name = agree || !specific;
    let (first, second) = if trust_name { (&by_ext, &by_magic) } else { (&by_magic, &by_ext) };
    let firsts = (0..handlers.len()).filter(|i| first[*i]);
    let seconds = (0..handlers.len()).filter(|i| !first[*i] && second[*i]);
    firsts.chain(seconds).map(|i| handlers[i].as_ref()).collect()
}
