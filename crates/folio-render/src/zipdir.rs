//! A minimal ZIP reader for describing Office files: the central directory, and small parts
//! inflated with a hard output cap (the cap is enforced on the inflated bytes, never trusted
//! from the declared size). ZIP64 and encrypted entries are reported, not read.

/// One entry of the central directory.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub name: String,
    method: u16,
    encrypted: bool,
    compressed: u64,
    offset: u64,
}

fn u16le(b: &[u8], i: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*b.get(i)?, *b.get(i + 1)?]))
}

fn u32le(b: &[u8], i: usize) -> Option<u32> {
    Some(u32::from_le_bytes([*b.get(i)?, *b.get(i + 1)?, *b.get(i + 2)?, *b.get(i + 3)?]))
}

/// The entries, or why the archive cannot be read.
pub(crate) fn entries(b: &[u8]) -> Result<Vec<Entry>, String> {
    let search_from = b.len().saturating_sub(66_000);
    let eocd = (search_from..b.len().saturating_sub(21))
        .rev()
        .find(|&i| b[i..].starts_with(b"PK\x05\x06"))
        .ok_or("no ZIP end-of-directory record (truncated or not a ZIP)")?;
    let count = u16le(b, eocd + 10).ok_or("short end record")? as usize;
    let cd = u32le(b, eocd + 16).ok_or("short end record")? as usize;
    if cd == 0xFFFF_FFFF || count == 0xFFFF {
        return Err("ZIP64 archives are not read here".into());
    }
    let mut out = Vec::with_capacity(count.min(10_000));
    let mut i = cd;
    for _ in 0..count {
        if u32le(b, i) != Some(0x0201_4b50) {
            return Err("the central directory is damaged".into());
        }
        let flags = u16le(b, i + 8).ok_or("short entry")?;
        let method = u16le(b, i + 10).ok_or("short entry")?;
        let compressed = u64::from(u32le(b, i + 20).ok_or("short entry")?);
        let name_len = u16le(b, i + 28).ok_or("short entry")? as usize;
        let extra = u16le(b, i + 30).ok_or("short entry")? as usize;
        let comment = u16le(b, i + 32).ok_or("short entry")? as usize;
        let offset = u64::from(u32le(b, i + 42).ok_or("short entry")?);
        let name = b.get(i + 46..i + 46 + name_len).ok_or("short entry name")?;
        out.push(Entry {
            name: String::from_utf8_lossy(name).into_owned(),
            method,
            encrypted: flags & 1 != 0,
            compressed,
            offset,
        });
        i += 46 + name_len + extra + comment;
    }
    Ok(out)
}

/// The content of `name`, inflated to at most `cap` bytes.
pub(crate) fn read(b: &[u8], entries: &[Entry], name: &str, cap: usize) -> Result<Vec<u8>, String> {
    let e = entries.iter().find(|e| e.name == name).ok_or_else(|| format!("{name} is not in the archive"))?;
    if e.encrypted {
        return Err(format!("{name} is encrypted"));
    }
    let at = e.offset as usize;
    if u32le(b, at) != Some(0x0403_4b50) {
        return Err(format!("{name}: the local header is damaged"));
    }
    let start = at + 30 + u16le(b, at + 26).unwrap_or(0) as usize + u16le(b, at + 28).unwrap_or(0) as usize;
    let data =
        b.get(start..start.saturating_add(e.compressed as usize)).ok_or_else(|| format!("{name} is truncated"))?;
    match e.method {
        0 if data.len() <= cap => Ok(data.to_vec()),
        0 => Err(format!("{name} is larger than {cap} bytes")),
        8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, cap)
            .map_err(|_| format!("{name} does not inflate within {cap} bytes (damaged, or a ZIP bomb)")),
        m => Err(format!("{name} uses compression method {m}, which is not read here")),
    }
}
