//! The bundled faces as PDF fonts: measured with ttf-parser, encoded as two-byte glyph ids
//! (Identity-H) as text is laid out, and at the end subset (subsetter keeps only the glyphs
//! used, renumbered from 0) and embedded as CIDFontType2 with a ToUnicode map, so every reader
//! (pdftotext, PDFium, a person copying text) gets the characters back.

use folio_fonts::Face;
use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Filter, Name, Pdf, Rect, Ref, Str};
use subsetter::GlyphRemapper;

use crate::error::{DocsError, Result};

/// One face in use in one document.
pub struct FontUse {
    /// Which bundled face.
    pub face: Face,
    parsed: ttf_parser::Face<'static>,
    remapper: GlyphRemapper,
    /// (new glyph id, char, advance in font units) for each glyph used.
    used: Vec<(u16, char, u16)>,
    units: f32,
}

impl FontUse {
    /// Starts using `face`.
    pub fn new(face: Face) -> Result<FontUse> {
        let parsed = ttf_parser::Face::parse(face.bytes(), 0)
            .map_err(|e| DocsError::Invalid(format!("the bundled font {face:?} does not parse: {e}")))?;
        let mut remapper = GlyphRemapper::new();
        remapper.remap(0);
        let units = f32::from(parsed.units_per_em());
        Ok(FontUse { face, parsed, remapper, used: Vec::new(), units })
    }

    /// The width of `text` at `size` points.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let units: u32 = text
            .chars()
            .map(|c| self.parsed.glyph_index(c).and_then(|g| self.parsed.glyph_hor_advance(g)).map_or(0, u32::from))
            .sum();
        units as f32 * size / self.units
    }

    /// `text` as Identity-H codes (two bytes per glyph), recording the glyphs for the subset.
    pub fn encode(&mut self, text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() * 2);
        for c in text.chars() {
            let Some(gid) = self.parsed.glyph_index(c) else { continue };
            let known = self.remapper.get(gid.0);
            let new = self.remapper.remap(gid.0);
            if known.is_none() {
                let adv = self.parsed.glyph_hor_advance(gid).unwrap_or(0);
                self.used.push((new, c, adv));
            }
            out.extend_from_slice(&new.to_be_bytes());
        }
        out
    }

    /// Ascent in points at `size`.
    pub fn ascent(&self, size: f32) -> f32 {
        f32::from(self.parsed.ascender()) * size / self.units
    }

    /// Writes the Type0 font `font`, its CID font, descriptor, subset file and ToUnicode map,
    /// using ids from `next`.
    pub fn write(&self, pdf: &mut Pdf, font: Ref, next: &mut impl FnMut() -> Ref, tag: &str) -> Result<()> {
        let cid = next();
        let descriptor = next();
        let file = next();
        let cmap_id = next();
        let base = format!("{tag}+{}", self.face.family().replace(' ', "") + ps_suffix(self.face));
        let subset = subsetter::subset(self.face.bytes(), 0, &self.remapper).map_err(|e| {
            DocsError::Invalid(format!("subsetting the bundled font failed: {e:?} — hint: report this as a bug"))
        })?;
        let scale = 1000.0 / self.units;
        pdf.type0_font(font)
            .base_font(Name(base.as_bytes()))
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid)
            .to_unicode(cmap_id);
        let info = SystemInfo { registry: Str(b"Adobe"), ordering: Str(b"Identity"), supplement: 0 };
        let mut cidf = pdf.cid_font(cid);
        cidf.subtype(CidFontType::Type2)
            .base_font(Name(base.as_bytes()))
            .system_info(info)
            .font_descriptor(descriptor)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        let mut sorted = self.used.clone();
        sorted.sort_by_key(|u| u.0);
        {
            let mut w = cidf.widths();
            for (gid, _, adv) in &sorted {
                w.consecutive(*gid, [f32::from(*adv) * scale]);
            }
        }
        drop(cidf);
        let bb = self.parsed.global_bounding_box();
        let mut flags = FontFlags::SYMBOLIC;
        if self.face == Face::SansOblique {
            flags |= FontFlags::ITALIC;
        }
        pdf.font_descriptor(descriptor)
            .name(Name(base.as_bytes()))
            .flags(flags)
            .bbox(Rect::new(
                f32::from(bb.x_min) * scale,
                f32::from(bb.y_min) * scale,
                f32::from(bb.x_max) * scale,
                f32::from(bb.y_max) * scale,
            ))
            .italic_angle(self.parsed.italic_angle())
            .ascent(f32::from(self.parsed.ascender()) * scale)
            .descent(f32::from(self.parsed.descender()) * scale)
            .cap_height(f32::from(self.parsed.capital_height().unwrap_or(self.parsed.ascender())) * scale)
            .stem_v(if self.face == Face::SansBold { 140.0 } else { 80.0 })
            .font_file2(file);
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&subset, 6);
        pdf.stream(file, &packed).filter(Filter::FlateDecode).pair(Name(b"Length1"), subset.len() as i32);
        let mut cmap = UnicodeCmap::new(Name(b"Folio-UCS"), info);
        for (gid, c, _) in &sorted {
            cmap.pair(*gid, *c);
        }
        pdf.cmap(cmap_id, &cmap.finish());
        Ok(())
    }
}

fn ps_suffix(face: Face) -> &'static str {
    match face {
        Face::Sans => "",
        Face::SansBold => "-Bold",
        Face::SansOblique => "-Oblique",
        Face::Mono => "Mono",
    }
}
