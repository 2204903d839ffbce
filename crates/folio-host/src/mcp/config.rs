//! `<state root>/mcp.json`: the MCP servers a person added. The desktop app's Settings →
//! Capabilities writes it, `folio ask` (and `folio doctor`) read it, so a server added in one is
//! there in the other.
//!
//! ```json
//! { "version": 1,
//!   "servers": [
//!     { "name": "everything", "enabled": true, "scope": "global",
//!       "transport": { "stdio": { "command": "node", "args": ["/opt/everything/index.js", "stdio"],
//!                                 "env": [{ "name": "TOKEN", "value": { "secret": "mcp.everything.env.TOKEN" } }] } } },
//!     { "name": "crm", "enabled": false, "scope": { "folder": "/home/ana/clients" },
//!       "transport": { "http": { "url": "https://crm.example/mcp",
//!                                "headers": [{ "name": "Authorization", "value": { "secret": "mcp.crm.header.Authorization" } }] } } } ] }
//! ```
//!
//! A value marked secret never reaches the file: the file keeps the reference, the value is in
//! the OS keychain (or the key file where none runs), as API keys are. The shell resolves the
//! references with its own `folio_store::Secrets` when it builds the transports.

use std::path::{Path, PathBuf};

use folio_mcp::McpTransport;
use serde::{Deserialize, Serialize};

/// The file's name under the state root.
pub const CONFIG_FILE: &str = "mcp.json";
/// The format this build reads and writes.
pub const CONFIG_VERSION: u32 = 1;

/// Why the MCP configuration could not be read, changed or used. Raised when a shell loads or
/// saves the file, or resolves a server's secrets; the person fixes what the message names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpConfigError {
    /// The file exists but cannot be read or is not this format. Nobody retries; the person
    /// repairs or removes the file (the app writes a fresh one).
    #[error(
        "{path}: {detail} — hint: fix the file, or move it away and add the servers again in Settings → Capabilities"
    )]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        detail: String,
    },
    /// The file was written by a newer Folio. Not retryable; update Folio.
    #[error(
        "{path} is version {found}, this Folio reads version {CONFIG_VERSION} — hint: update Folio, or move the file away"
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it declares.
        found: u32,
    },
    /// A server's name cannot be a module name (`env:<name>`), is taken by a built-in module, or
    /// repeats. Raised when a server is added or the file loaded; the person renames it.
    #[error("MCP server name {name:?} {why}")]
    Name {
        /// The name as given.
        name: String,
        /// Why it cannot be used, with the fix.
        why: String,
    },
    /// A server's settings are incomplete (an empty command or URL, an empty variable name).
    #[error("MCP server {name}: {problem}")]
    Invalid {
        /// The server.
        name: String,
        /// What is missing, with the fix.
        problem: String,
    },
    /// A secret the file refers to is not in the keychain (or the key file). The person enters
    /// it again in Settings → Capabilities.
    #[error(
        "MCP server {name}: the secret {reference} is not saved on this machine — hint: enter it again in Settings → Capabilities"
    )]
    MissingSecret {
        /// The server.
        name: String,
        /// The reference the file keeps.
        reference: String,
    },
    /// The file could not be written (state root not writable, disk full). The person fixes the
    /// directory and saves again.
    #[error("cannot write {path}: {detail} — hint: check that the state directory is writable")]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        detail: String,
    },
}

/// Every server a person added, in the order they were added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpConfig {
    /// [`CONFIG_VERSION`].
    pub version: u32,
    /// The servers.
    #[serde(default)]
    pub servers: Vec<ServerConfig>,
}

impl Default for McpConfig {
    fn default() -> Self {
        McpConfig { version: CONFIG_VERSION, servers: Vec::new() }
    }
}

/// One server: the module name scripts import it as, how to reach it, whether it is on, where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerConfig {
    /// The module name: scripts import `env:<name>`.
    pub name: String,
    /// How to reach it.
    pub transport: TransportConfig,
    /// Off: kept in the list, not mounted.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Every folder, or one.
    #[serde(default)]
    pub scope: Scope,
}

fn yes() -> bool {
    true
}

/// How a server is reached. A closed set: a command Folio spawns, or a Streamable HTTP URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TransportConfig {
    /// A local program spoken to over stdin and stdout.
    Stdio {
        /// The program (on `PATH`, or a full path).
        command: String,
        /// Its arguments.
        #[serde(default)]
        args: Vec<String>,
        /// Extra environment variables.
        #[serde(default)]
        env: Vec<Setting>,
    },
    /// A server speaking Streamable HTTP.
    Http {
        /// The endpoint (`http://127.0.0.1:3001/mcp`).
        url: String,
        /// Headers sent with every request.
        #[serde(default)]
        headers: Vec<Setting>,
    },
}

/// Where a server is mounted.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Scope {
    /// In every folder.
    #[default]
    Global,
    /// Only in this folder (an absolute path, as the app opened it).
    Folder(PathBuf),
}

/// One environment variable or header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setting {
    /// The variable or header name.
    pub name: String,
    /// Its value, or where the secret value is kept.
    pub value: SettingValue,
}

/// A value in the file, or a reference to one in the keychain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SettingValue {
    /// Kept in the file as written.
    Text(String),
    /// Kept in the keychain under this reference (see [`secret_reference`]).
    Secret(String),
}

/// Whether a setting is an environment variable or a header, for its secret's reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingKind {
    /// A stdio server's environment variable.
    Env,
    /// An HTTP server's header.
    Header,
}

/// The keychain entry a secret setting is kept under: `mcp.<server>.env.<NAME>` or
/// `mcp.<server>.header.<Name>`.
pub fn secret_reference(server: &str, kind: SettingKind, name: &str) -> String {
    let kind = match kind {
        SettingKind::Env => "env",
        SettingKind::Header => "header",
    };
    format!("mcp.{server}.{kind}.{name}")
}

/// Whether a header or variable of this name is a secret by default (the app pre-ticks "secret";
/// `Authorization` always is).
pub fn looks_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["AUTHORIZATION", "TOKEN", "SECRET", "PASSWORD", "KEY", "COOKIE"].iter().any(|w| upper.contains(w))
}

/// The module names a server may not take: the builtins, every row of [`crate::MODULES`], and the
/// per-session `env:vision`.
pub fn reserved_names() -> Vec<String> {
    let mut names = crate::modules::registered_names();
    names.push("vision".to_owned());
    names
}

/// Checks `name` as a new server's module name beside `others` (the other servers' names).
pub fn check_name<'a>(name: &str, others: impl IntoIterator<Item = &'a str>) -> Result<(), McpConfigError> {
    let bad = |why: &str| Err(McpConfigError::Name { name: name.to_owned(), why: why.to_owned() });
    let shaped = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !shaped {
        return bad(
            "cannot be a module name — hint: use lower-case letters, digits and _, starting with a letter (like github or crm_tools)",
        );
    }
    if name.len() > 40 {
        return bad("is longer than 40 characters — hint: pick a shorter name");
    }
    if reserved_names().iter().any(|r| r == name) {
        return bad(&format!("is the name of Folio's own env:{name} module — hint: pick another, such as {name}_mcp"));
    }
    if others.into_iter().any(|o| o == name) {
        return bad(
            "is already used by another MCP server — hint: pick another name, or remove the other server first",
        );
    }
    Ok(())
}

impl McpConfig {
    /// The file under `state_root`.
    pub fn path(state_root: &Path) -> PathBuf {
        state_root.join(CONFIG_FILE)
    }

    /// Reads `<state_root>/mcp.json`; no file is an empty list. A file that does not parse, is a
    /// newer version, or breaks a rule (a bad or repeated name) is an error naming the file.
    pub fn load(state_root: &Path) -> Result<McpConfig, McpConfigError> {
        let path = McpConfig::path(state_root);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(McpConfig::default()),
            Err(e) => return Err(McpConfigError::Unreadable { path, detail: e.to_string() }),
        };
        let version = serde_json::from_slice::<serde_json::Value>(&bytes)
            .ok()
            .and_then(|v| v.get("version").and_then(serde_json::Value::as_u64));
        if let Some(found) = version
            && found > u64::from(CONFIG_VERSION)
        {
            return Err(McpConfigError::Version { path, found: u32::try_from(found).unwrap_or(u32::MAX) });
        }
        let config: McpConfig = serde_json::from_slice(&bytes).map_err(|e| McpConfigError::Unreadable {
            path: path.clone(),
            detail: format!("not an MCP server list: {e}"),
        })?;
        config.check()?;
        Ok(config)
    }

    /// Checks every rule [`McpConfig::load`] enforces: names, and non-empty commands, URLs and
    /// setting names.
    pub fn check(&self) -> Result<(), McpConfigError> {
        for (i, server) in self.servers.iter().enumerate() {
            check_name(&server.name, self.servers[..i].iter().map(|s| s.name.as_str()))?;
            server.check()?;
        }
        Ok(())
    }

    /// Writes the file atomically (a temporary file beside it, flushed, then renamed), creating
    /// the state root when needed. Refuses a list [`McpConfig::check`] refuses.
    pub fn save(&self, state_root: &Path) -> Result<(), McpConfigError> {
        self.check()?;
        let path = McpConfig::path(state_root);
        let failed = |e: std::io::Error| McpConfigError::Write { path: path.clone(), detail: e.to_string() };
        std::fs::create_dir_all(state_root).map_err(failed)?;
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| McpConfigError::Write { path: path.clone(), detail: e.to_string() })?;
        let tmp = state_root.join(format!(".{CONFIG_FILE}.{}.tmp", std::process::id()));
        let write = || -> std::io::Result<()> {
            use std::io::Write as _;
            let mut file = std::fs::File::create(&tmp)?;
            file.write_all(text.as_bytes())?;
            file.write_all(b"\n")?;
            file.sync_all()?;
            std::fs::rename(&tmp, &path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            failed(e)
        })
    }

    /// The enabled servers mounted in `folder`: the global ones and the folder's own (compared
    /// after resolving symlinks, so `/tmp/x` and its real path agree).
    pub fn in_scope(&self, folder: Option<&Path>) -> Vec<&ServerConfig> {
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let folder = folder.map(real);
        self.servers
            .iter()
            .filter(|s| s.enabled)
            .filter(|s| match &s.scope {
                Scope::Global => true,
                Scope::Folder(path) => folder.as_deref().is_some_and(|f| real(path) == f),
            })
            .collect()
    }

    /// The server called `name`.
    pub fn server(&self, name: &str) -> Option<&ServerConfig> {
        self.servers.iter().find(|s| s.name == name)
    }
}

impl ServerConfig {
    fn check(&self) -> Result<(), McpConfigError> {
        let invalid =
            |problem: &str| Err(McpConfigError::Invalid { name: self.name.clone(), problem: problem.to_owned() });
        let settings = match &self.transport {
            TransportConfig::Stdio { command, env, .. } => {
                if command.trim().is_empty() {
                    return invalid("has no command — hint: give the program to start, like npx or node");
                }
                env
            }
            TransportConfig::Http { url, headers } => {
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return invalid(
                        "needs an http:// or https:// URL — hint: give the endpoint, like http://127.0.0.1:3001/mcp",
                    );
                }
                headers
            }
        };
        if settings.iter().any(|s| s.name.trim().is_empty()) {
            return invalid("has a variable or header without a name — hint: name it, or remove the row");
        }
        Ok(())
    }

    /// The transport folio-mcp connects with, every secret looked up with `secret` (which
    /// returns `None` when the reference is not saved).
    pub fn resolve(&self, secret: &dyn Fn(&str) -> Option<String>) -> Result<McpTransport, McpConfigError> {
        let values = |settings: &[Setting]| -> Result<Vec<(String, String)>, McpConfigError> {
            settings
                .iter()
                .map(|s| match &s.value {
                    SettingValue::Text(v) => Ok((s.name.clone(), v.clone())),
                    SettingValue::Secret(reference) => {
                        secret(reference).map(|v| (s.name.clone(), v)).ok_or_else(|| McpConfigError::MissingSecret {
                            name: self.name.clone(),
                            reference: reference.clone(),
                        })
                    }
                })
                .collect()
        };
        Ok(match &self.transport {
            TransportConfig::Stdio { command, args, env } => {
                McpTransport::Stdio { command: command.clone(), args: args.clone(), env: values(env)? }
            }
            TransportConfig::Http { url, headers } => {
                McpTransport::Http { url: url.clone(), headers: values(headers)? }
            }
        })
    }

    /// The secret references this server's file entry keeps.
    pub fn secret_references(&self) -> Vec<String> {
        let settings = match &self.transport {
            TransportConfig::Stdio { env, .. } => env,
            TransportConfig::Http { headers, .. } => headers,
        };
        settings
            .iter()
            .filter_map(|s| match &s.value {
                SettingValue::Secret(r) => Some(r.clone()),
                SettingValue::Text(_) => None,
            })
            .collect()
    }
}

/// Parses a CLI `--mcp` value: `NAME=COMMAND [ARGS…]` (split on whitespace, as a shell would
/// without quotes) or `NAME=http(s)://…`. The server is global and enabled, for that run only.
pub fn parse_cli_server(spec: &str) -> Result<ServerConfig, McpConfigError> {
    let Some((name, rest)) = spec.split_once('=') else {
        return Err(McpConfigError::Invalid {
            name: spec.to_owned(),
            problem: "is not NAME=COMMAND — hint: --mcp 'everything=npx -y @modelcontextprotocol/server-everything' or --mcp crm=http://127.0.0.1:3001/mcp".into(),
        });
    };
    let name = name.trim().to_owned();
    let rest = rest.trim();
    let transport = if rest.starts_with("http://") || rest.starts_with("https://") {
        TransportConfig::Http { url: rest.to_owned(), headers: Vec::new() }
    } else {
        let mut words = rest.split_whitespace().map(str::to_owned);
        let command = words.next().unwrap_or_default();
        TransportConfig::Stdio { command, args: words.collect(), env: Vec::new() }
    };
    let server = ServerConfig { name, transport, enabled: true, scope: Scope::Global };
    check_name(&server.name, [])?;
    server.check()?;
    Ok(server)
}
