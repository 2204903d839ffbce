//! Shared helpers: an in-memory tree as the archive fs, crafted zip and tar bytes, the corpus.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use folio_archives::{ArchiveFs, Call, Limits};
use folio_budget::RunBudget;
use folio_vfs::{Kind, MemTree, Tree, VPath};
use serde_json::Value;

pub fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

/// A MemTree as the operations' fs.
pub struct MemFs(pub Arc<MemTree>);

impl ArchiveFs for MemFs {
    fn read(&self, path: &VPath) -> Result<Vec<u8>, String> {
        self.0.read(path).map_err(|e| e.to_string())
    }
    fn write(&self, path: &VPath, bytes: &[u8]) -> Result<(), String> {
        if let Some(parent) = path.parent().filter(|p| p.as_str() != "/") {
            self.0.mkdir(&parent).map_err(|e| e.to_string())?;
        }
        self.0.write(path, bytes).map_err(|e| e.to_string())
    }
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, String> {
        self.0.glob(pattern).map_err(|e| e.to_string())
    }
    fn is_dir(&self, path: &VPath) -> Result<bool, String> {
        Ok(self.0.stat(path).map_err(|e| e.to_string())?.is_some_and(|s| s.kind == Kind::Dir))
    }
}

/// A tree holding `files`.
pub fn tree(files: &[(&str, &[u8])]) -> Arc<MemTree> {
    let t = Arc::new(MemTree::new());
    for (p, b) in files {
        let p = vp(p);
        if let Some(parent) = p.parent().filter(|p| p.as_str() != "/") {
            t.mkdir(&parent).unwrap();
        }
        t.write(&p, b).unwrap();
    }
    t
}

/// Runs binding `name` over `tree` with `limits`; the result or the error's message.
pub fn op(tree: &Arc<MemTree>, limits: Limits, name: &str, args: &[Value]) -> Result<Value, String> {
    let fs = MemFs(tree.clone());
    let budget = RunBudget::unbounded();
    let call = Call { fs: &fs, budget: &budget, limits };
    let binding = folio_archives::BINDINGS.iter().find(|b| b.name == name).unwrap();
    (binding.run)(&call, args).map_err(|e| e.to_string())
}

/// A zip of `(name, content)` entries, deflated (names as given, unchecked).
pub fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        if name.ends_with('/') {
            w.add_directory(*name, opts).unwrap();
        } else {
            w.start_file(*name, opts).unwrap();
            w.write_all(data).unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

/// Patches every central-directory header of `zip`: `f` gets the 46-byte fixed part.
pub fn patch_central(mut zip: Vec<u8>, f: impl Fn(&mut [u8])) -> Vec<u8> {
    let mut i = 0;
    while i + 46 <= zip.len() {
        if zip[i..i + 4] == *b"PK\x01\x02" {
            f(&mut zip[i..i + 46]);
        }
        i += 1;
    }
    zip
}

/// One raw ustar header block (name, type flag, link name, size) followed by its data, padded.
pub fn tar_entry(name: &str, flag: u8, link: &str, data: &[u8]) -> Vec<u8> {
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name.as_bytes());
    h[100..108].copy_from_slice(b"0000644\0");
    h[108..116].copy_from_slice(b"0000000\0");
    h[116..124].copy_from_slice(b"0000000\0");
    h[124..136].copy_from_slice(format!("{:011o}\0", data.len()).as_bytes());
    h[136..148].copy_from_slice(b"00000000000\0");
    h[156] = flag;
    h[157..157 + link.len()].copy_from_slice(link.as_bytes());
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    h[148..156].copy_from_slice(b"        ");
    let sum: u32 = h.iter().map(|b| u32::from(*b)).sum();
    h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    let mut out = h.to_vec();
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(512) * 512, 0);
    out
}

/// A tar of raw entries, with the two zero blocks at the end.
pub fn tar_of(entries: &[Vec<u8>]) -> Vec<u8> {
    let mut out: Vec<u8> = entries.concat();
    out.extend_from_slice(&[0u8; 1024]);
    out
}

/// gzip of `bytes`.
pub fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// The corpus directory, or `None` with a printed reason.
pub fn corpus(sub: &str) -> Option<PathBuf> {
    let root = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let dir = root.join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: the corpus is absent ({} — set FOLIO_CORPUS)", dir.display());
        None
    }
}
