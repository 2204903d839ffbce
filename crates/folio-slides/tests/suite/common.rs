//! Shared helpers: the six-slide deck, the corpus, and LibreOffice/poppler when present.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

/// The six-slide deck: title, bullets + notes, metric, native chart, table, chart image.
pub fn six_slides(image: &str) -> Value {
    json!({
        "title": "Quarterly Business Review",
        "subtitle": "Finance team · October",
        "footer": "Acme Corp · Confidential",
        "slides": [
            {"title": "Highlights", "bullets": ["Revenue grew nine percent", "  EMEA led the growth", "  APAC recovered", "Churn stayed flat"], "notes": "Open with the headline number."},
            {"title": "Revenue", "metric": {"value": "$4.2M", "caption": "Third quarter revenue"}},
            {"title": "Revenue by region", "chart": {"type": "bar", "title": "Revenue by region", "categories": ["Americas", "Europe", "Pacific"], "series": [{"name": "Q2", "values": [1900, 1300, 600]}, {"name": "Q3", "values": [2100, 1400, 700]}], "numberFormat": "#,##0"}, "notes": "The chart is native; click to edit."},
            {"title": "Regional detail", "table": [["Region", "Revenue", "Growth"], ["Americas", "2,100", "10.5%"], ["Europe", "1,400", "7.7%"], ["Pacific", "700", "16.7%"]]},
            {"title": "Trend", "bullets": ["Steady growth since January"], "image": image}
        ]
    })
}

/// The corpus directory, or `None` (with a printed reason).
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: the corpus is not at {} (set FOLIO_CORPUS)", dir.display());
        None
    }
}

/// Whether `tool` is on PATH (prints why not).
pub fn has(tool: &str) -> bool {
    let ok = Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: {tool} is not installed (scripts/install.sh installs it)");
    }
    ok
}

/// Converts `file` to PDF with LibreOffice in its own profile, within 120 s; the PDF's path.
pub fn to_pdf(file: &Path, dir: &Path) -> PathBuf {
    let profile = dir.join("lo-profile");
    let out = Command::new("timeout")
        .arg("120")
        .arg("soffice")
        .arg(format!("-env:UserInstallation=file://{}", profile.display()))
        .args(["--headless", "--norestore", "--convert-to", "pdf", "--outdir"])
        .arg(dir)
        .arg(file)
        .output()
        .unwrap();
    let pdf = dir.join(file.with_extension("pdf").file_name().unwrap());
    assert!(
        pdf.exists(),
        "LibreOffice made no PDF: {} {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    pdf
}

/// A command's stdout.
pub fn stdout(cmd: &str, args: &[&str]) -> String {
    let o = Command::new(cmd).args(args).output().unwrap();
    assert!(o.status.success(), "{cmd} {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh temporary directory under the system's.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("folio-slides-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
