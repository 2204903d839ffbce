//! The report of an evaluation: `report.json` (every record) and `report.html`, one
//! self-contained page a person reads — per scenario how many runs were complete, every failed
//! check with its frequency, per model turns, errored tool calls, tokens and cost with a chart,
//! runs stopped at the turn limit listed apart (unfinished is not wrong), and the friction table
//! (every verbatim tool error by frequency).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::EvalError;
use crate::runner::{Record, failed_checks, friction};

/// The whole evaluation as written to `report.json`.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// When it ran (UTC).
    pub when: String,
    /// The corpus seed.
    pub seed: u64,
    /// Every run.
    pub records: &'a [Record],
}

/// Now, as `2026-12-03 14:05 UTC`.
pub fn now_utc() -> String {
    let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis()) as i64;
    let iso = folio_env::iso(ms);
    format!("{} {} UTC", &iso[..10], &iso[11..16])
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Writes `report.json` and `report.html` under `dir`; returns the HTML's path.
pub fn write(dir: &Path, report: &Report<'_>) -> Result<PathBuf, EvalError> {
    std::fs::create_dir_all(dir).map_err(|e| EvalError::io(dir, e))?;
    let json_path = dir.join("report.json");
    let json = serde_json::to_vec_pretty(report).map_err(|e| EvalError::Artifact(e.to_string()))?;
    std::fs::write(&json_path, json).map_err(|e| EvalError::io(&json_path, e))?;
    let html_path = dir.join("report.html");
    std::fs::write(&html_path, html(report)).map_err(|e| EvalError::io(&html_path, e))?;
    Ok(html_path)
}

/// One model's totals.
#[derive(Default)]
struct Totals {
    runs: usize,
    complete: usize,
    max_turns: usize,
    turns: u64,
    tool_errors: usize,
    tokens_in: u64,
    tokens_out: u64,
    cost: f64,
}

/// The HTML page.
pub fn html(report: &Report<'_>) -> String {
    let records = report.records;
    let mut models: BTreeMap<&str, Totals> = BTreeMap::new();
    let mut scenarios: BTreeMap<&str, Vec<&Record>> = BTreeMap::new();
    for r in records {
        let t = models.entry(&r.model).or_default();
        t.runs += 1;
        t.complete += usize::from(r.complete());
        t.max_turns += usize::from(r.turn.stop == "max-turns");
        t.turns += u64::from(r.turn.turns);
        t.tool_errors += r.turn.tool_errors.len();
        t.tokens_in += r.turn.tokens_in;
        t.tokens_out += r.turn.tokens_out;
        t.cost += r.turn.cost + r.judge_cost;
        scenarios.entry(&r.scenario).or_default().push(r);
    }
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html lang=en><meta charset=utf-8><title>Folio eval — {when}</title><style>\
body{{font:14px/1.45 system-ui,sans-serif;margin:24px 32px;color:#1d2330;background:#fff}}\
h1{{font-size:22px;margin:0 0 4px}}h2{{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #dde2ea;padding-bottom:4px}}\
table{{border-collapse:collapse;margin:6px 0}}td,th{{padding:4px 10px;border-bottom:1px solid #eef1f5;text-align:left;vertical-align:top}}\
th{{background:#f5f7fa;font-weight:600}}td.n{{text-align:right;font-variant-numeric:tabular-nums}}\
.ok{{color:#11703a;font-weight:600}}.bad{{color:#b3261e;font-weight:600}}.muted{{color:#6b7383}}\
</style><h1>Folio evaluation</h1><p class=muted>{when} · seed {seed} · {n} run(s)</p>",
        when = esc(&report.when),
        seed = report.seed,
        n = records.len()
    );
    h.push_str("<h2>Models</h2><table><tr><th>model</th><th>complete</th><th>max-turns</th><th>avg turns</th><th>errored tool calls</th><th>tokens in / out</th><th>cost (USD)</th></tr>");
    for (name, t) in &models {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=n>{}/{}</td><td class=n>{}</td><td class=n>{:.1}</td><td class=n>{}</td><td class=n>{} / {}</td><td class=n>{:.4}</td></tr>",
            esc(name),
            t.complete,
            t.runs,
            t.max_turns,
            t.turns as f64 / t.runs.max(1) as f64,
            t.tool_errors,
            t.tokens_in,
            t.tokens_out,
            t.cost
        );
    }
    h.push_str("</table>");
    for name in models.keys() {
        h.push_str(&chart(name, &scenarios));
    }
    h.push_str(
        "<h2>Scenarios</h2><table><tr><th>scenario</th><th>complete</th><th>failed checks (frequency)</th></tr>",
    );
    for (id, runs) in &scenarios {
        let done = runs.iter().filter(|r| r.complete()).count();
        let failed = failed_checks(runs);
        let list = if failed.is_empty() {
            "<span class=muted>none</span>".to_owned()
        } else {
            failed.iter().map(|(n, k)| format!("{} ×{k}", esc(n))).collect::<Vec<_>>().join("<br>")
        };
        let class = if done == runs.len() { "ok" } else { "bad" };
        let _ =
            write!(h, "<tr><td>{}</td><td class='n {class}'>{done}/{}</td><td>{list}</td></tr>", esc(id), runs.len());
    }
    h.push_str("</table>");
    let unfinished: Vec<&Record> = records.iter().filter(|r| r.turn.stop != "finished").collect();
    h.push_str("<h2>Runs that did not finish</h2>");
    if unfinished.is_empty() {
        h.push_str("<p class=muted>Every run finished.</p>");
    } else {
        h.push_str("<table><tr><th>model</th><th>scenario</th><th>rep</th><th>stop</th><th>error</th></tr>");
        for r in unfinished {
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td class=n>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&r.model),
                esc(&r.scenario),
                r.rep,
                esc(&r.turn.stop),
                esc(r.turn.error.as_deref().unwrap_or(""))
            );
        }
        h.push_str("</table>");
    }
    h.push_str("<h2>Friction: tool errors, verbatim</h2>");
    let rows = friction(records);
    if rows.is_empty() {
        h.push_str("<p class=muted>No tool call failed.</p>");
    } else {
        h.push_str("<table><tr><th>times</th><th>error</th></tr>");
        for (error, n) in rows {
            let _ = write!(h, "<tr><td class=n>{n}</td><td><code>{}</code></td></tr>", esc(&error));
        }
        h.push_str("</table>");
    }
    h.push_str(
        "<h2>Every check of every run</h2><table><tr><th>run</th><th>check</th><th>result</th><th>detail</th></tr>",
    );
    for r in records {
        for c in &r.checks {
            let _ = write!(
                h,
                "<tr><td>{} · {} #{}</td><td>{}</td><td class={}>{}</td><td class=muted>{}</td></tr>",
                esc(&r.model),
                esc(&r.scenario),
                r.rep,
                esc(&c.name),
                if c.passed { "ok" } else { "bad" },
                if c.passed { "pass" } else { "FAIL" },
                esc(&c.detail)
            );
        }
    }
    h.push_str("</table></html>\n");
    h
}

/// A bar per scenario: the share of this model's runs that were complete.
fn chart(model: &str, scenarios: &BTreeMap<&str, Vec<&Record>>) -> String {
    let bar_h = 22.0;
    let rows: Vec<(&str, f64, usize)> = scenarios
        .iter()
        .filter_map(|(id, runs)| {
            let mine: Vec<&&Record> = runs.iter().filter(|r| r.model == model).collect();
            (!mine.is_empty())
                .then(|| (*id, mine.iter().filter(|r| r.complete()).count() as f64 / mine.len() as f64, mine.len()))
        })
        .collect();
    let height = 30.0 + bar_h * rows.len() as f64;
    let mut s = format!(
        "<figure><figcaption class=muted>{} — complete runs per scenario</figcaption><svg xmlns='http://www.w3.org/2000/svg' width='640' height='{height}' role=img>",
        esc(model)
    );
    for (i, (id, share, n)) in rows.iter().enumerate() {
        let y = 10.0 + bar_h * i as f64;
        let w = (share * 400.0).max(1.0);
        let colour = if *share >= 0.999 {
            "#2e8b57"
        } else if *share > 0.0 {
            "#d9a200"
        } else {
            "#c0392b"
        };
        let _ = write!(
            s,
            "<text x='0' y='{}' font-size='12' fill='#1d2330'>{}</text><rect x='160' y='{y}' width='{w:.1}' height='{}' fill='{colour}'/><text x='{:.1}' y='{}' font-size='12' fill='#1d2330'>{:.0}% of {n}</text>",
            y + 15.0,
            esc(id),
            bar_h - 6.0,
            166.0 + w,
            y + 15.0,
            share * 100.0
        );
    }
    s.push_str("</svg></figure>");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn now_is_a_calendar_date() {
        let now = super::now_utc();
        assert!(now.starts_with("20") && now.ends_with(" UTC") && now.len() == 20, "{now}");
    }
}
