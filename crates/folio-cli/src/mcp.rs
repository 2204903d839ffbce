//! `folio mcp list|add|remove|test` manages the state root's `mcp.json` (the file Settings →
//! Capabilities writes). Mounting — the configured servers plus a command's `--mcp` ones — is
//! folio-workspace's; secrets come from the same keychain (or key file) as API keys.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use folio_host::mcp::{self, Boundary, McpConfig, Scope, ServerConfig};

/// `folio mcp …`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum McpCommand {
    /// List the configured servers: name, scope, on or off, and how each is reached.
    List,
    /// Add a server, as Settings → Capabilities does: `folio mcp add NAME COMMAND [ARGS…]`, or
    /// `folio mcp add NAME http://…/mcp`.
    Add {
        /// The module name scripts import (`env:NAME`).
        name: String,
        /// The command (and its arguments), or the URL.
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true, trailing_var_arg = true)]
        command: Vec<String>,
        /// Only in this folder (default: every folder).
        #[arg(long, value_name = "FOLDER")]
        folder: Option<PathBuf>,
    },
    /// Remove a server (and the secrets saved for it).
    Remove {
        /// The server's name.
        name: String,
    },
    /// Connect to a configured server and list its tools, or say why it failed with its stderr.
    /// Exits 1 when it cannot be reached.
    Test {
        /// The server's name.
        name: String,
    },
}

/// Runs `folio mcp …` against the state root.
pub(crate) fn run(state_dir: Option<PathBuf>, command: McpCommand) -> Result<ExitCode> {
    let root = match state_dir {
        Some(dir) => dir,
        None => folio_vfs::default_state_root()?,
    };
    let mut config = McpConfig::load(&root).map_err(|e| anyhow!(e))?;
    match command {
        McpCommand::List => {
            if config.servers.is_empty() {
                println!("no MCP servers — add one with `folio mcp add NAME COMMAND…` or in Settings → Capabilities");
            }
            for s in &config.servers {
                let scope = match &s.scope {
                    Scope::Global => "every folder".to_owned(),
                    Scope::Folder(p) => p.display().to_string(),
                };
                let on = if s.enabled { "on " } else { "off" };
                println!("{on} env:{:<16} {:<24} {}", s.name, scope, describe(s));
            }
            Ok(ExitCode::SUCCESS)
        }
        McpCommand::Add { name, command, folder } => {
            let mut server = mcp::parse_cli_server(&format!("{name}={}", command.join(" "))).map_err(|e| anyhow!(e))?;
            if let mcp::TransportConfig::Stdio { command: program, args, .. } = &mut server.transport {
                // Arguments as given, spaces kept.
                *program = command[0].clone();
                *args = command[1..].to_vec();
            }
            mcp::check_name(&server.name, config.servers.iter().map(|s| s.name.as_str())).map_err(|e| anyhow!(e))?;
            if let Some(folder) = folder {
                server.scope = Scope::Folder(std::fs::canonicalize(&folder).unwrap_or(folder));
            }
            println!("added env:{} ({})", server.name, describe(&server));
            config.servers.push(server);
            config.save(&root).map_err(|e| anyhow!(e))?;
            Ok(ExitCode::SUCCESS)
        }
        McpCommand::Remove { name } => {
            let Some(at) = config.servers.iter().position(|s| s.name == name) else {
                return Err(anyhow!("there is no MCP server called {name} — hint: `folio mcp list` shows them"));
            };
            let removed = config.servers.remove(at);
            config.save(&root).map_err(|e| anyhow!(e))?;
            let secrets = folio_workspace::keys::secrets_for(&root);
            for reference in removed.secret_references() {
                let _ = secrets.set(&reference, "");
            }
            println!("removed env:{name}");
            Ok(ExitCode::SUCCESS)
        }
        McpCommand::Test { name } => {
            let Some(server) = config.server(&name).cloned() else {
                return Err(anyhow!("there is no MCP server called {name} — hint: `folio mcp list` shows them"));
            };
            let secrets = folio_workspace::keys::secrets_for(&root);
            let lookup = |reference: &str| secrets.get(reference, None).0.map(|(value, _)| value);
            let transport = server.resolve(&lookup).map_err(|e| anyhow!(e))?;
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
            let target = mcp::Server { name: name.clone(), transport };
            // Asked of the boundary a run would have: the stored global mode, and the server's
            // folder's own settings when it belongs to one.
            let store = folio_store::Store::open(&root.join("folio.sqlite"))?;
            let boundary = match &server.scope {
                Scope::Folder(folder) => store.boundary(folder)?,
                Scope::Global => Boundary::new(store.global_mode()?, folio_host::mcp::NetworkMode::Open, &[])?,
            };
            let (_module, report) = runtime.block_on(mcp::mount_one(&target, &boundary));
            match report.error {
                None => {
                    println!(
                        "env:{name}: {} tools over the {} ({} ms)",
                        report.tools.len(),
                        report.tried,
                        report.took.as_millis()
                    );
                    for tool in report.tools {
                        println!("  {:<32} {}", tool.binding, tool.description.lines().next().unwrap_or(""));
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Some(error) => {
                    eprintln!("folio: env:{name} is not reachable: {error}");
                    Ok(ExitCode::FAILURE)
                }
            }
        }
    }
}

fn describe(server: &ServerConfig) -> String {
    match &server.transport {
        mcp::TransportConfig::Stdio { command, args, .. } => format!("{command} {}", args.join(" ")).trim().to_owned(),
        mcp::TransportConfig::Http { url, .. } => url.clone(),
    }
}
