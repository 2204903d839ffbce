//! `folio doctor`: whether each capability works on this host, and the command that fixes it
//! when it does not. Exits 0 only when every required capability passes. The rows are the
//! workspace's (`Workspace::doctor`, the ones the desktop app shows: the capabilities, probed
//! afresh — which also refreshes the doctor cache every start reads — and an `mcp:` row per
//! configured server), plus the model provider's key.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use folio_render::doctor;

/// What the provider row reads: the variables `folio ask` takes its defaults from, and where it
/// finds keys. One struct so a test can give the row a clean environment.
struct ProviderEnv {
    provider: Option<String>,
    model: Option<String>,
    base_url: Option<String>,
    secrets: folio_store::Secrets,
}

impl ProviderEnv {
    /// This process's variables, and the keys `folio ask` would read for `state_dir` (the
    /// keychain, then `keys.json` under the state root, which the desktop app writes where no
    /// keychain runs).
    fn from_process(state_dir: Option<PathBuf>) -> ProviderEnv {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let root = state_dir.or_else(|| folio_vfs::default_state_root().ok());
        ProviderEnv {
            provider: var("FOLIO_PROVIDER"),
            model: var("FOLIO_MODEL"),
            base_url: var("FOLIO_BASE_URL"),
            secrets: root.map_or_else(folio_store::Secrets::default, |r| folio_workspace::keys::secrets_for(&r)),
        }
    }

    /// The provider `folio ask` would use in `ws`: its settings under the one rule (saved in the
    /// app or with `folio settings set`, else the `FOLIO_*` defaults), with its keys. Settings
    /// that cannot be resolved (an unknown `FOLIO_PROVIDER`) leave the variables as they are, so
    /// the row names them.
    fn from_workspace(ws: &folio_workspace::Workspace) -> ProviderEnv {
        let mut env = ProviderEnv::from_process(Some(ws.root().to_path_buf()));
        env.secrets = ws.secrets().clone();
        if let Ok(settings) = ws.settings() {
            env.provider = Some(settings.provider.as_str().to_owned());
            env.model = settings.model().map(str::to_owned);
            env.base_url = settings.base_url().map(str::to_owned);
        }
        env
    }
}

/// `--render-test`: env:motion renders its built-in scene on this host (a still, then 60 frames
/// to mp4 in the system's temporary directory). Required once asked for: a failing render test
/// makes the doctor exit 1.
fn render_test_row() -> doctor::Capability {
    let dir = std::env::temp_dir();
    match folio_motion::check::render_test(&dir) {
        Ok(r) => {
            let ok = r.warnings.is_empty();
            let detail = format!(
                "{} ({} bytes, 60 frames 640×360) in {:.2} s; still {} in {:.2} s; browser launch {:.2} s ({}){}",
                r.clip.display(),
                r.bytes,
                r.clip_took.as_secs_f64(),
                r.still.display(),
                r.still_took.as_secs_f64(),
                r.launch.as_secs_f64(),
                r.browser.display(),
                if ok { String::new() } else { format!(" — warnings: {}", r.warnings.join("; ")) }
            );
            doctor::Capability {
                name: "render-test".into(),
                ok,
                required: true,
                detail,
                fix: if ok { String::new() } else { "see the warnings; `folio doctor` lists the chromium and ffmpeg rows to fix".into() },
            }
        }
        Err(e) => doctor::Capability {
            name: "render-test".into(),
            ok: false,
            required: true,
            detail: format!("the test clip did not render: {e}"),
            fix: "apply the chromium / ffmpeg fix lines above (scripts/install.sh installs both), then run folio doctor --render-test again".into(),
        },
    }
}

/// The way to a model without any key, as the fix lines give it: a local Ollama.
const LOCAL_FIX: &str = "export FOLIO_PROVIDER=ollama FOLIO_MODEL=<a model from `ollama list`>";

/// How a person finds the model name a local server serves, for the fix line's placeholder.
fn local_model(provider: &str) -> &'static str {
    match provider {
        "ollama" => "a model from `ollama list`",
        _ => "a model loaded in the server",
    }
}

fn provider(ok: bool, detail: String, fix: String) -> doctor::Capability {
    doctor::Capability { name: "provider".into(), ok, required: false, detail, fix }
}

/// The model provider `folio ask` would use (the stored settings, else `FOLIO_PROVIDER`, default
/// anthropic — [`ProviderEnv::from_workspace`]): whether it
/// can start — its key is found, or (for a local server) a model is named. Optional: rendering
/// works without one. No request is made. Each fix line, followed, turns the row green (the
/// CLI's doctor tests follow every one).
fn provider_row(env: &ProviderEnv) -> doctor::Capability {
    let name = env.provider.clone().unwrap_or_else(|| "anthropic".into());
    let Some(preset) = folio_agent::preset(&name) else {
        let names: Vec<&str> = folio_agent::PRESETS.iter().map(|p| p.name).collect();
        return provider(
            false,
            format!("FOLIO_PROVIDER names `{name}`, which Folio does not know"),
            format!("export FOLIO_PROVIDER=<one of {}>", names.join(", ")),
        );
    };
    let at = env.base_url.as_deref().unwrap_or(preset.base_url);
    let Some(var) = preset.key_env else {
        return match (&env.model, preset.default_model.is_empty()) {
            (Some(model), _) => provider(
                true,
                format!("{} at {at} with model {model}, no key needed — folio ask can run", preset.name),
                String::new(),
            ),
            (None, false) => provider(
                true,
                format!(
                    "{} at {at} with model {}, no key needed — folio ask can run",
                    preset.name, preset.default_model
                ),
                String::new(),
            ),
            (None, true) => provider(
                false,
                format!("{} at {at} needs no key, but no model is named — folio ask would stop", preset.name),
                format!("export FOLIO_MODEL=<{}>   (or pass --model to folio ask)", local_model(preset.name)),
            ),
        };
    };
    let (key, _) = env.secrets.get(preset.name, Some(var));
    match key {
        Some((_, source)) => {
            provider(true, format!("{} key found in {source} — folio ask can run", preset.name), String::new())
        }
        None => provider(
            false,
            format!("no {} key in the keychain, the key file or {var} — folio ask cannot reach the model", preset.name),
            format!("export {var}=<your key>   (or, with no key, a local model: {LOCAL_FIX})"),
        ),
    }
}

pub(crate) fn run(state_dir: Option<PathBuf>, json: bool, render_test: bool) -> Result<ExitCode> {
    // The app's rows: every capability, then one per MCP server in scope (connected afresh).
    let ws = folio_workspace::Workspace::open(state_dir, folio_workspace::Overrides::default())?;
    let runtime = crate::flags::runtime()?;
    let (mut rows, warnings) = ws.doctor(None, runtime.handle());
    for warning in warnings {
        eprintln!("folio: warning: {warning}");
    }
    rows.push(provider_row(&ProviderEnv::from_workspace(&ws)));
    if render_test {
        rows.push(render_test_row());
    }
    let ready = doctor::ready(&rows);
    if json {
        println!("{}", serde_json::to_string_pretty(&serde_json::json!({"ready": ready, "capabilities": rows}))?);
    } else {
        for row in &rows {
            let mark = if row.ok { "✓" } else { "✗" };
            let optional = if row.required { "" } else { " (optional)" };
            println!("{mark} {:<11} {}{optional}", row.name, row.detail);
            if !row.ok {
                println!("  fix: {}", row.fix);
            }
        }
        if ready {
            println!("ready — every required capability works on this host");
        } else {
            println!("not ready — apply the fix lines above, then run this again");
        }
    }
    Ok(if ready { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
