//! `folio-slides`: decks an analyst hands over, and the decks people drop in.
//!
//! # Writing
//!
//! [`create`] turns the deck spec of adapters-spec §7 into a PPTX of our own parts ([`parts`]):
//! 16:9, the fixed palette (ink 1A1A2E, muted 6B7280, accent 2563EB, rule E5E7EB), every run in
//! DejaVu Sans (the bundled face; a character it lacks is refused by name), the footer on the
//! slide master (not repeated per slide), bullets indented one level per two-space prefix,
//! tables that continue onto further slides with the header repeated, a 60 pt metric over its
//! caption, an image on the right half keeping its aspect ratio, speaker notes as notes slides,
//! and a `chart` element that is a **native** chart part ([`chart_xml`]) with cached values, from
//! the same chart spec env:charts draws.
//!
//! # Reading
//!
//! [`read`] opens any PPTX through [`zipio`] (encrypted entries, legacy `.ppt`, Keynote and
//! inflation past the cap refused by name) and gives slides in presentation order with title,
//! body and notes (found through relationships; master/footer chrome left out): `describe`,
//! `extract`, `outline` and [`extract_text`] for `grep`. [`replace`] rewrites only the parts
//! where a search string matched and copies the rest as stored.
//!
//! With the `adapters` feature, `modules` is `env:slides` and `handler` the `.pptx` describe
//! handler.

pub mod chart_xml;
mod error;
pub mod parts;
pub mod read;
pub mod replace;
pub mod spec;
pub mod write;
pub mod zipio;

#[cfg(feature = "adapters")]
pub mod handler;
#[cfg(feature = "adapters")]
pub mod modules;

pub use error::{DECK_FIELDS, Result, SLIDE_FIELDS, SlidesError};
pub use read::{DeckSummary, SlideText, describe, extract, outline};
pub use replace::{Replaced, replace_text};
pub use spec::Deck;
pub use write::{Created, create};

/// The text of a PPTX for `grep` (its outline: titles, body lines, notes).
pub fn extract_text(bytes: &[u8]) -> Result<String> {
    read::extract_text(bytes)
}
