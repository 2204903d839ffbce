//! A PDF writer for the desktop's tests: many pages, exact offsets.

/// A PDF of `n` letter-size pages, each a coloured square, with exact xref offsets (the idea of
/// folio-render's test writer, cut down to what this test needs).
pub fn many_pages(n: usize) -> Vec<u8> {
    let mut objects: Vec<String> = vec![String::new(), String::new()];
    let mut kids = Vec::new();
    for i in 0..n {
        let page = objects.len() + 1;
        kids.push(format!("{page} 0 R"));
        let content = format!("0 0.4 1 rg {} 100 300 300 re f", 20 + (i % 200));
        objects.push(format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {} 0 R >>", page + 1));
        objects.push(format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()));
    }
    objects[0] = "<< /Type /Catalog /Pages 2 0 R >>".to_owned();
    objects[1] = format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" "));
    let mut out = b"%PDF-1.7\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}
