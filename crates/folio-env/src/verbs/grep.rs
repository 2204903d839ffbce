//! `grep`: a JavaScript-flavoured regex (lookaround and backreferences included, via
//! fancy-regex) over text files, capped, with optional context. The run log
//! `/.env/history.jsonl` is searchable too; undo blobs and checkpoint blobs are not (they would
//! echo every old version of every file) unless the search is rooted inside them.
//!
//! Files are searched on every core this host has (scoped threads pulling files off a shared
//! index), and the results merged in path order, so a search is as deterministic as a
//! one-threaded one. A file whose whole text cannot match (tested once on the whole buffer, for
//! patterns with no anchors or lookaround, where that is exact) is never split into lines.
//! Every match is counted, so a reply always says how many there were, how many it shows, and
//! which cap cut the rest: `max_matches` (default [`DEFAULT_MATCHES`], at most [`MAX_MATCHES`])
//! or the reply's size — matches past what a reply holds are in a `/tmp/grep-*.txt` file.

use folio_vfs::{Glob, Kind, Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{clip_line, fmt_count};

/// Matches kept when `max_matches` is not given.
pub const DEFAULT_MATCHES: usize = 100;
/// The most `max_matches` may ask for.
pub const MAX_MATCHES: usize = 10_000;

/// Tool description of `grep`.
pub const GREP_DOC: &str = "Search file contents with a JavaScript regular expression. Scope it with `path` (a file or directory) and `glob` (e.g. /scripts/**/*.js); `context` adds lines around each match; results stop at `max_matches` (default 100, at most 10,000) and the reply says how many matched in all — matches past what one reply holds are written to a /tmp/grep-*.txt file the reply names. `documents: true` also searches the text inside documents a module can read (PDF, DOCX, XLSX, PPTX…), naming the page, sheet or slide of each match. `ocr: true` also searches scanned pages (images, PDF pages with no text layer) through text recognition where tesseract is installed (refused, naming the install, where it is not) — seconds a page, estimated up front and refused when the run budget cannot fit it; a scan recognised once is searched instantly after (scans are searched one file at a time). Text in UTF-16, cp1252 or latin-1 and CR-only line endings is read as text. /.env/history.jsonl holds the run log.";

/// Arguments of `grep`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrepArgs {
    /// The regular expression (JavaScript syntax, no flags).
    pub pattern: String,
    /// A file or directory to search (default /).
    pub path: Option<String>,
    /// Only files whose full path matches this glob.
    pub glob: Option<String>,
    /// Lines of context before and after each match (0–10).
    pub context: Option<u64>,
    /// Keep at most this many matches (1–10,000, default 100); the reply counts them all.
    pub max_matches: Option<u64>,
    /// Also search the text inside documents (PDF, DOCX, XLSX, PPTX…) that a registered module
    /// can read; matches name the page, sheet or slide (default false).
    pub documents: Option<bool>,
    /// Also search scanned pages (images, PDF pages with no text layer) through text recognition
    /// (tesseract); matches name the page and say OCR (default false; seconds a page the first
    /// time, instant after).
    pub ocr: Option<bool>,
}

/// What one file gave: its match blocks (at most the cap), how many matched in all, and why it
/// was not searched, if it was not.
#[derive(Default)]
struct FileHits {
    blocks: Vec<String>,
    matched: usize,
    scanned: bool,
    too_large: bool,
    unreadable: Option<String>,
}

/// Where and how to search: shared by the worker threads.
struct Search<'a> {
    env: &'a Environment,
    regex: fancy_regex::Regex,
    /// True when a file whose whole text does not match has no matching line.
    prefilter: bool,
    /// True when, besides, no match can hold a line break (see [`Search::by_matches`]).
    single_line: bool,
    max: usize,
    context: usize,
    documents: bool,
    cap: u64,
    /// With `ocr: true`: the budget recognition runs under, and the files it already failed on.
    ocr: Option<(folio_budget::RunBudget, std::collections::HashSet<VPath>)>,
}

/// `grep`.
pub fn grep(env: &Environment, args: GrepArgs) -> Result<Reply> {
    let regex = fancy_regex::Regex::new(&args.pattern)
        .map_err(|e| EnvError::refused(format!("invalid regex \"{}\": {e} — fix the pattern (JavaScript syntax; escape ( [ . * + ? with a backslash to match them literally)", args.pattern)))?;
    let asked = args.max_matches.unwrap_or(DEFAULT_MATCHES as u64);
    if asked == 0 || asked > MAX_MATCHES as u64 {
        return Err(EnvError::refused(format!(
            "max_matches {asked} is outside 1–{} — ask for at most {} (the reply counts every match anyway), or narrow the pattern",
            fmt_count(MAX_MATCHES),
            fmt_count(MAX_MATCHES)
        )));
    }
    let root = VPath::parse(args.path.as_deref().unwrap_or("/"))?;
    let context = args.context.unwrap_or(0).min(10) as usize;
    let tree = env.tree();
    let mut files = match tree.stat(&root)? {
        None => return Err(VfsError::NoSuchEntry(root).into()),
        Some(s) if s.kind == Kind::File => vec![root.clone()],
        Some(_) => tree.walk(&root)?,
    };
    let hidden = ["/.env/versions", "/.env/checkpoints"].map(|h| VPath::parse(h).unwrap_or_else(|_| VPath::root()));
    files.retain(|f| !hidden.iter().any(|h| f.is_under(h) && !root.is_under(h)));
    if let Some(g) = &args.glob {
        let glob = Glob::new(g);
        files.retain(|f| glob.matches(f.as_str()));
    }
    let prefilter = !["^", "$", "(?", "\\A", "\\z", "\\Z"].iter().any(|t| args.pattern.contains(t));
    // Conservative: any class or escape that could match a line break keeps the per-line scan.
    let single_line = prefilter
        && !["[^", "\\s", "\\W", "\\D", "\\n", "\\r", "\\x", "\\u", "\\p", "\\P", "\\c", "\\0", "\n"]
            .iter()
            .any(|t| args.pattern.contains(t));
    let cap = env.gateway.limits().max_file_bytes;
    let mut unreadable: Vec<String> = Vec::new();
    let ocr = if args.ocr.unwrap_or(false) {
        // Asked for recognition where no module recognises: said, not searched as if nothing matched.
        if !env.opts.handlers.iter().any(|h| h.module() == "ocr") {
            return Err(EnvError::refused(
                "grep with ocr: true needs text recognition, and tesseract is not installed here — install it (apt install tesseract-ocr; brew install tesseract; winget install UB-Mannheim.TesseractOCR) and open the folder again, or search without ocr",
            ));
        }
        let mut failed = std::collections::HashSet::new();
        Some((ocr_budget(env, &files, cap, &mut unreadable, &mut failed)?, failed))
    } else {
        None
    };
    let search = Search {
        env,
        regex,
        prefilter,
        single_line,
        max: asked as usize,
        context,
        documents: args.documents.unwrap_or(false),
        cap,
        ocr,
    };
    let results = search_all(&search, &files);
    let mut blocks = Vec::new();
    let (mut matched, mut scanned) = (0, 0);
    let mut too_large: Vec<&VPath> = Vec::new();
    for (file, hits) in files.iter().zip(results) {
        matched += hits.matched;
        scanned += usize::from(hits.scanned);
        if hits.too_large {
            too_large.push(file);
        }
        unreadable.extend(hits.unreadable);
        let room = search.max.saturating_sub(blocks.len());
        blocks.extend(hits.blocks.into_iter().take(room));
    }
    let skipped = if too_large.is_empty() {
        String::new()
    } else {
        let named: Vec<String> = too_large.iter().take(5).map(|f| f.to_string()).collect();
        format!(
            "\n{} file(s) over the {cap}-byte cap (limits.max_file_bytes) not searched: {}{} — describe them, or process them in parts from a script",
            too_large.len(),
            named.join(", "),
            if too_large.len() > 5 { ", …" } else { "" }
        )
    };
    let skipped = if unreadable.is_empty() {
        skipped
    } else {
        format!(
            "{skipped}\n{} document(s) whose text could not be read: {}{}",
            unreadable.len(),
            unreadable.iter().take(5).cloned().collect::<Vec<_>>().join("; "),
            if unreadable.len() > 5 { "; …" } else { "" }
        )
    };
    if blocks.is_empty() {
        return Ok(Reply::text(format!("no matches for /{}/ ({scanned} files scanned){skipped}", args.pattern)));
    }
    let separator = if context > 0 { "\n--\n" } else { "\n" };
    let limits = env.gateway.limits();
    // Whole blocks while the reply's line and byte budgets allow (the summary keeps 300 bytes).
    let (mut lines, mut bytes, mut shown) = (0, 0, 0);
    for block in &blocks {
        let (l, b) = (block.lines().count() + usize::from(context > 0), block.len() + separator.len());
        if shown > 0
            && (lines + l > limits.max_tool_response_lines
                || bytes + b > limits.max_tool_response_bytes.saturating_sub(300))
        {
            break;
        }
        (lines, bytes, shown) = (lines + l, bytes + b, shown + 1);
    }
    let mut out = blocks[..shown].join(separator);
    let kept = blocks.len();
    let spilled = if shown < kept {
        let target = format!("/tmp/grep-{}.txt", crate::format::now_ms());
        let written = VPath::parse(&target).map_err(EnvError::from).and_then(|p| {
            env.gateway.write(&p, blocks.join(separator).as_bytes(), crate::gateway::WriteMode::Replace, None)
        });
        match written {
            Ok(_) => {
                env.gateway.count_spillover();
                format!(" here, all {} kept are in {target} (read_file or grep it)", fmt_count(kept))
            }
            Err(e) => format!(" (the reply holds no more, and writing the rest to {target} failed: {e})"),
        }
    } else {
        String::new()
    };
    if shown < matched {
        let why = if kept < matched {
            format!(
                "max_matches={} kept {}; raise max_matches up to {} or narrow the pattern",
                fmt_count(search.max),
                fmt_count(kept),
                fmt_count(MAX_MATCHES)
            )
        } else {
            "narrow the path, glob or pattern to see them here".to_owned()
        };
        out.push_str(&format!("\n… [{} of {} matches shown{spilled} — {why}]", fmt_count(shown), fmt_count(matched)));
    }
    out.push_str(&skipped);
    Ok(Reply::text(out))
}

/// Searches `files` on every core, each result at its file's index.
fn search_all(search: &Search<'_>, files: &[VPath]) -> Vec<FileHits> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    // Recognition runs its own supervised children under one budget, a file at a time.
    if workers <= 1 || search.ocr.is_some() {
        return files.iter().map(|f| search.file(f)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(usize, FileHits)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(file) = files.get(i) else { break };
                        mine.push((i, search.file(file)));
                    }
                    mine
                })
            })
            .collect();
        // A worker that panicked loses only its own files, which then read as unsearched.
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    results.sort_by_key(|(i, _)| *i);
    let mut out: Vec<FileHits> = (0..files.len()).map(|_| FileHits::default()).collect();
    for (i, hits) in results {
        out[i] = hits;
    }
    out
}

impl Search<'_> {
    /// The lines that match, found by searching the whole text once (for a pattern that cannot
    /// match a line break and has no anchors or lookaround, a line matches exactly when a match
    /// of the whole text starts on it) instead of running the regex on every line.
    fn by_matches(&self, file: &VPath, text: &str, hits: &mut FileHits) {
        let (mut line_no, mut counted_to, mut last_line) = (1usize, 0usize, 0usize);
        for m in self.regex.find_iter(text) {
            let Ok(m) = m else { break };
            line_no += text.as_bytes()[counted_to..m.start()].iter().filter(|b| **b == b'\n').count();
            counted_to = m.start();
            if line_no == last_line {
                continue;
            }
            last_line = line_no;
            hits.matched += 1;
            if hits.blocks.len() == self.max {
                continue;
            }
            let start = text[..m.start()].rfind('\n').map_or(0, |i| i + 1);
            let end = text[m.start()..].find('\n').map_or(text.len(), |i| m.start() + i);
            hits.blocks.push(format!("{file}:{line_no}: {}", clip_line(&text[start..end]).0));
        }
    }

    /// One file's matches.
    fn file(&self, file: &VPath) -> FileHits {
        let tree = self.env.tree();
        let mut hits = FileHits::default();
        // A file over the cap is named, not read: one 2 GB file must not stall a search.
        if tree.stat(file).ok().flatten().is_some_and(|s| s.size > self.cap) {
            hits.too_large = true;
            return hits;
        }
        let Ok(bytes) = tree.read(file) else { return hits };
        // Asked for documents, a module's text wins over the raw bytes (a PDF can look like
        // latin-1 text); otherwise text files only, in whatever encoding they arrived.
        let document = if self.documents { document_text(self.env, file, &bytes) } else { None };
        let recognised = match self.ocr.as_ref().filter(|(_, failed)| !failed.contains(file)) {
            Some((budget, _)) => match scan_text(self.env, file, &bytes, budget) {
                Some(Ok(text)) => Some(text),
                Some(Err(why)) => {
                    hits.unreadable = Some(format!("{file}: {why}"));
                    None
                }
                None => None,
            },
            None => None,
        };
        let plain = match document {
            Some(Ok(text)) => Some((text, true)),
            Some(Err(why)) => {
                hits.unreadable = Some(format!("{file}: {why}"));
                None
            }
            None => text_of(bytes).map(|text| (text, false)),
        };
        if plain.is_none() && recognised.is_none() {
            return hits;
        }
        hits.scanned = true;
        if let Some((text, in_document)) = plain {
            self.text(file, &text, in_document, "", &mut hits);
        }
        if let Some(text) = recognised {
            self.text(file, &text, true, "OCR", &mut hits);
        }
        hits
    }

    /// The matches of `text` (from `file`) into `hits`; `tag` is said beside the part (`OCR`).
    fn text(&self, file: &VPath, text: &str, in_document: bool, tag: &str, hits: &mut FileHits) {
        if self.prefilter && !in_document && !self.regex.is_match(text).unwrap_or(true) {
            return;
        }
        if self.single_line && self.context == 0 && !in_document && !text.contains('\r') {
            self.by_matches(file, text, hits);
            return;
        }
        let lines = folio_kinds::text::split_lines(text);
        let mut part: Option<String> = None;
        for (i, line) in lines.iter().enumerate() {
            if in_document && let Some(p) = crate::seams::part_marker(line) {
                part = Some(p);
                continue;
            }
            if !self.regex.is_match(line).unwrap_or(false) {
                continue;
            }
            hits.matched += 1;
            if hits.blocks.len() == self.max {
                continue;
            }
            let at = match (&part, tag.is_empty()) {
                (Some(p), true) => format!("{file} ({p})"),
                (Some(p), false) => format!("{file} ({p}, {tag})"),
                (None, true) => file.to_string(),
                (None, false) => format!("{file} ({tag})"),
            };
            let mut block = Vec::new();
            let first = i.saturating_sub(self.context);
            for (j, before) in lines.iter().enumerate().take(i).skip(first) {
                block.push(format!("{at}:{}- {}", j + 1, clip_line(before).0));
            }
            block.push(format!("{at}:{}: {}", i + 1, clip_line(line).0));
            for (j, after) in lines.iter().enumerate().skip(i + 1).take(self.context) {
                block.push(format!("{at}:{}- {}", j + 1, clip_line(after).0));
            }
            hits.blocks.push(block.join("\n"));
        }
    }
}

/// A file's text: plain UTF-8 taken as it is (no copy, no second pass), anything else through
/// the workspace's decoder (BOMs, UTF-16, cp1252, latin-1); `None` for binary content.
fn text_of(bytes: Vec<u8>) -> Option<String> {
    let marked = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"].iter().any(|bom| bytes.starts_with(bom));
    if marked || bytes.iter().take(8192).any(|b| *b == 0) {
        return folio_kinds::text::decode(&bytes).map(|d| d.text);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Some(text),
        Err(e) => folio_kinds::text::decode(e.as_bytes()).map(|d| d.text),
    }
}

/// The budget a grep with `ocr: true` recognises under — the run's (limits.run_timeout_ms from
/// now, this host's measured rates) — after one estimate for every scanned page the search still
/// has to recognise (a cached scan costs nothing): refused before any page when it cannot fit.
fn ocr_budget(
    env: &Environment,
    files: &[VPath],
    cap: u64,
    unreadable: &mut Vec<String>,
    failed: &mut std::collections::HashSet<VPath>,
) -> Result<folio_budget::RunBudget> {
    let rates = env
        .scripts
        .as_ref()
        .map_or_else(|| std::sync::Arc::new(folio_budget::Rates::in_memory()), |s| s.engine.rates().clone());
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(env.opts.limits.run_timeout_ms);
    let budget = folio_budget::RunBudget::new(Some(deadline), rates);
    let budget = match &env.opts.budget_raise {
        Some(raise) => budget.with_raise(raise.clone()),
        None => budget,
    };
    let tree = env.tree();
    let (mut pages, mut scans) = (0u64, 0usize);
    for file in files {
        if tree.stat(file).ok().flatten().is_some_and(|s| s.size > cap) {
            continue;
        }
        let Ok(bytes) = tree.read(file) else { continue };
        let head = &bytes[..bytes.len().min(64)];
        let found = crate::seams::claimants(&env.opts.handlers, file, head)
            .into_iter()
            .find_map(|h| h.scan_pages(file, &bytes).map(|r| r.map_err(|e| format!("env:{}: {e}", h.module()))));
        match found {
            Some(Ok(0)) | None => {}
            Some(Ok(n)) => {
                pages += u64::from(n);
                scans += 1;
            }
            Some(Err(why)) => {
                unreadable.push(format!("{file}: {why}"));
                failed.insert(file.clone());
            }
        }
    }
    if pages > 0 {
        // Only the estimate: each file's recognition is its own job under the same budget.
        let plan = folio_budget::Plan {
            kind: folio_budget::JobKind::OcrPage,
            job: "grep ocr".into(),
            what: format!("recognising {pages} scanned page(s) in {scans} file(s) to search them"),
            total: pages,
            cost: pages as f64,
            smaller: "narrow `path` or `glob` to fewer scans (a scan recognised once is searched instantly after)"
                .into(),
        };
        budget.start(plan).map_err(|e| EnvError::refused(format!("grep with ocr: true: {e}")))?;
    }
    Ok(budget)
}

/// The text a handler recognises from a scan's pixels; `None` when no handler reads them.
fn scan_text(
    env: &Environment,
    file: &VPath,
    bytes: &[u8],
    budget: &folio_budget::RunBudget,
) -> Option<std::result::Result<String, String>> {
    let head = &bytes[..bytes.len().min(64)];
    crate::seams::claimants(&env.opts.handlers, file, head)
        .into_iter()
        .find_map(|h| h.scan_text(file, bytes, budget).map(|r| r.map_err(|e| format!("env:{}: {e}", h.module()))))
}

/// The text a registered handler gives for a document: the first claimant that has text for it
/// (env:spreadsheets before env:render for a workbook); `None` when none has.
fn document_text(env: &Environment, file: &VPath, bytes: &[u8]) -> Option<std::result::Result<String, String>> {
    let head = &bytes[..bytes.len().min(64)];
    crate::seams::claimants(&env.opts.handlers, file, head)
        .into_iter()
        .find_map(|handler| handler.text(file, bytes).map(|r| r.map_err(|e| format!("env:{}: {e}", handler.module()))))
}
