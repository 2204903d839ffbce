//! Real and hostile files (issue 18, item 7): every file of the shared corpus
//! (`../shared/corpus`, or `$FOLIO_CORPUS`) and every file [`made`] makes goes through the five
//! things a person or the agent does with a file — `describe`, `read_file`, a render
//! (`env:render.rasterize` from a script, the first pages), `ls` of its folder, and the desktop
//! preview (the same `Previews` functions the preview commands call) — each run on its own
//! thread under a wall-clock bound. Every answer is checked against [`expect::RULES`]: a useful
//! answer, or an error that names the file or carries a `hint:`; never a panic, never a hang.
//!
//! The corpus is never copied into the repository: it is copied into a temporary folder the
//! test opens (so nothing can write beside the shared copy), and when it is absent the corpus
//! rows are skipped with the reason printed — the made files still run. With
//! `FOLIO_RELIABILITY_DIR` set, every row (file, operation, outcome, elapsed ms) and the totals
//! are written to `$FOLIO_RELIABILITY_DIR/corpus.json`.
//!
//! Office files go through LibreOffice, one conversion at a time, on a worker of their own
//! with a longer bound; the other files run on a second worker beside it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod expect;
mod made;
mod procs;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use folio_desktop::api::{PreviewKind, PreviewTableParams};
use folio_desktop::preview::{Previews, Version, commands::table_response};
use folio_desktop::session::Session;
use folio_env::Status;
use serde_json::{Value, json};

use expect::Op;

/// The bound of one operation on a file LibreOffice does not touch.
const BOUND: Duration = Duration::from_secs(20);
/// The bound of a render or preview that goes through LibreOffice (its own timeout is shorter,
/// so a named timeout can arrive inside it).
const OFFICE_BOUND: Duration = Duration::from_secs(14);
/// LibreOffice's timeout in the preview, and the script's run budget for an Office render.
const OFFICE_TIMEOUT: Duration = Duration::from_secs(10);

/// The render script: rasterizes the first page of a file into /tmp.
const RENDER_JS: &str = r#"import { rasterize } from 'env:render';

/** Renders the first pages of a file, for the corpus test. */
export default async function ({ path, out, pages }) {
  const r = await rasterize(path, out, { pages, width: 200 });
  return r.kind + ': ' + r.pages.length + ' of ' + r.pageCount + ' pages' + (r.warnings.length ? ' (' + r.warnings.join('; ') + ')' : '');
}
"#;

/// One file to try.
#[derive(Clone)]
struct Case {
    /// The path in the opened folder.
    vpath: String,
    /// The expectation table's category: the corpus folder, or the made file's category.
    category: String,
    /// `corpus` or `made`.
    source: &'static str,
    /// True when its render goes through LibreOffice.
    office: bool,
}

/// What one operation gave.
#[derive(Debug, Clone)]
enum Outcome {
    Answer(String),
    Error(String),
    Timeout,
    Panic(String),
}

impl Outcome {
    fn label(&self) -> String {
        let cut = |s: &str| s.chars().take(120).collect::<String>();
        match self {
            Outcome::Answer(s) => format!("ok: {}", cut(s)),
            Outcome::Error(s) => format!("error: {}", cut(s)),
            Outcome::Timeout => "timeout".into(),
            Outcome::Panic(s) => format!("panic: {}", cut(s)),
        }
    }
    fn class(&self) -> &'static str {
        match self {
            Outcome::Answer(_) => "ok",
            Outcome::Error(_) => "error",
            Outcome::Timeout => "timeout",
            Outcome::Panic(_) => "panic",
        }
    }
}

struct Row {
    case: Case,
    op: Op,
    outcome: Outcome,
    ms: u128,
    /// Why the row breaks its expectation, if it does.
    broken: Option<String>,
}

/// Runs `job` on its own thread, waiting at most `bound`; a job still running is left behind
/// (its thread ends with the process) and reported as a timeout.
fn bounded(bound: Duration, job: impl FnOnce() -> Result<String, String> + Send + 'static) -> (Outcome, u128) {
    let (tx, rx) = mpsc::channel();
    let started = Instant::now();
    let spawned = std::thread::Builder::new().name("corpus-op".into()).spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        let _ = tx.send(result);
    });
    if let Err(e) = spawned {
        return (Outcome::Panic(format!("the thread could not start: {e}")), 0);
    }
    let outcome = match rx.recv_timeout(bound) {
        Ok(Ok(Ok(answer))) => Outcome::Answer(answer),
        Ok(Ok(Err(error))) => Outcome::Error(error),
        Ok(Err(payload)) => Outcome::Panic(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default(),
        ),
        Err(_) => Outcome::Timeout,
    };
    (outcome, started.elapsed().as_millis())
}

/// A verb's result as an outcome: the message, or for `describe` the summary (a handler's
/// error reported beside the generic summary counts as an error).
fn verb(session: &Session, name: &str, args: Value) -> Result<String, String> {
    let result = session.environment().call(name, args);
    if result.status == Status::Error {
        return Err(result.message);
    }
    if let Some(error) = result.data.get("module_error").and_then(Value::as_str) {
        return Err(error.to_string());
    }
    if result.data.is_object() {
        let d = &result.data;
        let mut parts = Vec::new();
        for key in ["module", "kind", "format", "page_count", "pageCount", "pages", "sheets", "width", "height"] {
            if let Some(v) = d.get(key).filter(|v| !v.is_null()) {
                parts.push(format!("{key}={}", v.to_string().chars().take(40).collect::<String>()));
            }
        }
        return Ok(if parts.is_empty() { d.to_string() } else { parts.join(" ") });
    }
    Ok(result.message.lines().next().unwrap_or_default().to_string())
}

fn parent(vpath: &str) -> String {
    match vpath.rfind('/') {
        Some(0) | None => "/".into(),
        Some(i) => vpath[..i].into(),
    }
}

fn file_name(vpath: &str) -> &str {
    vpath.rsplit('/').next().unwrap_or(vpath)
}

/// What the desktop does when the file is selected: `preview_info`, then what the pane loads
/// for that kind (a document's page count and first page, a table's first rows, a text's text).
fn preview(session: &Session, previews: &Previews, vpath: &str) -> Result<String, String> {
    let info = previews.info(session, vpath).map_err(String::from)?;
    let at = folio_vfs::VPath::parse(vpath).map_err(|e| e.to_string())?;
    let shown = match info.kind {
        PreviewKind::Pdf | PreviewKind::Office | PreviewKind::Tiff => {
            let pages = previews.pages(session, vpath).map_err(String::from)?;
            let png = previews.page_png(session, &at, Version::Current, 1, 400).map_err(String::from)?;
            format!("{} pages, page 1 is {} bytes of PNG", pages.page_count, png.len())
        }
        PreviewKind::Csv | PreviewKind::Spreadsheet => {
            let params = PreviewTableParams { path: vpath.to_string(), sheet: None, limit: Some(50) };
            let t = table_response(session, params).map_err(String::from)?;
            format!("{} of {} rows", t.rows.len(), t.total_rows)
        }
        PreviewKind::Text | PreviewKind::Markdown | PreviewKind::Json | PreviewKind::Code | PreviewKind::Scene => {
            let read = session.read(vpath)?;
            format!("{} bytes, text shown: {}", read.size, read.text.is_some())
        }
        PreviewKind::Video | PreviewKind::Audio => match &info.media {
            Some(m) => format!("{:?} video {:?} audio {:?}", m.container, m.video_codec, m.audio_codec),
            None => "no probe".into(),
        },
        PreviewKind::Email => {
            let m = previews.email(session, vpath).map_err(String::from)?;
            format!("from {:?}, subject {:?}, {} attachment(s)", m.from, m.subject, m.attachments.len())
        }
        PreviewKind::Image | PreviewKind::Binary => info.note.clone().unwrap_or_else(|| info.media_type.clone()),
    };
    Ok(format!("{:?}: {shown}", info.kind))
}

/// Runs the five operations on one file.
fn try_case(session: &Arc<Session>, previews: &Arc<Previews>, case: &Case, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for op in Op::ALL {
        let (s, p, vpath) = (session.clone(), previews.clone(), case.vpath.clone());
        let bound = if case.office && matches!(op, Op::Render | Op::Preview) { OFFICE_BOUND } else { BOUND };
        let (outcome, ms) = bounded(bound, move || match op {
            Op::Describe => verb(&s, "describe", json!({ "path": vpath })),
            Op::Read => verb(&s, "read_file", json!({ "path": vpath })),
            Op::Ls => {
                let listing = verb(&s, "ls", json!({ "path": parent(&vpath) }))?;
                let full = s.environment().call("ls", json!({ "path": parent(&vpath) })).message;
                let name = file_name(&vpath);
                let escaped = format!("{name:?}");
                match full.contains(name) || full.contains(escaped.trim_matches('"')) {
                    true => Ok(listing),
                    false => Err(format!("the listing of {} does not name {}", parent(&vpath), file_name(&vpath))),
                }
            }
            Op::Render => {
                let timeout = if matches!(bound, OFFICE_BOUND) { OFFICE_TIMEOUT } else { BOUND };
                let args = json!({ "path": vpath, "out": format!("/tmp/corpus-render/{n}"), "pages": [1] });
                let timeout_ms = timeout.as_millis() as u64 - 1000;
                let r = s.environment().call(
                    "run_script",
                    json!({ "path": "/scripts/corpus-render.js", "args": args, "timeout_ms": timeout_ms }),
                );
                match r.status {
                    Status::Success => Ok(r.message.lines().skip(1).collect::<Vec<_>>().join(" ")),
                    Status::Error => Err(r.message),
                }
            }
            Op::Preview => preview(&s, &p, &vpath),
        });
        if case.office && matches!(op, Op::Render | Op::Preview) {
            // A safety net that must find nothing: the budget facility ends a conversion's whole
            // process group with its run. Whatever it ends is counted and fails the test.
            procs::end_own_office_children();
        }
        let broken = expect::check(&case.category, &case.vpath, case.office, op, &outcome);
        rows.push(Row { case: case.clone(), op, outcome, ms, broken });
    }
    rows
}

/// The corpus folder, or why there is none.
fn corpus_dir() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("FOLIO_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    let dir = dir.canonicalize().unwrap_or(dir);
    match dir.join("MANIFEST.md").is_file() {
        true => Ok(dir),
        false => Err(format!(
            "no corpus at {} (set FOLIO_CORPUS, or put it beside the repository as ../shared/corpus)",
            dir.display()
        )),
    }
}

/// Copies the corpus files (not its MANIFEST.md or SHA256SUMS) below `into`, returning the cases.
fn copy_corpus(from: &Path, into: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(from).unwrap().flatten().filter(|e| e.path().is_dir()).collect();
    dirs.sort_by_key(|e| e.file_name());
    for dir in dirs {
        let category = dir.file_name().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
        files.sort_by_key(|e| e.file_name());
        for file in files {
            let name = file.file_name().to_string_lossy().into_owned();
            std::fs::create_dir_all(into.join(&category)).unwrap();
            std::fs::copy(file.path(), into.join(&category).join(&name)).unwrap();
            let vpath = format!("/corpus/{category}/{name}");
            let office = is_office(&vpath, &std::fs::read(file.path()).unwrap_or_default());
            cases.push(Case { vpath, category: category.clone(), source: "corpus", office });
        }
    }
    cases
}

fn is_office(vpath: &str, bytes: &[u8]) -> bool {
    folio_kinds::FileKind::detect(vpath, &bytes[..bytes.len().min(8192)]).is_some_and(|k| k.office().is_some())
}

/// Writes the made files below `into`; names the OS refuses are returned as refused.
fn write_made(into: &Path) -> (Vec<Case>, Vec<String>) {
    let mut cases = Vec::new();
    let mut refused = Vec::new();
    let nul = into.join("names/nul\0name.txt");
    if let Err(e) = std::fs::write(&nul, b"x") {
        refused.push(format!("names/nul\\0name.txt: the OS refuses the name ({e})"));
    }
    for m in made::all() {
        let target = into.join(&m.name);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        match std::fs::write(&target, &m.bytes) {
            Ok(()) => {
                let vpath = format!("/made/{}", m.name);
                let office = is_office(&vpath, &m.bytes);
                cases.push(Case { vpath, category: m.category.into(), source: "made", office });
            }
            Err(e) => refused.push(format!("{}: {e}", m.name)),
        }
    }
    (cases, refused)
}

#[test]
fn every_real_and_hostile_file_gets_an_answer_or_a_named_error_within_its_bound() {
    let started = Instant::now();
    let root = tempfile::tempdir().unwrap();
    let (folder, state) = (root.path().join("folder"), root.path().join("state"));
    std::fs::create_dir_all(folder.join("scripts")).unwrap();
    std::fs::write(folder.join("scripts/corpus-render.js"), RENDER_JS).unwrap();
    let mut cases = Vec::new();
    let corpus = match corpus_dir() {
        Ok(dir) => {
            cases.extend(copy_corpus(&dir, &folder.join("corpus")));
            Some(dir.display().to_string())
        }
        Err(why) => {
            println!("corpus rows skipped: {why}; the made files still run");
            None
        }
    };
    let (made_cases, os_refused) = write_made(&folder.join("made"));
    cases.extend(made_cases);

    let session = Arc::new(Session::open(&folder, Some(state.clone())).unwrap());
    let mut previews = Previews::new(Some(state));
    previews.renderer.office_timeout = OFFICE_TIMEOUT;
    let previews = Arc::new(previews);

    // Two workers: LibreOffice's files (one conversion at a time anyway), the rest beside them.
    // The Office files most likely to exhaust their bound go last.
    let (mut office, rest): (Vec<_>, Vec<_>) = cases.iter().cloned().enumerate().partition(|(_, c)| c.office);
    office.sort_by_key(|(_, c)| (c.vpath.contains("hostile/dos-"), c.source == "made", c.vpath.contains("hostile/")));
    // Collected so both start before either is joined.
    #[allow(clippy::needless_collect)]
    let workers: Vec<_> = [office, rest]
        .into_iter()
        .map(|queue| {
            let (s, p) = (session.clone(), previews.clone());
            std::thread::spawn(move || queue.iter().flat_map(|(n, c)| try_case(&s, &p, c, *n)).collect::<Vec<_>>())
        })
        .collect();
    let mut rows: Vec<Row> = workers.into_iter().flat_map(|w| w.join().unwrap()).collect();
    procs::end_own_office_children();
    rows.sort_by(|a, b| a.case.vpath.cmp(&b.case.vpath).then((a.op as u8).cmp(&(b.op as u8))));
    let secs = started.elapsed().as_secs_f64();

    for row in &rows {
        let mark = if row.broken.is_some() { "BROKEN" } else { "ok" };
        println!("{mark:6} {:>6} ms {:8} {} — {}", row.ms, row.op.name(), row.case.vpath, row.outcome.label());
    }
    let count = |class: &str| rows.iter().filter(|r| r.outcome.class() == class).count();
    let broken: Vec<&Row> = rows.iter().filter(|r| r.broken.is_some()).collect();
    let totals = json!({
        "files": cases.len(),
        "corpus_files": cases.iter().filter(|c| c.source == "corpus").count(),
        "made_files": cases.iter().filter(|c| c.source == "made").count(),
        "operations": rows.len(),
        "ok": count("ok"), "named_errors": count("error"), "timeouts": count("timeout"), "panics": count("panic"),
        // Named errors that are a run budget or LibreOffice's own timeout ending the work.
        "named_time_limits": rows.iter().filter(|r| matches!(&r.outcome, Outcome::Error(e)
            if e.contains("exceeded the wall-clock limit") || e.contains("did not finish within"))).count(),
        // LibreOffice processes still running after their run had ended, which the test ended.
        "office_orphans_ended": procs::ENDED.load(std::sync::atomic::Ordering::Relaxed),
        "broken_expectations": broken.len(),
        "secs": (secs * 10.0).round() / 10.0,
    });
    println!("totals: {totals}");
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let files: Vec<Value> = cases
            .iter()
            .map(|c| {
                let ops: serde_json::Map<String, Value> = rows
                    .iter()
                    .filter(|r| r.case.vpath == c.vpath)
                    .map(|r| {
                        let outcome = match &r.outcome {
                            Outcome::Answer(_) => "ok".to_string(),
                            Outcome::Error(e) => e.chars().take(120).collect(),
                            Outcome::Timeout => "timeout".into(),
                            Outcome::Panic(p) => format!("panic: {}", p.chars().take(100).collect::<String>()),
                        };
                        let mut v = json!({ "outcome": outcome, "class": r.outcome.class(), "ms": r.ms as u64,
                            "expected": r.broken.is_none() });
                        if let Outcome::Answer(a) = &r.outcome {
                            v["answer"] = json!(a.chars().take(120).collect::<String>());
                        }
                        (r.op.name().to_string(), v)
                    })
                    .collect();
                json!({ "path": c.vpath, "source": c.source, "category": c.category, "ops": ops })
            })
            .collect();
        let report = json!({ "area": "corpus", "corpus": corpus, "totals": totals, "os_refused_names": os_refused,
            "files": files });
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(Path::new(&dir).join("corpus.json"), serde_json::to_vec_pretty(&report).unwrap()).unwrap();
    }
    let list: Vec<String> = broken
        .iter()
        .map(|r| {
            format!("{} {}: {} ({})", r.op.name(), r.case.vpath, r.outcome.label(), r.broken.as_deref().unwrap_or(""))
        })
        .collect();
    assert!(list.is_empty(), "{} rows break their expectation:\n{}", list.len(), list.join("\n"));
    // The budget facility kills a conversion's whole process group when its run ends: nothing
    // may be left for the safety net above to end.
    assert_eq!(totals["office_orphans_ended"], 0, "LibreOffice processes outlived their run");
}
