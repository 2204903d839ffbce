//! What each PDF page is made of, hashed without rendering it: the page's dictionary and every
//! object it reaches (content streams as stored, resources, fonts, images, annotations), with the
//! attributes it inherits from its ancestors in the page tree. Two pages whose hashes are equal
//! render the same pixels, so [`crate::PageDiff::status`] can say "unchanged" before any render.
//!
//! Object numbers differ between two files, so references are hashed by what they point to, never
//! by number. `/Parent` links are not followed (they lead back up the tree), and the tree's
//! `/Kids` and `/Count` are left out (an inserted page changes them, not the other pages). A
//! page whose hash differs is not known to differ: a re-saved font subset changes every page's
//! hash but few pixels, so those pages stay "unknown" until compared.

use std::collections::{HashMap, HashSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

/// One hash per page, in page order; `None` when lopdf cannot read the file (encrypted, damaged,
/// or a structure it does not know), in which case no page is called unchanged without pixels.
pub fn page_prints(pdf: &[u8]) -> Option<Vec<[u8; 32]>> {
    let doc = Document::load_mem(pdf).ok()?;
    if doc.is_encrypted() {
        return None;
    }
    let mut hasher = Hasher { doc: &doc, memo: HashMap::new(), busy: HashSet::new() };
    let pages = doc.get_pages();
    let mut out = Vec::with_capacity(pages.len());
    for (_, id) in pages {
        let mut h = blake3::Hasher::new();
        let mut at = Some(id);
        let mut depth = 0;
        // The page, then each ancestor (what it inherits: resources, boxes, rotation).
        while let Some(node) = at.filter(|_| depth < 32) {
            let dict = doc.get_object(node).ok()?.as_dict().ok()?;
            let mut keys: Vec<&Vec<u8>> = dict.iter().map(|(k, _)| k).collect();
            keys.sort();
            for k in keys {
                if matches!(k.as_slice(), b"Parent" | b"Kids" | b"Count") {
                    continue;
                }
                h.update(k);
                h.update(&hasher.object(dict.get(k).ok()?));
            }
            h.update(b"\x00up");
            at = dict.get(b"Parent").ok().and_then(|p| p.as_reference().ok());
            depth += 1;
        }
        out.push(*h.finalize().as_bytes());
    }
    Some(out)
}

struct Hasher<'a> {
    doc: &'a Document,
    memo: HashMap<ObjectId, [u8; 32]>,
    busy: HashSet<ObjectId>,
}

impl Hasher<'_> {
    fn object(&mut self, o: &Object) -> [u8; 32] {
        let mut h = blake3::Hasher::new();
        self.feed(&mut h, o);
        *h.finalize().as_bytes()
    }

    fn reference(&mut self, id: ObjectId) -> [u8; 32] {
        if let Some(done) = self.memo.get(&id) {
            return *done;
        }
        if !self.busy.insert(id) {
            // A cycle (an annotation pointing back at its page): hashed as a marker.
            return *blake3::hash(b"cycle").as_bytes();
        }
        let got = match self.doc.get_object(id) {
            Ok(o) => self.object(o),
            Err(_) => *blake3::hash(b"missing").as_bytes(),
        };
        self.busy.remove(&id);
        self.memo.insert(id, got);
        got
    }

    fn dict(&mut self, h: &mut blake3::Hasher, d: &Dictionary) {
        h.update(b"<<");
        let mut keys: Vec<&Vec<u8>> = d.iter().map(|(k, _)| k).collect();
        keys.sort();
        for k in keys {
            if k.as_slice() == b"Parent" {
                continue;
            }
            h.update(k);
            h.update(b"\x00");
            if let Ok(v) = d.get(k) {
                self.feed(h, v);
            }
        }
        h.update(b">>");
    }

    fn feed(&mut self, h: &mut blake3::Hasher, o: &Object) {
        match o {
            Object::Null => {
                h.update(b"n");
            }
            Object::Boolean(b) => {
                h.update(if *b { b"t" } else { b"f" });
            }
            Object::Integer(i) => {
                h.update(b"i");
                h.update(&i.to_le_bytes());
            }
            Object::Real(r) => {
                h.update(b"r");
                h.update(&r.to_le_bytes());
            }
            Object::Name(n) => {
                h.update(b"/");
                h.update(n);
                h.update(b"\x00");
            }
            Object::String(s, _) => {
                h.update(b"s");
                h.update(&(s.len() as u64).to_le_bytes());
                h.update(s);
            }
            Object::Array(a) => {
                h.update(b"[");
                for x in a {
                    self.feed(h, x);
                }
                h.update(b"]");
            }
            Object::Dictionary(d) => self.dict(h, d),
            Object::Stream(s) => {
                self.dict(h, &s.dict);
                h.update(b"stream");
                h.update(&(s.content.len() as u64).to_le_bytes());
                h.update(&s.content);
            }
            Object::Reference(id) => {
                let r = self.reference(*id);
                h.update(b"R");
                h.update(&r);
            }
        }
    }
}
