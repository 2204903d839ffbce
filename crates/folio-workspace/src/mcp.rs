//! The MCP servers a folder mounts and the doctor checks, with the boundary they ask first — the
//! same for the app's session, `folio ask`/`run`/`verbs`/`regenerate` and both doctors.
//!
//! **Failing closed, saying why.** When the stored boundary cannot be read, no server off this
//! machine is connected (never less strict than what the person set), and each one refused so
//! carries that reason — the store's path and the fix — not a local-only setting nobody turned
//! on. Servers on this machine (stdio, loopback HTTP) still mount.

use std::path::Path;
use std::time::Duration;

use folio_host::mcp::{self, Boundary, McpConfig, Mounted, NetworkMode, ServerConfig, ServerReport, TransportConfig};
use folio_store::{Secrets, Store};

/// The boundary MCP mounts ask first: the stored global mode and, for a folder, its own settings.
/// `Err` says why the store could not be read.
pub fn boundary(root: &Path, folder: Option<&Path>) -> Result<Boundary, String> {
    let path = root.join("folio.sqlite");
    let stored = Store::open(&path).map_err(|e| e.to_string()).and_then(|store| match folder {
        Some(folder) => store.boundary(folder).map_err(|e| e.to_string()),
        None => store
            .global_mode()
            .map_err(|e| e.to_string())
            .and_then(|mode| Boundary::new(mode, NetworkMode::Open, &[]).map_err(|e| e.to_string())),
    });
    stored.map_err(|e| {
        format!(
            "the privacy settings in {} could not be read ({e}), so no MCP server off this machine is connected — hint: check that the state directory is readable, then save Settings → Privacy again",
            path.display()
        )
    })
}

/// Why `server` is not connected when the stored boundary is unreadable (`reason`): it is an
/// HTTP server whose URL is not on loopback. `None` for servers on this machine.
pub fn refusal(server: &ServerConfig, reason: &str) -> Option<String> {
    match &server.transport {
        TransportConfig::Http { url, .. } if !folio_boundary::is_loopback_url(url).unwrap_or(false) => {
            Some(format!("not connected to {url}: {reason}"))
        }
        _ => None,
    }
}

/// The secret lookup MCP servers resolve their references with (the keys' own store).
pub fn lookup(secrets: &Secrets) -> impl Fn(&str) -> Option<String> + '_ {
    |reference: &str| secrets.get(reference, None).0.map(|(value, _)| value)
}

/// A report for something that stopped every server from mounting.
pub fn failed(name: &str, error: String) -> Mounted {
    Mounted {
        modules: Vec::new(),
        reports: vec![ServerReport {
            name: name.to_owned(),
            tried: String::new(),
            tools: Vec::new(),
            error: Some(error),
            took: Duration::ZERO,
        }],
    }
}

/// Whether `server`'s scope covers `folder` (the configuration's own rule, asked of one server).
fn config_in_scope(server: &ServerConfig, folder: Option<&Path>) -> bool {
    let one = McpConfig { servers: vec![server.clone()], ..McpConfig::default() };
    !one.in_scope(folder).is_empty()
}

/// The servers in scope for `folder` (every global one without a folder) under `root`, plus
/// `extra`, mounted on `handle` behind `boundary` (`Err`: the stored boundary could not be read,
/// and every server off this machine is refused by that reason).
pub fn mount(
    root: &Path,
    folder: Option<&Path>,
    extra: Vec<ServerConfig>,
    boundary: Result<&Boundary, &str>,
    secrets: &Secrets,
    handle: &tokio::runtime::Handle,
) -> Mounted {
    let reason = match boundary {
        Ok(stored) => return mcp::mount_for_folder(Some(root), extra, folder, stored, &lookup(secrets), handle),
        Err(reason) => reason,
    };
    let mut config = match McpConfig::load(root) {
        Ok(config) => config,
        Err(e) => return failed(mcp::CONFIG_FILE, e.to_string()),
    };
    config.servers.extend(extra);
    let mut refused = Vec::new();
    config.servers.retain(|server| {
        let in_scope = config_in_scope(server, folder);
        match refusal(server, reason).filter(|_| in_scope) {
            Some(error) => {
                refused.push(ServerReport {
                    name: server.name.clone(),
                    tried: String::new(),
                    tools: Vec::new(),
                    error: Some(error),
                    took: Duration::ZERO,
                });
                false
            }
            None => true,
        }
    });
    let (servers, unresolved) = mcp::resolve(&config, folder, &lookup(secrets));
    let strict = Boundary::new(NetworkMode::LocalOnly, NetworkMode::Open, &[]).unwrap_or_default();
    let mut mounted = mcp::mount_all(servers, &strict, handle);
    mounted.reports.extend(refused);
    mounted.reports.extend(unresolved);
    mounted
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use folio_host::mcp::Scope;

    fn http(name: &str, url: &str) -> ServerConfig {
        ServerConfig {
            name: name.into(),
            enabled: true,
            scope: Scope::Global,
            transport: TransportConfig::Http { url: url.into(), headers: Vec::new() },
        }
    }

    /// An unreadable store refuses the servers off this machine with its own reason (the path
    /// and the fix), never "the global local-only setting", and connects to none of them.
    #[test]
    fn an_unreadable_store_refuses_remote_servers_with_its_own_reason() {
        let root = tempfile::tempdir().unwrap();
        // A directory where the database file should be: the store cannot be opened.
        std::fs::create_dir_all(root.path().join("folio.sqlite").join("x")).unwrap();
        let reason = boundary(root.path(), None).unwrap_err();
        assert!(reason.contains("folio.sqlite") && reason.contains("hint:"), "{reason}");
        assert!(!reason.contains("local-only setting"), "{reason}");
        let remote = http("far", "http://10.255.255.1:9/mcp");
        let said = refusal(&remote, &reason).unwrap();
        assert!(said.contains("http://10.255.255.1:9/mcp") && said.contains("could not be read"), "{said}");
        assert_eq!(refusal(&http("near", "http://127.0.0.1:9/mcp"), &reason), None);

        let config = McpConfig { servers: vec![remote], ..McpConfig::default() };
        config.save(root.path()).unwrap();
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let secrets = Secrets::file_only(&root.path().join("keys.json"));
        let mounted = mount(root.path(), None, Vec::new(), Err(&reason), &secrets, runtime.handle());
        let warnings = mounted.warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("env:far is not available: not connected") && warnings[0].contains("folio.sqlite")
        );
    }

    #[test]
    fn a_missing_state_root_is_a_warning_not_silence() {
        let said = failed(mcp::CONFIG_FILE, "the state directory could not be found (no HOME)".into());
        assert_eq!(said.warnings().len(), 1);
        assert_eq!(said.rows().len(), 1);
        assert!(!said.rows()[0].ok);
    }
}
