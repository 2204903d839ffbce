//! The agent's settings: provider, model, base URL, vision model, run budget and script run
//! budget in the store (`agent.settings`), the API key in the OS keychain — or, where none runs,
//! in the owner-only key file under the state root, which the dialog says. Until something is saved, the defaults come
//! from `FOLIO_PROVIDER`, `FOLIO_MODEL` and `FOLIO_BASE_URL`; `FOLIO_API_KEY` is the key of last
//! resort, after the provider's own variable.

use std::sync::Arc;

use folio_agent::{ConnectionOutcome, PRESETS, Provider};
use folio_store::{Secrets, Store};

use crate::api::*;

/// The store key the settings are saved under.
const KEY: &str = "agent.settings";

/// The default run budget (model calls per request), as `folio ask`'s.
pub const DEFAULT_MAX_TURNS: u32 = 120;

/// Settings and keys.
pub struct Settings {
    store: Arc<Store>,
    secrets: Secrets,
}

/// Runs `job` on a plain thread outside any async runtime and waits for it. The keychain client
/// (zbus on Linux) starts its own runtime and panics when called from inside one, so every key
/// lookup made from an async command goes through here.
pub fn off_runtime<T: Send>(job: impl FnOnce() -> T + Send) -> Result<T, String> {
    std::thread::scope(|scope| scope.spawn(job).join())
        .map_err(|_| "the keychain lookup stopped unexpectedly — try again".to_owned())
}

/// Where keys live for the state root `root`: the OS keychain with `keys.json` under `root` where
/// none runs — or only that file when `FOLIO_NO_KEYCHAIN` is set (tests that save a fake key
/// must never overwrite the person's real one in their keychain).
pub fn secrets_for(root: &std::path::Path) -> Secrets {
    folio_workspace::keys::secrets_for(root)
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

impl Settings {
    /// Settings with keys in `secrets` (tests use a file-only one: they must never touch the
    /// person's keychain).
    pub fn with_secrets(store: Arc<Store>, secrets: Secrets) -> Settings {
        Settings { store, secrets }
    }

    /// What nothing saved means: the environment's choice, else Anthropic's defaults.
    pub fn defaults() -> AgentSettings {
        AgentSettings {
            provider: env("FOLIO_PROVIDER").unwrap_or_else(|| "anthropic".to_owned()),
            model: env("FOLIO_MODEL").unwrap_or_default(),
            base_url: env("FOLIO_BASE_URL").unwrap_or_default(),
            vision_model: String::new(),
            max_turns: DEFAULT_MAX_TURNS,
            script_budget_ms: DEFAULT_SCRIPT_BUDGET_MS,
        }
    }

    /// The saved settings (defaults for what was never saved, or what a newer Folio wrote).
    pub fn load(&self) -> AgentSettings {
        self.store
            .setting(KEY)
            .ok()
            .flatten()
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_else(Settings::defaults)
    }

    /// The provider's key and where it was found, with the keychain's notice if it was not usable.
    fn key(&self, provider: &str) -> (Option<(String, String)>, Option<String>) {
        let preset = folio_agent::preset(provider);
        let (found, notice) = self.secrets.get(provider, preset.and_then(|p| p.key_env));
        let found = found
            .map(|(key, source)| (key, source.to_string()))
            .or_else(|| env("FOLIO_API_KEY").map(|k| (k, "the environment variable FOLIO_API_KEY".to_owned())));
        (found, notice)
    }

    /// The dialog's content.
    pub fn view(&self) -> SettingsGetResponse {
        let settings = self.load();
        let (found, notice) = self.key(&settings.provider);
        SettingsGetResponse {
            key: KeyStatus { present: found.is_some(), source: found.map(|(_, source)| source), notice },
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
        }
    }

    /// Saves the settings and, when given, the key; answers the dialog's new content.
    pub fn save(&self, params: SettingsSaveParams) -> Result<SettingsGetResponse, String> {
        let settings = params.settings;
        folio_agent::preset_named(&settings.provider)?;
        if settings.max_turns == 0 {
            return Err("the run budget must be at least 1 model call — 120 is the default".to_owned());
        }
        check_script_budget(settings.script_budget_ms)?;
        if let Some(key) = params.api_key {
            self.secrets.set(&settings.provider, key.trim())?;
        }
        let value = serde_json::to_value(&settings).map_err(|e| e.to_string())?;
        self.store.set_setting(KEY, &value).map_err(|e| e.to_string())?;
        Ok(self.view())
    }

    /// The provider `settings` describe, with `typed_key` (not saved yet) or the saved key.
    pub fn provider(&self, settings: &AgentSettings, typed_key: Option<String>) -> Result<Provider, String> {
        let preset = folio_agent::preset_named(&settings.provider)?;
        let key = typed_key
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty())
            .or_else(|| self.key(preset.name).0.map(|(k, _)| k));
        let model = Some(settings.model.trim()).filter(|m| !m.is_empty());
        let base_url = Some(settings.base_url.trim()).filter(|u| !u.is_empty());
        preset.provider(model, base_url, key).map_err(|e| {
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
        let provider = match off_runtime(|| self.provider(&params.settings, params.api_key)).and_then(|p| p) {
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
        let settings = self.load();
        let (ok, detail, fix) = match self.provider(&settings, None) {
            Ok(p) => {
                let source = self.key(&settings.provider).0.map(|(_, s)| format!(", key from {s}")).unwrap_or_default();
                (true, format!("{} — {} at {}{source}", settings.provider, p.model, p.base_url), String::new())
            }
            Err(e) => {
                let fix = match folio_agent::preset(&settings.provider) {
                    // A local server needs no key but a model name: a key would not help.
                    Some(p) if p.key_env.is_none() => {
                        "open Settings (the gear in the header) and fill in the model your local server serves"
                            .to_owned()
                    }
                    p => {
                        let var = p.and_then(|p| p.key_env).unwrap_or("FOLIO_API_KEY");
                        format!("export {var}=<your key>   (or save the key in Settings)")
                    }
                };
                (false, e, fix)
            }
        };
        DoctorRow { name: "provider".to_owned(), ok, required: false, detail, fix }
    }
}

/// Refuses a script run budget outside [`SCRIPT_BUDGET_MIN_MS`]..=[`SCRIPT_BUDGET_MAX_MS`],
/// naming the bounds.
pub fn check_script_budget(ms: u64) -> Result<(), String> {
    folio_workspace::check_script_budget(ms).map_err(|e| e.to_string())
}

/// The script run budget for a folder about to open, from the saved setting; the default, and
/// why, when the setting cannot be read or is out of bounds (an older or hand-edited store).
pub fn script_budget_for_folder(state_dir: Option<&std::path::Path>) -> (u64, Option<String>) {
    let root = match state_dir {
        Some(dir) => dir.to_path_buf(),
        None => match folio_vfs::default_state_root() {
            Ok(root) => root,
            Err(e) => {
                return (
                    DEFAULT_SCRIPT_BUDGET_MS,
                    Some(format!("the script run budget could not be read: {e} — 30 s applies")),
                );
            }
        },
    };
    let store = match Store::open(&root.join("folio.sqlite")) {
        Ok(store) => Arc::new(store),
        Err(e) => {
            return (
                DEFAULT_SCRIPT_BUDGET_MS,
                Some(format!("the script run budget could not be read: {e} — 30 s applies")),
            );
        }
    };
    let ms = Settings::with_secrets(store, secrets_for(&root)).load().script_budget_ms;
    match check_script_budget(ms) {
        Ok(()) => (ms, None),
        Err(e) => {
            (DEFAULT_SCRIPT_BUDGET_MS, Some(format!("{e}; 30 s applies — fix it in Settings → Script run budget")))
        }
    }
}

/// How the agent sees images in a folder about to open, from the saved vision setting. A setting
/// that cannot be honoured (no key for the vision provider, a malformed value) opens the folder
/// without vision and says why, instead of refusing the folder.
///
/// The vision client runs behind `folder`'s stored boundary (local-only refuses a vision provider
/// off this machine; never-send images are not looked at) and hands each request's ledger entry to
/// `ledger`, so vision calls join the conversation's "What was sent" like every other request.
/// Boundary settings that cannot be read leave the folder without vision, and say why.
pub fn vision_for_folder(
    state_dir: Option<&std::path::Path>,
    folder: &std::path::Path,
    runtime: &tauri::async_runtime::TokioHandle,
    ledger: folio_agent::LedgerSink,
) -> (Option<folio_agent::VisionSetup>, Option<String>) {
    let root = match state_dir {
        Some(dir) => dir.to_path_buf(),
        None => match folio_vfs::default_state_root() {
            Ok(root) => root,
            Err(e) => return (None, Some(format!("the vision setting could not be read: {e}"))),
        },
    };
    let store_path = root.join("folio.sqlite");
    let store = match Store::open(&store_path) {
        Ok(store) => Arc::new(store),
        Err(e) => return (None, Some(format!("the vision setting could not be read: {e}"))),
    };
    let settings = Settings::with_secrets(store.clone(), secrets_for(&root));
    let saved = settings.load();
    if saved.vision_model.trim().is_empty() {
        return (None, None);
    }
    let boundary = match super::egress::folder_boundary(&store, &store_path, folder) {
        Ok(boundary) => boundary,
        Err(e) => return (None, Some(format!("the agent cannot see images in this folder: {e}"))),
    };
    let setup = off_runtime(|| {
        let main = settings.provider(&saved, None)?;
        folio_agent::vision_setup_within(
            &saved.vision_model,
            &main,
            runtime,
            |p| settings.key(p.name).0.map(|(k, _)| k),
            &boundary,
            Some(ledger),
        )
    })
    .and_then(|r| r);
    match setup {
        Ok(setup) => (setup, None),
        Err(e) => (
            None,
            Some(format!(
                "the agent cannot see images in this folder: {e} — fix the vision model in Settings, then open the folder again"
            )),
        ),
    }
}
