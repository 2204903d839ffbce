//! Which archive format a file is: by its bytes first (a zip named `.tar` is read as zip), then
//! by its name; and which format an output name asks for.

/// An archive format env:archives reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PKZIP (`PK\3\4`, or `PK\5\6` for an empty archive).
    Zip,
    /// A POSIX/GNU tar stream (`ustar` at offset 257).
    Tar,
    /// A gzip-compressed tar stream (`1F 8B`).
    TarGz,
}

impl Format {
    /// Its name in replies (`zip`, `tar`, `tar.gz`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Zip => "zip",
            Format::Tar => "tar",
            Format::TarGz => "tar.gz",
        }
    }

    /// The format of `bytes` (named `name`): magic first, then the extension.
    pub fn detect(name: &str, bytes: &[u8]) -> Option<Format> {
        if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            return Some(Format::Zip);
        }
        if bytes.starts_with(&[0x1f, 0x8b]) {
            return Some(Format::TarGz);
        }
        if bytes.get(257..262) == Some(b"ustar") {
            return Some(Format::Tar);
        }
        Format::from_name(name)
    }

    /// The format an archive name asks for: `.zip`, `.tar`, `.tar.gz`/`.tgz`/`.gz`.
    pub fn from_name(name: &str) -> Option<Format> {
        let lower = name.to_lowercase();
        if lower.ends_with(".zip") {
            Some(Format::Zip)
        } else if lower.ends_with(".tar") {
            Some(Format::Tar)
        } else if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") || lower.ends_with(".gz") {
            Some(Format::TarGz)
        } else {
            None
        }
    }

    /// The format a `format` option names (`zip`, `tar`, `tgz`, `tar.gz`).
    pub fn from_option(option: &str) -> Option<Format> {
        match option.to_lowercase().trim_start_matches('.') {
            "zip" => Some(Format::Zip),
            "tar" => Some(Format::Tar),
            "tgz" | "tar.gz" | "gz" | "gzip" => Some(Format::TarGz),
            _ => None,
        }
    }
}

/// The extensions env:archives claims (with the dot).
pub const EXTENSIONS: &[&str] = &[".zip", ".tar", ".tgz", ".gz"];
