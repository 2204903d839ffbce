//! MCP servers a person adds, through the host: the configuration file's rules, the boundary
//! asked before any connection, and a real server (`@modelcontextprotocol/server-everything`,
//! installed by `scripts/get-mcp-test-server.sh`) mounted as `env:<name>`, listed in the
//! orientation and `/std`, called from a script, and reported as a doctor row.

use std::io::ErrorKind;
use std::time::Duration;

use folio_boundary::{Boundary, NetworkMode};
use folio_env::Status;
use folio_host::mcp::{
    self, McpConfig, McpConfigError, Scope, ServerConfig, Setting, SettingValue, TransportConfig, parse_cli_server,
};
use folio_host::{Host, Seams};
use folio_render::{HostPaths, Platform};
use folio_vfs::{Tree, VPath};
use serde_json::json;

use folio_mcp::testing::server_entry;

fn stdio(name: &str, scope: Scope) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: TransportConfig::Stdio {
            command: "node".into(),
            args: vec![server_entry().display().to_string(), "stdio".into()],
            env: Vec::new(),
        },
        enabled: true,
        scope,
    }
}

fn http(name: &str, url: &str) -> ServerConfig {
    ServerConfig {
        name: name.into(),
        transport: TransportConfig::Http { url: url.into(), headers: Vec::new() },
        enabled: true,
        scope: Scope::Global,
    }
}

fn local_only() -> Boundary {
    Boundary::new(NetworkMode::Open, NetworkMode::LocalOnly, &[]).unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
}

#[test]
fn names_are_module_names_never_a_builtin_or_repeated() {
    let check = |name: &str, others: &[&str], expect: Option<&str>| {
        let got = mcp::check_name(name, others.iter().copied());
        match (expect, got) {
            (None, Ok(())) => {}
            (Some(want), Err(e)) => assert!(e.to_string().contains(want), "{name}: {e}"),
            (want, got) => panic!("{name}: expected {want:?}, got {got:?}"),
        }
    };
    check("github", &[], None);
    check("crm_tools2", &[], None);
    check("Github", &[], Some("cannot be a module name — hint: use lower-case letters"));
    check("my-server", &[], Some("cannot be a module name"));
    check("2fa", &[], Some("cannot be a module name"));
    check("", &[], Some("cannot be a module name"));
    for builtin in ["fs", "std", "assert", "render", "spreadsheets", "vision"] {
        check(builtin, &[], Some(&format!("is the name of Folio's own env:{builtin} module — hint: pick another")));
    }
    check("github", &["crm", "github"], Some("is already used by another MCP server"));
}

#[test]
fn the_file_round_trips_atomically_and_refuses_what_it_cannot_use() {
    let state = tempfile::tempdir().unwrap();
    assert_eq!(McpConfig::load(state.path()).unwrap(), McpConfig::default(), "no file is an empty list");
    let mut config = McpConfig::default();
    let mut secret = http("crm", "https://crm.example/mcp");
    if let TransportConfig::Http { headers, .. } = &mut secret.transport {
        headers.push(Setting {
            name: "Authorization".into(),
            value: SettingValue::Secret(mcp::secret_reference("crm", mcp::SettingKind::Header, "Authorization")),
        });
        headers.push(Setting { name: "X-Team".into(), value: SettingValue::Text("finance".into()) });
    }
    config.servers.push(stdio("everything", Scope::Folder("/somewhere".into())));
    config.servers.push(secret);
    config.save(state.path()).unwrap();
    let text = std::fs::read_to_string(McpConfig::path(state.path())).unwrap();
    assert!(text.contains("\"secret\": \"mcp.crm.header.Authorization\""), "{text}");
    assert!(
        !std::fs::read_dir(state.path()).unwrap().any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
    );
    assert_eq!(McpConfig::load(state.path()).unwrap(), config);

    // Secrets are looked up by reference; a missing one names the server and the fix.
    let crm = config.server("crm").unwrap();
    let transport =
        crm.resolve(&|r| (r == "mcp.crm.header.Authorization").then(|| "Bearer s3cret".to_owned())).unwrap();
    assert_eq!(
        transport,
        folio_mcp::McpTransport::Http {
            url: "https://crm.example/mcp".into(),
            headers: vec![("Authorization".into(), "Bearer s3cret".into()), ("X-Team".into(), "finance".into())],
        }
    );
    let missing = crm.resolve(&|_| None).unwrap_err();
    assert!(matches!(missing, McpConfigError::MissingSecret { .. }), "{missing:?}");
    assert!(missing.to_string().contains("enter it again in Settings → Capabilities"), "{missing}");

    // Scope: the folder server only in its folder.
    assert_eq!(config.in_scope(None).iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["crm"]);
    assert_eq!(config.in_scope(Some("/somewhere".as_ref())).len(), 2);

    // A repeated name is refused on save and on load, naming the file.
    let mut twice = config.clone();
    twice.servers.push(stdio("crm", Scope::Global));
    assert!(twice.save(state.path()).unwrap_err().to_string().contains("already used by another MCP server"));
    std::fs::write(McpConfig::path(state.path()), serde_json::to_vec(&twice).unwrap()).unwrap();
    assert!(McpConfig::load(state.path()).unwrap_err().to_string().contains("already used"));
    std::fs::write(McpConfig::path(state.path()), br#"{"version": 9, "servers": []}"#).unwrap();
    let newer = McpConfig::load(state.path()).unwrap_err().to_string();
    assert!(newer.contains("is version 9, this Folio reads version 1 — hint: update Folio"), "{newer}");
    std::fs::write(
        McpConfig::path(state.path()),
        br#"{"version": 1, "servers": [{"name": "x", "transport": {"ftp": {}}}]}"#,
    )
    .unwrap();
    let torn = McpConfig::load(state.path()).unwrap_err().to_string();
    assert!(torn.contains("mcp.json: not an MCP server list"), "{torn}");
    assert!(torn.contains("hint: fix the file"), "{torn}");
}

#[test]
fn the_cli_spec_is_a_command_line_or_a_url() {
    let s = parse_cli_server("everything=node /opt/e/index.js stdio").unwrap();
    assert_eq!(
        s.transport,
        TransportConfig::Stdio {
            command: "node".into(),
            args: vec!["/opt/e/index.js".into(), "stdio".into()],
            env: Vec::new()
        }
    );
    let s = parse_cli_server("crm=http://127.0.0.1:3001/mcp").unwrap();
    assert!(matches!(s.transport, TransportConfig::Http { .. }));
    assert!(parse_cli_server("node index.js").unwrap_err().to_string().contains("is not NAME=COMMAND — hint: --mcp"));
    assert!(parse_cli_server("fs=node x.js").unwrap_err().to_string().contains("Folio's own env:fs"));
    assert!(parse_cli_server("x=").unwrap_err().to_string().contains("has no command"));
}

/// A listener on every interface, polled without blocking: how many connections reached it.
fn accepted(listener: &std::net::TcpListener) -> usize {
    let mut n = 0;
    loop {
        match listener.accept() {
            Ok(_) => n += 1,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return n,
            Err(e) => panic!("accept: {e}"),
        }
    }
}

#[test]
fn local_only_refuses_an_http_server_off_loopback_before_any_connection() {
    // 0.0.0.0 is not loopback to the boundary, yet a connection to it reaches this machine's
    // listener: so the same URL proves both that local-only opened nothing and that, without
    // it, the mount would have connected.
    let listener = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let url = format!("http://0.0.0.0:{port}/mcp");
    let rt = runtime();
    let servers = |url: &str| vec![mcp::Server { name: "crm".into(), transport: folio_mcp::McpTransport::http(url) }];

    let mounted = mcp::mount_all(servers(&url), &local_only(), rt.handle());
    assert!(mounted.modules.is_empty());
    let error = mounted.reports[0].error.clone().unwrap();
    assert!(error.contains(&format!("the MCP server crm at {url} is not on this machine")), "{error}");
    assert!(error.contains("this folder's local-only setting is on — nothing was sent"), "{error}");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(accepted(&listener), 0, "local-only opened a connection");
    let row = mounted.rows().remove(0);
    assert_eq!((row.name.as_str(), row.ok, row.required), ("mcp:crm", false, false));
    assert!(row.detail.starts_with("not reachable: the MCP server crm"), "{}", row.detail);
    assert_eq!(mounted.warnings(), vec![format!("env:crm is not available: {error}")]);

    // Open mode: the same mount reaches the listener (it is no MCP server, so it fails after).
    let listener_thread = std::thread::spawn(move || {
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_secs(20) {
            if accepted(&listener) > 0 {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    });
    let mounted = rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(5), mcp::mount_one(&servers(&url)[0], &Boundary::open())).await
    });
    drop(mounted);
    assert!(listener_thread.join().unwrap(), "without local-only the mount connects, so the listener can see one");
}

#[test]
fn a_configured_server_is_env_name_in_the_orientation_std_a_script_and_the_doctor() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("state");
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let mut config = McpConfig::default();
    config.servers.push(stdio("everything", Scope::Global));
    config.servers.push(stdio("elsewhere", Scope::Folder(tmp.path().join("another"))));
    let mut off = stdio("sleeping", Scope::Global);
    off.enabled = false;
    config.servers.push(off);
    config.servers.push(http("local_web", "http://127.0.0.1:9/mcp"));
    config.save(&state).unwrap();

    let rt = runtime();
    // Local-only: a stdio server and a loopback URL are allowed (the loopback one is simply not
    // running, so it fails by name with what was tried — it is not refused by the boundary).
    let started = std::time::Instant::now();
    let mounted = mcp::mount_for_folder(Some(&state), Vec::new(), Some(&folder), &local_only(), &|_| None, rt.handle());
    let took = started.elapsed();
    let names: Vec<&str> = mounted.reports.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["everything", "local_web"], "enabled servers in scope only");
    let web = mounted.reports[1].error.clone().unwrap();
    assert!(web.contains("nothing answers at 127.0.0.1:9"), "{web}");
    assert!(!web.contains("local-only"), "a loopback URL passes the boundary: {web}");
    println!("mounting env:everything (with a refused loopback server beside it) took {took:?}");

    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(state.clone());
    let host = Host::builder().state_dir(Some(state)).paths(paths).mcp(mounted).build().unwrap();
    assert_eq!(host.module_names().last().map(String::as_str), Some("everything"));
    assert!(host.warnings().iter().any(|w| w.starts_with("env:local_web is not available: could not connect")));
    let rows: Vec<_> = host.mcp_reports().iter().map(|r| r.row()).collect();
    assert!(rows[0].ok && rows[0].detail.contains("tools as env:everything"), "{:?}", rows[0]);
    assert!(!rows[1].ok, "{:?}", rows[1]);

    let env = host.open_folder(&folder, Seams::default()).unwrap();
    let orientation = folio_env::orientation(&env);
    assert!(orientation.contains("env:everything"), "{orientation}");
    let dts = env.tree().read(&VPath::parse("/std/everything/index.d.ts").unwrap()).unwrap();
    assert!(String::from_utf8(dts).unwrap().contains("export function get_sum(args: {"));

    let script = "/** Adds with the MCP server. */\nimport { get_sum, echo } from 'env:everything';\nexport default async function main() {\n  return [await get_sum({ a: 2, b: 40 }), await echo({ message: 'hi' })];\n}\n";
    let wrote = env.call("write_file", json!({"path": "/scripts/sum.js", "content": script}));
    assert_eq!(wrote.status, Status::Success, "{}", wrote.message);
    let report = env.run_script("/scripts/sum.js", json!({}), None, None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    let text = report.result.to_string();
    assert!(text.contains("42") && text.contains("Echo: hi"), "{text}");
}
