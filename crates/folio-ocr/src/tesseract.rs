//! The tesseract command: where it is, which languages it has, and one supervised run of it.
//!
//! Discovery is `FOLIO_TESSERACT` when set (a test points it at a missing file to see the module
//! absent), else `tesseract` on `PATH`. Every run is a child under [`folio_budget::child`]: its own
//! process group, the job's deadline, a memory cap and the run's cancel. Recognition asks for
//! tesseract's TSV (one row per word with its box and confidence); orientation asks OSD
//! (`--psm 0`) for `Rotate:`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use folio_budget::{ChildEnd, ChildLimits, child};

use crate::error::OcrError;

pub use crate::error::INSTALL;

/// The environment variable that overrides where tesseract is.
pub const OVERRIDE: &str = "FOLIO_TESSERACT";

/// A found tesseract.
#[derive(Debug, Clone)]
pub struct Tesseract {
    /// The program.
    pub program: PathBuf,
    /// Its first `--version` line.
    pub version: String,
    /// The tessdata directory its languages live in.
    pub tessdata: Option<PathBuf>,
}

fn on_path(path: &str, name: &str) -> Option<PathBuf> {
    std::env::split_paths(path).map(|d| d.join(name)).find(|p| p.is_file())
}

impl Tesseract {
    /// Finds tesseract as this process's [`OVERRIDE`] or `PATH` say.
    pub fn discover() -> Result<Tesseract, OcrError> {
        Tesseract::discover_with(&|k| std::env::var(k).ok())
    }

    /// Finds tesseract as `var` says ([`OVERRIDE`], else `PATH`; a host passes its own view of
    /// the environment, so an isolated host finds none), and checks it answers `--version`.
    pub fn discover_with(var: &dyn Fn(&str) -> Option<String>) -> Result<Tesseract, OcrError> {
        let exe = if cfg!(windows) { "tesseract.exe" } else { "tesseract" };
        let program = match var(OVERRIDE) {
            Some(p) => PathBuf::from(p),
            None => var("PATH")
                .and_then(|path| on_path(&path, exe))
                .ok_or_else(|| OcrError::Missing { why: format!("no {exe} on PATH and {OVERRIDE} unset") })?,
        };
        Tesseract::at(&program)
    }

    /// tesseract at `program`, checked with `--version`.
    pub fn at(program: &Path) -> Result<Tesseract, OcrError> {
        let out = Command::new(program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| OcrError::Missing { why: format!("{}: {e}", program.display()) })?;
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        let version = text.lines().next().unwrap_or("").trim().to_string();
        if !out.status.success() || !version.starts_with("tesseract") {
            return Err(OcrError::Missing { why: format!("{} --version printed {version:?}", program.display()) });
        }
        let tessdata = [
            "/usr/share/tesseract-ocr/5/tessdata",
            "/usr/share/tesseract-ocr/4.00/tessdata",
            "/opt/homebrew/share/tessdata",
            "/usr/local/share/tessdata",
        ]
        .iter()
        .map(PathBuf::from)
        .chain(std::env::var_os("TESSDATA_PREFIX").map(PathBuf::from))
        .find(|d| d.join("eng.traineddata").is_file() || d.join("osd.traineddata").is_file());
        Ok(Tesseract { program: program.to_path_buf(), version, tessdata })
    }

    /// The installed recognition languages (`osd` excluded), sorted.
    pub fn languages(&self) -> Vec<String> {
        let Some(dir) = &self.tessdata else { return Vec::new() };
        let mut out: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.strip_suffix(".traineddata").map(str::to_string))
            .filter(|l| l != "osd")
            .collect();
        out.sort();
        out
    }

    /// Whether OSD data is installed.
    pub fn has_osd(&self) -> bool {
        self.tessdata.as_ref().is_some_and(|d| d.join("osd.traineddata").is_file())
    }

    /// Runs tesseract on `image` with `args` after it; returns stdout.
    fn run(
        &self,
        image: &Path,
        args: &[&str],
        limits: &ChildLimits,
        path: &str,
        page: u32,
    ) -> Result<String, OcrError> {
        let dir = tempfile::tempdir()?;
        let out_base = dir.path().join("out");
        let mut cmd = Command::new(&self.program);
        cmd.arg(image)
            .arg(&out_base)
            .args(args)
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let engine = |what: String| OcrError::Engine { path: path.to_string(), page, what };
        let outcome = child::run(&mut cmd, limits).map_err(|e| engine(format!("could not start: {e}")))?;
        match outcome.end {
            ChildEnd::Exited(s) if s.success() => {}
            ChildEnd::Exited(s) => return Err(engine(format!("exited with {s}; try a smaller dpi or check the file"))),
            ChildEnd::TimedOut => return Err(engine("timed out; ask for fewer pages or a lower dpi".into())),
            ChildEnd::Deadline => {
                return Err(engine("stopped at the run's deadline; raise the run budget or read fewer pages".into()));
            }
            ChildEnd::OverMemory => return Err(engine("passed its memory cap; use a lower dpi".into())),
            ChildEnd::Cancelled => return Err(engine("cancelled".into())),
        }
        let ext = if args.contains(&"tsv") { "tsv" } else { "osd" };
        Ok(std::fs::read_to_string(out_base.with_extension(ext))?)
    }

    /// tesseract's TSV for `image` in `lang`.
    pub fn tsv(
        &self,
        image: &Path,
        lang: &str,
        dpi: u32,
        limits: &ChildLimits,
        path: &str,
        page: u32,
    ) -> Result<String, OcrError> {
        let dpi = dpi.to_string();
        self.run(image, &["-l", lang, "--oem", "1", "--psm", "3", "--dpi", &dpi, "tsv"], limits, path, page)
    }

    /// The clockwise rotation (0, 90, 180, 270) that makes `image` upright, by OSD; `None` when
    /// OSD could not tell (too little text).
    pub fn rotation(&self, image: &Path, dpi: u32, limits: &ChildLimits, path: &str, page: u32) -> Option<u32> {
        let dpi = dpi.to_string();
        let text = self.run(image, &["--psm", "0", "--dpi", &dpi], limits, path, page).ok()?;
        parse_rotate(&text)
    }
}

/// `Rotate: N` from OSD's report.
pub fn parse_rotate(osd: &str) -> Option<u32> {
    osd.lines()
        .find_map(|l| l.strip_prefix("Rotate:"))
        .and_then(|v| v.trim().parse().ok())
        .filter(|r| [0, 90, 180, 270].contains(r))
}

/// One recognised word.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Word {
    /// The word.
    pub text: String,
    /// tesseract's confidence, 0–100.
    pub confidence: f32,
    /// `[left, top, width, height]` in pixels of the (upright) page image.
    pub bbox: [u32; 4],
}

/// Words from tesseract's TSV, and the page's text with lines and paragraphs in tesseract's
/// reading order.
pub fn parse_tsv(tsv: &str) -> (String, Vec<Word>) {
    let mut words = Vec::new();
    let mut text = String::new();
    let mut last: Option<(u32, u32, u32)> = None;
    for row in tsv.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        if f.len() < 12 || f[0] != "5" {
            continue;
        }
        let num = |i: usize| f[i].trim().parse::<u32>().unwrap_or(0);
        let word = f[11].trim();
        let conf: f32 = f[10].trim().parse().unwrap_or(-1.0);
        if word.is_empty() || conf < 0.0 {
            continue;
        }
        let key = (num(2), num(3), num(4));
        match last {
            Some(k) if k == key => text.push(' '),
            Some((b, p, _)) if (b, p) == (key.0, key.1) => text.push('\n'),
            Some(_) => text.push_str("\n\n"),
            None => {}
        }
        last = Some(key);
        text.push_str(word);
        words.push(Word { text: word.to_string(), confidence: conf, bbox: [num(6), num(7), num(8), num(9)] });
    }
    (text, words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osd_and_tsv_rows_are_read() {
        assert_eq!(parse_rotate("Page number: 0\nOrientation in degrees: 270\nRotate: 90\n"), Some(90));
        assert_eq!(parse_rotate("nothing"), None);
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
5\t1\t1\t1\t1\t1\t10\t20\t30\t40\t96.5\tHello\n5\t1\t1\t1\t1\t2\t50\t20\t30\t40\t90\tworld\n5\t1\t1\t1\t2\t1\t10\t70\t30\t40\t80\tnext\n";
        let (text, words) = parse_tsv(tsv);
        assert_eq!(text, "Hello world\nnext");
        assert_eq!(words[1].bbox, [50, 20, 30, 40]);
    }
}
