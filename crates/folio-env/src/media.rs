//! Media types for delivered files (`present`) and sniffed content (`describe`, `view_image`),
//! read from the workspace's one file-kind table (`folio_kinds`): by extension when the file has
//! one, by its leading bytes only when it has none.

use folio_kinds::FileKind;

/// The media type of a file named with `extension` (any case); unknown extensions are
/// `application/octet-stream`. Without an extension, the bytes decide.
pub fn media_type(extension: Option<&str>, bytes: &[u8]) -> String {
    let kind = match extension {
        Some(ext) => FileKind::from_extension(ext),
        None => FileKind::from_magic(bytes),
    };
    kind.map_or("application/octet-stream", FileKind::media_type).to_owned()
}

/// The media type the leading bytes identify by themselves, if any.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    FileKind::from_magic(bytes).map(FileKind::media_type)
}
