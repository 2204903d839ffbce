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
