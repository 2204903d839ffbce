//! The Doctor view: the rendering layer's capability rows (the same `folio doctor` prints) and
//! the provider row from the saved settings.

use std::path::PathBuf;

use super::settings::Settings;
use crate::api::{DoctorGetResponse, DoctorRow};

/// Every row, the provider last. Loads PDFium and asks the external tools for their versions
/// afresh (refreshing the doctor cache folders open with), so call it off the UI thread.
pub fn rows(state_dir: Option<PathBuf>, settings: &Settings, folder: Option<&std::path::Path>) -> DoctorGetResponse {
    let mcp = super::mcp_mount::doctor_rows(state_dir.as_deref(), folder);
    let (capabilities, warnings) = folio_host::probe_doctor(state_dir);
    let ready = folio_render::doctor::ready(&capabilities);
    let mut rows: Vec<DoctorRow> = capabilities
        .into_iter()
        .map(|c| DoctorRow { name: c.name, ok: c.ok, required: c.required, detail: c.detail, fix: c.fix })
        .collect();
    rows.extend(mcp);
    rows.push(settings.doctor_row());
    DoctorGetResponse { rows, ready, warnings }
}
