//! `folio-kinds`: what a file is, decided in one place for the whole workspace.
//!
//! One static table, [`TABLE`], holds one [`Row`] per [`FileKind`]: the extensions that name it,
//! the magic bytes that identify it, the media type it is delivered and served with, its
//! [`Family`], the LibreOffice application that opens it ([`OfficeApp`]) and the `env:` module
//! that describes and renders it ([`Handler`]). `describe` and `rasterize` (folio-render),
//! `present`'s media type (folio-env) and the desktop's preview and `folio://` scheme all read it;
//! none keeps a list of its own.
//!
//! # Detection
//!
//! [`FileKind::detect`] looks at the bytes first, then the name:
//!
//! 1. when the bytes carry a signature of the kind the extension names, that kind (a `.docx` is
//!    a ZIP, a `.mov` an ISO-BMFF `ftyp` box, a `.doc` an OLE container: a container signature
//!    only *confirms* an extension);
//! 2. else the first kind whose signature identifies it *alone* (`%PDF-`, PNG, `ID3`…), so a PDF
//!    named `.png` is a PDF;
//! 3. else the extension's kind, unconfirmed; [`FileKind::confirmed_by`] tells a caller that needs
//!    the bytes to agree (rasterize) whether they do.
//!
//! [`FileKind::from_extension`] and [`FileKind::from_magic`] are the two halves, for callers
//! whose contract is one of them (`present` names a file by its extension).
//!
//! # Decisions
//!
//! - **One row per kind, indexed by the kind.** `TABLE[kind as usize]` is the kind's row (a test
//!   checks the order), so a lookup is an index and a kind can never lack a row.
//! - **Media types are the registered ones, bare.** Where a consumer needs more (the preview adds
//!   `; charset=utf-8` to `text/*` and serves HTML as plain text), it says so in its own code.
//! - **No dependencies**, so every crate can use it, folio-render without its script layer too.

/// What a file is. Each kind has exactly one [`Row`] in [`TABLE`], at the kind's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    /// PDF.
    Pdf,
    /// Word (Office Open XML).
    Docx,
    /// OpenDocument text.
    Odt,
    /// Word 97–2003 (OLE).
    Doc,
    /// Rich Text Format.
    Rtf,
    /// Excel with macros (Office Open XML).
    Xlsm,
    /// Excel binary workbook.
    Xlsb,
    /// Excel (Office Open XML).
    Xlsx,
    /// OpenDocument spreadsheet.
    Ods,
    /// Excel 97–2003 (OLE).
    Xls,
    /// Comma-separated values.
    Csv,
    /// Tab-separated values.
    Tsv,
    /// PowerPoint (Office Open XML).
    Pptx,
    /// OpenDocument presentation.
    Odp,
    /// PowerPoint 97–2003 (OLE).
    Ppt,
    /// PNG image.
    Png,
    /// JPEG image.
    Jpeg,
    /// GIF image.
    Gif,
    /// WebP image.
    Webp,
    /// BMP image.
    Bmp,
    /// AVIF image.
    Avif,
    /// HEIC/HEIF image.
    Heic,
    /// Windows icon.
    Ico,
    /// SVG drawing.
    Svg,
    /// TIFF image (classic or BigTIFF; one or more pages).
    Tiff,
    /// M4A/M4B audio (ISO-BMFF with an audio brand).
    M4a,
    /// QuickTime movie.
    Mov,
    /// MP4 video (any other ISO-BMFF file).
    Mp4,
    /// M4V video.
    M4v,
    /// WebM video (EBML).
    Webm,
    /// Matroska video.
    Mkv,
    /// AVI video.
    Avi,
    /// Ogg video.
    Ogv,
    /// MPEG-1/2 video.
    Mpeg,
    /// Windows Media video.
    Wmv,
    /// An MPEG transport stream (AVCHD camera files).
    Mts,
    /// MP3 audio.
    Mp3,
    /// AAC audio.
    Aac,
    /// Ogg audio (Vorbis, Opus).
    Ogg,
    /// WAV audio.
    Wav,
    /// FLAC audio.
    Flac,
    /// WebM audio.
    Weba,
    /// Windows Media audio.
    Wma,
    /// ZIP archive.
    Zip,
    /// Tar archive.
    Tar,
    /// Gzip-compressed file.
    Gzip,
    /// An email message (RFC 5322 / MIME), described by env:email.
    Eml,
    /// An Outlook message (a compound file with `__substg1.0_` property streams), described by
    /// env:email.
    Msg,
    /// A Unix mailbox of messages, counted by env:email.
    Mbox,
    /// Plain text and logs.
    Text,
    /// Markdown.
    Markdown,
    /// JSON.
    Json,
    /// GeoJSON.
    GeoJson,
    /// HTML.
    Html,
    /// XML.
    Xml,
    /// JavaScript.
    JavaScript,
    /// Python.
    Python,
    /// Shell script.
    Shell,
    /// CSS.
    Css,
    /// Other program source or configuration, shown as plain text (TypeScript, Rust, SQL, YAML…).
    Source,
}

/// The broad group a kind belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Pages of text: PDF, Word, OpenDocument text, RTF.
    Document,
    /// Tables: workbooks, CSV, TSV.
    Spreadsheet,
    /// Slides.
    Presentation,
    /// Pictures.
    Image,
    /// Moving pictures.
    Video,
    /// Sound.
    Audio,
    /// Containers of other files.
    Archive,
    /// Prose and data meant to be read as text: plain text, Markdown, JSON.
    Text,
    /// Program source and markup.
    Code,
}

/// How two versions of one file are compared when the person reviews a change (folio-diff reads
/// it from the table's `diff` column; a kind's shape is a fact about the kind, kept with the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DiffShape {
    /// Lines of text: a line diff.
    Text,
    /// Pages rendered and compared pixel by pixel: PDF, and the documents and decks LibreOffice
    /// converts to PDF.
    Pages,
    /// A cell-level diff per sheet: workbooks, CSV, TSV.
    Cells,
    /// Pixels compared: the images folio-render decodes (PNG, JPEG, GIF, WebP, TIFF, SVG).
    Image,
    /// Frames decoded through ffmpeg and compared: the changed frame ranges.
    Video,
    /// Entry lists compared: zip, tar, tar.gz.
    Archive,
    /// Nothing Folio can look inside: sizes and hashes only (audio, images it does not decode).
    Binary,
}

/// The LibreOffice application that opens a kind of document. On Debian each is its own package
/// (Writer alone opens no workbook or deck), so a refusal names the one the document needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OfficeApp {
    /// Text documents.
    Writer,
    /// Spreadsheets.
    Calc,
    /// Presentations.
    Impress,
}

impl OfficeApp {
    /// Every application, in the order rows and fixes list them.
    pub const ALL: [OfficeApp; 3] = [OfficeApp::Writer, OfficeApp::Calc, OfficeApp::Impress];

    /// `Writer`, `Calc` or `Impress`.
    pub fn label(self) -> &'static str {
        match self {
            OfficeApp::Writer => "Writer",
            OfficeApp::Calc => "Calc",
            OfficeApp::Impress => "Impress",
        }
    }

    /// The Debian package that provides it without a GUI.
    pub fn debian_package(self) -> &'static str {
        match self {
            OfficeApp::Writer => "libreoffice-writer-nogui",
            OfficeApp::Calc => "libreoffice-calc-nogui",
            OfficeApp::Impress => "libreoffice-impress-nogui",
        }
    }

    /// The configuration file an installed application leaves in LibreOffice's registry
    /// directory (`share/registry` on Linux and Windows, `Contents/Resources/registry` on macOS).
    pub fn registry_file(self) -> &'static str {
        match self {
            OfficeApp::Writer => "writer.xcd",
            OfficeApp::Calc => "calc.xcd",
            OfficeApp::Impress => "impress.xcd",
        }
    }

    /// The kinds it opens, in table order.
    pub fn kinds(self) -> impl Iterator<Item = FileKind> {
        TABLE.iter().filter(move |r| r.office == Some(self)).map(|r| r.kind)
    }

    /// Its extensions with dots, joined by `/` (`.docx/.odt/.doc/.rtf`), for messages.
    pub fn extension_list(self) -> String {
        let exts: Vec<String> = self.kinds().flat_map(|k| k.extensions()).map(|e| format!(".{e}")).collect();
        exts.join("/")
    }
}

/// The `env:` module that describes a kind (`describe`, `ls`) and renders its pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Handler {
    /// `env:render`: PDFs and Office documents.
    Render,
    /// `env:images`: the images Folio decodes (PNG, JPEG, GIF, WebP, TIFF pages, SVG drawn).
    Images,
    /// `env:media`: audio and video, read through ffmpeg.
    Media,
}

impl Handler {
    /// The module name without `env:`.
    pub fn module(self) -> &'static str {
        match self {
            Handler::Render => "render",
            Handler::Images => "images",
            Handler::Media => "media",
        }
    }

    /// The kinds it claims, in table order.
    pub fn kinds(self) -> impl Iterator<Item = FileKind> {
        TABLE.iter().filter(move |r| r.handler == Some(self)).map(|r| r.kind)
    }

    /// Every extension of its kinds (without the dot).
    pub fn extensions(self) -> Vec<&'static str> {
        self.kinds().flat_map(|k| k.extensions().iter().copied()).collect()
    }

    /// `(offset, bytes)` of each signature that identifies one of its kinds alone — the last,
    /// distinguishing part of a compound signature (`WEBP` at 8, not `RIFF` at 0) — for
    /// registries that match one exact signature at a time.
    pub fn signatures(self) -> Vec<(usize, &'static [u8])> {
        self.kinds()
            .flat_map(|k| k.row().magic.iter())
            .filter(|m| m.alone)
            .filter_map(|m| m.sigs.last())
            .filter(|s| s.mask.is_none())
            .map(|s| (s.offset, s.bytes))
            .collect()
    }
}

/// Bytes expected at `offset` (or anywhere in the `scan` bytes after it), compared under `mask`.
#[derive(Debug)]
pub struct Sig {
    offset: usize,
    bytes: &'static [u8],
    mask: Option<&'static [u8]>,
    scan: usize,
}

/// What a shared container holds when it is a given kind, read from the container's entries
/// (which only a caller that opens it can see: folio-render's `describe`). The ZIP signature says
/// "some package"; these say which kind of package it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Package {
    /// An Office Open XML package holding every one of these parts.
    Parts(&'static [&'static str]),
    /// An OpenDocument package whose `mimetype` entry is the kind's media type.
    Mimetype,
    /// An OLE compound file around an encrypted Office Open XML package.
    Encrypted,
}

/// One way a kind shows in its bytes: every [`Sig`] must match.
#[derive(Debug)]
pub struct Magic {
    sigs: &'static [Sig],
    /// True when these bytes identify the kind by themselves; false for a container several kinds
    /// share (ZIP, OLE, `ftyp`, EBML, Ogg), which only confirms an extension.
    alone: bool,
    /// What the container holds when it is this kind (`None`: the bytes are the kind's own format).
    package: Option<Package>,
}

/// Everything the workspace knows about one kind of file.
#[derive(Debug)]
pub struct Row {
    /// The kind (the row's index in [`TABLE`]).
    pub kind: FileKind,
    /// A few words for messages: "a PDF", "a Word document".
    pub label: &'static str,
    /// Lowercase extensions without the dot; the first is the usual one.
    pub extensions: &'static [&'static str],
    /// The registered media type, without parameters.
    pub media_type: &'static str,
    /// The broad group.
    pub family: Family,
    /// How two versions of a file of this kind are compared in review (folio-diff).
    pub diff: DiffShape,
    /// The LibreOffice application that converts it, if LibreOffice is how it is rendered.
    pub office: Option<OfficeApp>,
    /// The `env:` module that describes and renders it.
    pub handler: Option<Handler>,
    magic: &'static [Magic],
}

const fn at(offset: usize, bytes: &'static [u8]) -> Sig {
    Sig { offset, bytes, mask: None, scan: 0 }
}

const fn alone(sigs: &'static [Sig]) -> Magic {
    Magic { sigs, alone: true, package: None }
}

const fn shared(sigs: &'static [Sig]) -> Magic {
    Magic { sigs, alone: false, package: None }
}

const PK: &[Sig] = &[at(0, b"PK\x03\x04")];
const OLE_SIG: &[Sig] = &[at(0, b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")];

/// A ZIP package of one kind: which parts (or which `mimetype`) say it is that kind.
const fn zip(package: Package) -> Magic {
    Magic { sigs: PK, alone: false, package: Some(package) }
}

/// An OLE compound file that is the kind's own format: the legacy Office formats.
const OLE: Magic = shared(OLE_SIG);
/// An OLE compound file around an encrypted Office Open XML document.
const LOCKED: Magic = Magic { sigs: OLE_SIG, alone: false, package: Some(Package::Encrypted) };
const ODF: Magic = zip(Package::Mimetype);
const WORD: Magic = zip(Package::Parts(&["word/document.xml"]));
const EXCEL: Magic = zip(Package::Parts(&["xl/workbook.xml"]));
const EXCEL_MACROS: Magic = zip(Package::Parts(&["xl/workbook.xml", "xl/vbaProject.bin"]));
const EXCEL_BINARY: Magic = zip(Package::Parts(&["xl/workbook.bin"]));
const POWERPOINT: Magic = zip(Package::Parts(&["ppt/presentation.xml"]));
const FTYP: Magic = shared(&[at(4, b"ftyp")]);
const EBML: Magic = shared(&[at(0, b"\x1A\x45\xDF\xA3")]);
const OGG: Magic = shared(&[at(0, b"OggS")]);

use DiffShape as S;
use Family as F;
use FileKind as K;
use OfficeApp::{Calc, Impress, Writer};

// One positional argument per column keeps each row of the table on one line.
#[allow(clippy::too_many_arguments)]
const fn row(
    kind: FileKind,
    label: &'static str,
    extensions: &'static [&'static str],
    media_type: &'static str,
    family: Family,
    diff: DiffShape,
    office: Option<OfficeApp>,
    handler: Option<Handler>,
    magic: &'static [Magic],
) -> Row {
    Row { kind, label, extensions, media_type, family, diff, office, handler, magic }
}

const R: Option<Handler> = Some(Handler::Render);
const I: Option<Handler> = Some(Handler::Images);
const M: Option<Handler> = Some(Handler::Media);

/// The table: one row per [`FileKind`], in the enum's order. Where signatures overlap, the
/// earlier row wins (an `ftyp` box with the `M4A ` brand is audio before it is an MP4).
#[rustfmt::skip]
pub static TABLE: &[Row] = &[
    row(K::Pdf, "a PDF", &["pdf"], "application/pdf", F::Document, S::Pages, None, R,
        &[alone(&[Sig { offset: 0, bytes: b"%PDF-", mask: None, scan: 1024 }])]),
    row(K::Docx, "a Word document", &["docx"], "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        F::Document, S::Pages, Some(Writer), R, &[WORD, LOCKED]),
    row(K::Odt, "an OpenDocument text", &["odt"], "application/vnd.oasis.opendocument.text", F::Document, S::Pages, Some(Writer), R, &[ODF]),
    row(K::Doc, "a Word 97–2003 document", &["doc"], "application/msword", F::Document, S::Pages, Some(Writer), R, &[OLE]),
    row(K::Rtf, "an RTF document", &["rtf"], "application/rtf", F::Document, S::Pages, Some(Writer), R, &[alone(&[at(0, b"{\\rtf")])]),
    row(K::Xlsm, "a macro-enabled Excel workbook", &["xlsm"], "application/vnd.ms-excel.sheet.macroEnabled.12",
        F::Spreadsheet, S::Cells, Some(Calc), R, &[EXCEL_MACROS, LOCKED]),
    row(K::Xlsb, "an Excel binary workbook", &["xlsb"], "application/vnd.ms-excel.sheet.binary.macroEnabled.12",
        F::Spreadsheet, S::Cells, Some(Calc), R, &[EXCEL_BINARY, LOCKED]),
    row(K::Xlsx, "an Excel workbook", &["xlsx"], "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        F::Spreadsheet, S::Cells, Some(Calc), R, &[EXCEL, LOCKED]),
    row(K::Ods, "an OpenDocument spreadsheet", &["ods"], "application/vnd.oasis.opendocument.spreadsheet",
        F::Spreadsheet, S::Cells, Some(Calc), R, &[ODF]),
    row(K::Xls, "an Excel 97–2003 workbook", &["xls"], "application/vnd.ms-excel", F::Spreadsheet, S::Cells, Some(Calc), R, &[OLE]),
    row(K::Csv, "a CSV table", &["csv"], "text/csv", F::Spreadsheet, S::Cells, None, None, &[]),
    row(K::Tsv, "a TSV table", &["tsv"], "text/tab-separated-values", F::Spreadsheet, S::Cells, None, None, &[]),
    row(K::Pptx, "a PowerPoint deck", &["pptx"], "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        F::Presentation, S::Pages, Some(Impress), R, &[POWERPOINT, LOCKED]),
    row(K::Odp, "an OpenDocument presentation", &["odp"], "application/vnd.oasis.opendocument.presentation",
        F::Presentation, S::Pages, Some(Impress), R, &[ODF]),
    row(K::Ppt, "a PowerPoint 97–2003 deck", &["ppt"], "application/vnd.ms-powerpoint", F::Presentation, S::Pages, Some(Impress), R, &[OLE]),
    row(K::Png, "a PNG image", &["png"], "image/png", F::Image, S::Image, None, I, &[alone(&[at(0, b"\x89PNG\r\n\x1a\n")])]),
    row(K::Jpeg, "a JPEG image", &["jpg", "jpeg"], "image/jpeg", F::Image, S::Image, None, I, &[alone(&[at(0, b"\xFF\xD8\xFF")])]),
    row(K::Gif, "a GIF image", &["gif"], "image/gif", F::Image, S::Image, None, I, &[alone(&[at(0, b"GIF8")])]),
    row(K::Webp, "a WebP image", &["webp"], "image/webp", F::Image, S::Image, None, I, &[alone(&[at(0, b"RIFF"), at(8, b"WEBP")])]),
    row(K::Bmp, "a BMP image", &["bmp"], "image/bmp", F::Image, S::Binary, None, None, &[]),
    row(K::Avif, "an AVIF image", &["avif"], "image/avif", F::Image, S::Binary, None, None, &[FTYP]),
    row(K::Heic, "a HEIC image", &["heic", "heif"], "image/heic", F::Image, S::Binary, None, None, &[FTYP]),
    row(K::Ico, "an icon", &["ico"], "image/x-icon", F::Image, S::Binary, None, None, &[]),
    row(K::Svg, "an SVG drawing", &["svg"], "image/svg+xml", F::Image, S::Image, None, I, &[]),
    row(K::Tiff, "a TIFF image", &["tif", "tiff"], "image/tiff", F::Image, S::Image, None, I,
        &[alone(&[at(0, b"II*\0")]), alone(&[at(0, b"MM\0*")]), alone(&[at(0, b"II+\0")]), alone(&[at(0, b"MM\0+")])]),
    row(K::M4a, "an M4A recording", &["m4a"], "audio/mp4", F::Audio, S::Binary, None, M,
        &[alone(&[at(4, b"ftyp"), at(8, b"M4A ")]), alone(&[at(4, b"ftyp"), at(8, b"M4B ")]), FTYP]),
    row(K::Mov, "a QuickTime movie", &["mov"], "video/quicktime", F::Video, S::Video, None, M,
        &[alone(&[at(4, b"ftyp"), at(8, b"qt  ")]), FTYP]),
    row(K::Mp4, "an MP4 video", &["mp4"], "video/mp4", F::Video, S::Video, None, M, &[alone(&[at(4, b"ftyp")])]),
    row(K::M4v, "an M4V video", &["m4v"], "video/mp4", F::Video, S::Video, None, M, &[FTYP]),
    row(K::Webm, "a WebM video", &["webm"], "video/webm", F::Video, S::Video, None, M, &[alone(&[at(0, b"\x1A\x45\xDF\xA3")])]),
    row(K::Mkv, "a Matroska video", &["mkv"], "video/x-matroska", F::Video, S::Video, None, M, &[EBML]),
    row(K::Avi, "an AVI video", &["avi"], "video/x-msvideo", F::Video, S::Video, None, M, &[alone(&[at(0, b"RIFF"), at(8, b"AVI ")])]),
    row(K::Ogv, "an Ogg video", &["ogv"], "video/ogg", F::Video, S::Video, None, M, &[OGG]),
    row(K::Mpeg, "an MPEG video", &["mpg", "mpeg"], "video/mpeg", F::Video, S::Video, None, M, &[]),
    row(K::Wmv, "a Windows Media video", &["wmv"], "video/x-ms-wmv", F::Video, S::Video, None, M, &[]),
    row(K::Mts, "an MPEG transport stream (AVCHD)", &["mts", "m2ts"], "video/mp2t", F::Video, S::Video, None, M, &[]),
    row(K::Mp3, "an MP3 recording", &["mp3"], "audio/mpeg", F::Audio, S::Binary, None, M,
        &[alone(&[at(0, b"ID3")]), alone(&[Sig { offset: 0, bytes: b"\xFF\xE0", mask: Some(b"\xFF\xE0"), scan: 0 }])]),
    row(K::Aac, "an AAC recording", &["aac"], "audio/aac", F::Audio, S::Binary, None, M, &[]),
    row(K::Ogg, "an Ogg recording", &["ogg", "oga", "opus"], "audio/ogg", F::Audio, S::Binary, None, M, &[alone(&[at(0, b"OggS")])]),
    row(K::Wav, "a WAV recording", &["wav"], "audio/wav", F::Audio, S::Binary, None, M, &[alone(&[at(0, b"RIFF"), at(8, b"WAVE")])]),
    row(K::Flac, "a FLAC recording", &["flac"], "audio/flac", F::Audio, S::Binary, None, M, &[alone(&[at(0, b"fLaC")])]),
    row(K::Weba, "a WebM recording", &["weba"], "audio/webm", F::Audio, S::Binary, None, M, &[EBML]),
    row(K::Wma, "a Windows Media recording", &["wma"], "audio/x-ms-wma", F::Audio, S::Binary, None, M, &[]),
    row(K::Zip, "a ZIP archive", &["zip"], "application/zip", F::Archive, S::Archive, None, None, &[alone(&[at(0, b"PK\x03\x04")])]),
    row(K::Tar, "a tar archive", &["tar"], "application/x-tar", F::Archive, S::Archive, None, None, &[alone(&[at(257, b"ustar")])]),
    row(K::Gzip, "a gzip file", &["gz"], "application/gzip", F::Archive, S::Archive, None, None, &[alone(&[at(0, b"\x1F\x8B")])]),
    // Mail. A message's header block has no fixed signature, and an Outlook .msg shares the OLE
    // container with legacy Office files, so OLE only *confirms* `.msg` (a `.doc` stays a `.doc`);
    // env:email's own detection tells a misnamed message by its `__substg1.0_` streams. Shown as
    // text (.eml, .mbox) and as a container of attachments (.msg) until the desktop has a card.
    row(K::Eml, "an email message", &["eml"], "message/rfc822", F::Text, S::Text, None, None, &[]),
    row(K::Msg, "an Outlook message", &["msg"], "application/vnd.ms-outlook", F::Archive, S::Binary, None, None, &[OLE]),
    row(K::Mbox, "a mailbox", &["mbox"], "application/mbox", F::Text, S::Text, None, None, &[]),
    row(K::Text, "a text file", &["txt", "log"], "text/plain", F::Text, S::Text, None, None, &[]),
    row(K::Markdown, "a Markdown file", &["md", "markdown"], "text/markdown", F::Text, S::Text, None, None, &[]),
    row(K::Json, "a JSON file", &["json"], "application/json", F::Text, S::Text, None, None, &[]),
    row(K::GeoJson, "a GeoJSON file", &["geojson"], "application/geo+json", F::Text, S::Text, None, None, &[]),
    row(K::Html, "an HTML page", &["html", "htm"], "text/html", F::Code, S::Text, None, None, &[]),
    row(K::Xml, "an XML file", &["xml"], "application/xml", F::Code, S::Text, None, None, &[]),
    row(K::JavaScript, "a JavaScript file", &["js", "mjs"], "text/javascript", F::Code, S::Text, None, None, &[]),
    row(K::Python, "a Python file", &["py"], "text/x-python", F::Code, S::Text, None, None, &[]),
    row(K::Shell, "a shell script", &["sh"], "text/x-shellscript", F::Code, S::Text, None, None, &[]),
    row(K::Css, "a CSS file", &["css"], "text/css", F::Code, S::Text, None, None, &[]),
    row(K::Source, "a source file", &["ts", "tsx", "jsx", "rs", "sql", "r", "yaml", "yml", "toml", "ini"], "text/plain",
        F::Code, S::Text, None, None, &[]),
];

impl Sig {
    fn matches(&self, head: &[u8]) -> bool {
        (self.offset..=self.offset + self.scan).any(|start| {
            let Some(got) = head.get(start..start + self.bytes.len()) else { return false };
            match self.mask {
                Some(mask) => got.iter().zip(mask).zip(self.bytes).all(|((g, m), b)| g & m == *b),
                None => got == self.bytes,
            }
        })
    }
}

impl Magic {
    fn matches(&self, head: &[u8]) -> bool {
        self.sigs.iter().all(|s| s.matches(head))
    }
}

/// The lowercase extension of the last path component (`/` or `\` separated), if it has one;
/// a dotfile (`.bashrc`) has none.
pub fn extension(name: &str) -> Option<String> {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    file.rsplit_once('.').filter(|(stem, ext)| !stem.is_empty() && !ext.is_empty()).map(|(_, e)| e.to_ascii_lowercase())
}

impl FileKind {
    /// Its row in [`TABLE`].
    pub fn row(self) -> &'static Row {
        &TABLE[self as usize]
    }

    /// The kind an extension names (without the dot, any case).
    pub fn from_extension(ext: &str) -> Option<FileKind> {
        let ext = ext.trim_start_matches('.').to_ascii_lowercase();
        TABLE.iter().find(|r| r.extensions.contains(&ext.as_str())).map(|r| r.kind)
    }

    /// The kind a file name's extension names.
    pub fn from_name(name: &str) -> Option<FileKind> {
        extension(name).and_then(|e| FileKind::from_extension(&e))
    }

    /// The kind the first bytes identify by themselves (container signatures that only confirm
    /// an extension do not count).
    pub fn from_magic(head: &[u8]) -> Option<FileKind> {
        TABLE.iter().find(|r| r.magic.iter().any(|m| m.alone && m.matches(head))).map(|r| r.kind)
    }

    /// What the file `name` starting with `head` is: bytes first, then the name (see the crate
    /// docs for the three steps).
    pub fn detect(name: &str, head: &[u8]) -> Option<FileKind> {
        let named = FileKind::from_name(name);
        if let Some(kind) = named.filter(|k| k.confirmed_by(head)) {
            return Some(kind);
        }
        FileKind::from_magic(head).or(named)
    }

    /// True when `head` carries one of this kind's signatures (shared containers included).
    /// Always false for kinds without a signature (text, CSV…).
    pub fn confirmed_by(self, head: &[u8]) -> bool {
        self.row().magic.iter().any(|m| m.matches(head))
    }

    /// What to look for inside the container `head` starts, when it is a container this kind comes
    /// in: an Office Open XML package's parts, an OpenDocument `mimetype`, or an OLE file around
    /// an encrypted package. `None` when no signature of the kind matches, or when the matching
    /// one is the kind's own format (a `.doc`'s OLE file, a PDF).
    pub fn package_in(self, head: &[u8]) -> Option<Package> {
        self.row().magic.iter().find(|m| m.matches(head)).and_then(|m| m.package)
    }

    /// The kind a package's entries say it is: every part of an Office Open XML kind present
    /// (`has`), or the OpenDocument `mimetype` entry equal to the kind's media type. `named`
    /// (what the file's name says) wins when its own package fits; otherwise the first fitting
    /// kind in table order with the most parts (an `.xlsm`'s macros make it an `.xlsm`).
    pub fn from_package(
        named: Option<FileKind>,
        has: impl Fn(&str) -> bool,
        mimetype: Option<&str>,
    ) -> Option<FileKind> {
        let fits = |row: &Row| -> Option<usize> {
            row.magic.iter().filter_map(|m| m.package).find_map(|p| match p {
                Package::Parts(parts) if parts.iter().all(|part| has(part)) => Some(parts.len()),
                Package::Mimetype if mimetype.map(str::trim) == Some(row.media_type) => Some(1),
                _ => None,
            })
        };
        if let Some(kind) = named.filter(|k| fits(k.row()).is_some()) {
            return Some(kind);
        }
        let mut best: Option<(usize, FileKind)> = None;
        for row in TABLE {
            if let Some(n) = fits(row)
                && best.is_none_or(|(most, _)| n > most)
            {
                best = Some((n, row.kind));
            }
        }
        best.map(|(_, kind)| kind)
    }

    /// True when the kind has a signature at all, so its bytes can confirm it.
    pub fn has_signature(self) -> bool {
        !self.row().magic.is_empty()
    }

    /// The registered media type, without parameters.
    pub fn media_type(self) -> &'static str {
        self.row().media_type
    }

    /// The broad group.
    pub fn family(self) -> Family {
        self.row().family
    }

    /// How two versions of it are compared in review.
    pub fn diff_shape(self) -> DiffShape {
        self.row().diff
    }

    /// The LibreOffice application that converts it, if it is rendered through LibreOffice.
    pub fn office(self) -> Option<OfficeApp> {
        self.row().office
    }

    /// The module that describes and renders it.
    pub fn handler(self) -> Option<Handler> {
        self.row().handler
    }

    /// Its extensions without dots; the first is the usual one.
    pub fn extensions(self) -> &'static [&'static str] {
        self.row().extensions
    }

    /// A few words for messages ("a Word document").
    pub fn label(self) -> &'static str {
        self.row().label
    }
}

pub mod text;

#[cfg(test)]
#[path = "lib_tests.rs"]
mod tests;
