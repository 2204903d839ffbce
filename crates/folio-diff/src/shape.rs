//! Which comparison a file gets: read from folio-kinds' table (its `diff` column), so the
//! review panel, the preview and the renderers agree on what a file is.

pub use folio_kinds::DiffShape as Shape;
use folio_kinds::FileKind;

/// How two versions of `path` are compared, from its name and first bytes (`head`; 1 KiB is
/// plenty). The bytes decide first (a PDF named `.png` is compared as pages), then the name;
/// a file of no known kind is [`Shape::Text`] when its head decodes as text and
/// [`Shape::Binary`] otherwise. An empty file is text (an empty text file is the usual case).
pub fn shape_of(path: &str, head: &[u8]) -> Shape {
    // `.tar.gz` is a gzip by its last extension; both are archives.
    if let Some(kind) = FileKind::detect(path, head) {
        return kind.diff_shape();
    }
    if head.is_empty() || folio_kinds::text::decode(head).is_some() { Shape::Text } else { Shape::Binary }
}

#[cfg(test)]
mod tests {
    use super::{Shape, shape_of};

    #[test]
    fn shapes_come_from_the_bytes_then_the_name_then_a_text_sniff() {
        let cases: [(&str, &[u8], Shape); 9] = [
            ("/out/q.pdf", b"%PDF-1.7\n", Shape::Pages),
            ("/out/q.png", b"%PDF-1.7\n", Shape::Pages),
            ("/out/deck.pptx", b"PK\x03\x04", Shape::Pages),
            ("/out/book.xlsx", b"PK\x03\x04", Shape::Cells),
            ("/out/data.csv", b"a,b\n1,2\n", Shape::Cells),
            ("/out/clip.mp4", b"\0\0\0\x18ftypisom", Shape::Video),
            ("/out/bundle.zip", b"PK\x03\x04", Shape::Archive),
            ("/out/notes.unknownext", b"plain words\n", Shape::Text),
            ("/out/blob.unknownext", b"\0\x01\x02\x03binary", Shape::Binary),
        ];
        for (path, head, want) in cases {
            assert_eq!(shape_of(path, head), want, "{path}");
        }
    }
}
