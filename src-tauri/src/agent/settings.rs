//! The Settings dialog over folio-workspace: the typed settings it stores (`agent.settings`: the
//! provider, model, base URL, vision model, turn limit and script run budget), the key in the
//! keychain or the key file, the precedence rule and the budget's bounds all live there, shared
//! with `folio`. This file maps them to the dialog's payloads, tests a connection and words the
//! Doctor's provider row.

use folio_agent::{ConnectionOutcome, PRESETS, Provider};
use folio_workspace::{Workspace, off_runtime};

use crate::api::*;

/// The dialog's side of the workspace's settings and keys.
pub struct Settings {
    ws: Workspace,
}

impl Settings {
    /// The settings of `ws` (its store and keys).
    pub fn new(ws: Workspace) -> Settings {
        Settings { ws }
    }

    /// The saved settings (the environment's defaults while nothing was saved).
    pub fn load(&self) -> Result<AgentSettings, String> {
        self.ws.stored_settings().map_err(|e| e.to_string())
    }

    /// The dialog's content.
    pub fn view(&self) -> Result<SettingsGetResponse, String> {
        let settings = self.load()?;
        let (found, notice) = off_runtime(|| self.ws.key(settings.provider.as_str())).map_err(|e| e.to_string())?;
        Ok(SettingsGetResponse {
            key: KeyStatus { present: found.is_some(), source: found.map(|f| f.source), notice },
            settings,
            presets: PRESETS
                .iter()
                .map(|p| ProviderPreset {
                    name: p.name.to_owned(),
                    default_model: p.default_model.to_owned(),
                    base_url: p.base_url.to_owned(),
                    key_env: p.key_env.map(str::to_owned),
                })
                .collect(),
        })
    }

    /// Saves the settings (checked by the workspace) and, when given, the key; answers the
    /// dialog's new content.
    pub fn save(&self, params: SettingsSaveParams) -> Result<SettingsGetResponse, String> {
        self.ws.save_settings(&params.settings, params.api_key.as_deref()).map_err(|e| e.to_string())?;
        self.view()
    }

    /// The provider `settings` describe, with `typed_key` (not saved yet) or the saved key; a
    /// provider that cannot be made names the dialog as the fix.
    pub fn provider(&self, settings: &AgentSettings, typed_key: Option<String>) -> Result<Provider, String> {
        self.ws.provider(settings, typed_key).map_err(|e| {
            format!("{e} — or open Settings (the gear in the header) and fill in the provider's model and key")
        })
    }

    /// Makes one minimal real request with the dialog's values and names the outcome, behind
    /// `boundary` (the open folder's, or the global mode): a provider local-only mode refuses is
    /// named before any connection.
    pub async fn test(
        &self,
        params: ConnectionTestParams,
        boundary: &folio_boundary::Boundary,
    ) -> ConnectionTestResponse {
        let provider = match self.provider(&params.settings, params.api_key) {
            Ok(p) => p,
            Err(message) => {
                return ConnectionTestResponse {
                    outcome: ConnectionOutcomeName::Failed,
                    model: params.settings.model,
                    latency_ms: 0,
                    message,
                };
            }
        };
        let report = folio_agent::test_connection_within(&provider, boundary).await;
        ConnectionTestResponse {
            outcome: match report.outcome {
                ConnectionOutcome::Ok => ConnectionOutcomeName::Ok,
                ConnectionOutcome::Unauthorised => ConnectionOutcomeName::Unauthorised,
                ConnectionOutcome::NotFound => ConnectionOutcomeName::NotFound,
                ConnectionOutcome::Unreachable => ConnectionOutcomeName::Unreachable,
                ConnectionOutcome::RateLimited => ConnectionOutcomeName::RateLimited,
                ConnectionOutcome::Failed => ConnectionOutcomeName::Failed,
            },
            model: report.model,
            latency_ms: u32::try_from(report.latency_ms).unwrap_or(u32::MAX),
            message: report.message,
        }
    }

    /// The provider row of the Doctor view: whether a request could be made (no request is made).
    pub fn doctor_row(&self) -> DoctorRow {
        let row = |ok, detail, fix| DoctorRow { name: "provider".to_owned(), ok, required: false, detail, fix };
        let settings = match self.load() {
            Ok(s) => s,
            Err(e) => return row(false, e, "fix the value in Settings (the gear in the header)".to_owned()),
        };
        let name = settings.provider.as_str();
        match self.provider(&settings, None) {
            Ok(p) => {
                let source = self.ws.key(name).0.map(|f| format!(", key from {}", f.source)).unwrap_or_default();
                row(true, format!("{name} — {} at {}{source}", p.model, p.base_url), String::new())
            }
            Err(e) => {
                let fix = match settings.provider.preset().key_env {
                    // A local server needs no key but a model name: a key would not help.
                    None => "open Settings (the gear in the header) and fill in the model your local server serves"
                        .to_owned(),
                    Some(var) => format!("export {var}=<your key>   (or save the key in Settings)"),
                };
                row(false, e, fix)
            }
        }
    }
}
