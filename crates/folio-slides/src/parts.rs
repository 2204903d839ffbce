//! The fixed parts of every deck this crate writes: content types, package and presentation
//! relationships, the theme (palette and DejaVu fonts), one slide master (which carries the
//! footer and its rule, so no slide repeats it), one blank layout, and the notes master.

/// PresentationML's namespaces, as attributes.
pub const NS: &str = r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main""#;
/// The relationship type URIs' common prefix.
pub const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
/// The XML declaration.
pub const DECL: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";

/// Slide width, EMU (13.333 in: 16:9).
pub const SLIDE_W: i64 = 12_192_000;
/// Slide height, EMU (7.5 in).
pub const SLIDE_H: i64 = 6_858_000;

/// The fixed palette (adapters-spec §7).
pub const INK: &str = "1A1A2E";
/// Secondary text.
pub const MUTED: &str = "6B7280";
/// Headings' accent, table headers, metric values.
pub const ACCENT: &str = "2563EB";
/// Rules and table borders.
pub const RULE: &str = "E5E7EB";
/// The typeface every run names.
pub const FONT: &str = "DejaVu Sans";

/// Escapes text for XML content and attributes.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => {}
            c => o.push(c),
        }
    }
    o
}

/// One `Relationship` element.
pub fn rel(id: &str, kind: &str, target: &str) -> String {
    format!(r#"<Relationship Id="{id}" Type="{REL}/{kind}" Target="{target}"/>"#)
}

/// A relationships part from its elements.
pub fn rels(items: &[String]) -> String {
    format!(
        "{DECL}<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">{}</Relationships>",
        items.concat()
    )
}

/// `[Content_Types].xml` for `slides` slides, the slides with notes, and `charts` charts.
pub fn content_types(slides: usize, notes: &[usize], charts: usize) -> String {
    let pml = "application/vnd.openxmlformats-officedocument.presentationml";
    let mut o = format!(
        r#"{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpeg" ContentType="image/jpeg"/><Default Extension="gif" ContentType="image/gif"/><Override PartName="/ppt/presentation.xml" ContentType="{pml}.presentation.main+xml"/><Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="{pml}.slideMaster+xml"/><Override PartName="/ppt/slideLayouts/slideLayout1.xml" ContentType="{pml}.slideLayout+xml"/><Override PartName="/ppt/notesMasters/notesMaster1.xml" ContentType="{pml}.notesMaster+xml"/><Override PartName="/ppt/theme/theme1.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/><Override PartName="/ppt/theme/theme2.xml" ContentType="application/vnd.openxmlformats-officedocument.theme+xml"/><Override PartName="/ppt/presProps.xml" ContentType="{pml}.presProps+xml"/><Override PartName="/ppt/viewProps.xml" ContentType="{pml}.viewProps+xml"/><Override PartName="/ppt/tableStyles.xml" ContentType="{pml}.tableStyles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>"#
    );
    for i in 1..=slides {
        o.push_str(&format!(r#"<Override PartName="/ppt/slides/slide{i}.xml" ContentType="{pml}.slide+xml"/>"#));
    }
    for i in notes {
        o.push_str(&format!(
            r#"<Override PartName="/ppt/notesSlides/notesSlide{i}.xml" ContentType="{pml}.notesSlide+xml"/>"#
        ));
    }
    for i in 1..=charts {
        o.push_str(&format!(
            r#"<Override PartName="/ppt/charts/chart{i}.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>"#
        ));
    }
    o.push_str("</Types>");
    o
}

/// `_rels/.rels`.
pub fn root_rels() -> String {
    rels(&[
        rel("rId1", "officeDocument", "ppt/presentation.xml"),
        r#"<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>"#.to_string(),
        rel("rId3", "extended-properties", "docProps/app.xml"),
    ])
}

/// `docProps/core.xml` (no dates: the same spec gives the same bytes).
pub fn core(title: &str) -> String {
    format!(
        r#"{DECL}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{}</dc:title><dc:creator>Folio</dc:creator></cp:coreProperties>"#,
        esc(title)
    )
}

/// `docProps/app.xml`.
pub fn app(slides: usize) -> String {
    format!(
        r#"{DECL}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Folio</Application><Slides>{slides}</Slides><PresentationFormat>Widescreen</PresentationFormat></Properties>"#
    )
}

/// `ppt/presentation.xml` listing `slides` slides (relationships rId10…).
pub fn presentation(slides: usize) -> String {
    let ids: String = (0..slides).map(|i| format!(r#"<p:sldId id="{}" r:id="rId{}"/>"#, 256 + i, 10 + i)).collect();
    format!(
        r#"{DECL}<p:presentation {NS} saveSubsetFonts="1"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:notesMasterIdLst><p:notesMasterId r:id="rId2"/></p:notesMasterIdLst><p:sldIdLst>{ids}</p:sldIdLst><p:sldSz cx="{SLIDE_W}" cy="{SLIDE_H}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>"#
    )
}

/// `ppt/_rels/presentation.xml.rels`.
pub fn presentation_rels(slides: usize) -> String {
    let mut items = vec![
        rel("rId1", "slideMaster", "slideMasters/slideMaster1.xml"),
        rel("rId2", "notesMaster", "notesMasters/notesMaster1.xml"),
        rel("rId3", "theme", "theme/theme1.xml"),
        rel("rId4", "presProps", "presProps.xml"),
        rel("rId5", "viewProps", "viewProps.xml"),
        rel("rId6", "tableStyles", "tableStyles.xml"),
    ];
    items.extend((0..slides).map(|i| rel(&format!("rId{}", 10 + i), "slide", &format!("slides/slide{}.xml", i + 1))));
    rels(&items)
}

/// `ppt/presProps.xml`.
pub fn pres_props() -> String {
    format!("{DECL}<p:presentationPr {NS}/>")
}

/// `ppt/viewProps.xml`.
pub fn view_props() -> String {
    format!(
        r#"{DECL}<p:viewPr {NS}><p:normalViewPr><p:restoredLeft sz="15620"/><p:restoredTop sz="94660"/></p:normalViewPr></p:viewPr>"#
    )
}

/// `ppt/tableStyles.xml`.
pub fn table_styles() -> String {
    format!(
        r#"{DECL}<a:tblStyleLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" def="{{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}}"/>"#
    )
}

/// A theme: the palette as its colour scheme, DejaVu Sans as both fonts.
pub fn theme(name: &str) -> String {
    let fill3 = r#"<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>"#.repeat(3);
    let ln3 = r#"<a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>"#.repeat(3);
    let eff3 = "<a:effectStyle><a:effectLst/></a:effectStyle>".repeat(3);
    format!(
        r#"{DECL}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="{name}"><a:themeElements><a:clrScheme name="Folio"><a:dk1><a:srgbClr val="{INK}"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="{MUTED}"/></a:dk2><a:lt2><a:srgbClr val="{RULE}"/></a:lt2><a:accent1><a:srgbClr val="{ACCENT}"/></a:accent1><a:accent2><a:srgbClr val="E69F00"/></a:accent2><a:accent3><a:srgbClr val="009E73"/></a:accent3><a:accent4><a:srgbClr val="D55E00"/></a:accent4><a:accent5><a:srgbClr val="CC79A7"/></a:accent5><a:accent6><a:srgbClr val="56B4E9"/></a:accent6><a:hlink><a:srgbClr val="{ACCENT}"/></a:hlink><a:folHlink><a:srgbClr val="{MUTED}"/></a:folHlink></a:clrScheme><a:fontScheme name="Folio"><a:majorFont><a:latin typeface="{FONT}"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont><a:minorFont><a:latin typeface="{FONT}"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme><a:fmtScheme name="Folio"><a:fillStyleLst>{fill3}</a:fillStyleLst><a:lnStyleLst>{ln3}</a:lnStyleLst><a:effectStyleLst>{eff3}</a:effectStyleLst><a:bgFillStyleLst>{fill3}</a:bgFillStyleLst></a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>"#
    )
}

const CLR_MAP: &str = r#"<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>"#;
const GROUP: &str = r#"<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>"#;

/// The start of a shape tree (`p:spTree` with its group properties).
pub fn tree_start() -> String {
    format!("<p:spTree>{GROUP}")
}

/// The slide master: white background, and the footer (a rule and a muted line of text) when
/// the deck has one — drawn under every slide.
pub fn master(footer: Option<&str>) -> String {
    let mut tree = tree_start();
    if let Some(text) = footer {
        let y = SLIDE_H - 502_920;
        tree.push_str(&format!(
            r#"<p:cxnSp><p:nvCxnSpPr><p:cNvPr id="2" name="Footer rule"/><p:cNvCxnSpPr/><p:nvPr userDrawn="1"/></p:nvCxnSpPr><p:spPr><a:xfrm><a:off x="457200" y="{y}"/><a:ext cx="{}" cy="0"/></a:xfrm><a:prstGeom prst="line"><a:avLst/></a:prstGeom><a:ln w="9525"><a:solidFill><a:srgbClr val="{RULE}"/></a:solidFill></a:ln></p:spPr></p:cxnSp>"#,
            SLIDE_W - 914_400
        ));
        tree.push_str(&format!(
            r#"<p:sp><p:nvSpPr><p:cNvPr id="3" name="Footer"/><p:cNvSpPr txBox="1"/><p:nvPr userDrawn="1"/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="{}"/><a:ext cx="{}" cy="320040"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr><p:txBody><a:bodyPr wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="ctr"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1000" dirty="0"><a:solidFill><a:srgbClr val="{MUTED}"/></a:solidFill><a:latin typeface="{FONT}"/></a:rPr><a:t>{}</a:t></a:r></a:p></p:txBody></p:sp>"#,
            y + 45_720,
            SLIDE_W - 914_400,
            esc(text)
        ));
    }
    tree.push_str("</p:spTree>");
    format!(
        r#"{DECL}<p:sldMaster {NS}><p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>{tree}</p:cSld>{CLR_MAP}<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>"#
    )
}

/// The master's relationships.
pub fn master_rels() -> String {
    rels(&[rel("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"), rel("rId2", "theme", "../theme/theme1.xml")])
}

/// The one layout (blank: every slide places its own shapes).
pub fn layout() -> String {
    format!(
        r#"{DECL}<p:sldLayout {NS} type="blank" preserve="1"><p:cSld name="Blank">{}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>"#,
        tree_start()
    )
}

/// The layout's relationships.
pub fn layout_rels() -> String {
    rels(&[rel("rId1", "slideMaster", "../slideMasters/slideMaster1.xml")])
}

/// The notes master.
pub fn notes_master() -> String {
    format!(r#"{DECL}<p:notesMaster {NS}><p:cSld>{}</p:spTree></p:cSld>{CLR_MAP}</p:notesMaster>"#, tree_start())
}

/// The notes master's relationships.
pub fn notes_master_rels() -> String {
    rels(&[rel("rId1", "theme", "../theme/theme2.xml")])
}

/// A notes slide holding `text` (one paragraph per line) for slide `slide`.
pub fn notes(text: &str) -> String {
    let paras: String = text
        .lines()
        .map(|l| format!(r#"<a:p><a:r><a:rPr lang="en-US" dirty="0"><a:latin typeface="{FONT}"/></a:rPr><a:t>{}</a:t></a:r></a:p>"#, esc(l)))
        .collect();
    format!(
        r#"{DECL}<p:notes {NS}><p:cSld>{}<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp><p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>{paras}</p:txBody></p:sp></p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>"#,
        tree_start()
    )
}

/// A notes slide's relationships.
pub fn notes_rels(slide: usize) -> String {
    rels(&[
        rel("rId1", "notesMaster", "../notesMasters/notesMaster1.xml"),
        rel("rId2", "slide", &format!("../slides/slide{slide}.xml")),
    ])
}
