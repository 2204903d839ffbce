//! The crash-and-load figures: each test that measures one writes its section into
//! `$FOLIO_RELIABILITY_DIR/crash-load.json` (only when that variable is set). The suites of
//! several crates write the same file, so a section is merged in under a lock, never the whole
//! file replaced.

use std::path::PathBuf;

pub fn record(section: &str, value: serde_json::Value) {
    let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR").filter(|d| !d.is_empty()) else { return };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = std::fs::File::create(dir.join(".crash-load.lock")).unwrap();
    lock.lock().unwrap();
    let path = dir.join("crash-load.json");
    let mut doc = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .filter(serde_json::Value::is_object)
        .unwrap_or_else(|| serde_json::json!({"area": "crash-load"}));
    doc[section] = value;
    let tmp = dir.join(format!(".crash-load.{}.tmp", std::process::id()));
    std::fs::write(&tmp, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
}
