//! `folio doctor`: whether each capability works on this host, and the command that fixes it
//! when it does not. Exits 0 only when every required capability passes. The rows are
//! `folio_host::probe_doctor`'s (the ones the desktop app and `env:render`'s `capabilities()`
//! show), probed afresh — which also refreshes the doctor cache every start reads — plus the
//! model provider's key.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use folio_render::doctor;

/// The model provider `folio ask` would use (`FOLIO_PROVIDER`, default anthropic): whether its key
/// is found. Optional: rendering works without one. No request is made.
fn provider_row() -> doctor::Capability {
    let name = std::env::var("FOLIO_PROVIDER").ok().filter(|p| !p.is_empty()).unwrap_or_else(|| "anthropic".into());
    let Some(preset) = folio_agent::preset(&name) else {
        let names: Vec<&str> = folio_agent::PRESETS.iter().map(|p| p.name).collect();
        return doctor::Capability {
            name: "provider".into(),
            ok: false,
            required: false,
            detail: format!("FOLIO_PROVIDER names `{name}`, which Folio does not know"),
            fix: format!("set FOLIO_PROVIDER to one of {}", names.join(", ")),
        };
    };
    let Some(var) = preset.key_env else {
        return doctor::Capability {
            name: "provider".into(),
            ok: true,
            required: false,
            detail: format!("{} at {} needs no key (pass --model to folio ask)", preset.name, preset.base_url),
            fix: String::new(),
        };
    };
    let (key, _) = folio_store::Secrets::default().get(preset.name, Some(var));
    match key {
        Some((_, source)) => doctor::Capability {
            name: "provider".into(),
            ok: true,
            required: false,
            detail: format!("{} key found in {source} — folio ask can run", preset.name),
            fix: String::new(),
        },
        None => doctor::Capability {
            name: "provider".into(),
            ok: false,
            required: false,
            detail: format!("no {} key in the keychain or {var} — folio ask cannot reach the model", preset.name),
            fix: format!("export {var}=<your key>   (or FOLIO_PROVIDER=ollama with a local model)"),
        },
    }
}

pub(crate) fn run(state_dir: Option<PathBuf>, json: bool) -> Result<ExitCode> {
    let (mut rows, warnings) = folio_host::probe_doctor(state_dir);
    for warning in warnings {
        eprintln!("folio: warning: {warning}");
    }
    rows.push(provider_row());
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
