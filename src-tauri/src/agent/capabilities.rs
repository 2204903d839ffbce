//! Settings → Capabilities: the MCP servers a person adds. The list is the state root's
//! `mcp.json` (folio-host's [`McpConfig`], which `folio ask` reads too); a value marked secret
//! goes to the keychain (or the key file where none runs), as API keys do, and the file keeps its
//! reference. Every change reopens the open folder, so conversations started after it see the
//! new `env:<name>` modules; Test mounts the server as the form has it and lists its tools, or
//! shows why it failed with the server's own stderr.

use std::path::{Path, PathBuf};

use folio_host::mcp::{self, McpConfig, Scope, ServerConfig, Setting, SettingKind, SettingValue, TransportConfig};
use tauri::State;

use crate::api::*;
use crate::commands::{AppState, blocking};
use folio_workspace::keys::secrets_for;
use folio_workspace::mcp::{boundary, lookup, refusal};

fn row(s: &Setting) -> McpSettingRow {
    match &s.value {
        SettingValue::Text(v) => McpSettingRow { name: s.name.clone(), value: v.clone(), secret: false, saved: false },
        SettingValue::Secret(_) => {
            McpSettingRow { name: s.name.clone(), value: String::new(), secret: true, saved: true }
        }
    }
}

/// A stored server as the form shows it (secret values never leave the keychain).
fn to_form(server: &ServerConfig) -> McpServerForm {
    let folder = match &server.scope {
        Scope::Global => None,
        Scope::Folder(p) => Some(p.display().to_string()),
    };
    match &server.transport {
        TransportConfig::Stdio { command, args, env } => McpServerForm {
            name: server.name.clone(),
            kind: McpTransportKind::Stdio,
            command: command.clone(),
            args: args.clone(),
            url: String::new(),
            settings: env.iter().map(row).collect(),
            enabled: server.enabled,
            folder,
        },
        TransportConfig::Http { url, headers } => McpServerForm {
            name: server.name.clone(),
            kind: McpTransportKind::Http,
            command: String::new(),
            args: Vec::new(),
            url: url.clone(),
            settings: headers.iter().map(row).collect(),
            enabled: server.enabled,
            folder,
        },
    }
}

/// The form as a stored server, and the secret values to save (reference, value). An empty
/// secret keeps the one saved for `previous` under the same setting name.
fn from_form(
    form: &McpServerForm,
    previous: Option<&ServerConfig>,
) -> Result<(ServerConfig, Vec<(String, String)>), String> {
    let name = form.name.trim().to_owned();
    let kind = match form.kind {
        McpTransportKind::Stdio => SettingKind::Env,
        McpTransportKind::Http => SettingKind::Header,
    };
    let saved = |setting: &str| -> Option<String> {
        let previous = previous?;
        let settings = match &previous.transport {
            TransportConfig::Stdio { env, .. } => env,
            TransportConfig::Http { headers, .. } => headers,
        };
        settings.iter().find(|s| s.name == setting).and_then(|s| match &s.value {
            SettingValue::Secret(r) => Some(r.clone()),
            SettingValue::Text(_) => None,
        })
    };
    let mut secrets = Vec::new();
    let mut settings = Vec::new();
    for row in form.settings.iter().filter(|r| !(r.name.trim().is_empty() && r.value.is_empty())) {
        let setting = row.name.trim().to_owned();
        let value = if row.secret {
            let reference = mcp::secret_reference(&name, kind, &setting);
            if row.value.is_empty() {
                match saved(&setting) {
                    Some(old) if old == reference => {}
                    _ => {
                        return Err(format!(
                            "the secret {setting} of MCP server {name} has no value — hint: type it, or untick secret"
                        ));
                    }
                }
            } else {
                secrets.push((reference.clone(), row.value.clone()));
            }
            SettingValue::Secret(reference)
        } else {
            SettingValue::Text(row.value.clone())
        };
        settings.push(Setting { name: setting, value });
    }
    let transport = match form.kind {
        McpTransportKind::Stdio => {
            TransportConfig::Stdio { command: form.command.trim().to_owned(), args: form.args.clone(), env: settings }
        }
        McpTransportKind::Http => TransportConfig::Http { url: form.url.trim().to_owned(), headers: settings },
    };
    let scope = match form.folder.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        None => Scope::Global,
        Some(folder) => Scope::Folder(PathBuf::from(folder)),
    };
    Ok((ServerConfig { name, transport, enabled: form.enabled, scope }, secrets))
}

fn view(root: &Path, folder: Option<&Path>, warnings: Vec<String>) -> Result<CapabilitiesGetResponse, String> {
    let config = McpConfig::load(root).map_err(|e| e.to_string())?;
    Ok(CapabilitiesGetResponse {
        servers: config.servers.iter().map(to_form).collect(),
        folder: folder.map(|f| f.display().to_string()),
        reserved: mcp::reserved_names(),
        file: McpConfig::path(root).display().to_string(),
        warnings,
    })
}

/// Adds or replaces a server: the secrets saved first, then the file written atomically.
pub fn save(root: &Path, params: &CapabilitiesSaveParams) -> Result<(), String> {
    let mut config = McpConfig::load(root).map_err(|e| e.to_string())?;
    let replacing = params.replacing.as_deref();
    let previous = replacing.and_then(|n| config.server(n)).cloned();
    if replacing.is_some() && previous.is_none() {
        return Err(format!(
            "there is no MCP server called {} any more — hint: close the form and add it again",
            replacing.unwrap_or_default()
        ));
    }
    let (server, values) = from_form(&params.server, previous.as_ref())?;
    let others: Vec<&str> = config.servers.iter().map(|s| s.name.as_str()).filter(|n| Some(*n) != replacing).collect();
    mcp::check_name(&server.name, others.iter().copied()).map_err(|e| e.to_string())?;
    let secrets = secrets_for(root);
    for (reference, value) in &values {
        secrets.set(reference, value)?;
    }
    match replacing.and_then(|n| config.servers.iter().position(|s| s.name == n)) {
        Some(at) => config.servers[at] = server,
        None => config.servers.push(server),
    }
    config.save(root).map_err(|e| e.to_string())
}

/// Removes a server and the secrets saved for it.
pub fn remove(root: &Path, name: &str) -> Result<(), String> {
    let mut config = McpConfig::load(root).map_err(|e| e.to_string())?;
    let Some(at) = config.servers.iter().position(|s| s.name == name) else {
        return Err(format!("there is no MCP server called {name} — hint: reopen Settings to see the list"));
    };
    let removed = config.servers.remove(at);
    config.save(root).map_err(|e| e.to_string())?;
    let secrets = secrets_for(root);
    for reference in removed.secret_references() {
        let _ = secrets.set(&reference, "");
    }
    Ok(())
}

/// Turns a server on or off.
pub fn enable(root: &Path, name: &str, enabled: bool) -> Result<(), String> {
    let mut config = McpConfig::load(root).map_err(|e| e.to_string())?;
    let Some(server) = config.servers.iter_mut().find(|s| s.name == name) else {
        return Err(format!("there is no MCP server called {name} — hint: reopen Settings to see the list"));
    };
    server.enabled = enabled;
    config.save(root).map_err(|e| e.to_string())
}

/// Mounts the server as the form has it (typed secrets, else the saved ones) and lists its tools.
pub async fn test(root: &Path, form: &McpServerForm) -> CapabilitiesTestResponse {
    let fail = |error: String| CapabilitiesTestResponse {
        ok: false,
        tried: String::new(),
        tools: Vec::new(),
        error: Some(error),
        took_ms: 0,
    };
    let config = McpConfig::load(root).unwrap_or_default();
    let previous = config.server(form.name.trim()).cloned();
    // Typed secret values are used as typed (nothing is saved); empty ones come from the keychain.
    let (server, values) = match from_form(form, previous.as_ref()) {
        Ok(made) => made,
        Err(e) => return fail(e),
    };
    let typed: std::collections::HashMap<String, String> = values.into_iter().collect();
    let secrets = secrets_for(root);
    let resolve = |reference: &str| typed.get(reference).cloned().or_else(|| lookup(&secrets)(reference));
    let transport = match server.resolve(&resolve) {
        Ok(t) => t,
        Err(e) => return fail(e.to_string()),
    };
    let folder = match &server.scope {
        Scope::Folder(p) => Some(p.as_path()),
        Scope::Global => None,
    };
    // An unreadable store refuses a server off this machine with its own reason (fail closed).
    let stored = match boundary(root, folder) {
        Ok(stored) => stored,
        Err(reason) => match refusal(&server, &reason) {
            Some(refused) => return fail(refused),
            None => mcp::Boundary::new(mcp::NetworkMode::LocalOnly, mcp::NetworkMode::Open, &[]).unwrap_or_default(),
        },
    };
    let target = mcp::Server { name: server.name.clone(), transport };
    let (_module, report) = mcp::mount_one(&target, &stored).await;
    CapabilitiesTestResponse {
        ok: report.error.is_none(),
        tried: report.tried,
        tools: report
            .tools
            .into_iter()
            .map(|t| McpToolRow { binding: t.binding, remote: t.remote, description: t.description })
            .collect(),
        error: report.error,
        took_ms: u64::try_from(report.took.as_millis()).unwrap_or(u64::MAX),
    }
}

/// Reopens the open folder (same read-only choice) so conversations started now see the change;
/// what reopening said (a server that did not mount) comes back as warnings.
pub(crate) fn reopen(app: &AppState) -> Vec<String> {
    let session = app.session();
    let Some(session) = session else {
        return Vec::new();
    };
    let folder = session.folder().display().to_string();
    let read_only = session.read_only();
    drop(session);
    match app.open(&folder, Some(read_only)) {
        Ok(opened) => opened.warnings.into_iter().filter(|w| w.starts_with("env:")).collect(),
        Err(e) => vec![format!("the folder could not be reopened with the new servers: {e} — hint: open it again")],
    }
}

fn current_folder(app: &AppState) -> Option<PathBuf> {
    app.session().map(|s| s.folder().to_path_buf())
}

/// `capabilities.get`: the servers, and the open folder.
#[tauri::command]
pub async fn capabilities_get(app: State<'_, AppState>) -> Result<CapabilitiesGetResponse, CommandError> {
    let root = app.workspace()?.root().to_path_buf();
    let folder = current_folder(&app);
    blocking(move || view(&root, folder.as_deref(), Vec::new())).await
}

/// `capabilities.save`: adds or replaces a server, then reopens the folder.
#[tauri::command]
pub async fn capabilities_save(
    app: State<'_, AppState>,
    params: CapabilitiesSaveParams,
) -> Result<CapabilitiesGetResponse, CommandError> {
    let root = app.workspace()?.root().to_path_buf();
    let saved = root.clone();
    blocking(move || save(&saved, &params)).await?;
    let warnings = reopen(&app);
    Ok(view(&root, current_folder(&app).as_deref(), warnings)?)
}

/// `capabilities.remove`: removes a server, then reopens the folder.
#[tauri::command]
pub async fn capabilities_remove(
    app: State<'_, AppState>,
    params: CapabilitiesRemoveParams,
) -> Result<CapabilitiesGetResponse, CommandError> {
    let root = app.workspace()?.root().to_path_buf();
    let saved = root.clone();
    blocking(move || remove(&saved, &params.name)).await?;
    let warnings = reopen(&app);
    Ok(view(&root, current_folder(&app).as_deref(), warnings)?)
}

/// `capabilities.enable`: turns a server on or off, then reopens the folder.
#[tauri::command]
pub async fn capabilities_enable(
    app: State<'_, AppState>,
    params: CapabilitiesEnableParams,
) -> Result<CapabilitiesGetResponse, CommandError> {
    let root = app.workspace()?.root().to_path_buf();
    let saved = root.clone();
    blocking(move || enable(&saved, &params.name, params.enabled)).await?;
    let warnings = reopen(&app);
    Ok(view(&root, current_folder(&app).as_deref(), warnings)?)
}

/// `capabilities.test`: mounts the server as the form has it and lists its tools.
#[tauri::command]
pub async fn capabilities_test(
    app: State<'_, AppState>,
    params: CapabilitiesTestParams,
) -> Result<CapabilitiesTestResponse, CommandError> {
    let root = app.workspace()?.root().to_path_buf();
    Ok(test(&root, &params.server).await)
}
