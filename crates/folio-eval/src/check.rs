//! Tier 1: the deterministic checks, run over the folder after the run's changes were committed.
//! Each reads the artifact itself ([`crate::read`]), never the run's own account of it.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::scenario::{Check, fill, truth_at};
use crate::{EvalError, read};

/// One check's outcome.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The check's name.
    pub name: String,
    /// Whether it held.
    pub passed: bool,
    /// What was found (why it failed, or what it saw).
    pub detail: String,
}

/// What checks read besides the folder.
pub struct Readers {
    /// PDFium for PDF text.
    pub renderer: folio_render::Renderer,
}

impl Readers {
    /// Readers found the way the environment finds them (state dir for PDFium's cache).
    pub fn new(state_dir: Option<PathBuf>) -> Readers {
        Readers { renderer: folio_render::Renderer::new(folio_render::HostPaths::from_host(state_dir)) }
    }
}

fn on_disk(folder: &Path, path: &str) -> PathBuf {
    folder.join(path.trim_start_matches('/'))
}

fn read_file(folder: &Path, path: &str) -> Result<Vec<u8>, String> {
    let file = on_disk(folder, path);
    match std::fs::read(&file) {
        Ok(bytes) if bytes.is_empty() => Err(format!("{path} is empty")),
        Ok(bytes) => Ok(bytes),
        Err(_) => Err(format!("{path} does not exist")),
    }
}

fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.replace([',', '$', ' '], "").parse().ok(),
        _ => None,
    }
}

/// Every number in `text` as a value, with how precisely it was written: `1,234.5` (0.05),
/// `1.2M` / `1.2 million` (50,000), `12%` (0.5).
pub fn numbers_in(text: &str) -> Vec<(f64, f64)> {
    let Ok(re) = regex::Regex::new(r"(?i)(\d[\d,]*(?:\.\d+)?)\s*(m\b|million|k\b|thousand)?") else {
        return Vec::new();
    };
    re.captures_iter(text)
        .filter_map(|c| {
            let raw = c.get(1)?.as_str();
            // A comma must group thousands (1,234), not separate list items (1,2).
            let plain = raw.trim_end_matches(',');
            if plain.contains(',') && !plain.split('.').next()?.split(',').skip(1).all(|g| g.len() == 3) {
                return None;
            }
            let value: f64 = plain.replace(',', "").parse().ok()?;
            let decimals = plain.split('.').nth(1).map_or(0, str::len) as i32;
            let scale = match c.get(2).map(|m| m.as_str().to_ascii_lowercase()) {
                Some(s) if s.starts_with('m') => 1e6,
                Some(s) if s.starts_with('k') || s.starts_with('t') => 1e3,
                _ => 1.0,
            };
            Some((value * scale, 0.5 * 10f64.powi(-decimals) * scale + 1e-9))
        })
        .collect()
}

/// Whether `text` spells `amount` in any usual way.
pub fn has_money(text: &str, amount: f64) -> bool {
    numbers_in(text).iter().any(|(v, precision)| (v - amount).abs() <= *precision)
}

/// What a check runs against: the folder after the run, the corpus it started from (its truth,
/// and the original bytes an edit is compared with) and the readers.
pub struct Ctx<'a> {
    /// The folder, with the run's changes committed.
    pub folder: &'a Path,
    /// The corpus the folder was made from.
    pub corpus: &'a crate::corpus::Corpus,
    /// The readers.
    pub readers: &'a Readers,
}

/// Runs one check.
pub fn run(check: &Check, ctx: &Ctx<'_>) -> Outcome {
    let name = check.name();
    match evaluate(check, ctx.folder, &ctx.corpus.truth, ctx.readers, ctx.corpus) {
        Ok(Ok(detail)) => Outcome { name, passed: true, detail },
        Ok(Err(detail)) => Outcome { name, passed: false, detail },
        Err(e) => Outcome { name, passed: false, detail: e.to_string() },
    }
}

type Verdict = Result<String, String>;

fn truth_value<'a>(truth: &'a Value, key: &str) -> Result<&'a Value, EvalError> {
    truth_at(truth, key).ok_or_else(|| EvalError::Scenario(format!("the check names {key:?}, which the truth lacks")))
}

fn evaluate(
    check: &Check,
    folder: &Path,
    truth: &Value,
    readers: &Readers,
    corpus: &crate::corpus::Corpus,
) -> Result<Verdict, EvalError> {
    let text_of = |path: &str| -> Result<Result<String, String>, EvalError> {
        match read_file(folder, path) {
            Ok(bytes) => read::text(&readers.renderer, &on_disk(folder, path), &bytes).map(Ok),
            Err(e) => Ok(Err(e)),
        }
    };
    macro_rules! text_or_fail {
        ($path:expr) => {
            match text_of($path)? {
                Ok(t) => t,
                Err(e) => return Ok(Err(e)),
            }
        };
    }
    macro_rules! bytes_or_fail {
        ($path:expr) => {
            match read_file(folder, $path) {
                Ok(b) => b,
                Err(e) => return Ok(Err(e)),
            }
        };
    }
    let regex = |pattern: &str| {
        regex::Regex::new(pattern)
            .map_err(|e| EvalError::Scenario(format!("the pattern {pattern:?} is not a regex: {e}")))
    };
    Ok(match check {
        Check::Exists { path } => read_file(folder, path).map(|b| format!("{} bytes", b.len())),
        Check::Text { path, pattern, .. } => {
            let text = text_or_fail!(path);
            let re = regex(&fill(pattern, truth)?)?;
            match re.find(&text) {
                Some(m) => Ok(format!("found {:?}", clip(m.as_str(), 80))),
                None => Err(format!("{path} does not say {:?}", re.as_str())),
            }
        }
        Check::NotText { path, pattern, .. } => {
            let text = text_or_fail!(path);
            let re = regex(&fill(pattern, truth)?)?;
            match re.find(&text) {
                Some(m) => Err(format!("{path} says {:?}", clip(m.as_str(), 80))),
                None => Ok("absent".into()),
            }
        }
        Check::Facts { path } => {
            let text = text_or_fail!(path);
            let facts = truth_value(truth, "report.facts")?.as_array().cloned().unwrap_or_default();
            let mut missing = Vec::new();
            for fact in &facts {
                let id = fact["id"].as_str().unwrap_or("?");
                let re = regex(fact["pattern"].as_str().unwrap_or(""))?;
                let page = fact["page"].as_u64().unwrap_or(0);
                let cite = regex(&format!(r"(?i)\b(p|pp|page|pages|pg)\.?\s*{page}\b"))?;
                let Some(m) = re.find(&text) else {
                    missing.push(format!("{id} (not stated)"));
                    continue;
                };
                let lo = floor_char(&text, m.start().saturating_sub(400));
                let hi = floor_char(&text, (m.end() + 400).min(text.len()));
                if !cite.is_match(&text[lo..hi]) {
                    missing.push(format!("{id} (no citation of page {page} near it)"));
                }
            }
            if missing.is_empty() { Ok(format!("{} facts with pages", facts.len())) } else { Err(missing.join("; ")) }
        }
        Check::Distractor { path } => {
            let text = text_or_fail!(path);
            let d = truth_value(truth, "report.distractor")?;
            let mention = regex(d["pattern"].as_str().unwrap_or("lyon"))?;
            let settled = regex(d["settled"].as_str().unwrap_or("settled"))?;
            match mention.find(&text) {
                None => Ok("not mentioned".into()),
                Some(m) => {
                    let lo = floor_char(&text, m.start().saturating_sub(300));
                    let hi = floor_char(&text, (m.end() + 300).min(text.len()));
                    if settled.is_match(&text[lo..hi]) {
                        Ok("mentioned as settled".into())
                    } else {
                        Err(format!("the settled Lyon provision is presented as live: {:?}", clip(&text[lo..hi], 160)))
                    }
                }
            }
        }
        Check::JsonNumber { path, pointer, truth: key, tolerance } => {
            let bytes = bytes_or_fail!(path);
            let doc: Value = match serde_json::from_slice(&bytes) {
                Ok(v) => v,
                Err(e) => return Ok(Err(format!("{path} is not JSON: {e}"))),
            };
            let want = number(truth_value(truth, key)?).unwrap_or(f64::NAN);
            let tolerance = if *tolerance > 0.0 { *tolerance } else { 0.005 };
            match doc.pointer(pointer).and_then(number) {
                Some(got) if (got - want).abs() <= tolerance => Ok(format!("{got}")),
                Some(got) => Err(format!("{pointer} is {got}, the truth is {want}")),
                None => Err(format!("{path} has no number at {pointer}")),
            }
        }
        Check::Money { path, truth: key } => {
            let text = text_or_fail!(path);
            let want = number(truth_value(truth, key)?).unwrap_or(f64::NAN);
            if has_money(&text, want) {
                Ok(format!("{want} found"))
            } else {
                Err(format!("{path} never states {want:.2}"))
            }
        }
        Check::Pages { path, min, max } => {
            let bytes = bytes_or_fail!(path);
            let engine = readers.renderer.pdfium().map_err(|e| EvalError::Artifact(format!("PDFium: {e}")))?;
            let pages = folio_docs::pdftext::extract(&engine, path, &bytes, None)
                .map_err(|e| EvalError::Artifact(format!("{path}: {e}")))?
                .pages;
            if (*min..=*max).contains(&pages) { Ok(format!("{pages} pages")) } else { Err(format!("{pages} pages")) }
        }
        Check::Slides { path, min, max } => {
            let bytes = bytes_or_fail!(path);
            let n = read::parts(&on_disk(folder, path), &bytes)?
                .keys()
                .filter(|k| k.starts_with("ppt/slides/slide") && k.ends_with(".xml"))
                .count() as u32;
            if (*min..=*max).contains(&n) { Ok(format!("{n} slides")) } else { Err(format!("{n} slides")) }
        }
        Check::Notes { path } => {
            let bytes = bytes_or_fail!(path);
            let parts = read::parts(&on_disk(folder, path), &bytes)?;
            let slides = parts.keys().filter(|k| k.starts_with("ppt/slides/slide") && k.ends_with(".xml")).count();
            let noted = parts
                .iter()
                .filter(|(k, x)| {
                    k.starts_with("ppt/notesSlides/") && k.ends_with(".xml") && read::xml_text(x, b"t").trim().len() > 3
                })
                .count();
            // The title slide (the first) may go without: decks made by env:slides cannot hold
            // notes there, and no presenter needs them on it.
            if slides > 1 && noted + 1 >= slides {
                Ok(format!("{noted} of {slides}"))
            } else {
                Err(format!("notes on {noted} of {slides} slides"))
            }
        }
        Check::NumberFormat { path, contains } => {
            let bytes = bytes_or_fail!(path);
            let facts = read::sheet_facts(&on_disk(folder, path), &bytes)?;
            if facts.formats.iter().any(|f| f.contains(contains.as_str())) {
                Ok(facts.formats.join(" | "))
            } else {
                Err(format!(
                    "formats used: {}",
                    if facts.formats.is_empty() { "none".into() } else { facts.formats.join(" | ") }
                ))
            }
        }
        Check::BoldHeader { path } => {
            let bytes = bytes_or_fail!(path);
            if read::sheet_facts(&on_disk(folder, path), &bytes)?.header_bold {
                Ok("bold".into())
            } else {
                Err("row 1 is not bold".into())
            }
        }
        Check::ColumnWidth { path, min } => {
            let bytes = bytes_or_fail!(path);
            let widths = read::sheet_facts(&on_disk(folder, path), &bytes)?.widths;
            let widest = widths.iter().copied().fold(0.0, f64::max);
            if widest >= *min { Ok(format!("widest {widest}")) } else { Err(format!("widest column {widest}")) }
        }
        Check::Frozen { path, rows } => {
            let bytes = bytes_or_fail!(path);
            let frozen = read::sheet_facts(&on_disk(folder, path), &bytes)?.frozen_rows;
            if frozen == *rows { Ok(format!("{frozen} frozen")) } else { Err(format!("{frozen} rows frozen")) }
        }
        Check::NoFormulaErrors { path } => {
            let bytes = bytes_or_fail!(path);
            let facts = read::sheet_facts(&on_disk(folder, path), &bytes)?;
            if facts.errors.is_empty() && facts.uncached.is_empty() {
                Ok("none".into())
            } else {
                Err(format!("errors at {:?}, uncached formulas at {:?}", facts.errors, facts.uncached))
            }
        }
        Check::Chart { path } => {
            let bytes = bytes_or_fail!(path);
            let n = read::sheet_facts(&on_disk(folder, path), &bytes)?.charts;
            if n > 0 { Ok(format!("{n} chart(s)")) } else { Err("no chart part".into()) }
        }
        Check::DataRows { path, truth: key } => {
            let bytes = bytes_or_fail!(path);
            let want = truth_value(truth, key)?.as_u64().unwrap_or(0) as usize;
            let rows = read::cells(&on_disk(folder, path), &bytes)?;
            let data = rows.iter().skip(1).filter(|r| r.iter().any(|c| !matches!(c, calamine::Data::Empty))).count();
            if data == want {
                Ok(format!("{data} rows"))
            } else {
                Err(format!("{data} data rows, the truth is {want}"))
            }
        }
        Check::CellValue { path, cell, truth: key } => {
            let bytes = bytes_or_fail!(path);
            let want = number(truth_value(truth, key)?).unwrap_or(f64::NAN);
            let rows = read::cells(&on_disk(folder, path), &bytes)?;
            let got = read::address(cell).and_then(|(r, c)| rows.get(r).and_then(|row| row.get(c)).cloned());
            match got {
                Some(calamine::Data::Float(v)) if (v - want).abs() < 0.005 => Ok(format!("{v}")),
                Some(calamine::Data::Int(v)) if (v as f64 - want).abs() < 0.005 => Ok(format!("{v}")),
                Some(other) => Err(format!("{cell} holds {other:?}, the truth is {want}")),
                None => Err(format!("{cell} is empty")),
            }
        }
        Check::OnlyCells { path, original, allowed } => {
            let bytes = bytes_or_fail!(path);
            let Some(old) = corpus.file(original.trim_start_matches('/')) else {
                return Err(EvalError::Scenario(format!("no corpus file {original}")));
            };
            let allowed: Vec<String> = truth_value(truth, allowed)?
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            let diff = folio_diff::cells(Some(old), Some(&bytes), path)
                .map_err(|e| EvalError::Artifact(format!("{path}: the cell diff failed: {e}")))?;
            let mut stray = Vec::new();
            let mut changed = 0;
            for sheet in &diff.sheets {
                let c = &sheet.counts;
                if c.added_rows + c.removed_rows + c.added_columns + c.removed_columns > 0 {
                    stray.push(format!("{}: rows or columns added or removed", sheet.name));
                }
                for cell in &sheet.cells {
                    changed += 1;
                    if !allowed.contains(&cell.new_address) {
                        stray.push(format!("{}!{}", sheet.name, cell.new_address));
                    }
                }
            }
            if stray.is_empty() {
                Ok(format!("{changed} allowed cell(s) changed"))
            } else {
                Err(format!("also changed: {}", stray.join(", ")))
            }
        }
        Check::Video { path, seconds } => {
            let bytes = bytes_or_fail!(path);
            let ffmpeg = folio_media::Ffmpeg::discover(None).map_err(|e| EvalError::Artifact(e.to_string()))?;
            let info =
                folio_media::probe(&ffmpeg, &on_disk(folder, path)).map_err(|e| EvalError::Artifact(e.to_string()))?;
            let duration = info.duration.unwrap_or(0.0);
            let source = folio_media::frames::FrameSource::stage(&ffmpeg, path, &bytes)
                .map_err(|e| EvalError::Artifact(e.to_string()))?;
            let frames = source.gray(64, 200).map_err(|e| EvalError::Artifact(e.to_string()))?.frames;
            let moving = frames
                .windows(2)
                .filter(|w| w[0].iter().zip(&w[1]).filter(|(a, b)| a.abs_diff(**b) > 8).count() * 100 > w[0].len())
                .count();
            if (duration - seconds).abs() > 0.6 {
                Err(format!("{duration:.2} s long"))
            } else if moving * 3 < frames.len().saturating_sub(1) {
                Err(format!("only {moving} of {} frame steps move", frames.len().saturating_sub(1)))
            } else {
                Ok(format!("{duration:.2} s, {moving} of {} frame steps move", frames.len().saturating_sub(1)))
            }
        }
    })
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn clip(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn money_is_found_in_each_usual_spelling_and_not_in_a_near_miss() {
        for text in ["total 1234567.89", "total $1,234,567.89", "about 1.23M", "1.2 million", "1,234,568"] {
            assert!(super::has_money(text, 1_234_567.89), "{text}");
        }
        for text in ["total 1,234,577.89", "1.3M", "1,2,3"] {
            assert!(!super::has_money(text, 1_234_567.89), "{text}");
        }
    }
}
