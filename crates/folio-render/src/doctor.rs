//! The doctor: one row per capability this crate offers, saying whether it works on this host
//! and, when it does not, the command that fixes it. `folio doctor` prints the rows; hosts call
//! [`capabilities`] to decide up front which modules to offer, so a capability that cannot work
//! is refused before an agent relies on it.

use serde::{Deserialize, Serialize};

use crate::office::find_soffice;
use crate::rasterize::Renderer;

/// One capability and its state on this host.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Capability {
    /// `pdfium` or `libreoffice`.
    pub name: String,
    /// True when it works here.
    pub ok: bool,
    /// True when Folio is not ready without it (the doctor exits non-zero).
    pub required: bool,
    /// What was found (the path and version), or what is wrong.
    pub detail: String,
    /// The command that fixes it on this platform; empty when `ok`.
    pub fix: String,
}

/// The rows, in the order the doctor prints them. Loads PDFium (once per process) and asks
/// LibreOffice for its version.
pub fn capabilities(renderer: &Renderer) -> Vec<Capability> {
    let platform = renderer.host.platform;
    let pdfium = match renderer.pdfium() {
        Ok(engine) => Capability {
            name: "pdfium".into(),
            ok: true,
            required: true,
            detail: format!("{} — env:render can rasterise PDFs", engine.library_path().display()),
            fix: String::new(),
        },
        Err(e) => Capability {
            name: "pdfium".into(),
            ok: false,
            required: true,
            detail: match &e {
                crate::RenderError::PdfiumMissing { tried, .. } => format!("not loadable; tried {tried}"),
                other => other.to_string(),
            },
            fix: platform.pdfium_fix(),
        },
    };
    let office = match find_soffice(renderer.soffice_path.as_deref(), &renderer.host) {
        Ok(path) => {
            let version = std::process::Command::new(&path)
                .arg("--version")
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output()
                .ok()
                .and_then(|o| String::from_utf8(o.stdout).ok())
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "version unknown".into());
            Capability {
                name: "libreoffice".into(),
                ok: true,
                required: false,
                detail: format!("{} ({version}) — Office files render", path.display()),
                fix: String::new(),
            }
        }
        Err(tried) => Capability {
            name: "libreoffice".into(),
            ok: false,
            required: false,
            detail: format!("not found (optional: without it .docx/.xlsx/.pptx are refused); looked at {tried}"),
            fix: platform.office_fix(),
        },
    };
    vec![pdfium, office]
}

/// True when every required row passes.
pub fn ready(rows: &[Capability]) -> bool {
    rows.iter().all(|r| r.ok || !r.required)
}
