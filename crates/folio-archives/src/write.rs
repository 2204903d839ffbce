//! Writing an archive from files already read out of the tree: zip (deflate), tar (ustar with
//! GNU long names past 100 bytes) or tar.gz. Entries are sorted by name and carry a fixed
//! timestamp and mode, so the same files make the same bytes.

use std::io::Write;

use crate::error::ArchiveError;
use crate::format::Format;

/// The bytes of an archive in `format` holding `files` (`(relative name, content)`).
pub fn build(format: Format, files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, ArchiveError> {
    let failed = |e: String| ArchiveError::Invalid(format!("writing the {} archive failed: {e}", format.name()));
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    match format {
        Format::Zip => {
            let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .large_file(false)
                .unix_permissions(0o644);
            for (name, data) in sorted {
                let options = if data.len() as u64 >= u64::from(u32::MAX) { options.large_file(true) } else { options };
                zip.start_file(name.as_str(), options).map_err(|e| failed(e.to_string()))?;
                zip.write_all(data).map_err(|e| failed(e.to_string()))?;
            }
            Ok(zip.finish().map_err(|e| failed(e.to_string()))?.into_inner())
        }
        Format::Tar => tar_bytes(&sorted).map_err(|e| failed(e.to_string())),
        Format::TarGz => {
            let tar = tar_bytes(&sorted).map_err(|e| failed(e.to_string()))?;
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(&tar).map_err(|e| failed(e.to_string()))?;
            gz.finish().map_err(|e| failed(e.to_string()))
        }
    }
}

fn tar_bytes(files: &[&(String, Vec<u8>)]) -> std::io::Result<Vec<u8>> {
    let mut builder = tar::Builder::new(Vec::new());
    builder.mode(tar::HeaderMode::Deterministic);
    for (name, data) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_entry_type(tar::EntryType::Regular);
        builder.append_data(&mut header, name, data.as_slice())?;
    }
    builder.into_inner()
}
