//! The overlay's persistent state: an SQLite index of entries (rows keyed by VFS path) and a
//! content-addressed blob directory, both in the folder's state directory.
//!
//! An entry is one of three things, in the manner of overlayfs: a **file** whose content is a blob;
//! a **dir** the overlay created (opaque when it hides a removed host directory's content); or a
//! **whiteout** that hides what the host has at and below the path. Each entry remembers its
//! **base**: what the host had at that path when the overlay first shadowed it, so that a commit
//! can tell a file the person changed meanwhile (a conflict) from one only Folio touched.
//!
//! Blobs are written (temp, fsync, rename) before the row that names them is committed, so a crash
//! never leaves a row without its content; blobs that no row names are collected later.

use std::fs;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::{Connection, params};

use crate::error::{Result, VfsError};
use crate::overlay::host::Fingerprint;
use crate::path::VPath;

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryKind {
    File = 0,
    Dir = 1,
    Whiteout = 2,
}

/// What the host had at an entry's path when the overlay first shadowed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Base {
    Absent,
    File(Fingerprint),
    Dir,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) path: VPath,
    pub(crate) kind: EntryKind,
    pub(crate) blob: Option<String>,
    pub(crate) size: u64,
    pub(crate) mtime_ms: i64,
    /// Dir: hides the host content beneath. Whiteout: the removed thing was a directory.
    pub(crate) opaque: bool,
    pub(crate) base: Base,
    pub(crate) renamed_from: Option<VPath>,
    /// Unique across the store's life; a commit removes a row only if its rev is unchanged.
    pub(crate) rev: i64,
}

impl Entry {
    pub(crate) fn new(path: VPath, kind: EntryKind, base: Base) -> Entry {
        Entry { path, kind, blob: None, size: 0, mtime_ms: now_ms(), opaque: false, base, renamed_from: None, rev: 0 }
    }
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

const MIGRATIONS: &[&str] = &[
    // 1: entries, the commit journal, and a monotonically increasing revision counter.
    "CREATE TABLE entries(
        path TEXT PRIMARY KEY,
        kind INTEGER NOT NULL,
        blob TEXT,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        opaque INTEGER NOT NULL,
        base_kind INTEGER NOT NULL,
        base_size INTEGER,
        base_mtime_ns INTEGER,
        base_hash TEXT,
        renamed_from TEXT,
        rev INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE journal(
        id INTEGER PRIMARY KEY CHECK (id = 1),
        state TEXT NOT NULL,
        started_ms INTEGER NOT NULL,
        pid INTEGER NOT NULL
    );
    CREATE TABLE journal_steps(
        seq INTEGER PRIMARY KEY,
        step TEXT NOT NULL,
        path TEXT NOT NULL,
        rev INTEGER NOT NULL,
        blob TEXT,
        tmp TEXT,
        base_kind INTEGER NOT NULL,
        base_size INTEGER,
        base_mtime_ns INTEGER,
        base_hash TEXT,
        overwrite INTEGER NOT NULL,
        created_dir INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE counters(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT INTO counters(name, value) VALUES ('rev', 0);",
];

pub(crate) fn store_err(location: &Path, err: impl std::fmt::Display) -> VfsError {
    VfsError::Store {
        location: location.display().to_string(),
        detail: err.to_string(),
        hint: "check that the state directory is writable and the disk is not full; pass --state-dir to use another",
    }
}

/// The SQLite connection and the blob directory of one folder's state.
pub(crate) struct Store {
    pub(crate) conn: Connection,
    pub(crate) blobs: Blobs,
}

/// The content-addressed blob directory.
#[derive(Clone)]
pub(crate) struct Blobs {
    pub(crate) dir: PathBuf,
    root: PathBuf,
}

impl Store {
    pub(crate) fn open(dir: &Path) -> Result<Store> {
        let blobs = dir.join("blobs");
        fs::create_dir_all(&blobs).map_err(|e| store_err(&blobs, e))?;
        let db = dir.join("overlay.sqlite");
        let mut conn = Connection::open(&db).map_err(|e| store_err(&db, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(|e| store_err(&db, e))?;
        conn.pragma_update(None, "journal_mode", "WAL").map_err(|e| store_err(&db, e))?;
        conn.pragma_update(None, "synchronous", "FULL").map_err(|e| store_err(&db, e))?;
        let tx =
            conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(|e| store_err(&db, e))?;
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(|e| store_err(&db, e))?;
        if version as usize > MIGRATIONS.len() {
            return Err(VfsError::Store {
                location: db.display().to_string(),
                detail: format!("it was written by a newer Folio (schema {version})"),
                hint: "update Folio, or pass --state-dir to keep this folder's pending changes elsewhere",
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql).map_err(|e| store_err(&db, e))?;
            tx.pragma_update(None, "user_version", (i + 1) as i64).map_err(|e| store_err(&db, e))?;
        }
        tx.commit().map_err(|e| store_err(&db, e))?;
        Ok(Store { conn, blobs: Blobs { dir: dir.to_path_buf(), root: blobs } })
    }

    pub(crate) fn err(&self, e: impl std::fmt::Display) -> VfsError {
        self.blobs.err(e)
    }

    pub(crate) fn put_blob(&self, data: &[u8]) -> Result<String> {
        self.blobs.put_blob(data)
    }

    /// Removes blobs that no entry or journal step names and that are older than a minute.
    pub(crate) fn collect_garbage(&self) -> Result<usize> {
        self.blobs.collect_garbage(&self.conn)
    }
}

impl Blobs {
    pub(crate) fn err(&self, e: impl std::fmt::Display) -> VfsError {
        store_err(&self.dir, e)
    }

    fn blob_path(&self, hash: &str) -> PathBuf {
        let prefix = hash.get(..2).unwrap_or("xx");
        self.root.join(prefix).join(hash)
    }

    /// Stores `data` and returns its hash. Existing blobs are touched so a concurrent collection
    /// (which only removes old, unnamed blobs) leaves them alone.
    pub(crate) fn put_blob(&self, data: &[u8]) -> Result<String> {
        let hash = blake3::hash(data).to_hex().to_string();
        let path = self.blob_path(&hash);
        if let Ok(file) = fs::File::options().append(true).open(&path) {
            let _ = file.set_modified(std::time::SystemTime::now());
            return Ok(hash);
        }
        let parent = path.parent().unwrap_or(&self.root);
        fs::create_dir_all(parent).map_err(|e| store_err(parent, e))?;
        let tmp = temp_name(parent);
        let mut file = fs::File::create(&tmp).map_err(|e| store_err(&tmp, e))?;
        file.write_all(data).map_err(|e| store_err(&tmp, e))?;
        file.sync_all().map_err(|e| store_err(&tmp, e))?;
        fs::rename(&tmp, &path).map_err(|e| store_err(&path, e))?;
        Ok(hash)
    }

    /// Stores the content of the file at `source` without holding it in memory: it is copied
    /// (holes kept, see [`copy_sparse`]) to a temp file and hashed on the way, then renamed into
    /// place. Returns the hash and the size. Errors are the source's, as `io::Error`, so the
    /// caller names the path the agent knows.
    pub(crate) fn put_blob_from_file(&self, source: &Path) -> Result<std::result::Result<(String, u64), io::Error>> {
        let tmp = temp_name(&self.root);
        let copied = (|| {
            let mut src = fs::File::open(source)?;
            let mut out = fs::File::create(&tmp)?;
            let mut hasher = blake3::Hasher::new();
            let size = copy_sparse(&mut src, &mut out, |chunk| {
                hasher.update(chunk);
            })?;
            out.sync_all()?;
            Ok((hasher.finalize().to_hex().to_string(), size))
        })();
        let (hash, size) = match copied {
            Ok(done) => done,
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                return Ok(Err(e));
            }
        };
        let path = self.blob_path(&hash);
        if let Ok(file) = fs::File::options().append(true).open(&path) {
            let _ = file.set_modified(std::time::SystemTime::now());
            let _ = fs::remove_file(&tmp);
            return Ok(Ok((hash, size)));
        }
        let parent = path.parent().unwrap_or(&self.root);
        fs::create_dir_all(parent).map_err(|e| store_err(parent, e))?;
        fs::rename(&tmp, &path).map_err(|e| store_err(&path, e))?;
        Ok(Ok((hash, size)))
    }

    /// The content of a blob.
    pub(crate) fn read_blob(&self, hash: &str) -> Result<Vec<u8>> {
        let path = self.blob_path(hash);
        fs::read(&path).map_err(|e| missing_blob(&path, e))
    }

    /// `len` bytes of a blob from `offset` (see [`crate::range::read_file_range`]).
    pub(crate) fn read_blob_range(&self, hash: &str, offset: u64, len: u64) -> Result<Vec<u8>> {
        let path = self.blob_path(hash);
        crate::range::read_file_range(&path, offset, len).map_err(|e| missing_blob(&path, e))
    }

    /// Copies a blob's content to `dest` and fsyncs it.
    pub(crate) fn copy_blob_to(&self, hash: &str, dest: &Path) -> std::io::Result<()> {
        let mut src = fs::File::open(self.blob_path(hash))?;
        let mut out = fs::File::create(dest)?;
        copy_sparse(&mut src, &mut out, |_| {})?;
        out.sync_all()
    }

    fn collect_garbage(&self, conn: &Connection) -> Result<usize> {
        let mut named = std::collections::HashSet::new();
        for sql in
            ["SELECT blob FROM entries WHERE blob IS NOT NULL", "SELECT blob FROM journal_steps WHERE blob IS NOT NULL"]
        {
            let mut stmt = conn.prepare(sql).map_err(|e| self.err(e))?;
            let rows = stmt.query_map([], |r| r.get::<_, String>(0)).map_err(|e| self.err(e))?;
            for row in rows {
                named.insert(row.map_err(|e| self.err(e))?);
            }
        }
        let cutoff = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        let mut removed = 0;
        let Ok(prefixes) = fs::read_dir(&self.root) else { return Ok(0) };
        for prefix in prefixes.flatten() {
            let Ok(files) = fs::read_dir(prefix.path()) else { continue };
            for file in files.flatten() {
                let name = file.file_name().to_string_lossy().into_owned();
                let old = file.metadata().and_then(|m| m.modified()).is_ok_and(|t| t < cutoff);
                if old && !named.contains(&name) && fs::remove_file(file.path()).is_ok() {
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }
}

/// A temp-file name in `dir` no other writer, in this process or another, uses at the same time
/// (the counter tells apart two threads that write in the same millisecond).
fn temp_name(dir: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".tmp-{}-{}-{n}", std::process::id(), now_ms()))
}

/// How much [`copy_sparse`] holds at once.
const COPY_CHUNK: usize = 1024 * 1024;

/// A chunk of zeros, to tell a hole from data.
static ZEROS: [u8; COPY_CHUNK] = [0; COPY_CHUNK];

/// Copies `src` to the start of the empty file `out` a chunk at a time, so memory stays at one
/// chunk whatever the size; a chunk of zeros is skipped with a seek instead of written, so a
/// sparse file (a disk image, a preallocated database) stays sparse and costs no disk. `each`
/// sees every chunk, zeros included (the hash of the content). Returns the bytes copied.
pub(crate) fn copy_sparse(src: &mut fs::File, out: &mut fs::File, mut each: impl FnMut(&[u8])) -> io::Result<u64> {
    let mut buf = vec![0u8; COPY_CHUNK];
    let mut total = 0u64;
    loop {
        let mut filled = 0;
        while filled < buf.len() {
            match src.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if filled == 0 {
            break;
        }
        let chunk = &buf[..filled];
        each(chunk);
        // Slice equality of bytes is one memcmp, fast in every build profile.
        if chunk == &ZEROS[..filled] {
            out.seek(SeekFrom::Current(filled as i64))?;
        } else {
            out.write_all(chunk)?;
        }
        total += filled as u64;
        if filled < buf.len() {
            break;
        }
    }
    // A trailing hole is made by the length, which a seek alone does not set.
    out.set_len(total)?;
    Ok(total)
}

const COLUMNS: &str =
    "path, kind, blob, size, mtime_ms, opaque, base_kind, base_size, base_mtime_ns, base_hash, renamed_from, rev";

/// The error for a blob that cannot be read: the state directory was changed behind Folio's back.
fn missing_blob(path: &Path, e: std::io::Error) -> VfsError {
    VfsError::Store {
        location: path.display().to_string(),
        detail: format!("a pending file's content is missing ({e})"),
        hint: "the state directory was changed by hand; discard the affected path with `folio discard`",
    }
}

pub(crate) fn base_columns(base: &Base) -> (i64, Option<i64>, Option<i64>, Option<String>) {
    match base {
        Base::Absent => (0, None, None, None),
        Base::File(fp) => (1, Some(fp.size as i64), Some(fp.mtime_ns), fp.hash.clone()),
        Base::Dir => (2, None, None, None),
    }
}

pub(crate) fn base_from(kind: i64, size: Option<i64>, mtime: Option<i64>, hash: Option<String>) -> Base {
    match kind {
        1 => Base::File(Fingerprint { size: size.unwrap_or(0) as u64, mtime_ns: mtime.unwrap_or(0), hash }),
        2 => Base::Dir,
        _ => Base::Absent,
    }
}

fn row_to_entry(row: &rusqlite::Row<'_>) -> rusqlite::Result<(String, Entry)> {
    let path: String = row.get(0)?;
    let kind = match row.get::<_, i64>(1)? {
        0 => EntryKind::File,
        1 => EntryKind::Dir,
        _ => EntryKind::Whiteout,
    };
    let renamed: Option<String> = row.get(10)?;
    let entry = Entry {
        path: VPath::root(),
        kind,
        blob: row.get(2)?,
        size: row.get::<_, i64>(3)? as u64,
        mtime_ms: row.get(4)?,
        opaque: row.get::<_, i64>(5)? != 0,
        base: base_from(row.get(6)?, row.get(7)?, row.get(8)?, row.get(9)?),
        renamed_from: renamed.and_then(|r| VPath::parse(&r).ok()),
        rev: row.get(11)?,
    };
    Ok((path, entry))
}

fn collect(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> rusqlite::Result<Vec<Entry>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, row_to_entry)?;
    let mut out = Vec::new();
    for row in rows {
        let (path, mut entry) = row?;
        // Rows are only ever written from valid VPaths; a row that does not parse was edited by
        // hand and is skipped rather than trusted.
        if let Ok(p) = VPath::parse(&path) {
            entry.path = p;
            out.push(entry);
        }
    }
    Ok(out)
}

pub(crate) fn get(conn: &Connection, path: &VPath) -> rusqlite::Result<Option<Entry>> {
    Ok(collect(conn, &format!("SELECT {COLUMNS} FROM entries WHERE path = ?1"), [path.as_str()])?.pop())
}

/// Every entry strictly below `dir`, sorted by path.
pub(crate) fn below(conn: &Connection, dir: &VPath) -> rusqlite::Result<Vec<Entry>> {
    if dir.is_root() {
        return collect(conn, &format!("SELECT {COLUMNS} FROM entries WHERE path <> '/' ORDER BY path"), []);
    }
    let lo = format!("{}/", dir.as_str());
    let hi = format!("{}0", dir.as_str());
    collect(conn, &format!("SELECT {COLUMNS} FROM entries WHERE path > ?1 AND path < ?2 ORDER BY path"), [lo, hi])
}

pub(crate) fn all(conn: &Connection) -> rusqlite::Result<Vec<Entry>> {
    collect(conn, &format!("SELECT {COLUMNS} FROM entries ORDER BY path"), [])
}

/// Inserts or replaces `entry` under a fresh revision, which it returns.
pub(crate) fn put(conn: &Connection, entry: &Entry) -> rusqlite::Result<i64> {
    let rev: i64 =
        conn.query_row("UPDATE counters SET value = value + 1 WHERE name = 'rev' RETURNING value", [], |r| r.get(0))?;
    let (bk, bs, bm, bh) = base_columns(&entry.base);
    conn.prepare_cached(&format!(
        "INSERT OR REPLACE INTO entries({COLUMNS}) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)"
    ))?
    .execute(params![
        entry.path.as_str(),
        entry.kind as i64,
        entry.blob,
        entry.size as i64,
        entry.mtime_ms,
        entry.opaque as i64,
        bk,
        bs,
        bm,
        bh,
        entry.renamed_from.as_ref().map(|p| p.as_str().to_owned()),
        rev
    ])?;
    Ok(rev)
}

pub(crate) fn delete(conn: &Connection, path: &VPath) -> rusqlite::Result<()> {
    conn.prepare_cached("DELETE FROM entries WHERE path = ?1")?.execute([path.as_str()])?;
    Ok(())
}

/// Deletes the row only if it still has revision `rev`; true when it did.
pub(crate) fn delete_if_rev(conn: &Connection, path: &VPath, rev: i64) -> rusqlite::Result<bool> {
    Ok(conn.prepare_cached("DELETE FROM entries WHERE path = ?1 AND rev = ?2")?.execute(params![path.as_str(), rev])?
        > 0)
}

pub(crate) fn count(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT count(*) FROM entries", [], |r| r.get(0))
}

/// The entries directly inside `dir`.
pub(crate) fn children(conn: &Connection, dir: &VPath) -> rusqlite::Result<Vec<Entry>> {
    let (lo, hi) = if dir.is_root() {
        ("/".to_owned(), "0".to_owned())
    } else {
        (format!("{}/", dir.as_str()), format!("{}0", dir.as_str()))
    };
    let start = lo.len() as i64 + 1;
    collect(
        conn,
        &format!(
            "SELECT {COLUMNS} FROM entries WHERE path > ?1 AND path < ?2 AND instr(substr(path, ?3), '/') = 0 ORDER BY path"
        ),
        params![lo, hi, start],
    )
}
