//! Reading part of a file: the one rule for where a range ends ([`clamp`]) and the one way a host
//! file is read in part ([`read_file_range`]: open, seek, read exactly the bytes asked for), shared
//! by every backend that keeps files on disk (the overlay's folder and blobs, the environment's
//! zone directories).

use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// The `(start, count)` that `len` bytes from `offset` cover in a file of `size` bytes: clamped
/// to the file's end, so a range past the end covers nothing.
pub fn clamp(size: u64, offset: u64, len: u64) -> (u64, u64) {
    let start = offset.min(size);
    (start, len.min(size - start))
}

/// Reads `len` bytes of the host file `path` from `offset` (fewer when the file ends first),
/// without reading the rest. A directory fails with [`io::ErrorKind::IsADirectory`]; a file that
/// shrank between the size check and the read fails with [`io::ErrorKind::UnexpectedEof`].
pub fn read_file_range(path: &Path, offset: u64, len: u64) -> io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::from(io::ErrorKind::IsADirectory));
    }
    let (start, count) = clamp(meta.len(), offset, len);
    let mut buf = vec![0; usize::try_from(count).map_err(io::Error::other)?];
    file.seek(SeekFrom::Start(start))?;
    file.read_exact(&mut buf)?;
    Ok(buf)
}
