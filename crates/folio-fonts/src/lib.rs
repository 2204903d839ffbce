//! The fonts Folio bundles, and the one question every writer asks of them: can this text be set?
//!
//! A report, a chart or a deck that Folio writes must look the same on every machine that opens
//! it, and must never show `?` or an empty box where the person wrote `Συνολικά` or `Выручка`. So
//! the writers (env:documents, env:charts, env:slides) embed or name a font Folio ships itself:
//! DejaVu Sans (regular, bold, oblique) and DejaVu Sans Mono, vendored from npm's
//! `dejavu-fonts-ttf` by `scripts/vendor-fonts.sh` (pinned by version and tarball digest, licence
//! kept in `fonts/LICENSE`). DejaVu covers Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and
//! Arabic letters and the usual symbols; it does not cover CJK.
//!
//! [`Face::missing`] is how a writer refuses text the font cannot set, *before* it writes a byte:
//! the error names the characters (as themselves and as `U+XXXX`), so the fix — another font, or
//! other text — is obvious. Nothing here reads the host's fonts.

/// One bundled face.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    /// DejaVu Sans, the body face.
    Sans,
    /// DejaVu Sans Bold, for headings and table headers.
    SansBold,
    /// DejaVu Sans Oblique.
    SansOblique,
    /// DejaVu Sans Mono, for code and aligned figures.
    Mono,
}

/// The version of DejaVu that `scripts/vendor-fonts.sh` vendored.
pub const VERSION: &str = include_str!("../fonts/VERSION");

/// DejaVu's licence (Bitstream Vera and Arev terms), for an about box or a bundle's notices.
pub const LICENSE: &str = include_str!("../fonts/LICENSE");

impl Face {
    /// Every face, in table order.
    pub const ALL: &'static [Face] = &[Face::Sans, Face::SansBold, Face::SansOblique, Face::Mono];

    /// The face's TrueType bytes.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Face::Sans => include_bytes!("../fonts/DejaVuSans.ttf"),
            Face::SansBold => include_bytes!("../fonts/DejaVuSans-Bold.ttf"),
            Face::SansOblique => include_bytes!("../fonts/DejaVuSans-Oblique.ttf"),
            Face::Mono => include_bytes!("../fonts/DejaVuSansMono.ttf"),
        }
    }

    /// The family name a document refers to (DOCX `w:rFonts`, PPTX `a:latin`, SVG `font-family`).
    pub fn family(self) -> &'static str {
        match self {
            Face::Sans | Face::SansBold | Face::SansOblique => "DejaVu Sans",
            Face::Mono => "DejaVu Sans Mono",
        }
    }

    /// The characters of `text` this face has no glyph for, in order of first appearance, each
    /// once. Controls (tab, newlines) are never reported: writers lay them out, not draw them.
    pub fn missing(self, text: &str) -> Vec<char> {
        let Ok(face) = ttf_parser::Face::parse(self.bytes(), 0) else {
            // The bytes are compiled in and parsed by this crate's tests; a face that does not
            // parse reports every character, so a writer refuses instead of drawing boxes.
            return dedup(text.chars().filter(|c| !c.is_control()));
        };
        dedup(text.chars().filter(|c| !c.is_control() && face.glyph_index(*c).is_none()))
    }
}

fn dedup(chars: impl Iterator<Item = char>) -> Vec<char> {
    let mut seen = Vec::new();
    for c in chars {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen
}

/// `'字' (U+5B57), 'क' (U+0915)`: characters as a message names them.
pub fn describe_chars(chars: &[char]) -> String {
    chars.iter().map(|c| format!("'{c}' (U+{:04X})", *c as u32)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_parses_and_sets_latin_greek_cyrillic() {
        for face in Face::ALL {
            assert!(ttf_parser::Face::parse(face.bytes(), 0).is_ok(), "{face:?}");
            assert_eq!(face.missing("Revenue € 1,234 — Σύνολο Выручка\t\n"), Vec::<char>::new(), "{face:?}");
        }
    }

    #[test]
    fn cjk_and_devanagari_are_reported_once_each_in_order() {
        let missing = Face::Sans.missing("Q3 売上 売上 क");
        assert_eq!(missing, vec!['売', '上', 'क']);
        assert_eq!(describe_chars(&missing[..1]), "'売' (U+58F2)");
    }

    #[test]
    fn version_and_licence_are_vendored() {
        assert_eq!(VERSION.trim(), "2.37.3");
        assert!(LICENSE.contains("Bitstream"));
    }
}
