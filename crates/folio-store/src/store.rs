//! The SQLite store.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

/// A store operation that failed. Not retried: the message names the file and the fix.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database could not be opened, read or written.
    #[error(
        "Folio's store at {path} failed: {detail} — hint: check that the state directory is writable and the disk is not full"
    )]
    Db {
        /// The database file.
        path: String,
        /// What SQLite said.
        detail: String,
    },
    /// The database was written by a newer Folio.
    #[error(
        "Folio's store at {path} has schema {found}, newer than this Folio understands ({known}) — hint: update Folio"
    )]
    TooNew {
        /// The database file.
        path: String,
        /// Its version.
        found: i64,
        /// Ours.
        known: i64,
    },
    /// A conversation id that does not exist.
    #[error(
        "no conversation {0} — hint: `folio ask` prints the id of each conversation it starts; omit --conversation to start a new one"
    )]
    NoConversation(String),
    /// A `presented` event without the fields a hand-off row keeps: a front end built against
    /// another event shape. Nothing was written.
    #[error(
        "a presented event cannot be recorded: {detail} — hint: the app and its store disagree on the event shape; update Folio"
    )]
    BadEvent {
        /// What was missing, and the event.
        detail: String,
    },
    /// A boundary setting that cannot be saved or read back: a never-send pattern that is not a
    /// path pattern, or a stored value that is not a network mode. Nothing was written.
    #[error("{0}")]
    Boundary(#[from] folio_boundary::BoundaryError),
    /// A stored boundary setting that does not parse (written by another Folio, or by hand).
    #[error(
        "the stored boundary setting {key} is not valid ({detail}) — hint: set it again in Settings → Privacy, or with `folio ask --local-only`"
    )]
    BadSetting {
        /// The settings key.
        key: String,
        /// What is wrong.
        detail: String,
    },
}

const MIGRATIONS: &[&str] =
    &["CREATE TABLE folders(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, opened_at INTEGER NOT NULL);
     CREATE TABLE conversations(id TEXT PRIMARY KEY, folder_id INTEGER NOT NULL REFERENCES folders(id),
        title TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
     CREATE TABLE messages(conversation_id TEXT NOT NULL REFERENCES conversations(id), seq INTEGER NOT NULL,
        body TEXT NOT NULL, PRIMARY KEY(conversation_id, seq));
     CREATE TABLE events(conversation_id TEXT NOT NULL REFERENCES conversations(id), seq INTEGER NOT NULL,
        at INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY(conversation_id, seq));
     CREATE TABLE presented(id INTEGER PRIMARY KEY, conversation_id TEXT NOT NULL REFERENCES conversations(id),
        path TEXT NOT NULL, name TEXT NOT NULL, media_type TEXT NOT NULL, size INTEGER NOT NULL,
        caption TEXT NOT NULL, at INTEGER NOT NULL);
     CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);"];

/// One conversation, as listed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ConversationInfo {
    /// Its id.
    pub id: String,
    /// The folder's real path.
    pub folder: String,
    /// A title (the first request, shortened).
    pub title: String,
    /// Seconds since the epoch.
    pub created_at: i64,
    /// Seconds since the epoch.
    pub updated_at: i64,
}

/// A file the agent handed over.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Presented {
    /// VFS path.
    pub path: String,
    /// File name.
    pub name: String,
    /// Media type.
    pub media_type: String,
    /// Bytes.
    pub size: u64,
    /// The agent's caption.
    pub caption: String,
}

/// The application store.
pub struct Store {
    conn: Mutex<Connection>,
    path: PathBuf,
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (creating and migrating) the store at `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let db = |e: rusqlite::Error| StoreError::Db { path: path.display().to_string(), detail: e.to_string() };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| StoreError::Db { path: path.display().to_string(), detail: e.to_string() })?;
        }
        let mut conn = Connection::open(path).map_err(db)?;
        conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(db)?;
        conn.pragma_update(None, "journal_mode", "WAL").map_err(db)?;
        conn.pragma_update(None, "foreign_keys", "ON").map_err(db)?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(db)?;
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(db)?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::TooNew { path: path.display().to_string(), found: version, known });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql).map_err(db)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64).map_err(db)?;
        }
        tx.commit().map_err(db)?;
        Ok(Store { conn: Mutex::new(conn), path: path.to_path_buf() })
    }

    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        f(&conn).map_err(|e| StoreError::Db { path: self.path.display().to_string(), detail: e.to_string() })
    }

    /// Starts a conversation over `folder` and returns its id.
    pub fn create_conversation(&self, folder: &Path, title: &str) -> Result<String, StoreError> {
        let folder = folder.display().to_string();
        let title: String = title.chars().take(80).collect();
        self.with(|c| {
            let t = now();
            c.execute(
                "INSERT INTO folders(path, opened_at) VALUES (?1, ?2) ON CONFLICT(path) DO UPDATE SET opened_at = ?2",
                params![folder, t],
            )?;
            let folder_id: i64 = c.query_row("SELECT id FROM folders WHERE path = ?1", [&folder], |r| r.get(0))?;
            let n: i64 = c.query_row("SELECT count(*) FROM conversations", [], |r| r.get(0))?;
            let id = format!("c{}-{}", t, n + 1);
            c.execute(
                "INSERT INTO conversations(id, folder_id, title, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
                params![id, folder_id, title, t],
            )?;
            Ok(id)
        })
    }

    /// The conversation with `id`.
    pub fn conversation(&self, id: &str) -> Result<ConversationInfo, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT c.id, f.path, c.title, c.created_at, c.updated_at FROM conversations c JOIN folders f ON f.id = c.folder_id WHERE c.id = ?1",
                [id],
                |r| Ok(ConversationInfo { id: r.get(0)?, folder: r.get(1)?, title: r.get(2)?, created_at: r.get(3)?, updated_at: r.get(4)? }),
            )
            .optional()
        })?
        .ok_or_else(|| StoreError::NoConversation(id.to_owned()))
    }

    /// Conversations over `folder`, most recent first.
    pub fn conversations(&self, folder: &Path) -> Result<Vec<ConversationInfo>, StoreError> {
        let folder = folder.display().to_string();
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT c.id, f.path, c.title, c.created_at, c.updated_at FROM conversations c JOIN folders f ON f.id = c.folder_id
                 WHERE f.path = ?1 ORDER BY c.updated_at DESC, c.id DESC",
            )?;
            let rows = stmt.query_map([folder], |r| {
                Ok(ConversationInfo { id: r.get(0)?, folder: r.get(1)?, title: r.get(2)?, created_at: r.get(3)?, updated_at: r.get(4)? })
            })?;
            rows.collect()
        })
    }

    /// Replaces the stored history of `id` with `messages` (the loop's whole conversation).
    pub fn save_messages(&self, id: &str, messages: &[Value]) -> Result<(), StoreError> {
        self.conversation(id)?;
        self.with(|c| {
            let tx = c.unchecked_transaction()?;
            tx.execute("DELETE FROM messages WHERE conversation_id = ?1", [id])?;
            for (seq, m) in messages.iter().enumerate() {
                tx.execute(
                    "INSERT INTO messages(conversation_id, seq, body) VALUES (?1, ?2, ?3)",
                    params![id, seq as i64, m.to_string()],
                )?;
            }
            tx.execute("UPDATE conversations SET updated_at = ?2 WHERE id = ?1", params![id, now()])?;
            tx.commit()
        })
    }

    /// The stored history of `id`, in order.
    pub fn messages(&self, id: &str) -> Result<Vec<Value>, StoreError> {
        self.conversation(id)?;
        self.with(|c| {
            let mut stmt = c.prepare("SELECT body FROM messages WHERE conversation_id = ?1 ORDER BY seq")?;
            let rows = stmt.query_map([id], |r| r.get::<_, String>(0))?;
            let mut out = Vec::new();
            for row in rows {
                out.push(serde_json::from_str(&row?).unwrap_or(Value::Null));
            }
            Ok(out)
        })
    }

    /// Appends one event to the transcript log of `id`.
    pub fn append_event(&self, id: &str, event: &Value) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO events(conversation_id, seq, at, body)
                 VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE conversation_id = ?1), ?2, ?3)",
                params![id, now(), event.to_string()],
            )
            .map(drop)
        })
    }

    /// Appends one event of a live turn to the log of `id`; a hand-off (`{"type": "presented",
    /// …}`) is also recorded among the conversation's presented files, in the same transaction.
    /// Front ends call this for every event so the two never disagree.
    pub fn record_event(&self, id: &str, event: &Value) -> Result<(), StoreError> {
        let handoff = (event.get("type").and_then(Value::as_str) == Some("presented"))
            .then(|| serde_json::from_value::<Presented>(event.clone()))
            .transpose()
            .map_err(|e| StoreError::BadEvent { detail: format!("{e} in {event}") })?;
        self.with(|c| {
            let tx = c.unchecked_transaction()?;
            tx.execute(
                "INSERT INTO events(conversation_id, seq, at, body)
                 VALUES (?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE conversation_id = ?1), ?2, ?3)",
                params![id, now(), event.to_string()],
            )?;
            if let Some(item) = &handoff {
                tx.execute(
                    "INSERT INTO presented(conversation_id, path, name, media_type, size, caption, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![id, item.path, item.name, item.media_type, item.size as i64, item.caption, now()],
                )?;
            }
            tx.commit()
        })
    }

    /// The transcript log of `id`, in order.
    pub fn events(&self, id: &str) -> Result<Vec<Value>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare("SELECT body FROM events WHERE conversation_id = ?1 ORDER BY seq")?;
            let rows = stmt.query_map([id], |r| r.get::<_, String>(0))?;
            let mut out = Vec::new();
            for row in rows {
                out.push(serde_json::from_str(&row?).unwrap_or(Value::Null));
            }
            Ok(out)
        })
    }

    /// Records a hand-off.
    pub fn record_presented(&self, id: &str, item: &Presented) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO presented(conversation_id, path, name, media_type, size, caption, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![id, item.path, item.name, item.media_type, item.size as i64, item.caption, now()],
            )
            .map(drop)
        })
    }

    /// The hand-offs of `id`, in order.
    pub fn presented(&self, id: &str) -> Result<Vec<Presented>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT path, name, media_type, size, caption FROM presented WHERE conversation_id = ?1 ORDER BY id",
            )?;
            let rows = stmt.query_map([id], |r| {
                Ok(Presented {
                    path: r.get(0)?,
                    name: r.get(1)?,
                    media_type: r.get(2)?,
                    size: r.get::<_, i64>(3)? as u64,
                    caption: r.get(4)?,
                })
            })?;
            rows.collect()
        })
    }

    /// A setting, if set.
    pub fn setting(&self, key: &str) -> Result<Option<Value>, StoreError> {
        let raw: Option<String> =
            self.with(|c| c.query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| r.get(0)).optional())?;
        Ok(raw.and_then(|r| serde_json::from_str(&r).ok()))
    }

    /// Sets a setting. Secrets do not belong here: use [`crate::Secrets`].
    pub fn set_setting(&self, key: &str, value: &Value) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO settings(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = ?2",
                params![key, value.to_string()],
            )
            .map(drop)
        })
    }
}
