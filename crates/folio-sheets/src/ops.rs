//! The operations behind `env:spreadsheets`, one function per binding, over the agent's tree
//! through [`SheetFs`]. [`crate::bindings::BINDINGS`] is their one table.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use folio_budget::{JobKind, Plan, RunBudget};
use folio_render::{HostPaths, OfficeApp};
use serde_json::{Map, Value, json};

use crate::book::{Book, Format, detect};
use crate::cache::{Key, SheetCache};
use crate::error::{Result, SheetError};
use crate::flat::Flat;

/// Records returned by one `read` unless `limit` says otherwise.
pub const DEFAULT_LIMIT: usize = 1000;
/// The most records one `read` returns.
pub const MAX_LIMIT: usize = 100_000;
/// Sample records in `describe`.
pub const SAMPLE: usize = 3;

/// How the operations reach the agent's tree (the run's gateway; a host folder in tests).
pub trait SheetFs: Send + Sync {
    /// The whole content of a file.
    fn read(&self, path: &str) -> std::result::Result<Vec<u8>, String>;
    /// Creates or replaces a file (its directory is made when missing).
    fn write(&self, path: &str, bytes: &[u8]) -> std::result::Result<(), String>;
    /// Size and mtime (ms) of a file, `None` when absent.
    fn stat(&self, path: &str) -> std::result::Result<Option<(u64, i64)>, String>;
    /// The environment this tree belongs to (the cache's partition).
    fn scope(&self) -> u64;
}

/// What the module keeps for a host: the per-environment cache and where LibreOffice is.
pub struct SheetsHost {
    /// Flattened sheets by environment.
    pub cache: SheetCache,
    host: HostPaths,
    soffice: Option<PathBuf>,
    profile: PathBuf,
    office_timeout: Duration,
    office_memory_mb: u64,
}

impl SheetsHost {
    /// A host discovering LibreOffice as `host` says, recalculating on the default recalc profile.
    pub fn new(host: HostPaths) -> SheetsHost {
        SheetsHost {
            cache: SheetCache::default(),
            host,
            soffice: None,
            profile: folio_render::recalc::recalc_profile_dir(),
            office_timeout: Duration::from_secs(120),
            office_memory_mb: 2048,
        }
    }

    /// This machine (`state_dir`: Folio's state directory, for discovery).
    pub fn from_host(state_dir: Option<PathBuf>) -> SheetsHost {
        SheetsHost::new(HostPaths::from_host(state_dir))
    }

    /// Uses this LibreOffice executable.
    pub fn with_soffice(mut self, soffice: Option<PathBuf>) -> SheetsHost {
        self.soffice = soffice;
        self
    }

    /// Recalculates on this profile directory.
    pub fn with_profile(mut self, profile: PathBuf) -> SheetsHost {
        self.profile = profile;
        self
    }
}

/// One binding call: the host, the tree, the run's budget, and the binding's name.
pub struct Call<'a> {
    /// The host.
    pub host: &'a SheetsHost,
    /// The tree.
    pub fs: &'a dyn SheetFs,
    /// The run's budget.
    pub budget: &'a RunBudget,
    /// The binding (`read`).
    pub op: &'static str,
}

/// Argument `i` as a tree path.
pub fn path_arg(args: &[Value], i: usize, what: &str) -> Result<String> {
    match args.get(i) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(SheetError::invalid(format!("argument {} must be the {what} path, such as '/in/sales.xlsx'", i + 1))),
    }
}

/// Argument `i` as an options object (missing: empty).
pub fn opts_arg(args: &[Value], i: usize) -> Result<Map<String, Value>> {
    match args.get(i) {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(other) => Err(SheetError::invalid(format!("argument {} must be an options object, not {other}", i + 1))),
    }
}

fn usize_opt(o: &Map<String, Value>, key: &str, default: usize) -> Result<usize> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .map(|n| n as usize)
            .ok_or_else(|| SheetError::invalid(format!("{key} must be a whole number ≥ 0, not {v}"))),
    }
}

impl Call<'_> {
    /// The job name progress and errors use.
    pub fn job(&self, path: &str) -> String {
        format!("env:spreadsheets.{} {path}", self.op)
    }

    /// The bytes of `path`.
    pub fn read_bytes(&self, path: &str) -> Result<Vec<u8>> {
        self.fs.read(path).map_err(SheetError::Tree)
    }

    /// Writes `bytes` to `path` and drops its cached sheets.
    pub fn write_bytes(&self, path: &str, bytes: &[u8]) -> Result<()> {
        self.host.cache.forget(self.fs.scope(), path);
        let r = self.fs.write(path, bytes).map_err(SheetError::Tree);
        self.host.cache.forget(self.fs.scope(), path);
        r
    }

    /// Starts a rows job of about `rows` rows.
    pub fn rows_job(&self, path: &str, rows: u64, what: &str) -> Result<folio_budget::Job> {
        Ok(self.budget.start(Plan {
            kind: JobKind::SheetRows,
            job: self.job(path),
            what: what.to_string(),
            total: rows.max(1),
            cost: rows.max(1) as f64 / 1000.0,
            smaller: "read fewer rows per call ({offset, limit}) or split the workbook".into(),
        })?)
    }

    /// Sheet `wanted` of `path` flattened (from the environment's cache when the file has not
    /// changed), with its format and the workbook's worksheet names.
    pub fn flat(&self, path: &str, wanted: Option<&Value>, formulas: bool) -> Result<(Arc<Flat>, Format, Vec<String>)> {
        let fingerprint = self.fs.stat(path).map_err(SheetError::Tree)?;
        let scope = self.fs.scope();
        if let Some(fp) = fingerprint
            && let Some((format, names)) = self.host.cache.book(scope, path, fp)
        {
            let name = crate::book::resolve(path, &names, wanted)?;
            let key = Key { path: path.into(), fingerprint: fp, sheet: name, formulas };
            if let Some(flat) = self.host.cache.get(scope, &key) {
                return Ok((flat, format, names));
            }
        }
        let bytes = self.read_bytes(path)?;
        let format = detect(path, &bytes)?;
        let estimate = (bytes.len() as u64 / if format == Format::Csv { 60 } else { 40 }).max(1);
        let mut job = self.rows_job(path, estimate, &format!("reading about {estimate} rows"))?;
        let (flat, names) = if format == Format::Csv {
            let delim = None;
            let flat = crate::csvio::read(path, &bytes, delim)?;
            let names = vec![flat.name.clone()];
            crate::book::resolve(path, &names, wanted)?;
            (flat, names)
        } else {
            let mut book = Book::open(path, &bytes, format)?;
            let names = book.worksheets();
            let name = book.resolve(wanted)?;
            let range = book.range(&name)?;
            let mut flat = Flat::from_range(&name, &range);
            if formulas {
                flat = flat.with_formulas(&book.formulas(&name)?);
            }
            (flat, names)
        };
        job.step(estimate)?;
        job.finish();
        let flat = Arc::new(flat);
        if let Some(fp) = fingerprint {
            self.host.cache.put_book(scope, path, fp, format, names.clone());
            let key = Key { path: path.into(), fingerprint: fp, sheet: flat.name.clone(), formulas };
            self.host.cache.put(scope, key, Arc::clone(&flat));
        }
        Ok((flat, format, names))
    }
}

fn header_row(o: &Map<String, Value>) -> Result<usize> {
    usize_opt(o, "headerRow", 1)
}

pub(crate) fn describe(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let bytes = call.read_bytes(&path)?;
    let format = detect(&path, &bytes)?;
    let (_, _, names) = call.flat(&path, None, false)?;
    let mut sheets = Vec::new();
    for name in &names {
        let (flat, _, _) = call.flat(&path, Some(&Value::String(name.clone())), false)?;
        sheets.push(summary(&flat));
    }
    let mut out = json!({"path": path, "format": format.name(), "bytes": bytes.len(), "sheets": sheets});
    if format == Format::Xlsm {
        out["macros"] = json!("the workbook carries a VBA project; it is never run here, and update/append keep it");
    }
    Ok(out)
}

/// One sheet as describe shows it: name, records, columns, headers, a sample.
pub fn summary(flat: &Flat) -> Value {
    let headers = flat.headers(1);
    let data = flat.data_rows(1);
    let sample: Vec<Value> = data.iter().take(SAMPLE).map(|i| flat.record(*i, &headers)).collect();
    json!({"name": flat.name, "rows": data.len(), "columns": headers.len(), "headers": headers, "sample": sample})
}

pub(crate) fn sheets(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let bytes = call.read_bytes(&path)?;
    let format = detect(&path, &bytes)?;
    if format == Format::Csv {
        return Ok(json!([crate::csvio::stem(&path)]));
    }
    Ok(json!(Book::open(&path, &bytes, format)?.names()))
}

pub(crate) fn read(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let o = opts_arg(args, 1)?;
    let formulas = o.get("formulas").and_then(Value::as_bool).unwrap_or(false);
    let (flat, _, _) = call.flat(&path, o.get("sheet"), formulas)?;
    let hr = header_row(&o)?;
    let headers = flat.headers(hr);
    let data = flat.data_rows(hr);
    let offset = usize_opt(&o, "offset", 0)?;
    let limit = usize_opt(&o, "limit", DEFAULT_LIMIT)?;
    if limit > MAX_LIMIT {
        return Err(SheetError::invalid(format!(
            "limit {limit} is over the {MAX_LIMIT} records one read returns — hint: page with {{offset, limit}}"
        )));
    }
    let page: Vec<usize> = data.iter().skip(offset).take(limit).copied().collect();
    let rows: Vec<Value> = page.iter().map(|i| flat.record(*i, &headers)).collect();
    let next = offset + page.len();
    let mut out = json!({
        "sheet": flat.name,
        "headers": headers,
        "rows": rows,
        "totalRows": data.len(),
        "offset": offset,
        "nextOffset": if next < data.len() { json!(next) } else { Value::Null },
    });
    if formulas {
        out["formulas"] = Value::Array(page.iter().map(|i| flat.record_formulas(*i, &headers)).collect());
    }
    Ok(out)
}

pub(crate) fn read_rows(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let o = opts_arg(args, 1)?;
    let (flat, _, _) = call.flat(&path, o.get("sheet"), false)?;
    let offset = usize_opt(&o, "offset", 0)?;
    let limit = usize_opt(&o, "limit", MAX_LIMIT)?.min(MAX_LIMIT);
    Ok(Value::Array(flat.rows.iter().skip(offset).take(limit).map(|r| Value::Array(r.clone())).collect()))
}

pub(crate) fn check(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let bytes = call.read_bytes(&path)?;
    let format = detect(&path, &bytes)?;
    if format == Format::Csv {
        return Ok(
            json!({"ok": true, "formulas": 0, "errorCount": 0, "errors": [], "uncachedCount": 0, "uncached": [], "path": path}),
        );
    }
    let mut book = Book::open(&path, &bytes, format)?;
    let mut out = crate::check::check(&mut book)?;
    out["path"] = json!(path);
    Ok(out)
}

pub(crate) fn recalculate(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = path_arg(args, 0, "workbook")?;
    let o = opts_arg(args, 1)?;
    let out_path = o.get("out").and_then(Value::as_str).map_or_else(|| path.clone(), str::to_string);
    let bytes = call.read_bytes(&path)?;
    match detect(&path, &bytes)? {
        Format::Xlsx => {}
        Format::Xlsm => {
            return Err(SheetError::Unsupported {
                path,
                detail: "recalculating a macro workbook would drop its macros".into(),
                hint: "open it in Excel to recalculate, or write the data to a .xlsx with create and recalculate that"
                    .into(),
            });
        }
        other => {
            return Err(SheetError::Unsupported {
                path,
                detail: format!("recalculate works on .xlsx files, and this is {}", other.name()),
                hint: "write it as .xlsx (fromCsv, write or create), then recalculate that".into(),
            });
        }
    }
    let host = call.host;
    let soffice = folio_render::office::find_soffice(host.soffice.as_deref(), &host.host).map_err(|tried| {
        SheetError::Office(format!(
            "{path}: recalculate needs LibreOffice, and none was found ({tried}) — hint: {}; until then the cached values written by create stand, and check(path) lists the formula cells without one",
            host.host.platform.office_fix(&[OfficeApp::Calc])
        ))
    })?;
    let mut job = call.budget.start(Plan {
        kind: JobKind::OfficeConvert,
        job: call.job(&path),
        what: "recalculating it with LibreOffice".into(),
        total: 1,
        cost: 1.0,
        smaller: "recalculate in a run of its own".into(),
    })?;
    let limits = job.child_limits(host.office_timeout, host.office_memory_mb);
    let name = path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or("book.xlsx");
    let done =
        folio_render::recalc::recalculate(name, &bytes, &soffice, &host.profile, &limits).map_err(|e| match e {
            folio_render::RenderError::OutOfBudget { .. } => SheetError::Budget(job.out_of_time()),
            other => SheetError::Office(other.to_string().replace("to PDF", "to xlsx")),
        })?;
    // Only the values go back into the original: every other part and node stays as it was.
    let (done, changed) = crate::values::merge(&path, &bytes, &done)?;
    job.step(1)?;
    job.finish();
    call.write_bytes(&out_path, &done)?;
    let format = detect(&out_path, &done)?;
    let mut book = Book::open(&out_path, &done, format)?;
    let mut report = crate::check::check(&mut book)?;
    report["path"] = json!(out_path);
    report["recalculated"] = json!(true);
    report["changedCells"] = json!(changed);
    Ok(report)
}
