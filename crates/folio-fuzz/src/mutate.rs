//! Byte-level mutators. Each takes an input from the corpus and changes it a little; the
//! engine stacks a few per new input ("havoc"), so one exec can flip a bit, splice in half of
//! another seed and drop a dictionary token at once.
//!
//! The set is the classic one (AFL's and libFuzzer's): bit flips, random bytes, inserting,
//! deleting and duplicating ranges, splicing two corpus entries, "interesting" integers written
//! little- and big-endian (the boundaries where length fields and counters break), numbers
//! spelled in ASCII (JSON and XML carry their lengths as text), and the target's dictionary
//! tokens (verb names, JSON keys, ZIP signatures, JavaScript keywords) inserted or overwritten.

use crate::rng::Rng;

/// One way of changing an input. [`Mutator::ALL`] is the table the engine draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutator {
    /// Flip one bit.
    FlipBit,
    /// Replace one byte with a random one.
    SetByte,
    /// Insert 1–8 random bytes.
    InsertBytes,
    /// Delete a range.
    DeleteRange,
    /// Copy a range and insert the copy elsewhere (repetition breeds nesting and big counts).
    DuplicateRange,
    /// Take a prefix of this input and a suffix of another corpus entry.
    Splice,
    /// Insert a chunk of another corpus entry.
    CrossOver,
    /// Overwrite 1, 2 or 4 bytes with a boundary value (0, -1, 0x7f, 0x80, 0xffff, …).
    Interesting,
    /// Insert a boundary number written in ASCII (`-1`, `4294967296`, `1e309`, …).
    AsciiNumber,
    /// Insert a dictionary token.
    InsertToken,
    /// Overwrite bytes with a dictionary token.
    OverwriteToken,
}

impl Mutator {
    /// Every mutator, in the order they are drawn.
    pub const ALL: [Mutator; 11] = [
        Mutator::FlipBit,
        Mutator::SetByte,
        Mutator::InsertBytes,
        Mutator::DeleteRange,
        Mutator::DuplicateRange,
        Mutator::Splice,
        Mutator::CrossOver,
        Mutator::Interesting,
        Mutator::AsciiNumber,
        Mutator::InsertToken,
        Mutator::OverwriteToken,
    ];
}

const INTERESTING_8: [u8; 9] = [0, 1, 0x7f, 0x80, 0xff, 0x10, 0x20, b'/', b'.'];
const INTERESTING_16: [u16; 6] = [0, 0x7fff, 0x8000, 0xffff, 0x0100, 0x00ff];
const INTERESTING_32: [u32; 6] = [0, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x0001_0000, 0x0000_ffff];
const ASCII_NUMBERS: [&str; 12] = [
    "0",
    "-1",
    "1",
    "255",
    "65536",
    "2147483648",
    "4294967296",
    "9007199254740993",
    "18446744073709551616",
    "1e309",
    "-0",
    "0.000000000000000000001",
];

/// What a mutation may draw on besides the input itself.
pub struct Pool<'a> {
    /// The corpus (for splicing).
    pub corpus: &'a [Vec<u8>],
    /// The target's tokens.
    pub dictionary: &'a [Vec<u8>],
    /// Inputs never grow past this many bytes.
    pub max_len: usize,
}

/// Applies `m` to `input` in place.
pub fn apply(m: Mutator, input: &mut Vec<u8>, rng: &mut Rng, pool: &Pool<'_>) {
    let len = input.len();
    match m {
        Mutator::FlipBit if len > 0 => {
            let at = rng.below(len);
            input[at] ^= 1 << rng.below(8);
        }
        Mutator::SetByte if len > 0 => {
            let at = rng.below(len);
            input[at] = rng.byte();
        }
        Mutator::DeleteRange if len > 0 => {
            let at = rng.below(len);
            let span = if rng.one_in(4) { 256 } else { 8 };
            let n = 1 + rng.below((len - at).min(span));
            input.drain(at..at + n);
        }
        Mutator::DuplicateRange if len > 0 => {
            let at = rng.below(len);
            let n = 1 + rng.below((len - at).min(64));
            let chunk = input[at..at + n].to_vec();
            let times = if rng.one_in(8) { 1 + rng.below(64) } else { 1 };
            let to = rng.below(len + 1);
            let copies: Vec<u8> = chunk.iter().copied().cycle().take(chunk.len() * times).collect();
            input.splice(to..to, copies);
        }
        Mutator::Splice => {
            if let Some(other) = rng.pick(pool.corpus) {
                let keep = rng.below(len + 1);
                let from = rng.below(other.len() + 1);
                input.truncate(keep);
                input.extend_from_slice(&other[from..]);
            }
        }
        Mutator::CrossOver => {
            if let Some(other) = rng.pick(pool.corpus).filter(|o| !o.is_empty()) {
                let from = rng.below(other.len());
                let n = 1 + rng.below((other.len() - from).min(128));
                let to = rng.below(len + 1);
                input.splice(to..to, other[from..from + n].iter().copied());
            }
        }
        Mutator::Interesting if len > 0 => {
            let at = rng.below(len);
            let big_endian = rng.one_in(2);
            let bytes: Vec<u8> = match rng.below(3) {
                0 => vec![INTERESTING_8[rng.below(INTERESTING_8.len())]],
                1 => {
                    let v = INTERESTING_16[rng.below(INTERESTING_16.len())];
                    if big_endian { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() }
                }
                _ => {
                    let v = INTERESTING_32[rng.below(INTERESTING_32.len())];
                    if big_endian { v.to_be_bytes().to_vec() } else { v.to_le_bytes().to_vec() }
                }
            };
            let end = (at + bytes.len()).min(len);
            input.splice(at..end, bytes);
        }
        Mutator::AsciiNumber => {
            let number = ASCII_NUMBERS[rng.below(ASCII_NUMBERS.len())];
            let to = rng.below(len + 1);
            input.splice(to..to, number.bytes());
        }
        Mutator::InsertToken => {
            if let Some(token) = rng.pick(pool.dictionary) {
                let to = rng.below(len + 1);
                input.splice(to..to, token.iter().copied());
            }
        }
        Mutator::OverwriteToken => {
            if let Some(token) = rng.pick(pool.dictionary) {
                let at = rng.below(len + 1);
                let end = (at + token.len()).min(len);
                input.splice(at..end, token.iter().copied());
            }
        }
        // A mutator that needs bytes, on an empty input: give it some.
        _ => input.push(rng.byte()),
    }
    input.truncate(pool.max_len);
}

/// A new input from `base`: 1 to 8 stacked mutations.
pub fn havoc(base: &[u8], rng: &mut Rng, pool: &Pool<'_>) -> Vec<u8> {
    let mut input = base.to_vec();
    let rounds = 1 << rng.below(4);
    for _ in 0..rounds {
        let m = Mutator::ALL[rng.below(Mutator::ALL.len())];
        apply(m, &mut input, rng, pool);
    }
    input
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool<'a>(corpus: &'a [Vec<u8>], dictionary: &'a [Vec<u8>]) -> Pool<'a> {
        Pool { corpus, dictionary, max_len: 64 }
    }

    #[test]
    fn every_mutator_changes_an_input_and_respects_the_length_cap() {
        let corpus = vec![b"other corpus entry".to_vec()];
        let dictionary = vec![b"TOKEN".to_vec()];
        let p = pool(&corpus, &dictionary);
        for m in Mutator::ALL {
            let mut changed = false;
            for seed in 0..50 {
                let mut rng = Rng::new(seed);
                let mut input = b"the quick brown fox jumps".to_vec();
                apply(m, &mut input, &mut rng, &p);
                assert!(input.len() <= 64, "{m:?} grew the input past the cap");
                changed |= input != b"the quick brown fox jumps";
            }
            assert!(changed, "{m:?} never changed the input in 50 tries");
        }
    }

    #[test]
    fn mutators_cope_with_an_empty_input_and_an_empty_pool() {
        let p = pool(&[], &[]);
        for m in Mutator::ALL {
            let mut rng = Rng::new(3);
            let mut input = Vec::new();
            apply(m, &mut input, &mut rng, &p);
            assert!(input.len() <= 64);
        }
    }

    #[test]
    fn the_dictionary_reaches_the_input() {
        let dictionary = vec![b"TOKEN".to_vec()];
        let p = pool(&[], &dictionary);
        let mut rng = Rng::new(9);
        let hit = (0..200).any(|_| havoc(b"abc", &mut rng, &p).windows(5).any(|w| w == b"TOKEN"));
        assert!(hit);
    }
}
