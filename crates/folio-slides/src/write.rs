//! The deck writer: a [`Deck`] becomes a PPTX package of our own parts — a title slide, then
//! one slide per spec slide, except that a long table continues onto further slides (each
//! titled "… (cont.)", the header repeated). Text runs name DejaVu Sans; a chart is a native
//! chart part with cached values; an image keeps its aspect ratio on the right half; notes are
//! notes slides linked by relationship.

use crate::chart_xml::chart_xml;
use crate::error::{Result, SlidesError};
use crate::parts::{self, ACCENT, DECL, FONT, INK, MUTED, NS, RULE, SLIDE_H, SLIDE_W, esc, rel, rels};
use crate::spec::{Deck, SlideSpec, Table};
use crate::zipio::write_package;

const MARGIN: i64 = 457_200;
const GAP: i64 = 365_760;
const TITLE_Y: i64 = 342_900;
const TITLE_H: i64 = 822_960;
const BODY_Y: i64 = 1_325_880;
const BODY_H: i64 = SLIDE_H - 640_080 - BODY_Y;
const FULL_W: i64 = SLIDE_W - 2 * MARGIN;
const HALF_W: i64 = (FULL_W - GAP) / 2;
/// Table text size (hundredths of a point).
const TABLE_SZ: i64 = 1400;

/// A written deck.
#[derive(Debug, Clone)]
pub struct Created {
    /// The PPTX bytes.
    pub bytes: Vec<u8>,
    /// How many slides it has (title slide and continuations included).
    pub slides: usize,
    /// How many native charts.
    pub charts: usize,
    /// What was adjusted (a table continued onto N slides).
    pub warnings: Vec<String>,
}

/// A paragraph of one run.
#[allow(clippy::too_many_arguments)]
fn para(text: &str, sz: u32, color: &str, bold: bool, algn: &str, bullet: Option<u8>, after: u32) -> String {
    let ppr = match bullet {
        Some(level) => {
            let mar = 342_900 + level as i64 * 342_900;
            let ch = if level == 0 { "•" } else { "–" };
            format!(
                r#"<a:pPr marL="{mar}" lvl="{level}" indent="-285750" algn="{algn}"><a:spcAft><a:spcPts val="{after}"/></a:spcAft><a:buClr><a:srgbClr val="{ACCENT}"/></a:buClr><a:buFont typeface="{FONT}"/><a:buChar char="{ch}"/></a:pPr>"#
            )
        }
        None => format!(r#"<a:pPr algn="{algn}"><a:spcAft><a:spcPts val="{after}"/></a:spcAft><a:buNone/></a:pPr>"#),
    };
    format!(
        r#"<a:p>{ppr}<a:r><a:rPr lang="en-US" sz="{sz}" b="{}" dirty="0"><a:solidFill><a:srgbClr val="{color}"/></a:solidFill><a:latin typeface="{FONT}"/><a:ea typeface="{FONT}"/><a:cs typeface="{FONT}"/></a:rPr><a:t>{}</a:t></a:r></a:p>"#,
        u8::from(bold),
        esc(text)
    )
}

struct SlideOut {
    shapes: String,
    next_id: u32,
    rels: Vec<String>,
    next_rel: u32,
    notes: Option<String>,
}

impl SlideOut {
    fn new() -> SlideOut {
        SlideOut {
            shapes: String::new(),
            next_id: 2,
            rels: vec![rel("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml")],
            next_rel: 2,
            notes: None,
        }
    }
    fn id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id - 1
    }
    fn add_rel(&mut self, kind: &str, target: &str) -> String {
        let id = format!("rId{}", self.next_rel);
        self.next_rel += 1;
        self.rels.push(rel(&id, kind, target));
        id
    }
    /// A text box (`ph`: a placeholder type such as `title`, or none).
    #[allow(clippy::too_many_arguments)]
    fn text_box(&mut self, name: &str, ph: Option<&str>, x: i64, y: i64, w: i64, h: i64, anchor: &str, paras: &str) {
        let id = self.id();
        let nvpr = match ph {
            Some(t) => format!(r#"<p:nvPr><p:ph type="{t}"/></p:nvPr>"#),
            None => "<p:nvPr/>".into(),
        };
        let txbox = if ph.is_none() { r#" txBox="1""# } else { "" };
        self.shapes.push_str(&format!(
            r#"<p:sp><p:nvSpPr><p:cNvPr id="{id}" name="{name} {id}"/><p:cNvSpPr{txbox}/>{nvpr}</p:nvSpPr><p:spPr><a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="{w}" cy="{h}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr><p:txBody><a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="{anchor}"><a:normAutofit/></a:bodyPr><a:lstStyle/>{paras}</p:txBody></p:sp>"#
        ));
    }
    #[allow(clippy::too_many_arguments)]
    fn frame(&mut self, name: &str, x: i64, y: i64, w: i64, h: i64, uri: &str, data: &str) {
        let id = self.id();
        self.shapes.push_str(&format!(
            r#"<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="{id}" name="{name} {id}"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="{w}" cy="{h}"/></p:xfrm><a:graphic><a:graphicData uri="{uri}">{data}</a:graphicData></a:graphic></p:graphicFrame>"#
        ));
    }
    fn xml(&self) -> String {
        format!(
            r#"{DECL}<p:sld {NS}><p:cSld>{}{}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>"#,
            parts::tree_start(),
            self.shapes
        )
    }
}

/// Picture format and pixel size from the header.
fn image_info(path: &str, b: &[u8]) -> Result<(&'static str, u32, u32)> {
    let bad = |why: &str| SlidesError::Image { path: path.to_string(), why: why.to_string() };
    if b.starts_with(b"\x89PNG\r\n\x1a\n") && b.len() >= 24 {
        let w = u32::from_be_bytes([b[16], b[17], b[18], b[19]]);
        let h = u32::from_be_bytes([b[20], b[21], b[22], b[23]]);
        return Ok(("png", w, h));
    }
    if b.starts_with(b"GIF8") && b.len() >= 10 {
        return Ok(("gif", u16::from_le_bytes([b[6], b[7]]) as u32, u16::from_le_bytes([b[8], b[9]]) as u32));
    }
    if b.starts_with(&[0xFF, 0xD8]) {
        let mut i = 2;
        while i + 9 < b.len() {
            if b[i] != 0xFF {
                i += 1;
                continue;
            }
            let marker = b[i + 1];
            let len = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
            if matches!(marker, 0xC0..=0xC3 | 0xC5..=0xC7 | 0xC9..=0xCB | 0xCD..=0xCF) {
                let h = u16::from_be_bytes([b[i + 5], b[i + 6]]) as u32;
                let w = u16::from_be_bytes([b[i + 7], b[i + 8]]) as u32;
                return Ok(("jpeg", w, h));
            }
            i += 2 + len;
        }
        return Err(bad("the JPEG has no frame header (damaged)"));
    }
    Err(bad("is not a PNG, JPEG or GIF picture"))
}

fn fit(w: u32, h: u32, box_w: i64, box_h: i64) -> (i64, i64) {
    if w == 0 || h == 0 {
        return (box_w, box_h);
    }
    let s = (box_w as f64 / w as f64).min(box_h as f64 / h as f64);
    ((w as f64 * s) as i64, (h as f64 * s) as i64)
}

/// Splits a table's rows into pages that fit `height` at `col_w` per column.
fn paginate(t: &Table, col_w: i64, height: i64) -> Vec<(usize, usize, Vec<i64>)> {
    let char_w = TABLE_SZ * 127 * 55 / 100; // 0.55 em, in EMU (1/100 pt = 127 EMU)
    let per_line = (col_w - 182_880).max(char_w) / char_w;
    let line_h = TABLE_SZ * 127 * 6 / 5;
    let row_h = |cells: &[String]| {
        let lines =
            cells.iter().map(|c| ((c.chars().count() as i64 + per_line - 1) / per_line).max(1)).max().unwrap_or(1);
        lines * line_h + 137_160
    };
    let header_h = row_h(&t.header);
    let mut pages = Vec::new();
    let (mut start, mut used, mut hs) = (0, header_h, Vec::new());
    for (i, r) in t.rows.iter().enumerate() {
        let h = row_h(r);
        if used + h > height && i > start {
            pages.push((start, i, std::mem::take(&mut hs)));
            start = i;
            used = header_h;
        }
        used += h;
        hs.push(h);
    }
    pages.push((start, t.rows.len(), hs));
    pages
}

fn table_xml(t: &Table, rows: &[Vec<String>], heights: &[i64], col_w: i64) -> (String, i64) {
    let numeric = |s: &str| {
        let s = s.trim().trim_start_matches(['$', '€', '£', '-', '−', '+']).trim_end_matches(['%', 'k', 'K', 'M', 'B']);
        !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.')
    };
    let cell = |text: &str, header: bool| {
        let (color, fill, bold) = if header { ("FFFFFF", ACCENT, true) } else { (INK, "FFFFFF", false) };
        let algn = if !header && numeric(text) { "r" } else { "l" };
        format!(
            r#"<a:tc><a:txBody><a:bodyPr/><a:lstStyle/>{}</a:txBody><a:tcPr marL="91440" marR="91440" marT="45720" marB="45720"><a:lnB w="9525"><a:solidFill><a:srgbClr val="{RULE}"/></a:solidFill></a:lnB><a:solidFill><a:srgbClr val="{fill}"/></a:solidFill></a:tcPr></a:tc>"#,
            para(text, TABLE_SZ as u32, color, bold, algn, None, 0)
        )
    };
    let grid: String = t.header.iter().map(|_| format!(r#"<a:gridCol w="{col_w}"/>"#)).collect();
    let header_h = TABLE_SZ * 127 * 6 / 5 + 137_160;
    let mut trs =
        format!(r#"<a:tr h="{header_h}">{}</a:tr>"#, t.header.iter().map(|h| cell(h, true)).collect::<String>());
    for (r, h) in rows.iter().zip(heights) {
        trs.push_str(&format!(r#"<a:tr h="{h}">{}</a:tr>"#, r.iter().map(|c| cell(c, false)).collect::<String>()));
    }
    let total = header_h + heights.iter().sum::<i64>();
    (format!(r#"<a:tbl><a:tblPr firstRow="1" bandRow="1"/><a:tblGrid>{grid}</a:tblGrid>{trs}</a:tbl>"#), total)
}

struct Media {
    parts: Vec<(String, Vec<u8>)>,
    charts: usize,
    images: usize,
}

fn title_box(out: &mut SlideOut, title: &str) {
    out.text_box(
        "Title",
        Some("title"),
        MARGIN,
        TITLE_Y,
        FULL_W,
        TITLE_H,
        "b",
        &para(title, 3000, INK, true, "l", None, 0),
    );
}

fn content_slide(
    s: &SlideSpec,
    index: usize,
    media: &mut Media,
    images: &dyn Fn(&str) -> std::result::Result<Vec<u8>, String>,
    warnings: &mut Vec<String>,
) -> Result<Vec<SlideOut>> {
    let right = s.image.is_some() || s.chart.is_some();
    let text_w = if right { HALF_W } else { FULL_W };
    let has_text = !s.bullets.is_empty() || !s.body.is_empty() || s.metric.is_some();
    if s.table.is_some() && has_text {
        return Err(SlidesError::Spec(format!(
            "slides[{index}] has a table and bullets/body/metric — a table takes the slide's body; put the text on its own slide"
        )));
    }
    let mut first = SlideOut::new();
    if let Some(t) = &s.title {
        title_box(&mut first, t);
    }
    let mut y = BODY_Y;
    if let Some(m) = &s.metric {
        let mut p = para(&m.value, 6000, ACCENT, true, "l", None, 0);
        if let Some(c) = &m.caption {
            p.push_str(&para(c, 2000, MUTED, false, "l", None, 0));
        }
        let h = if has_text && (!s.bullets.is_empty() || !s.body.is_empty()) { 1_645_920 } else { BODY_H };
        first.text_box("Metric", None, MARGIN, y, text_w, h, if h == BODY_H { "ctr" } else { "t" }, &p);
        y += h;
    }
    if !s.bullets.is_empty() || !s.body.is_empty() {
        let mut p: String = s.body.iter().map(|b| para(b, 1800, INK, false, "l", None, 900)).collect();
        for b in &s.bullets {
            let sz = if b.level == 0 { 2000 } else { 1800 };
            p.push_str(&para(&b.text, sz, if b.level == 0 { INK } else { MUTED }, false, "l", Some(b.level), 600));
        }
        first.text_box("Body", Some("body"), MARGIN, y, text_w, BODY_Y + BODY_H - y, "t", &p);
    }
    let rx = if has_text || s.table.is_some() { MARGIN + HALF_W + GAP } else { MARGIN };
    let rw = if has_text || s.table.is_some() { HALF_W } else { FULL_W };
    if let Some(c) = &s.chart {
        media.charts += 1;
        let n = media.charts;
        media.parts.push((format!("ppt/charts/chart{n}.xml"), chart_xml(c).into_bytes()));
        let rid = first.add_rel("chart", &format!("../charts/chart{n}.xml"));
        let data = format!(
            r#"<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="{rid}"/>"#
        );
        first.frame("Chart", rx, BODY_Y, rw, BODY_H, "http://schemas.openxmlformats.org/drawingml/2006/chart", &data);
    }
    if let Some(path) = &s.image {
        let bytes = images(path).map_err(|why| SlidesError::Image { path: path.clone(), why })?;
        let (ext, w, h) = image_info(path, &bytes)?;
        media.images += 1;
        let name = format!("image{}.{ext}", media.images);
        media.parts.push((format!("ppt/media/{name}"), bytes));
        let rid = first.add_rel("image", &format!("../media/{name}"));
        let (cx, cy) = fit(w, h, rw, BODY_H);
        let (x, y) = (rx + (rw - cx) / 2, BODY_Y + (BODY_H - cy) / 2);
        let id = first.id();
        first.shapes.push_str(&format!(
            r#"<p:pic><p:nvPicPr><p:cNvPr id="{id}" name="Picture {id}" descr="{}"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>"#,
            esc(path)
        ));
    }
    first.notes = s.notes.clone();
    let Some(t) = &s.table else { return Ok(vec![first]) };
    let col_w = text_w / t.header.len() as i64;
    let pages = paginate(t, col_w, BODY_H);
    if pages.len() > 1 {
        warnings.push(format!(
            "slides[{index}]: the table's {} rows continue onto {} slides (header repeated)",
            t.rows.len(),
            pages.len()
        ));
    }
    let mut out = Vec::with_capacity(pages.len());
    for (k, (start, end, heights)) in pages.into_iter().enumerate() {
        let mut slide = if k == 0 { std::mem::replace(&mut first, SlideOut::new()) } else { SlideOut::new() };
        if k > 0 {
            let base = s.title.clone().unwrap_or_else(|| "Table".into());
            title_box(&mut slide, &format!("{base} (cont.)"));
        }
        let (xml, h) = table_xml(t, &t.rows[start..end], &heights, col_w);
        slide.frame(
            "Table",
            MARGIN,
            BODY_Y,
            col_w * t.header.len() as i64,
            h,
            "http://schemas.openxmlformats.org/drawingml/2006/table",
            &xml,
        );
        out.push(slide);
    }
    Ok(out)
}

/// Writes `deck`; `images` reads an image's bytes from the tree by path.
pub fn create(deck: &Deck, images: &dyn Fn(&str) -> std::result::Result<Vec<u8>, String>) -> Result<Created> {
    let mut media = Media { parts: Vec::new(), charts: 0, images: 0 };
    let mut warnings = Vec::new();
    let mut slides = Vec::new();
    let mut cover = SlideOut::new();
    let mut p = para(&deck.title, 4400, INK, true, "l", None, 0);
    cover.text_box("Title", Some("ctrTitle"), MARGIN * 2, 2_286_000, FULL_W - MARGIN * 2, 1_371_600, "b", &p);
    if let Some(sub) = &deck.subtitle {
        p = para(sub, 2200, MUTED, false, "l", None, 0);
        cover.text_box("Subtitle", Some("subTitle"), MARGIN * 2, 3_840_480, FULL_W - MARGIN * 2, 914_400, "t", &p);
    }
    let id = cover.id();
    cover.shapes.push_str(&format!(
        r#"<p:sp><p:nvSpPr><p:cNvPr id="{id}" name="Accent {id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="{}" y="3749040"/><a:ext cx="1371600" cy="45720"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="{ACCENT}"/></a:solidFill><a:ln><a:noFill/></a:ln></p:spPr></p:sp>"#,
        MARGIN * 2
    ));
    slides.push(cover);
    for (i, s) in deck.slides.iter().enumerate() {
        slides.extend(content_slide(s, i, &mut media, images, &mut warnings)?);
    }
    let n = slides.len();
    let mut notes_at = Vec::new();
    let mut package: Vec<(String, Vec<u8>)> = Vec::new();
    let mut slide_parts = Vec::new();
    for (i, s) in slides.iter_mut().enumerate() {
        let k = i + 1;
        if let Some(text) = s.notes.take() {
            s.add_rel("notesSlide", &format!("../notesSlides/notesSlide{k}.xml"));
            notes_at.push(k);
            slide_parts.push((format!("ppt/notesSlides/notesSlide{k}.xml"), parts::notes(&text).into_bytes()));
            slide_parts
                .push((format!("ppt/notesSlides/_rels/notesSlide{k}.xml.rels"), parts::notes_rels(k).into_bytes()));
        }
        slide_parts.push((format!("ppt/slides/slide{k}.xml"), s.xml().into_bytes()));
        slide_parts.push((format!("ppt/slides/_rels/slide{k}.xml.rels"), rels(&s.rels).into_bytes()));
    }
    let fixed = [
        ("[Content_Types].xml", parts::content_types(n, &notes_at, media.charts)),
        ("_rels/.rels", parts::root_rels()),
        ("docProps/core.xml", parts::core(&deck.title)),
        ("docProps/app.xml", parts::app(n)),
        ("ppt/presentation.xml", parts::presentation(n)),
        ("ppt/_rels/presentation.xml.rels", parts::presentation_rels(n)),
        ("ppt/presProps.xml", parts::pres_props()),
        ("ppt/viewProps.xml", parts::view_props()),
        ("ppt/tableStyles.xml", parts::table_styles()),
        ("ppt/theme/theme1.xml", parts::theme("Folio")),
        ("ppt/theme/theme2.xml", parts::theme("Folio Notes")),
        ("ppt/slideMasters/slideMaster1.xml", parts::master(deck.footer.as_deref())),
        ("ppt/slideMasters/_rels/slideMaster1.xml.rels", parts::master_rels()),
        ("ppt/slideLayouts/slideLayout1.xml", parts::layout()),
        ("ppt/slideLayouts/_rels/slideLayout1.xml.rels", parts::layout_rels()),
        ("ppt/notesMasters/notesMaster1.xml", parts::notes_master()),
        ("ppt/notesMasters/_rels/notesMaster1.xml.rels", parts::notes_master_rels()),
    ];
    package.extend(fixed.into_iter().map(|(n, x)| (n.to_string(), x.into_bytes())));
    package.extend(slide_parts);
    package.extend(media.parts);
    let bytes = write_package(&package)?;
    Ok(Created { bytes, slides: n, charts: media.charts, warnings })
}
