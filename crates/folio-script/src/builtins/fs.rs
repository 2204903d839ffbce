//! `env:fs`: asynchronous file access for scripts, over a host trait.
//!
//! The environment implements [`ScriptFs`] with its mutation gateway (zones, limits, the script
//! pipeline, undo); `TreeFs` is the plain implementation over any tree that tests and simple
//! hosts use. Every call runs on tokio's blocking pool, so a slow disk never stalls the script
//! thread and a cancelled run is abandoned at once instead of waiting for the call to return.

use std::sync::Arc;

use folio_vfs::{Kind, VPath};
use serde_json::json;

use crate::registry::{CallContext, HostFn, HostValue, NativeFunction, NativeModule};
use crate::script_fs::ScriptFs;

type FsOp = fn(&dyn ScriptFs, &[HostValue]) -> Result<HostValue, String>;

fn path_arg(args: &[HostValue], at: usize) -> Result<VPath, String> {
    match args.get(at) {
        Some(HostValue::Json(serde_json::Value::String(s))) => VPath::parse(s).map_err(|e| e.to_string()),
        other => Err(format!(
            "argument {} must be an absolute path string like '/inbox/data.csv', got {}",
            at + 1,
            match other {
                None | Some(HostValue::Undefined) => "undefined".to_owned(),
                Some(HostValue::Bytes(_)) => "bytes".to_owned(),
                Some(HostValue::Json(v)) => v.to_string(),
            }
        )),
    }
}

fn data_arg(args: &[HostValue]) -> Result<Vec<u8>, String> {
    match args.get(1) {
        Some(HostValue::Json(serde_json::Value::String(s))) => Ok(s.as_bytes().to_vec()),
        Some(HostValue::Bytes(b)) => Ok(b.clone()),
        Some(HostValue::Json(serde_json::Value::Array(items))) => items
            .iter()
            .map(|v| v.as_u64().filter(|n| *n < 256).map(|n| n as u8))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(|| "a number array must hold integers 0–255 (bytes); pass a string for text".to_owned()),
        _ => Err("content must be a string, a Uint8Array (or other typed array), or an array of byte values".into()),
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::File => "file",
        Kind::Dir => "dir",
    }
}

const OPS: &[(&str, bool, FsOp)] = &[
    ("readFile", false, |fs, a| {
        let path = path_arg(a, 0)?;
        let bytes = fs.read(&path)?;
        // Text as it arrives: a BOM (UTF-8, UTF-16) is honoured and dropped, legacy 8-bit text
        // (cp1252, latin-1) is decoded; only binary is refused.
        match String::from_utf8(bytes) {
            Ok(s) if !s.starts_with('\u{feff}') => Ok(HostValue::Json(s.into())),
            Ok(s) => Ok(HostValue::Json(s.trim_start_matches('\u{feff}').to_owned().into())),
            Err(e) => {
                folio_kinds::text::decode(e.as_bytes()).map(|d| HostValue::Json(d.text.into())).ok_or_else(|| {
                    format!("{path} is binary, not text — read it with readBytes(path), which returns a Uint8Array")
                })
            }
        }
    }),
    ("readBytes", false, |fs, a| Ok(HostValue::Bytes(fs.read(&path_arg(a, 0)?)?))),
    ("writeFile", true, |fs, a| {
        fs.write(&path_arg(a, 0)?, &data_arg(a)?).map(|()| HostValue::Undefined).map_err(String::from)
    }),
    ("appendFile", true, |fs, a| {
        fs.append(&path_arg(a, 0)?, &data_arg(a)?).map(|()| HostValue::Undefined).map_err(String::from)
    }),
    ("readdir", false, |fs, a| {
        let entries = fs.list(&path_arg(a, 0)?)?;
        let out: Vec<_> =
            entries.iter().map(|e| json!({"name": e.name, "kind": kind_name(e.kind), "size": e.size})).collect();
        Ok(HostValue::Json(out.into()))
    }),
    ("glob", false, |fs, a| match a.first().and_then(HostValue::as_str) {
        Some(p) => Ok(HostValue::Json(fs.glob(p)?.iter().map(|p| p.as_str()).collect::<Vec<_>>().into())),
        None => Err("glob(pattern) needs a pattern string like '/inbox/**/*.csv'".into()),
    }),
    ("stat", false, |fs, a| {
        Ok(HostValue::Json(match fs.stat(&path_arg(a, 0)?)? {
            Some(s) => json!({"kind": kind_name(s.kind), "size": s.size, "mtime": s.mtime_ms}),
            None => serde_json::Value::Null,
        }))
    }),
    ("exists", false, |fs, a| Ok(HostValue::Json(fs.stat(&path_arg(a, 0)?)?.is_some().into()))),
    ("mkdir", true, |fs, a| fs.mkdir(&path_arg(a, 0)?).map(|()| HostValue::Undefined).map_err(String::from)),
    ("rm", true, |fs, a| fs.rm(&path_arg(a, 0)?).map(|()| HostValue::Undefined).map_err(String::from)),
    ("mv", true, |fs, a| {
        fs.mv(&path_arg(a, 0)?, &path_arg(a, 1)?).map(|()| HostValue::Undefined).map_err(String::from)
    }),
    ("cp", true, |fs, a| {
        fs.cp(&path_arg(a, 0)?, &path_arg(a, 1)?).map(|()| HostValue::Undefined).map_err(String::from)
    }),
];

/// The `env:fs` module definition.
pub(crate) fn module() -> NativeModule {
    let mut functions = Vec::new();
    for &(name, mutates, op) in OPS {
        let call = HostFn::Async(Arc::new(move |args: Vec<HostValue>, cx: CallContext| {
            Box::pin(async move {
                if mutates && cx.read_only {
                    return Err(format!(
                        "{name} is not available while a script is being validated — module top-level code runs during write_file/edit_file and must not change the tree. Do the work inside the default export instead."
                    ));
                }
                let fs = cx.fs.clone();
                tokio::task::spawn_blocking(move || op(fs.as_ref(), &args))
                    .await
                    .map_err(|e| format!("the host call did not complete: {e}"))?
            })
        }));
        functions.push(NativeFunction { name: name.to_owned(), call });
    }
    NativeModule {
        name: "fs".into(),
        description: "VFS-scoped file I/O: readFile, readBytes, writeFile, appendFile, readdir, glob, stat, exists, mkdir, rm, mv, cp.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: include_str!("../js/fs.d.ts").into(),
        docs: "Every function is async — always await. readdir returns ENTRY OBJECTS {name, kind, size}, not strings; use glob('/dir/*.ext') for full paths.".into(),
        functions,
        js_api: Some("(n) => ({ ...n, readText: n.readFile })".into()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::error::FsError;
    use crate::script_fs::TreeFs;

    /// A tree's refusal reaches the host typed, and the script its message.
    #[test]
    fn errors_keep_the_tree_error_and_its_message() {
        let fs = TreeFs::new(Arc::new(folio_vfs::MemTree::new()));
        let missing = VPath::parse("/none.txt").unwrap();
        let err = fs.read(&missing).unwrap_err();
        assert!(matches!(err, FsError::Tree(folio_vfs::VfsError::NoSuchFile(_))), "{err:?}");
        assert!(String::from(err).contains("no such file: /none.txt"));
        let err = FsError::NotNow { op: "mkdir", why: "is not available here" };
        assert_eq!(err.to_string(), "mkdir is not available here");
    }
}
