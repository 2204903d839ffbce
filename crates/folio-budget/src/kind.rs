//! The one table of long jobs: what each kind counts (its progress unit), what its cost is
//! measured in, and the rate assumed before this host has measured one.

use serde::{Deserialize, Serialize};

/// What a job counts in its progress: the unit in `{done, total, unit}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A rendered page.
    Page,
    /// A whole file (a LibreOffice conversion, an archive entry).
    File,
    /// A video frame.
    Frame,
    /// A second of media.
    Second,
    /// A spreadsheet row or record.
    Row,
}

impl Unit {
    /// The unit's name, singular or plural.
    pub fn name(self, n: u64) -> &'static str {
        let one = n == 1;
        match self {
            Unit::Page if one => "page",
            Unit::Page => "pages",
            Unit::File if one => "file",
            Unit::File => "files",
            Unit::Frame if one => "frame",
            Unit::Frame => "frames",
            Unit::Second if one => "second",
            Unit::Second => "seconds",
            Unit::Row if one => "row",
            Unit::Row => "rows",
        }
    }
}

macro_rules! job_kinds {
    ($( $(#[$doc:meta])* $variant:ident = $key:literal, $unit:ident, $cost:literal, $prior_ms:literal; )*) => {
        /// A kind of long native job. Each has its own measured rate on this host.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum JobKind { $( $(#[$doc])* $variant, )* }

        impl JobKind {
            /// Every kind, in table order.
            pub const ALL: &'static [JobKind] = &[$(JobKind::$variant),*];

            /// The key the rates file uses.
            pub fn key(self) -> &'static str {
                match self { $(JobKind::$variant => $key,)* }
            }

            /// What progress counts.
            pub fn unit(self) -> Unit {
                match self { $(JobKind::$variant => Unit::$unit,)* }
            }

            /// What one cost unit is (the rate is milliseconds per cost unit).
            pub fn cost_unit(self) -> &'static str {
                match self { $(JobKind::$variant => $cost,)* }
            }

            /// Milliseconds per cost unit assumed until this host has measured the kind: on the
            /// fast side, so that a refusal before any measurement is never a false alarm.
            pub fn prior_ms(self) -> f64 {
                match self { $(JobKind::$variant => $prior_ms,)* }
            }

            /// The kind whose key is `key`.
            pub fn from_key(key: &str) -> Option<JobKind> {
                JobKind::ALL.iter().copied().find(|k| k.key() == key)
            }
        }
    };
}

job_kinds! {
    /// PDFium rendering and encoding a PDF page; cost in megapixels rendered.
    PdfPage = "pdf-page", Page, "megapixel", 1.0;
    /// A LibreOffice conversion of one document; cost in files (start-up dominates).
    OfficeConvert = "office-convert", File, "file", 1200.0;
    /// A rendered video frame; cost in megapixels.
    Frame = "frame", Frame, "megapixel", 30.0;
    /// ffmpeg work on media; cost in seconds of media.
    Media = "media", Second, "media second", 20.0;
    /// An archive entry extracted; cost in MiB written.
    ArchiveEntry = "archive-entry", File, "MiB", 2.0;
    /// Spreadsheet rows read or written; cost in thousands of rows.
    SheetRows = "sheet-rows", Row, "thousand rows", 5.0;
    /// A PDF page's text read through PDFium (env:documents extractText); cost in pages.
    PdfText = "pdf-text", Page, "page", 2.0;
    /// A page read by tesseract (env:ocr); cost in pages at 300 dpi (measured here ≈ 4 s each
    /// with orientation detection on two shared cores).
    OcrPage = "ocr-page", Page, "page at 300 dpi", 4000.0;
}

/// A duration as a person says it: `850 ms`, `12 s`, `3 min 5 s`.
pub fn duration_words(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        format!("{} s", (ms + 500) / 1000)
    } else {
        let s = (ms + 500) / 1000;
        format!("{} min {} s", s / 60, s % 60)
    }
}
