//! Flattened sheets kept per environment, never per process, so one folder's rows never reach
//! another's. Each environment's entries are bounded by cells ([`CACHE_CELLS`] by default),
//! least recently used dropped first; an entry is fingerprinted by the file's size and mtime and
//! dropped on every write this module makes to the file. Paging through 100k rows parses the
//! workbook once instead of once a page.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use crate::flat::Flat;

/// Two million cells per environment. The reference keeps one million; a 200k-row sheet of five
/// columns is just over that, and would be parsed again for every page.
pub const CACHE_CELLS: usize = 2_000_000;

/// What identifies one cached sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The tree path.
    pub path: String,
    /// Size and mtime when it was read.
    pub fingerprint: (u64, i64),
    /// The sheet's name.
    pub sheet: String,
    /// Whether formulas were read too.
    pub formulas: bool,
}

struct Entry {
    key: Key,
    flat: Arc<Flat>,
    cells: usize,
}

/// The cache of every environment this host serves.
pub struct SheetCache {
    budget: usize,
    envs: Mutex<HashMap<u64, VecDeque<Entry>>>,
    /// Each workbook's format and worksheet names, by (environment, path), with its fingerprint.
    books: Mutex<HashMap<(u64, String), BookEntry>>,
}

type BookEntry = ((u64, i64), crate::book::Format, Vec<String>);

impl Default for SheetCache {
    fn default() -> Self {
        SheetCache::new(CACHE_CELLS)
    }
}

impl SheetCache {
    /// A cache holding at most `cells` cells per environment.
    pub fn new(cells: usize) -> SheetCache {
        SheetCache { budget: cells, envs: Mutex::new(HashMap::new()), books: Mutex::new(HashMap::new()) }
    }

    /// The sheet under `key` in environment `scope` (a sheet read with formulas also answers
    /// a read without).
    pub fn get(&self, scope: u64, key: &Key) -> Option<Arc<Flat>> {
        let mut envs = self.envs.lock().unwrap_or_else(|p| p.into_inner());
        let list = envs.get_mut(&scope)?;
        let at = list.iter().position(|e| {
            e.key.path == key.path
                && e.key.fingerprint == key.fingerprint
                && e.key.sheet == key.sheet
                && (e.key.formulas || !key.formulas)
        })?;
        let entry = list.remove(at)?;
        let flat = Arc::clone(&entry.flat);
        list.push_back(entry);
        Some(flat)
    }

    /// Keeps `flat` under `key`; a sheet larger than the whole budget is not kept.
    pub fn put(&self, scope: u64, key: Key, flat: Arc<Flat>) {
        let cells = flat.cells();
        if cells > self.budget {
            return;
        }
        let mut envs = self.envs.lock().unwrap_or_else(|p| p.into_inner());
        let list = envs.entry(scope).or_default();
        list.retain(|e| !(e.key.path == key.path && e.key.sheet == key.sheet));
        list.push_back(Entry { key, flat, cells });
        let mut total: usize = list.iter().map(|e| e.cells).sum();
        while total > self.budget {
            match list.pop_front() {
                Some(e) => total -= e.cells,
                None => break,
            }
        }
    }

    /// The format and worksheet names of `path` when its fingerprint is still `fp`.
    pub fn book(&self, scope: u64, path: &str, fp: (u64, i64)) -> Option<(crate::book::Format, Vec<String>)> {
        let books = self.books.lock().unwrap_or_else(|p| p.into_inner());
        books.get(&(scope, path.to_string())).filter(|b| b.0 == fp).map(|b| (b.1, b.2.clone()))
    }

    /// Keeps the format and worksheet names of `path`.
    pub fn put_book(&self, scope: u64, path: &str, fp: (u64, i64), format: crate::book::Format, names: Vec<String>) {
        let mut books = self.books.lock().unwrap_or_else(|p| p.into_inner());
        if books.len() > 4096 {
            books.clear();
        }
        books.insert((scope, path.to_string()), (fp, format, names));
    }

    /// Drops every sheet of `path` in environment `scope` (called on each write).
    pub fn forget(&self, scope: u64, path: &str) {
        self.books.lock().unwrap_or_else(|p| p.into_inner()).remove(&(scope, path.to_string()));
        let mut envs = self.envs.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(list) = envs.get_mut(&scope) {
            list.retain(|e| e.key.path != path);
        }
    }

    /// Cells held for `scope`.
    pub fn cells(&self, scope: u64) -> usize {
        let envs = self.envs.lock().unwrap_or_else(|p| p.into_inner());
        envs.get(&scope).map_or(0, |l| l.iter().map(|e| e.cells).sum())
    }
}
