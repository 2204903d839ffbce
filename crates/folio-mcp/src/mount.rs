//! `mount_mcp`: connect to an MCP server, list its tools, and build the `env:<name>` module whose
//! bindings call them.
//!
//! The connection is an rmcp client session. Its background tasks run on the tokio runtime that
//! awaited [`mount_mcp`], so that runtime must outlive the scripts that use the module; each
//! binding holds the session, and dropping the last copy of the module closes it (a stdio server
//! is killed then). A stdio server's stderr is drained into a short ring buffer, so a server that
//! dies during the handshake is reported with its own last words.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use folio_script::{HostFn, HostValue, NativeModule};
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ServiceError, ServiceExt};
use serde_json::Value;
use tokio::io::AsyncBufReadExt;

use crate::McpError;
use crate::tools::{build_module, remote_tool};

/// How long the handshake and the first tool listing may take before the mount gives up.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// How many of a stdio server's last stderr lines an error quotes.
const STDERR_LINES: usize = 12;

/// Where an MCP server is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpTransport {
    /// A local server spoken to over its stdin and stdout.
    Stdio {
        /// The program (a name on `PATH` or a path), e.g. `node` or `npx`.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment variables for the server process.
        env: Vec<(String, String)>,
    },
    /// A server speaking MCP's Streamable HTTP transport.
    Http {
        /// The endpoint, usually ending in `/mcp` (`http://127.0.0.1:3001/mcp`).
        url: String,
        /// Headers sent with every request, as given (`Authorization: Bearer …` among them when
        /// the server needs one).
        headers: Vec<(String, String)>,
    },
}

impl McpTransport {
    /// A stdio server started as `command args…`.
    pub fn stdio(command: impl Into<String>, args: impl IntoIterator<Item = impl Into<String>>) -> McpTransport {
        McpTransport::Stdio {
            command: command.into(),
            args: args.into_iter().map(Into::into).collect(),
            env: Vec::new(),
        }
    }

    /// A Streamable HTTP server at `url`.
    pub fn http(url: impl Into<String>) -> McpTransport {
        McpTransport::Http { url: url.into(), headers: Vec::new() }
    }

    /// What was tried, for messages: the command line or the URL.
    pub fn describe(&self) -> String {
        match self {
            McpTransport::Stdio { command, args, .. } => {
                let mut line = command.clone();
                for a in args {
                    line.push(' ');
                    line.push_str(a);
                }
                format!("stdio command `{line}`")
            }
            McpTransport::Http { url, .. } => format!("Streamable HTTP endpoint {url}"),
        }
    }
}

type Session = Arc<RunningService<RoleClient, ()>>;
type Stderr = Arc<Mutex<VecDeque<String>>>;

/// One live connection: the session and, for stdio, the server's last stderr lines.
struct Link {
    session: Session,
    stderr: Option<Stderr>,
}

/// The connection every binding of one mounted module shares. It remembers how to reach the
/// server and the runtime that owns the session's tasks, so a server that stopped is started
/// again at the next call (on that runtime, not on the run's short-lived one).
struct Supervisor {
    name: String,
    transport: McpTransport,
    tried: String,
    runtime: tokio::runtime::Handle,
    link: tokio::sync::Mutex<Option<Link>>,
}

impl Supervisor {
    /// The live session, connecting again when the last one closed (the server exited, or a
    /// call found it gone).
    async fn live(&self) -> Result<Session, String> {
        let mut link = self.link.lock().await;
        if let Some(l) = link.as_ref()
            && !l.session.is_closed()
        {
            return Ok(l.session.clone());
        }
        let transport = self.transport.clone();
        let tried = self.tried.clone();
        let fresh = self
            .runtime
            .spawn(async move { connect(&transport, &tried).await })
            .await
            .map_err(|e| format!("starting the MCP server {} again stopped unexpectedly: {e}", self.name))?
            .map_err(|e| format!("the MCP server {} had stopped and could not be started again: {e}", self.name))?;
        let session = fresh.0.clone();
        *link = Some(Link { session: fresh.0, stderr: fresh.1 });
        Ok(session)
    }

    /// Forgets `session` after a call found the transport gone, and says what the server last
    /// wrote to stderr.
    async fn lost(&self, session: &Session) -> String {
        let mut link = self.link.lock().await;
        let mut said = String::new();
        if let Some(l) = link.as_ref()
            && Arc::ptr_eq(&l.session, session)
        {
            // Give the dying server a moment to finish writing why.
            tokio::time::sleep(Duration::from_millis(200)).await;
            said = stderr_tail(l.stderr.as_ref());
            *link = None;
        }
        said
    }
}

/// `; the server's stderr ended with: …` for a stdio server that wrote something, else nothing.
fn stderr_tail(stderr: Option<&Stderr>) -> String {
    let lines: Vec<String> = match stderr {
        Some(s) => s.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect(),
        None => Vec::new(),
    };
    if lines.is_empty() {
        String::new()
    } else {
        format!("; the server's stderr ended with:\n  {}", lines.join("\n  "))
    }
}

/// Connects to the server, lists its tools and returns the module `env:<name>`: one async binding
/// per tool (`get-sum` is imported as `get_sum`), declarations generated from the tools' input
/// schemas, and docs listing them.
///
/// A binding takes one JSON object, which the server validates. It resolves to the tool's
/// `structuredContent` when there is one, otherwise to its text parts joined with newlines (or the
/// content array as sent, when some part is not text). A result with `isError` rejects with
/// `env:<name>.<binding>: <text>`. A server that stops while a call is in flight fails that call
/// with its name, what was tried and its last stderr lines; the next call starts it again.
///
/// The session's tasks run on the tokio runtime that awaits this function, which must outlive the
/// scripts using the module.
pub async fn mount_mcp(name: &str, transport: McpTransport) -> Result<NativeModule, McpError> {
    mount_mcp_listed(name, transport).await.map(|(module, _)| module)
}

/// One tool as the server listed it, for a settings page's Test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedTool {
    /// The name scripts import (`get_sum`).
    pub binding: String,
    /// The server's name for it (`get-sum`).
    pub remote: String,
    /// Its description.
    pub description: String,
}

/// [`mount_mcp`], also returning the tools as listed (binding, server name, description).
pub async fn mount_mcp_listed(
    name: &str,
    transport: McpTransport,
) -> Result<(NativeModule, Vec<ListedTool>), McpError> {
    let tried = transport.describe();
    let runtime = tokio::runtime::Handle::current();
    let (session, stderr) = connect(&transport, &tried).await?;
    let listed = tokio::time::timeout(CONNECT_TIMEOUT, session.list_all_tools()).await;
    let tools = match listed {
        Ok(Ok(tools)) => tools,
        Ok(Err(e)) => return Err(McpError::ListTools { tried, detail: e.to_string() }),
        Err(_) => {
            return Err(McpError::ListTools {
                tried,
                detail: format!("no answer to tools/list within {} s", CONNECT_TIMEOUT.as_secs()),
            });
        }
    };
    let info = session.peer_info().and_then(|i| serde_json::to_value(&*i).ok()).unwrap_or(Value::Null);
    let supervisor = Arc::new(Supervisor {
        name: name.to_owned(),
        transport: transport.clone(),
        tried: tried.clone(),
        runtime,
        link: tokio::sync::Mutex::new(Some(Link { session, stderr })),
    });
    let server = info.pointer("/serverInfo/name").and_then(Value::as_str).unwrap_or("an MCP server").to_owned();
    let version = info.pointer("/serverInfo/version").and_then(Value::as_str).unwrap_or("").to_owned();
    let instructions = info.get("instructions").and_then(Value::as_str).unwrap_or("").trim().to_owned();
    let mut listed = Vec::new();
    let specs = tools
        .into_iter()
        .map(|tool| {
            let remote = tool.name.to_string();
            let description = tool.description.as_deref().unwrap_or("").to_owned();
            let schema = Value::Object((*tool.input_schema).clone());
            let made = remote_tool(&remote, description.clone(), schema, call_tool(supervisor.clone(), remote.clone()));
            listed.push(ListedTool { binding: made.spec.name.clone(), remote, description });
            made
        })
        .collect();
    let description = format!("Tools of the MCP server {server} {version}, callable from scripts.").replace("  ", " ");
    let mut extra = format!("Mounted from {server} {version} over the {tried}.");
    if !instructions.is_empty() {
        extra.push_str("\n\n## The server's instructions\n\n");
        extra.push_str(&instructions);
    }
    build_module(name, &description, specs, &extra).map(|module| (module, listed))
}

async fn connect(transport: &McpTransport, tried: &str) -> Result<(Session, Option<Stderr>), McpError> {
    match transport {
        McpTransport::Stdio { command, args, env } => {
            let mut cmd = tokio::process::Command::new(command);
            cmd.args(args).envs(env.iter().cloned());
            let (child, pipe) = TokioChildProcess::builder(cmd).stderr(Stdio::piped()).spawn().map_err(|e| {
                let fix = if e.kind() == std::io::ErrorKind::NotFound {
                    format!("`{command}` is not installed or not on PATH — install it, or give its full path")
                } else {
                    "check that the command can be run by this user".to_owned()
                };
                McpError::Spawn { tried: tried.to_owned(), detail: e.to_string(), fix }
            })?;
            let lines: Stderr = Arc::new(Mutex::new(VecDeque::new()));
            if let Some(pipe) = pipe {
                let sink = lines.clone();
                tokio::spawn(async move {
                    let mut reader = tokio::io::BufReader::new(pipe).lines();
                    while let Ok(Some(line)) = reader.next_line().await {
                        let mut buf = sink.lock().unwrap_or_else(|p| p.into_inner());
                        if buf.len() == STDERR_LINES {
                            buf.pop_front();
                        }
                        buf.push_back(line);
                    }
                });
            }
            match handshake(().serve(child)).await {
                Ok(session) => Ok((session, Some(lines))),
                Err(detail) => {
                    // Give the dying server a moment to finish writing why.
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    let said: Vec<String> = lines.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect();
                    let detail = if said.is_empty() {
                        detail
                    } else {
                        format!("{detail}; the server's stderr ended with:\n  {}", said.join("\n  "))
                    };
                    Err(McpError::Connect {
                        tried: tried.to_owned(),
                        detail,
                        fix: "run the command by hand to see whether it starts an MCP server on stdio (some servers need an argument such as `stdio`)".into(),
                    })
                }
            }
        }
        McpTransport::Http { url, headers } => {
            // reqwest is built without a crypto provider; ring is the one the workspace already
            // has. Installing fails harmlessly when the process chose one already.
            let _ = rustls::crypto::ring::default_provider().install_default();
            let mut defaults = reqwest::header::HeaderMap::new();
            for (key, value) in headers {
                let bad = |detail: String| McpError::Connect {
                    tried: tried.to_owned(),
                    detail: format!("the header {key:?} cannot be sent: {detail}"),
                    fix: "give header names as letters, digits and dashes, and values without line breaks".into(),
                };
                let name = reqwest::header::HeaderName::from_bytes(key.as_bytes()).map_err(|e| bad(e.to_string()))?;
                let mut value = reqwest::header::HeaderValue::from_str(value).map_err(|e| bad(e.to_string()))?;
                value.set_sensitive(true);
                defaults.insert(name, value);
            }
            let client =
                reqwest::Client::builder().default_headers(defaults).build().map_err(|e| McpError::Connect {
                    tried: tried.to_owned(),
                    detail: format!("cannot build an HTTP client: {e}"),
                    fix: "check the system's TLS configuration".into(),
                })?;
            let parsed = reqwest::Url::parse(url).map_err(|e| McpError::Connect {
                tried: tried.to_owned(),
                detail: format!("the URL is not valid: {e}"),
                fix: "give the full endpoint, like http://127.0.0.1:3001/mcp".into(),
            })?;
            let config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
            let transport = StreamableHttpClientTransport::with_client(client, config);
            let session = match handshake(().serve(transport)).await {
                Ok(session) => session,
                Err(detail) => {
                    return Err(McpError::Connect {
                        tried: tried.to_owned(),
                        detail: explain_http_failure(&parsed, detail).await,
                        fix: "check that the server is running and that the URL is its Streamable HTTP endpoint (usually ending in /mcp)".into(),
                    });
                }
            };
            Ok((session, None))
        }
    }
}

/// rmcp reports a refused connection as "error sending request"; a plain TCP probe says whether
/// anything listens at the URL's host and port, which is the usual cause.
async fn explain_http_failure(url: &reqwest::Url, detail: String) -> String {
    // The transport's type name says nothing to the person reading the message.
    let detail = match (detail.find("Transport ["), detail.find("] error: ")) {
        (Some(start), Some(end)) if start < end => {
            format!("{}{}", &detail[..start], &detail[end + "] error: ".len()..])
        }
        _ => detail,
    };
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        return detail;
    };
    let probe = tokio::time::timeout(Duration::from_secs(3), tokio::net::TcpStream::connect((host, port))).await;
    match probe {
        Ok(Ok(_)) => detail,
        Ok(Err(e)) => format!("nothing answers at {host}:{port} ({e}); {detail}"),
        Err(_) => format!("{host}:{port} did not accept a connection within 3 s; {detail}"),
    }
}

/// Awaits the `initialize` handshake with the connect timeout.
async fn handshake<E: std::error::Error>(
    serving: impl Future<Output = Result<RunningService<RoleClient, ()>, E>>,
) -> Result<Session, String> {
    match tokio::time::timeout(CONNECT_TIMEOUT, serving).await {
        Ok(Ok(session)) => Ok(Arc::new(session)),
        Ok(Err(e)) => Err(error_chain(&e)),
        Err(_) => Err(format!("no answer to initialize within {} s", CONNECT_TIMEOUT.as_secs())),
    }
}

/// The error's message followed by its sources', so "connection refused" is not hidden.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(inner) = source {
        let more = inner.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = inner.source();
    }
    text
}

fn call_tool(supervisor: Arc<Supervisor>, tool: String) -> HostFn {
    HostFn::Async(Arc::new(move |args: Vec<HostValue>, _ctx| {
        let supervisor = supervisor.clone();
        let tool = tool.clone();
        Box::pin(async move {
            let arguments = match args.into_iter().next() {
                Some(HostValue::Json(Value::Object(map))) => map,
                _ => serde_json::Map::new(),
            };
            let session = supervisor.live().await?;
            let params = CallToolRequestParams::new(tool.clone()).with_arguments(arguments);
            let result = match session.call_tool(params).await {
                Ok(result) => result,
                Err(ServiceError::McpError(data)) => {
                    return Err(format!("the server refused the call: {}", data.message));
                }
                Err(other) => {
                    let said = supervisor.lost(&session).await;
                    return Err(format!(
                        "the MCP server {} ({}) stopped during the call: {other}{said} — it is started again at the next call; if it keeps stopping, run its command by hand to see why",
                        supervisor.name, supervisor.tried
                    ));
                }
            };
            let wire = serde_json::to_value(&result).map_err(|e| format!("the tool's result is not JSON: {e}"))?;
            tool_result(&wire)
        })
    }))
}

/// A `tools/call` result (as on the wire) as a script value or an error message.
pub(crate) fn tool_result(wire: &Value) -> Result<HostValue, String> {
    let content: &[Value] = wire.get("content").and_then(Value::as_array).map_or(&[], Vec::as_slice);
    let texts: Vec<&str> = content.iter().filter_map(|c| c.get("text").and_then(Value::as_str)).collect();
    if wire.get("isError").and_then(Value::as_bool) == Some(true) {
        let text = texts.join("\n");
        return Err(if text.trim().is_empty() { "the tool reported an error without saying why".into() } else { text });
    }
    if let Some(structured) = wire.get("structuredContent") {
        return Ok(HostValue::Json(structured.clone()));
    }
    let all_text = content.iter().all(|c| c.get("type").and_then(Value::as_str) == Some("text"));
    if all_text {
        Ok(HostValue::Json(Value::String(texts.join("\n"))))
    } else {
        Ok(HostValue::Json(Value::Array(content.to_vec())))
    }
}
