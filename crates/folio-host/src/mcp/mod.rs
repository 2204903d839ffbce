//! MCP servers a person adds: each enabled server in scope for a folder becomes `env:<name>` for
//! that folder's scripts, with its `.d.ts` from the tools' schemas (folio-mcp builds it), listed in
//! the orientation and `/std` like every registered module, and a doctor row saying whether it is
//! reachable.
//!
//! # How a shell uses it
//!
//! 1. [`McpConfig::load`] the state root's `mcp.json` (plus, in the CLI, the `--mcp` servers);
//! 2. [`resolve`] the servers in scope for the folder with the shell's secrets;
//! 3. [`mount_all`] them on the runtime that outlives the folder's scripts, with the folder's
//!    [`folio_boundary::Boundary`];
//! 4. hand the result to [`crate::HostBuilder::mcp`]: the modules are registered after
//!    [`crate::MODULES`], the rows join the doctor's, and each failure is a host warning naming
//!    the server with its own stderr.
//!
//! # Decisions
//!
//! - **Mounted when the environment is built, all servers at once.** Listing the tools is what
//!   gives the module its functions and declarations, and the agent reads those before it writes a
//!   script; so the listing cannot wait for a first import. The servers are connected concurrently
//!   and only when some are configured, so a folder without MCP servers opens exactly as fast as
//!   before, and one with servers waits for the slowest handshake (a Node server: ~0.5 s).
//! - **A server that fails to mount is a warning and a failing doctor row, not an absence.**
//!   Its name, what was tried and the server's stderr are in both.
//! - **Local-only is asked before anything connects.** An HTTP server whose URL is not on loopback
//!   is refused by the folder's boundary with the setting named; no socket is opened. Stdio
//!   servers are processes on this machine and always allowed.
//! - **A server that dies mid-run** fails the calls in flight by name (folio-mcp) and is started
//!   again at the next call.

mod config;

use std::time::{Duration, Instant};

use folio_boundary::Crossing;
pub use folio_boundary::{Boundary, NetworkMode};
use folio_mcp::{ListedTool, McpTransport, mount_mcp_listed};
use folio_render::Capability;
use folio_script::NativeModule;

pub use config::{
    CONFIG_FILE, CONFIG_VERSION, McpConfig, McpConfigError, Scope, ServerConfig, Setting, SettingKind, SettingValue,
    TransportConfig, check_name, looks_secret, parse_cli_server, reserved_names, secret_reference,
};

/// A server ready to connect: its module name and its transport, secrets resolved.
#[derive(Debug, Clone)]
pub struct Server {
    /// The module name (`env:<name>`).
    pub name: String,
    /// How to reach it.
    pub transport: McpTransport,
}

/// What connecting to one server found.
#[derive(Debug, Clone)]
pub struct ServerReport {
    /// The module name.
    pub name: String,
    /// The command line or URL that was tried.
    pub tried: String,
    /// The tools it offers, when it mounted.
    pub tools: Vec<ListedTool>,
    /// Why it did not mount (a local-only refusal, the server's error with its stderr).
    pub error: Option<String>,
    /// How long connecting and listing took.
    pub took: Duration,
}

/// The servers of one environment: the modules that mounted, and a report per server.
#[derive(Default)]
pub struct Mounted {
    /// One module per server that mounted.
    pub modules: Vec<NativeModule>,
    /// One per server, in the configuration's order.
    pub reports: Vec<ServerReport>,
}

impl Mounted {
    /// One doctor row per server: `mcp:<name>`, reachable with its tool count, or why not.
    pub fn rows(&self) -> Vec<Capability> {
        self.reports.iter().map(ServerReport::row).collect()
    }

    /// The warnings a shell prints at start: one per server that did not mount.
    pub fn warnings(&self) -> Vec<String> {
        self.reports
            .iter()
            .filter_map(|r| r.error.as_ref().map(|e| format!("env:{} is not available: {e}", r.name)))
            .collect()
    }
}

impl ServerReport {
    /// This server's doctor row.
    pub fn row(&self) -> Capability {
        match &self.error {
            None => Capability {
                name: format!("mcp:{}", self.name),
                ok: true,
                required: false,
                detail: format!(
                    "reachable over the {} — {} tools as env:{} ({} ms)",
                    self.tried,
                    self.tools.len(),
                    self.name,
                    self.took.as_millis()
                ),
                fix: String::new(),
            },
            Some(error) => Capability {
                name: format!("mcp:{}", self.name),
                ok: false,
                required: false,
                detail: format!("not reachable: {error}"),
                fix: "fix or remove the server in Settings → Capabilities (or the state directory's mcp.json); Test shows the server's own error".into(),
            },
        }
    }
}

/// The servers of `config` in scope for `folder`, with their secrets looked up by `secret`. A
/// server whose secret is missing is returned as a report instead (it cannot be started).
pub fn resolve(
    config: &McpConfig,
    folder: Option<&std::path::Path>,
    secret: &dyn Fn(&str) -> Option<String>,
) -> (Vec<Server>, Vec<ServerReport>) {
    let mut servers = Vec::new();
    let mut failed = Vec::new();
    for server in config.in_scope(folder) {
        match server.resolve(secret) {
            Ok(transport) => servers.push(Server { name: server.name.clone(), transport }),
            Err(e) => failed.push(ServerReport {
                name: server.name.clone(),
                tried: String::new(),
                tools: Vec::new(),
                error: Some(e.to_string()),
                took: Duration::ZERO,
            }),
        }
    }
    (servers, failed)
}

/// Mounts one server: the boundary is asked first (an HTTP URL off loopback under local-only is
/// refused before any connection), then folio-mcp connects and lists its tools.
pub async fn mount_one(server: &Server, boundary: &Boundary) -> (Option<NativeModule>, ServerReport) {
    let started = Instant::now();
    let tried = server.transport.describe();
    let report = |tools, error| ServerReport {
        name: server.name.clone(),
        tried: tried.clone(),
        tools,
        error,
        took: started.elapsed(),
    };
    if let McpTransport::Http { url, .. } = &server.transport
        && let Err(refused) = boundary.check_url(Crossing::McpServer(&server.name), url)
    {
        return (None, report(Vec::new(), Some(refused.to_string())));
    }
    match mount_mcp_listed(&server.name, server.transport.clone()).await {
        Ok((module, tools)) => (Some(module), report(tools, None)),
        Err(e) => (None, report(Vec::new(), Some(e.to_string()))),
    }
}

/// Mounts every server concurrently on `runtime` (which must outlive the scripts that call them:
/// the sessions' tasks run there), blocking until all have answered or failed. Safe to call from
/// inside another runtime's thread: the wait happens on a thread of its own.
pub fn mount_all(servers: Vec<Server>, boundary: &Boundary, runtime: &tokio::runtime::Handle) -> Mounted {
    if servers.is_empty() {
        return Mounted::default();
    }
    let boundary = boundary.clone();
    let job = async move {
        let mut tasks = Vec::new();
        for server in servers {
            let boundary = boundary.clone();
            tasks.push(tokio::spawn(async move { mount_one(&server, &boundary).await }));
        }
        let mut mounted = Mounted::default();
        for task in tasks {
            match task.await {
                Ok((module, report)) => {
                    mounted.modules.extend(module);
                    mounted.reports.push(report);
                }
                Err(e) => mounted.reports.push(ServerReport {
                    name: "?".into(),
                    tried: String::new(),
                    tools: Vec::new(),
                    error: Some(format!("mounting stopped unexpectedly: {e}")),
                    took: Duration::ZERO,
                }),
            }
        }
        mounted
    };
    let handle = runtime.clone();
    std::thread::scope(|scope| scope.spawn(move || handle.block_on(job)).join()).unwrap_or_else(|_| Mounted {
        modules: Vec::new(),
        reports: vec![ServerReport {
            name: "?".into(),
            tried: String::new(),
            tools: Vec::new(),
            error: Some(
                "mounting the MCP servers stopped unexpectedly — this is a bug in Folio, please report it".into(),
            ),
            took: Duration::ZERO,
        }],
    })
}

/// Everything a shell does at environment build, in one call: the configuration under
/// `state_root` plus `extra` servers (the CLI's `--mcp`), those in scope for `folder`, resolved
/// with `secret`, mounted on `runtime` under `boundary`. A configuration that cannot be read is
/// one more warning-bearing report, never a silent absence.
pub fn mount_for_folder(
    state_root: Option<&std::path::Path>,
    extra: Vec<ServerConfig>,
    folder: Option<&std::path::Path>,
    boundary: &Boundary,
    secret: &dyn Fn(&str) -> Option<String>,
    runtime: &tokio::runtime::Handle,
) -> Mounted {
    let mut config = McpConfig::default();
    let mut problems = Vec::new();
    if let Some(root) = state_root {
        match McpConfig::load(root) {
            Ok(loaded) => config = loaded,
            Err(e) => problems.push(ServerReport {
                name: CONFIG_FILE.into(),
                tried: String::new(),
                tools: Vec::new(),
                error: Some(e.to_string()),
                took: Duration::ZERO,
            }),
        }
    }
    for server in extra {
        // A run's own server replaces a configured one of the same name.
        config.servers.retain(|s| s.name != server.name);
        config.servers.push(server);
    }
    let (servers, unresolved) = resolve(&config, folder, secret);
    let mut mounted = mount_all(servers, boundary, runtime);
    mounted.reports.extend(unresolved);
    mounted.reports.extend(problems);
    mounted
}
