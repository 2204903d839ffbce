//! One function per env:archives binding, over an [`ArchiveFs`] (the run's gateway in the
//! module, a plain tree in tests) and the run's budget. [`BINDINGS`] is the table the module,
//! its `.d.ts` audit and the docs read.

use folio_budget::{JobKind, Plan, RunBudget};
use folio_vfs::{Glob, VPath};
use serde_json::{Value, json};

use crate::error::ArchiveError;
use crate::format::Format;
use crate::read::{EntryKind, Limits, Opened};
use crate::write::build;

/// The file operations env:archives needs; every write goes through the environment's gateway
/// (pending overlay edits, zones, limits), never the host's disk.
pub trait ArchiveFs {
    /// The whole content of a file.
    fn read(&self, path: &VPath) -> Result<Vec<u8>, String>;
    /// Creates or replaces a file, making its parent directories.
    fn write(&self, path: &VPath, bytes: &[u8]) -> Result<(), String>;
    /// Files matching a glob, sorted.
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, String>;
    /// True when `path` is a directory.
    fn is_dir(&self, path: &VPath) -> Result<bool, String>;
}

/// What one binding call has to work with.
pub struct Call<'a> {
    /// The tree.
    pub fs: &'a dyn ArchiveFs,
    /// The run's budget.
    pub budget: &'a RunBudget,
    /// The limits.
    pub limits: Limits,
}

/// One binding: its name, whether it writes (refused during validation), and its function.
pub struct Binding {
    /// The exported name.
    pub name: &'static str,
    /// True when it writes files.
    pub writes: bool,
    /// The operation.
    pub run: fn(&Call<'_>, &[Value]) -> Result<Value, ArchiveError>,
}

/// Every env:archives binding.
pub const BINDINGS: &[Binding] = &[
    Binding { name: "describe", writes: false, run: |c, a| describe(c, &path_arg(a, 0, "describe")?) },
    Binding { name: "list", writes: false, run: |c, a| list(c, &path_arg(a, 0, "list")?) },
    Binding {
        name: "extract",
        writes: true,
        run: |c, a| {
            let include = string_option(a.get(2), "include", "extract")?;
            extract(c, &path_arg(a, 0, "extract")?, &path_arg(a, 1, "extract")?, include.as_deref())
        },
    },
    Binding {
        name: "create",
        writes: true,
        run: |c, a| {
            let glob = string_option(a.get(2), "glob", "create")?;
            let format = string_option(a.get(2), "format", "create")?;
            create(c, &path_arg(a, 0, "create")?, &path_arg(a, 1, "create")?, glob.as_deref(), format.as_deref())
        },
    },
];

fn path_arg(args: &[Value], at: usize, op: &str) -> Result<VPath, ArchiveError> {
    let what = if at == 0 { "the archive's path" } else { "the directory or output path" };
    match args.get(at) {
        Some(Value::String(s)) => VPath::parse(s).map_err(|e| ArchiveError::Invalid(format!("{op}: {s}: {e}"))),
        other => Err(ArchiveError::Invalid(format!(
            "{op}: argument {} must be {what} as an absolute path string like '/inbox/data.zip', got {}",
            at + 1,
            other.map_or("nothing".to_owned(), Value::to_string)
        ))),
    }
}

fn string_option(options: Option<&Value>, key: &str, op: &str) -> Result<Option<String>, ArchiveError> {
    match options {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(map)) => {
            let known: &[&str] = if op == "extract" { &["include"] } else { &["glob", "format"] };
            if let Some(bad) = map.keys().find(|k| !known.contains(&k.as_str())) {
                return Err(ArchiveError::Invalid(format!(
                    "{op}: unknown option '{bad}' — {op} takes {{{}}}",
                    known.join(", ")
                )));
            }
            match map.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => {
                    Err(ArchiveError::Invalid(format!("{op}: option '{key}' must be a string, got {other}")))
                }
            }
        }
        Some(other) => {
            Err(ArchiveError::Invalid(format!("{op}: the third argument must be an options object, got {other}")))
        }
    }
}

fn read(call: &Call<'_>, path: &VPath) -> Result<Vec<u8>, ArchiveError> {
    call.fs.read(path).map_err(ArchiveError::Fs)
}

/// The summary `describe(path)` returns and the file handler shows.
pub fn summary(archive: &str, bytes: &[u8], limits: &Limits) -> Result<Value, ArchiveError> {
    let opened = Opened::open(archive, bytes, limits, limits.max_bytes)?;
    let files = opened.entries.iter().filter(|e| !matches!(e.kind, EntryKind::Directory | EntryKind::Meta)).count();
    let directories = opened.entries.iter().filter(|e| e.kind == EntryKind::Directory).count();
    let declared: u64 = opened.entries.iter().map(|e| e.bytes).sum();
    let sample: Vec<Value> = opened.entries.iter().take(12).map(entry_json).collect();
    let mut out = json!({
        "format": opened.format.name(),
        "bytes": bytes.len(),
        "entries": opened.entries.len(),
        "files": files,
        "directories": directories,
        "uncompressedBytes": declared,
        "sample": sample,
    });
    let refused: Vec<Value> = opened
        .entries
        .iter()
        .filter_map(|e| {
            let why = match (e.kind, e.encrypted, &e.unsupported_method, crate::names::resolve(&e.name)) {
                (_, _, _, crate::names::Resolved::Refused(why)) => why.to_owned(),
                (EntryKind::Refused(kind), ..) => kind.to_owned(),
                (_, true, ..) => "encrypted".to_owned(),
                (_, _, Some(m), _) => format!("compression method {m}"),
                _ => return None,
            };
            Some(json!({"name": e.name, "refused": why}))
        })
        .take(12)
        .collect();
    if opened.duplicate_names {
        out["duplicateNames"] = json!(true);
    }
    if !refused.is_empty() {
        out["refused"] = Value::Array(refused);
        out["note"] = json!("extract refuses these entries by name; leave them out with {include: 'glob'}");
    }
    Ok(out)
}

fn entry_json(e: &crate::read::Entry) -> Value {
    json!({"name": e.name, "bytes": e.bytes, "directory": e.kind == EntryKind::Directory})
}

/// `describe(path)`.
pub fn describe(call: &Call<'_>, path: &VPath) -> Result<Value, ArchiveError> {
    let bytes = read(call, path)?;
    summary(path.as_str(), &bytes, &call.limits)
}

/// `list(path)`: `[{name, bytes, directory}]`.
pub fn list(call: &Call<'_>, path: &VPath) -> Result<Value, ArchiveError> {
    let bytes = read(call, path)?;
    let opened = Opened::open(path.as_str(), &bytes, &call.limits, call.limits.max_bytes)?;
    Ok(Value::Array(opened.entries.iter().filter(|e| e.kind != EntryKind::Meta).map(entry_json).collect()))
}

/// `extract(path, dir, {include})`: the paths written.
pub fn extract(call: &Call<'_>, path: &VPath, dir: &VPath, include: Option<&str>) -> Result<Value, ArchiveError> {
    let bytes = read(call, path)?;
    let cap = call.limits.max_bytes;
    let mut opened = Opened::open(path.as_str(), &bytes, &call.limits, cap)?;
    let selected = opened.select(include)?;
    let declared: u64 = selected.iter().map(|s| opened.entries[s.index].bytes).sum();
    if declared > cap {
        return Err(ArchiveError::Bomb {
            archive: path.to_string(),
            what: format!("{} entries declaring {declared} bytes", selected.len()),
            budget: cap,
            cap,
        });
    }
    let targets: Vec<VPath> = selected
        .iter()
        .map(|s| {
            VPath::parse(&format!("{}/{}", dir.as_str().trim_end_matches('/'), s.relative)).map_err(|_| {
                ArchiveError::Traversal {
                    archive: path.to_string(),
                    entry: opened.entries[s.index].name.clone(),
                    why: "a name the tree cannot hold",
                }
            })
        })
        .collect::<Result<_, _>>()?;
    let mut job = call.budget.start(Plan {
        kind: JobKind::ArchiveEntry,
        job: format!("env:archives.extract {path}"),
        what: format!("extracting {} entries ({:.1} MiB)", selected.len(), declared as f64 / 1_048_576.0),
        total: selected.len() as u64,
        cost: declared as f64 / 1_048_576.0,
        smaller: "extract fewer entries per call: {include: 'folder/**'}".into(),
    })?;
    let mut written = 0u64;
    let mut out = Vec::new();
    for (i, (s, target)) in selected.iter().zip(&targets).enumerate() {
        job.check()?;
        let data = opened.inflate(s, cap - written)?;
        written += data.len() as u64;
        call.fs.write(target, &data).map_err(ArchiveError::Fs)?;
        out.push(Value::String(target.to_string()));
        job.step(i as u64 + 1)?;
    }
    job.finish();
    Ok(Value::Array(out))
}

/// `create(dir, output, {glob, format})`: `{path, format, entries, bytes}`.
pub fn create(
    call: &Call<'_>,
    dir: &VPath,
    output: &VPath,
    glob: Option<&str>,
    format: Option<&str>,
) -> Result<Value, ArchiveError> {
    let format = match format {
        Some(f) => Format::from_option(f).ok_or_else(|| {
            ArchiveError::Invalid(format!("create: format '{f}' is not one env:archives writes — use 'zip', 'tar' or 'tgz'"))
        })?,
        None => Format::from_name(output.as_str()).ok_or_else(|| {
            ArchiveError::Invalid(format!(
                "create: {output} does not say which format to write — end the name in .zip, .tar, .tar.gz or .tgz, or pass {{format: 'zip'}}"
            ))
        })?,
    };
    if !call.fs.is_dir(dir).map_err(ArchiveError::Fs)? {
        return Err(ArchiveError::Invalid(format!(
            "create: {dir} is not a directory — pass the folder whose files go in the archive"
        )));
    }
    let filter = glob.map(Glob::new);
    let base = dir.as_str().trim_end_matches('/');
    let mut files = Vec::new();
    let mut total = 0u64;
    for path in call.fs.glob(&format!("{base}/**")).map_err(ArchiveError::Fs)? {
        if &path == output {
            continue;
        }
        let Some(relative) = path.as_str().strip_prefix(base).map(|r| r.trim_start_matches('/').to_owned()) else {
            continue;
        };
        if relative.is_empty() || filter.as_ref().is_some_and(|g| !g.matches(&format!("/{relative}"))) {
            continue;
        }
        if files.len() == call.limits.max_entries {
            return Err(ArchiveError::TooManyEntries {
                archive: output.to_string(),
                count: files.len() + 1,
                limit: call.limits.max_entries,
            });
        }
        let data = read(call, &path)?;
        total += data.len() as u64;
        if total > call.limits.max_bytes {
            return Err(ArchiveError::Bomb {
                archive: output.to_string(),
                what: format!("the files under {dir}"),
                budget: call.limits.max_bytes,
                cap: call.limits.max_bytes,
            });
        }
        files.push((relative, data));
    }
    if files.is_empty() {
        return Err(ArchiveError::Invalid(match glob {
            Some(g) => format!(
                "create: glob '{g}' matches no file under {dir} — names are matched relative to {dir} (e.g. '**/*.csv')"
            ),
            None => format!("create: {dir} holds no files — nothing to archive"),
        }));
    }
    let mut job = call.budget.start(Plan {
        kind: JobKind::ArchiveEntry,
        job: format!("env:archives.create {output}"),
        what: format!("archiving {} files ({:.1} MiB)", files.len(), total as f64 / 1_048_576.0),
        total: files.len() as u64,
        cost: total as f64 / 1_048_576.0,
        smaller: "archive fewer files per call: {glob: 'folder/**'}".into(),
    })?;
    let bytes = build(format, &files)?;
    job.step(files.len() as u64)?;
    call.fs.write(output, &bytes).map_err(ArchiveError::Fs)?;
    job.finish();
    Ok(json!({"path": output, "format": format.name(), "entries": files.len(), "bytes": bytes.len()}))
}
