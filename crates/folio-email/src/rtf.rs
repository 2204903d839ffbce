//! Compressed RTF (MS-OXRTFCP), the form Outlook stores a message's RTF body in
//! (`PR_RTF_COMPRESSED`). A 16-byte header (compressed size, raw size, `LZFu` or `MELA`, CRC)
//! precedes the data; `MELA` data is stored as is, `LZFu` data is an LZ77 stream over a 4 KiB
//! ring whose first 207 bytes are a fixed RTF preamble. Each control byte says, bit by bit from
//! the lowest, whether the next token is a literal byte (0) or a two-byte big-endian reference
//! (1): 12 bits of ring offset, 4 bits of length minus two. A reference to the current write
//! position ends the stream.
//!
//! The output is capped at the header's raw size (and at `max` bytes), so a hostile header cannot
//! make it grow without bound.

use crate::error::EmailError;

/// The ring's preamble (MS-OXRTFCP 2.1.2.1).
const PREBUF: &[u8] = b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx";

const RING: usize = 4096;
const COMPRESSED: u32 = 0x7546_5A4C; // "LZFu"
const UNCOMPRESSED: u32 = 0x414C_454D; // "MELA"

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).and_then(|s| s.try_into().ok()).map(u32::from_le_bytes)
}

/// Decodes one `PR_RTF_COMPRESSED` value into RTF bytes, at most `max` of them.
pub fn decompress(data: &[u8], max: usize) -> Result<Vec<u8>, EmailError> {
    let bad = |why: &str| EmailError::Rtf(why.to_string());
    let (Some(_comp_size), Some(raw_size), Some(kind)) = (u32_at(data, 0), u32_at(data, 4), u32_at(data, 8)) else {
        return Err(bad("shorter than its 16-byte header"));
    };
    let raw_size = usize::try_from(raw_size).map_err(|_| bad("raw size does not fit"))?;
    if raw_size > max {
        return Err(bad(&format!("declares {raw_size} bytes of RTF, over the cap of {max}")));
    }
    let body = data.get(16..).unwrap_or_default();
    match kind {
        UNCOMPRESSED => Ok(body[..body.len().min(raw_size)].to_vec()),
        COMPRESSED => Ok(lzfu(body, raw_size)),
        other => Err(bad(&format!("unknown compression type {other:#010x}"))),
    }
}

fn lzfu(body: &[u8], raw_size: usize) -> Vec<u8> {
    let mut ring = [0u8; RING];
    ring[..PREBUF.len()].copy_from_slice(PREBUF);
    let mut write = PREBUF.len();
    let mut out = Vec::with_capacity(raw_size);
    let mut i = 0;
    'outer: while i < body.len() && out.len() < raw_size {
        let control = body[i];
        i += 1;
        for bit in 0..8 {
            if out.len() >= raw_size {
                break 'outer;
            }
            if control & (1 << bit) == 0 {
                let Some(&b) = body.get(i) else { break 'outer };
                i += 1;
                ring[write] = b;
                write = (write + 1) % RING;
                out.push(b);
            } else {
                let (Some(&hi), Some(&lo)) = (body.get(i), body.get(i + 1)) else { break 'outer };
                i += 2;
                let word = (usize::from(hi) << 8) | usize::from(lo);
                let offset = word >> 4;
                let len = (word & 0xF) + 2;
                if offset == write {
                    break 'outer;
                }
                for k in 0..len {
                    let b = ring[(offset + k) % RING];
                    ring[write] = b;
                    write = (write + 1) % RING;
                    out.push(b);
                }
            }
        }
    }
    out.truncate(raw_size);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preamble_is_the_specified_207_bytes() {
        assert_eq!(PREBUF.len(), 207);
    }

    #[test]
    fn a_reference_into_the_preamble_and_the_end_marker_decode() {
        // Literal "{\rtf1" is at ring offset 0: one reference of length 6 (0x0004 << 4 | 4),
        // then literals "X}", then the end marker (a reference to the write position 207+8).
        let end = ((207 + 8) << 4) as u16;
        let mut body = vec![0b0000_1001u8, 0x00, 0x04, b'X', b'}'];
        body.extend_from_slice(&end.to_be_bytes());
        let mut data = Vec::new();
        data.extend_from_slice(&(body.len() as u32 + 12).to_le_bytes());
        data.extend_from_slice(&100u32.to_le_bytes());
        data.extend_from_slice(&COMPRESSED.to_le_bytes());
        data.extend_from_slice(&0u32.to_le_bytes());
        data.extend_from_slice(&body);
        assert_eq!(decompress(&data, 1 << 20).unwrap(), b"{\\rtf1X}");
    }

    #[test]
    fn a_raw_size_over_the_cap_is_refused_by_name() {
        let mut data = vec![0u8; 16];
        data[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        data[8..12].copy_from_slice(&COMPRESSED.to_le_bytes());
        let err = decompress(&data, 1000).unwrap_err().to_string();
        assert!(err.contains("over the cap of 1000"), "{err}");
    }
}
