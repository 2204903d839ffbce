//! The deck as a zip: opened with refusals before anything inflates (not a zip, a legacy
//! `.ppt`, a Keynote file, an encrypted entry, declared sizes over the cap) and read entry by
//! entry with the inflation capped again while reading (a lying size header cannot get past it);
//! written with deflate, untouched entries raw-copied (still compressed) by `replaceText`.

use std::io::{Cursor, Read, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use crate::error::{Result, SlidesError};

/// The most a deck may inflate to, in all (the environment's `maxVfsBytes`).
pub const MAX_INFLATED: u64 = 128 * 1024 * 1024;
/// The most one XML part may inflate to.
pub const MAX_PART: u64 = 64 * 1024 * 1024;

/// An opened deck.
pub struct Package<'a> {
    /// The file, as the caller named it.
    pub path: String,
    zip: ZipArchive<Cursor<&'a [u8]>>,
    read_so_far: u64,
}

impl<'a> Package<'a> {
    /// Opens `bytes` (named `path` in messages) as a PPTX package.
    pub fn open(path: &str, bytes: &'a [u8]) -> Result<Package<'a>> {
        let not =
            |why: &str, fix: &'static str| SlidesError::NotPptx { path: path.to_string(), why: why.to_string(), fix };
        if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
            return Err(not(
                "it is a legacy PowerPoint 97–2003 .ppt or another OLE2 file",
                "convert it first: soffice --headless --convert-to pptx file.ppt",
            ));
        }
        if !bytes.starts_with(b"PK") {
            return Err(not(
                "it is not a zip package",
                "check that the file was written completely and is really a .pptx",
            ));
        }
        let zip = ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| not(&format!("the zip cannot be read: {e}"), "check that the file was written completely"))?;
        let mut declared = 0u64;
        let mut keynote = false;
        for i in 0..zip.len() {
            let entry = zip.by_index_data(i).map_err(|e| not(&format!("entry {i}: {e}"), "re-save the deck"))?;
            let name = entry.name().map(|n| n.into_owned()).unwrap_or_default();
            if entry.encrypted() {
                return Err(SlidesError::Refused {
                    path: path.to_string(),
                    why: format!("the entry {name} is encrypted"),
                    fix: "ask for an unprotected copy (File › Protect in PowerPoint) and try again".into(),
                });
            }
            keynote |= name.starts_with("Index/") && name.ends_with(".iwa");
            declared = declared.saturating_add(entry.size());
        }
        if declared > MAX_INFLATED {
            return Err(SlidesError::Refused {
                path: path.to_string(),
                why: format!("it would inflate to {declared} bytes, over the {MAX_INFLATED}-byte limit"),
                fix: "split the deck, or remove large media from it".into(),
            });
        }
        let pkg = Package { path: path.to_string(), zip, read_so_far: 0 };
        if pkg.zip.index_for_name("ppt/presentation.xml").is_none() {
            return Err(if keynote {
                not("it is an Apple Keynote file", "export it from Keynote as PowerPoint (.pptx)")
            } else if pkg.zip.index_for_name("word/document.xml").is_some()
                || pkg.zip.index_for_name("xl/workbook.xml").is_some()
            {
                not("it is a Word or Excel package", "open it with env:documents or env:spreadsheets")
            } else {
                not("it has no ppt/presentation.xml", "check that it is a PowerPoint deck")
            });
        }
        Ok(pkg)
    }

    /// The entry names, in zip order.
    pub fn names(&self) -> Vec<String> {
        (0..self.zip.len())
            .filter_map(|i| self.zip.by_index_data(i).ok().and_then(|e| e.name().ok().map(|n| n.into_owned())))
            .collect()
    }

    /// Whether the package has `name`.
    pub fn has(&self, name: &str) -> bool {
        self.zip.index_for_name(name).is_some()
    }

    /// The inflated bytes of `name`, `None` when absent.
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>> {
        let Some(i) = self.zip.index_for_name(name) else { return Ok(None) };
        let path = self.path.clone();
        let damaged = |detail: String| SlidesError::Damaged { path: path.clone(), part: name.to_string(), detail };
        let mut file = self.zip.by_index(i).map_err(|e| damaged(e.to_string()))?;
        let cap = MAX_PART.min(MAX_INFLATED.saturating_sub(self.read_so_far));
        let mut out = Vec::with_capacity(file.size().min(cap) as usize);
        (&mut file).take(cap + 1).read_to_end(&mut out).map_err(|e| damaged(e.to_string()))?;
        if out.len() as u64 > cap {
            return Err(SlidesError::Refused {
                path: self.path.clone(),
                why: format!("the part {name} inflates past {cap} bytes"),
                fix: "this looks like a zip bomb; ask for the original file".into(),
            });
        }
        self.read_so_far += out.len() as u64;
        Ok(Some(out))
    }

    /// The part `name` as text (XML), `None` when absent.
    pub fn text(&mut self, name: &str) -> Result<Option<String>> {
        Ok(self.read(name)?.map(|b| String::from_utf8_lossy(&b).into_owned()))
    }

    /// Writes a copy of the package where `replaced` parts get new bytes and every other entry
    /// is copied as it is stored (compressed, untouched).
    pub fn rewrite(&mut self, replaced: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
        let mut w = ZipWriter::new(Cursor::new(Vec::new()));
        let err = |e: zip::result::ZipError| SlidesError::Write(e.to_string());
        for i in 0..self.zip.len() {
            let name = self.zip.by_index_data(i).map_err(err)?.name().map_err(err)?.into_owned();
            if let Some((_, bytes)) = replaced.iter().find(|(n, _)| *n == name) {
                w.start_file(name, options()).map_err(err)?;
                w.write_all(bytes).map_err(|e| SlidesError::Write(e.to_string()))?;
            } else {
                let f = self.zip.by_index_raw(i).map_err(err)?;
                w.raw_copy_file(f).map_err(err)?;
            }
        }
        Ok(w.finish().map_err(err)?.into_inner())
    }
}

fn options() -> SimpleFileOptions {
    SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default())
}

/// A new package from `(name, bytes)` parts, in order, deflated (media stored).
pub fn write_package(parts: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in parts {
        let opts = if name.starts_with("ppt/media/") {
            options().compression_method(CompressionMethod::Stored)
        } else {
            options()
        };
        w.start_file(name.as_str(), opts).map_err(|e| SlidesError::Write(e.to_string()))?;
        w.write_all(bytes).map_err(|e| SlidesError::Write(e.to_string()))?;
    }
    Ok(w.finish().map_err(|e| SlidesError::Write(e.to_string()))?.into_inner())
}
