//! A tiny PDF writer for tests: pages with drawing operators, an optional RGB image, text in a
//! standard font, and an Info dictionary. Offsets in the xref table are exact, so PDFium opens
//! the files without repairing them.

/// One page: its size in points and its content stream.
pub struct Page {
    pub width: f32,
    pub height: f32,
    pub content: String,
    /// A raw RGB image (width, height, pixels) made available as /Im0.
    pub image: Option<(u32, u32, Vec<u8>)>,
}

impl Page {
    pub fn new(width: f32, height: f32, content: &str) -> Page {
        Page { width, height, content: content.to_string(), image: None }
    }
}

/// Builds the PDF bytes.
pub fn pdf(pages: &[Page], title: &str) -> Vec<u8> {
    // Object numbers: 1 catalog, 2 pages, 3 font, 4 info, then per page: page, content, [image].
    let mut objects: Vec<Vec<u8>> = vec![Vec::new(); 4];
    let mut kids = Vec::new();
    for p in pages {
        let page_no = objects.len() + 1;
        let content_no = page_no + 1;
        let image_no = content_no + 1;
        kids.push(format!("{page_no} 0 R"));
        let xobject = if p.image.is_some() { format!("/XObject << /Im0 {image_no} 0 R >>") } else { String::new() };
        objects.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] /Resources << /Font << /F1 3 0 R >> {xobject} >> /Contents {content_no} 0 R >>",
                p.width, p.height
            )
            .into_bytes(),
        );
        let mut c = format!("<< /Length {} >>\nstream\n", p.content.len()).into_bytes();
        c.extend_from_slice(p.content.as_bytes());
        c.extend_from_slice(b"\nendstream");
        objects.push(c);
        if let Some((w, h, px)) = &p.image {
            let mut i = format!(
                "<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length {} >>\nstream\n",
                px.len()
            )
            .into_bytes();
            i.extend_from_slice(px);
            i.extend_from_slice(b"\nendstream");
            objects.push(i);
        }
    }
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>".to_vec();
    objects[1] = format!("<< /Type /Pages /Kids [{}] /Count {} >>", kids.join(" "), pages.len()).into_bytes();
    objects[2] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec();
    objects[3] = format!("<< /Title ({title}) /Author (Folio tests) >>").into_bytes();
    let mut out = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R /Info 4 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1)
            .as_bytes(),
    );
    out
}

/// A filled rectangle in DeviceRGB, in PDF coordinates (origin bottom-left).
pub fn rect(r: f32, g: f32, b: f32, x: f32, y: f32, w: f32, h: f32) -> String {
    format!("{r} {g} {b} rg {x} {y} {w} {h} re f\n")
}

/// A line of Helvetica text.
pub fn text(x: f32, y: f32, size: f32, s: &str) -> String {
    format!("BT /F1 {size} Tf {x} {y} Td ({s}) Tj ET\n")
}

/// The three-page test document: Letter with a black square and text, landscape A4 with a red
/// band, and a 300-pt square with a 2×2 image (red, green / blue, white) filling it.
pub fn sample() -> Vec<u8> {
    let mut image = Page::new(300.0, 300.0, "q 300 0 0 300 0 0 cm /Im0 Do Q\n");
    image.image = Some((2, 2, vec![255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]));
    pdf(
        &[
            Page::new(
                612.0,
                792.0,
                &(rect(0.0, 0.0, 0.0, 100.0, 100.0, 200.0, 200.0) + &text(72.0, 720.0, 24.0, "Hello Folio page one")),
            ),
            Page::new(842.0, 595.0, &rect(1.0, 0.0, 0.0, 0.0, 0.0, 842.0, 100.0)),
            image,
        ],
        "Folio sample",
    )
}

/// `n` Letter pages, each with a grey square and a line of text.
pub fn many(n: usize) -> Vec<u8> {
    let pages: Vec<Page> = (0..n)
        .map(|i| {
            Page::new(
                612.0,
                792.0,
                &(rect(0.3, 0.3, 0.3, 72.0, 72.0, 300.0, 300.0) + &text(72.0, 700.0, 18.0, &format!("Page {}", i + 1))),
            )
        })
        .collect();
    pdf(&pages, "Many pages")
}
