//! `grep`: a JavaScript-flavoured regex (lookaround and backreferences included, via
//! fancy-regex) over text files, capped, with optional context. The run log
//! `/.env/history.jsonl` is searchable too; undo blobs and checkpoint blobs are not (they would
//! echo every old version of every file) unless the search is rooted inside them.

use folio_vfs::{Glob, Kind, Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{clip_line, fit};

/// Tool description of `grep`.
pub const GREP_DOC: &str = "Search file contents with a JavaScript regular expression. Scope it with `path` (a file or directory) and `glob` (e.g. /scripts/**/*.js); `context` adds lines around each match; results stop at `max_matches` (default 20, at most 200). `documents: true` also searches the text inside documents a module can read (PDF, DOCX, XLSX, PPTX…), naming the page, sheet or slide of each match. `ocr: true` also searches scanned pages (images, PDF pages with no text layer) through env:ocr's recognition — seconds a page, estimated up front and refused when the run budget cannot fit it; a scan recognised once is searched instantly after. Text in UTF-16, cp1252 or latin-1 and CR-only line endings is read as text. /.env/history.jsonl holds the run log.";

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
    /// Stop after this many matches (1–200, default 20).
    pub max_matches: Option<u64>,
    /// Also search the text inside documents (PDF, DOCX, XLSX, PPTX…) that a registered module
    /// can read; matches name the page, sheet or slide (default false).
    pub documents: Option<bool>,
    /// Also search scanned pages (images, PDF pages with no text layer) through env:ocr's text
    /// recognition; matches name the page and say OCR (default false; seconds a page the first
    /// time, instant after).
    pub ocr: Option<bool>,
}

/// `grep`.
pub fn grep(env: &Environment, args: GrepArgs) -> Result<Reply> {
    let regex = fancy_regex::Regex::new(&args.pattern)
        .map_err(|e| EnvError::refused(format!("invalid regex \"{}\": {e} — fix the pattern (JavaScript syntax; escape ( [ . * + ? with a backslash to match them literally)", args.pattern)))?;
    let root = VPath::parse(args.path.as_deref().unwrap_or("/"))?;
    let max = args.max_matches.unwrap_or(20).clamp(1, 200) as usize;
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
    let mut blocks = Vec::new();
    let mut scanned = 0;
    let mut capped = false;
    let cap = env.gateway.limits().max_file_bytes;
    let mut too_large: Vec<&VPath> = Vec::new();
    let documents = args.documents.unwrap_or(false);
    let mut unreadable: Vec<String> = Vec::new();
    let ocr = args.ocr.unwrap_or(false);
    let mut failed = std::collections::HashSet::new();
    let budget = if ocr { Some(ocr_budget(env, &files, cap, &mut unreadable, &mut failed)?) } else { None };
    let mut search = Search { regex: &regex, context, max, blocks: &mut blocks };
    'files: for file in &files {
        // A file over the cap is named, not read: one 2 GB file must not stall a search.
        if tree.stat(file).ok().flatten().is_some_and(|s| s.size > cap) {
            too_large.push(file);
            continue;
        }
        let Ok(bytes) = tree.read(file) else { continue };
        // Asked for documents, a module's text wins over the raw bytes (a PDF can look like
        // latin-1 text); otherwise text files only, in whatever encoding they arrived.
        let document = if documents { document_text(env, file, &bytes) } else { None };
        let plain = match document {
            Some(Ok(text)) => Some((text, true)),
            Some(Err(why)) => {
                unreadable.push(format!("{file}: {why}"));
                None
            }
            None => folio_kinds::text::decode(&bytes).map(|d| (d.text, false)),
        };
        let recognised = match budget.as_ref().filter(|_| !failed.contains(file)) {
            Some(budget) => match scan_text(env, file, &bytes, budget) {
                Some(Ok(text)) => Some(text),
                Some(Err(why)) => {
                    unreadable.push(format!("{file}: {why}"));
                    None
                }
                None => None,
            },
            None => None,
        };
        if plain.is_none() && recognised.is_none() {
            continue;
        }
        scanned += 1;
        if let Some((text, in_document)) = plain
            && search.text(file, &text, in_document, "")
        {
            capped = true;
            break 'files;
        }
        if let Some(text) = recognised
            && search.text(file, &text, true, "OCR")
        {
            capped = true;
            break 'files;
        }
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
    let count = blocks.len();
    let body = blocks.join(if context > 0 { "\n--\n" } else { "\n" });
    let limits = env.gateway.limits();
    let fitted = fit(&body, limits.max_tool_response_lines, limits.max_tool_response_bytes);
    let mut out = fitted.text;
    if fitted.shown < fitted.total {
        out.push_str("\n… [more matches truncated — narrow the path, glob or pattern]");
    }
    if capped {
        out.push_str(&format!(
            "\n{count} matches shown (capped at max_matches={max} — narrow the pattern or raise the cap)"
        ));
    }
    out.push_str(&skipped);
    Ok(Reply::text(out))
}

/// Matches gathered across files.
struct Search<'a> {
    regex: &'a fancy_regex::Regex,
    context: usize,
    max: usize,
    blocks: &'a mut Vec<String>,
}

impl Search<'_> {
    /// Adds the matches of `text` (from `file`); `tag` is said beside the part (`OCR`). True when
    /// `max` was reached and a further match was left out.
    fn text(&mut self, file: &VPath, text: &str, in_document: bool, tag: &str) -> bool {
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
            if self.blocks.len() == self.max {
                return true;
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
            self.blocks.push(block.join("\n"));
        }
        false
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
