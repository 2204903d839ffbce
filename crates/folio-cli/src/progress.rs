//! Progress on the terminal: console lines of a running script, and long jobs' progress drawn
//! as one bar with its ETA that redraws in place on a terminal, or as plain lines when stderr is
//! not one (a log, a pipe, CI), so nothing is lost either way.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};

use folio_budget::{JobProgress, duration_words};
use folio_env::{OnProgress, ProgressLine, Stream};

/// How progress is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// A bar redrawn in place (`\r`), for a terminal.
    Bar,
    /// One line per report, for anything else.
    Plain,
}

impl Style {
    /// A bar when stderr is a terminal, else plain lines; `FOLIO_PROGRESS=plain|bar` decides
    /// otherwise.
    pub(crate) fn detect() -> Style {
        match std::env::var("FOLIO_PROGRESS").as_deref() {
            Ok("plain") => Style::Plain,
            Ok("bar") => Style::Bar,
            _ if std::io::stderr().is_terminal() => Style::Bar,
            _ => Style::Plain,
        }
    }
}

const BAR_CELLS: usize = 24;

/// The bar for `p`: `[#########---------------] 12/300 pages · about 31 s left · /in/a.pdf`.
pub(crate) fn bar(p: &JobProgress) -> String {
    let filled = if p.total == 0 { BAR_CELLS } else { (p.done as usize * BAR_CELLS) / p.total as usize };
    let cells = "#".repeat(filled) + &"-".repeat(BAR_CELLS - filled);
    let tail = match p.eta_ms {
        Some(ms) if p.done < p.total => format!(" · about {} left", duration_words(ms)),
        _ => format!(" · {}", duration_words(p.elapsed_ms)),
    };
    format!("[{cells}] {}/{} {}{tail} · {}", p.done, p.total, p.unit.name(p.total), p.job)
}

/// What is on the terminal's last line, and what every line starts with.
#[derive(Default)]
pub(crate) struct Screen {
    bar_shown: bool,
    prefix: &'static str,
}

impl Screen {
    /// Lines start with `prefix` (`folio ask` indents a script's output under its tool call).
    pub(crate) fn with_prefix(prefix: &'static str) -> Screen {
        Screen { bar_shown: false, prefix }
    }
}

/// The progress listener for `folio run` (console lines and job progress to stderr).
pub(crate) fn listener(style: Style) -> OnProgress {
    let screen = Arc::new(Mutex::new(Screen::default()));
    Arc::new(move |batch: &[ProgressLine]| {
        let mut screen = screen.lock().unwrap_or_else(|p| p.into_inner());
        let mut err = std::io::stderr().lock();
        for line in batch {
            draw(&mut err, &mut screen, style, line);
        }
        let _ = err.flush();
    })
}

/// Draws one line of a run's progress stream on `err`.
pub(crate) fn draw(err: &mut impl Write, screen: &mut Screen, style: Style, line: &ProgressLine) {
    let prefix = screen.prefix;
    match (&line.job, style) {
        (Some(job), Style::Bar) => {
            let _ = write!(err, "\r\x1b[2K{prefix}{}", bar(job));
            screen.bar_shown = job.done < job.total;
            if !screen.bar_shown {
                let _ = writeln!(err);
            }
        }
        (Some(job), Style::Plain) => {
            let _ = writeln!(err, "{prefix}progress: {}", job.text());
        }
        (None, _) => {
            if screen.bar_shown {
                // The console line goes above the bar; the next report redraws it.
                let _ = write!(err, "\r\x1b[2K");
                screen.bar_shown = false;
            }
            let _ = match line.stream {
                Stream::Stdout => writeln!(err, "{prefix}{}", line.text),
                Stream::Stderr => writeln!(err, "{prefix}stderr: {}", line.text),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use folio_budget::Unit;

    fn job(done: u64, total: u64, eta_ms: Option<u64>) -> JobProgress {
        JobProgress { job: "/in/a.pdf".into(), done, total, unit: Unit::Page, eta_ms, elapsed_ms: 1500 }
    }

    fn line(job: Option<JobProgress>, text: &str) -> ProgressLine {
        ProgressLine {
            run_id: "r".into(),
            script: "/scripts/s.js".into(),
            stream: Stream::Stdout,
            text: text.into(),
            job,
        }
    }

    #[track_caller]
    fn check(style: Style, lines: &[ProgressLine], expect: &str) {
        let (mut out, mut screen) = (Vec::new(), Screen::default());
        for l in lines {
            draw(&mut out, &mut screen, style, l);
        }
        assert_eq!(String::from_utf8(out).unwrap(), expect);
    }

    #[test]
    fn bars_and_lines() {
        assert_eq!(
            bar(&job(12, 48, Some(31_000))),
            "[######------------------] 12/48 pages · about 31 s left · /in/a.pdf"
        );
        assert_eq!(bar(&job(48, 48, Some(0))), "[########################] 48/48 pages · 2 s · /in/a.pdf");
        assert_eq!(bar(&job(0, 0, None)), "[########################] 0/0 pages · 2 s · /in/a.pdf");
        let a = job(1, 2, Some(900));
        let b = job(2, 2, Some(0));
        check(
            Style::Plain,
            &[line(Some(a.clone()), &a.text()), line(None, "hello"), line(Some(b.clone()), &b.text())],
            "progress: /in/a.pdf: 1/2 pages, about 900 ms left\nhello\nprogress: /in/a.pdf: 2/2 pages\n",
        );
        check(
            Style::Bar,
            &[line(Some(a), ""), line(None, "hello"), line(Some(b), "")],
            "\r\x1b[2K[############------------] 1/2 pages · about 900 ms left · /in/a.pdf\r\x1b[2Khello\n\r\x1b[2K[########################] 2/2 pages · 2 s · /in/a.pdf\n",
        );
    }
}
