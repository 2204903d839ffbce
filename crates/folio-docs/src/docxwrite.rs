//! `docx.create`: a [`Doc`] as Office Open XML, written as plain strings into a ZIP.
//!
//! The package holds what Word and LibreOffice need and nothing else: the document, styles
//! (`Heading1`–`Heading3`, `Title`, `ListBullet` through numbering, a table style), a bullet
//! numbering definition with nine levels, one header and one footer (the footer carries
//! `PAGE`/`NUMPAGES` fields for "Page N of M"), media for images, and core properties. Text is
//! set in DejaVu Sans (named, not embedded), so it reads the same where the PDF was made.

use std::io::{Cursor, Write};

use zip::CompressionMethod;
use zip::write::SimpleFileOptions;

use crate::error::{DocsError, Result, invalid};
use crate::image;
use crate::spec::{Align, Block, Doc, ImageSource, Run};

/// XML-escapes text for element content and attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

fn run_xml(run: &Run, out: &mut String) {
    for (i, line) in run.text.split('\n').enumerate() {
        out.push_str("<w:r>");
        if run.bold || run.italic {
            out.push_str("<w:rPr>");
            if run.bold {
                out.push_str("<w:b/>");
            }
            if run.italic {
                out.push_str("<w:i/>");
            }
            out.push_str("</w:rPr>");
        }
        if i > 0 {
            out.push_str("<w:br/>");
        }
        out.push_str(&format!("<w:t xml:space=\"preserve\">{}</w:t></w:r>", esc(line)));
    }
}

fn para(style: Option<&str>, runs: &[Run], extra_ppr: &str) -> String {
    let mut out = String::from("<w:p>");
    if style.is_some() || !extra_ppr.is_empty() {
        out.push_str("<w:pPr>");
        if let Some(s) = style {
            out.push_str(&format!("<w:pStyle w:val=\"{s}\"/>"));
        }
        out.push_str(extra_ppr);
        out.push_str("</w:pPr>");
    }
    for r in runs {
        run_xml(r, &mut out);
    }
    out.push_str("</w:p>");
    out
}

fn table_xml(headers: Option<&[String]>, rows: &[Vec<String>], align: &[Align], text_width: u32) -> String {
    let cols = align.len().max(1);
    let w = text_width / cols as u32;
    let mut out = String::from(
        "<w:tbl><w:tblPr><w:tblStyle w:val=\"FolioTable\"/><w:tblW w:w=\"5000\" w:type=\"pct\"/><w:tblLook w:val=\"04A0\" w:firstRow=\"1\"/></w:tblPr><w:tblGrid>",
    );
    for _ in 0..cols {
        out.push_str(&format!("<w:gridCol w:w=\"{w}\"/>"));
    }
    out.push_str("</w:tblGrid>");
    let mut row = |cells: &[String], header: bool| {
        out.push_str("<w:tr>");
        if header {
            out.push_str("<w:trPr><w:tblHeader/><w:cantSplit/></w:trPr>");
        } else {
            out.push_str("<w:trPr><w:cantSplit/></w:trPr>");
        }
        for c in 0..cols {
            let text = cells.get(c).cloned().unwrap_or_default();
            let jc = match align.get(c).copied().unwrap_or(Align::Left) {
                Align::Left => "left",
                Align::Center => "center",
                Align::Right => "right",
            };
            out.push_str(&format!("<w:tc><w:tcPr><w:tcW w:w=\"{w}\" w:type=\"dxa\"/>"));
            if header {
                out.push_str("<w:shd w:val=\"clear\" w:color=\"auto\" w:fill=\"E6E6E6\"/>");
            }
            out.push_str("</w:tcPr>");
            let run = Run { text, bold: header, italic: false };
            out.push_str(&para(
                None,
                &[run],
                &format!("<w:spacing w:before=\"40\" w:after=\"40\"/><w:jc w:val=\"{jc}\"/>"),
            ));
            out.push_str("</w:tc>");
        }
        out.push_str("</w:tr>");
    };
    if let Some(h) = headers {
        row(h, true);
    }
    for r in rows {
        row(r, false);
    }
    out.push_str("</w:tbl>");
    out.push_str("<w:p/>");
    out
}

fn image_xml(rid: &str, n: usize, cx: u64, cy: u64) -> String {
    format!(
        "<w:p><w:r><w:drawing><wp:inline distT=\"0\" distB=\"0\" distL=\"0\" distR=\"0\"><wp:extent cx=\"{cx}\" cy=\"{cy}\"/><wp:docPr id=\"{n}\" name=\"Picture {n}\"/><wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect=\"1\"/></wp:cNvGraphicFramePr><a:graphic><a:graphicData uri=\"http://schemas.openxmlformats.org/drawingml/2006/picture\"><pic:pic><pic:nvPicPr><pic:cNvPr id=\"{n}\" name=\"image{n}\"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed=\"{rid}\"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x=\"0\" y=\"0\"/><a:ext cx=\"{cx}\" cy=\"{cy}\"/></a:xfrm><a:prstGeom prst=\"rect\"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"
    )
}

const NS: &str = "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\" xmlns:wp=\"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing\" xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\" xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\"";

/// Writes `doc` as DOCX bytes. Image blocks must carry their bytes.
pub fn write_docx(doc: &Doc) -> Result<Vec<u8>> {
    doc.check_glyphs()?;
    let twip = |pt: f32| (pt * 20.0).round() as u32;
    let [pw, ph] = doc.page;
    let text_width = twip(pw - 2.0 * doc.margin);
    let mut body = String::new();
    let mut media: Vec<(String, Vec<u8>, &'static str)> = Vec::new();
    let mut rels = String::new();
    for (i, block) in doc.blocks.iter().enumerate() {
        match block {
            Block::Heading { text, level } => {
                body.push_str(&para(Some(&format!("Heading{level}")), &[Run::plain(text.clone())], ""));
            }
            Block::Paragraph(runs) => body.push_str(&para(None, runs, "")),
            Block::Bullets(items) => {
                for item in items {
                    let ppr =
                        format!("<w:numPr><w:ilvl w:val=\"{}\"/><w:numId w:val=\"1\"/></w:numPr>", item.indent.min(8));
                    body.push_str(&para(Some("ListBullet"), &item.runs, &ppr));
                }
            }
            Block::Table { headers, rows, align } => {
                body.push_str(&table_xml(headers.as_deref(), rows, align, text_width))
            }
            Block::Image { source, width, height } => {
                let place = format!("content[{i}]");
                let ImageSource::Bytes(bytes) = source else {
                    return Err(invalid!(
                        "{place}: the image was not read before writing — hint: report this as a bug"
                    ));
                };
                let pic = image::probe(&place, bytes)?;
                let aspect = pic.height as f32 / pic.width as f32;
                let (mut w, mut h) = match (width, height) {
                    (Some(w), Some(h)) => (*w, *h),
                    (Some(w), None) => (*w, w * aspect),
                    (None, Some(h)) => (h / aspect, *h),
                    (None, None) => (pic.width as f32 * 0.75, pic.height as f32 * 0.75),
                };
                let max_w = pw - 2.0 * doc.margin;
                if w > max_w {
                    h *= max_w / w;
                    w = max_w;
                }
                let n = media.len() + 1;
                let rid = format!("rIdImg{n}");
                let name = format!("image{n}.{}", pic.format.extension());
                rels.push_str(&format!(
                    "<Relationship Id=\"{rid}\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/image\" Target=\"media/{name}\"/>"
                ));
                body.push_str(&image_xml(&rid, n, (w * 12700.0) as u64, (h * 12700.0) as u64));
                media.push((name, bytes.clone(), pic.format.extension()));
            }
            Block::PageBreak => body.push_str("<w:p><w:r><w:br w:type=\"page\"/></w:r></w:p>"),
        }
    }
    let has_header = doc.header.is_some();
    let has_footer = doc.footer.is_some() || doc.page_numbers;
    let mut sect = String::from("<w:sectPr>");
    if has_header {
        sect.push_str("<w:headerReference w:type=\"default\" r:id=\"rIdHeader\"/>");
        rels.push_str("<Relationship Id=\"rIdHeader\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/header\" Target=\"header1.xml\"/>");
    }
    if has_footer {
        sect.push_str("<w:footerReference w:type=\"default\" r:id=\"rIdFooter\"/>");
        rels.push_str("<Relationship Id=\"rIdFooter\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer\" Target=\"footer1.xml\"/>");
    }
    let m = twip(doc.margin);
    sect.push_str(&format!(
        "<w:pgSz w:w=\"{}\" w:h=\"{}\"/><w:pgMar w:top=\"{m}\" w:right=\"{m}\" w:bottom=\"{m}\" w:left=\"{m}\" w:header=\"{}\" w:footer=\"{}\" w:gutter=\"0\"/></w:sectPr>",
        twip(pw),
        twip(ph),
        m / 2,
        m / 2
    ));
    let document = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:document {NS}><w:body>{body}{sect}</w:body></w:document>"
    );
    let mut parts: Vec<(String, Vec<u8>)> = Vec::new();
    let mut types = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application/xml\"/><Default Extension=\"png\" ContentType=\"image/png\"/><Default Extension=\"jpeg\" ContentType=\"image/jpeg\"/><Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/><Override PartName=\"/word/styles.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml\"/><Override PartName=\"/word/numbering.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml\"/><Override PartName=\"/docProps/core.xml\" ContentType=\"application/vnd.openxmlformats-package.core-properties+xml\"/>",
    );
    if has_header {
        types.push_str("<Override PartName=\"/word/header1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml\"/>");
    }
    if has_footer {
        types.push_str("<Override PartName=\"/word/footer1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml\"/>");
    }
    types.push_str("</Types>");
    parts.push(("[Content_Types].xml".into(), types.into_bytes()));
    parts.push(("_rels/.rels".into(), ROOT_RELS.as_bytes().to_vec()));
    parts.push(("docProps/core.xml".into(), core_xml(doc).into_bytes()));
    parts.push(("word/document.xml".into(), document.into_bytes()));
    parts.push(("word/styles.xml".into(), STYLES.as_bytes().to_vec()));
    parts.push(("word/numbering.xml".into(), numbering_xml().into_bytes()));
    let doc_rels = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rIdStyles\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" Target=\"styles.xml\"/><Relationship Id=\"rIdNumbering\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering\" Target=\"numbering.xml\"/>{rels}</Relationships>"
    );
    parts.push(("word/_rels/document.xml.rels".into(), doc_rels.into_bytes()));
    if let Some(h) = &doc.header {
        let x = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:hdr {NS}>{}</w:hdr>",
            para(Some("Header"), &[Run::plain(h.clone())], "")
        );
        parts.push(("word/header1.xml".into(), x.into_bytes()));
    }
    if has_footer {
        let mut p = String::from("<w:p><w:pPr><w:pStyle w:val=\"Footer\"/><w:tabs><w:tab w:val=\"right\" w:pos=\"");
        p.push_str(&format!("{text_width}\"/></w:tabs></w:pPr>"));
        if let Some(f) = &doc.footer {
            run_xml(&Run::plain(f.clone()), &mut p);
        }
        if doc.page_numbers {
            p.push_str("<w:r><w:tab/><w:t xml:space=\"preserve\">Page </w:t></w:r><w:fldSimple w:instr=\" PAGE \"><w:r><w:t>1</w:t></w:r></w:fldSimple><w:r><w:t xml:space=\"preserve\"> of </w:t></w:r><w:fldSimple w:instr=\" NUMPAGES \"><w:r><w:t>1</w:t></w:r></w:fldSimple>");
        }
        p.push_str("</w:p>");
        let x = format!("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:ftr {NS}>{p}</w:ftr>");
        parts.push(("word/footer1.xml".into(), x.into_bytes()));
    }
    for (name, bytes, _) in media {
        parts.push((format!("word/media/{name}"), bytes));
    }
    zip_parts(&parts)
}

/// Zips `parts` in order, deflated (media stored: they are compressed already).
pub fn zip_parts(parts: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let io = |e: std::io::Error| DocsError::Invalid(format!("writing the DOCX package failed: {e}"));
    for (name, bytes) in parts {
        let method =
            if name.starts_with("word/media/") { CompressionMethod::Stored } else { CompressionMethod::Deflated };
        let opts = SimpleFileOptions::default().compression_method(method);
        zip.start_file(name.as_str(), opts)
            .map_err(|e| DocsError::Invalid(format!("writing the DOCX package failed: {e}")))?;
        zip.write_all(bytes).map_err(io)?;
    }
    let cursor = zip.finish().map_err(|e| DocsError::Invalid(format!("writing the DOCX package failed: {e}")))?;
    Ok(cursor.into_inner())
}

fn core_xml(doc: &Doc) -> String {
    let field =
        |tag: &str, v: &Option<String>| v.as_ref().map(|s| format!("<{tag}>{}</{tag}>", esc(s))).unwrap_or_default();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns:dcterms=\"http://purl.org/dc/terms/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">{}{}{}</cp:coreProperties>",
        field("dc:title", &doc.title),
        field("dc:creator", &doc.author),
        field("dc:subject", &doc.subject)
    )
}

fn numbering_xml() -> String {
    let mut levels = String::new();
    for l in 0..9u32 {
        let mark = if l.is_multiple_of(2) { "•" } else { "–" };
        levels.push_str(&format!(
            "<w:lvl w:ilvl=\"{l}\"><w:start w:val=\"1\"/><w:numFmt w:val=\"bullet\"/><w:lvlText w:val=\"{mark}\"/><w:lvlJc w:val=\"left\"/><w:pPr><w:ind w:left=\"{}\" w:hanging=\"280\"/></w:pPr></w:lvl>",
            360 + l * 320
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:numbering xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:abstractNum w:abstractNumId=\"0\"><w:multiLevelType w:val=\"hybridMultilevel\"/>{levels}</w:abstractNum><w:num w:numId=\"1\"><w:abstractNumId w:val=\"0\"/></w:num></w:numbering>"
    )
}

const ROOT_RELS: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/><Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties\" Target=\"docProps/core.xml\"/></Relationships>";

const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="DejaVu Sans" w:hAnsi="DejaVu Sans" w:eastAsia="DejaVu Sans" w:cs="DejaVu Sans"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="324" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="40"/><w:szCs w:val="40"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="200" w:after="100"/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="30"/><w:szCs w:val="30"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="160" w:after="80"/><w:outlineLvl w:val="2"/></w:pPr><w:rPr><w:b/><w:sz w:val="25"/><w:szCs w:val="25"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="ListBullet"><w:name w:val="List Bullet"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:after="40"/><w:contextualSpacing/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Header"><w:name w:val="header"/><w:basedOn w:val="Normal"/><w:rPr><w:color w:val="595959"/><w:sz w:val="18"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Footer"><w:name w:val="footer"/><w:basedOn w:val="Normal"/><w:rPr><w:color w:val="595959"/><w:sz w:val="18"/></w:rPr></w:style><w:style w:type="table" w:styleId="FolioTable"><w:name w:val="Folio Table"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="999999"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="999999"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="BFBFBF"/></w:tblBorders><w:tblCellMar><w:left w:w="80" w:type="dxa"/><w:right w:w="80" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style></w:styles>"#;
