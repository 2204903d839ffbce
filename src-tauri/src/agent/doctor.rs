//! The Doctor view: folio-workspace's rows (the rendering layer's capabilities, probed afresh —
//! the same `folio doctor` prints — and one `mcp:` row per server in scope) and the provider row
//! from the saved settings.

use std::path::Path;

use super::AgentHost;
use crate::api::{DoctorGetResponse, DoctorRow};

/// Every row, the provider last. Loads PDFium and asks the external tools for their versions
/// afresh (refreshing the doctor cache folders open with), so call it off the UI thread.
pub fn rows(host: &AgentHost, folder: Option<&Path>) -> DoctorGetResponse {
    let tauri::async_runtime::RuntimeHandle::Tokio(handle) = tauri::async_runtime::handle();
    let (capabilities, warnings) = host.workspace().doctor(folder, &handle);
    let ready = folio_render::doctor::ready(&capabilities);
    let mut rows: Vec<DoctorRow> = capabilities
        .into_iter()
        .map(|c| DoctorRow { name: c.name, ok: c.ok, required: c.required, detail: c.detail, fix: c.fix })
        .collect();
    rows.push(host.settings().doctor_row());
    DoctorGetResponse { rows, ready, warnings }
}
