#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! folio-mcp against a real MCP server: `@modelcontextprotocol/server-everything`, installed by
//! `scripts/install.sh` into `$HOME/.cache/folio/npm`. A missing server fails the tests with the
//! install command; it never skips them.

use std::sync::Arc;
use std::time::Duration;

use folio_mcp::{McpError, McpTransport, ToolSpec, define_tools, mount_mcp};
use folio_script::{
    Engine, HostFn, HostValue, ModuleRegistry, NativeModule, RunOptions, RunValue, ScriptLimits, TreeFs,
};
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::{Value, json};

use folio_mcp::testing::server_entry;

use folio_mcp::testing::everything_stdio;

/// Runs `src` as `/scripts/main.js` with `module` registered, and returns its JSON result.
async fn run_script(module: NativeModule, src: &str) -> Value {
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(module).unwrap();
    let engine = Engine::new(registry, ScriptLimits { run_timeout_ms: 20_000, ..ScriptLimits::default() });
    let tree = Arc::new(MemTree::new());
    let main = VPath::parse("/scripts/main.js").unwrap();
    tree.write(&main, src.as_bytes()).unwrap();
    let result = engine.run(Arc::new(TreeFs::new(tree)), &main, None, RunOptions::default()).await;
    match result.outcome {
        Ok(RunValue::Json(v)) => v,
        other => panic!("the script did not return JSON: {other:?}\nstderr: {:?}", result.stderr),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_loops_over_a_stdio_servers_tools_and_keeps_the_results() {
    let module = mount_mcp("everything", everything_stdio()).await.unwrap();
    assert_eq!(module.name, "everything");
    let names: Vec<&str> = module.functions.iter().map(|f| f.name.as_str()).collect();
    for expected in ["echo", "get_sum", "get_structured_content"] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    assert!(module.types_dts.contains("/** Echoes back the input string */\nexport function echo(args: {\n  /** Message to echo */\n  message: string;\n}): Promise<any>;"), "{}", module.types_dts);
    assert!(
        module.types_dts.contains("(MCP tool \"get-sum\") */\nexport function get_sum(args: {"),
        "{}",
        module.types_dts
    );
    assert!(
        module.types_dts.contains("location: \"New York\" | \"Chicago\" | \"Los Angeles\";"),
        "{}",
        module.types_dts
    );
    assert!(
        module.docs.contains("- `get_sum(…)` (tool \"get-sum\") — Returns the sum of two numbers"),
        "{}",
        module.docs
    );
    assert!(module.docs.contains("const result = await echo({ message: '…' });"), "{}", module.docs);

    let src = "
        import { echo, get_sum, get_structured_content } from 'env:everything';
        export default async function () {
          const echoes = [];
          for (const word of ['alpha', 'beta', 'gamma']) echoes.push(await echo({ message: word }));
          let total = 0;
          for (let i = 1; i <= 4; i++) {
            const said = await get_sum({ a: total, b: i });
            total = Number(said.match(/is (-?[0-9.]+)/)[1]);
          }
          const weather = await get_structured_content({ location: 'Chicago' });
          let refused = '';
          try { await echo({ message: 42 }); } catch (e) { refused = e.message; }
          let notAnObject = '';
          try { await echo('hello'); } catch (e) { notAnObject = e.message; }
          return { echoes, total, weather: Object.keys(weather).sort(), refused, notAnObject };
        }";
    let got = run_script(module, src).await;
    assert_eq!(got["echoes"], json!(["Echo: alpha", "Echo: beta", "Echo: gamma"]));
    assert_eq!(got["total"], json!(10));
    assert_eq!(got["weather"], json!(["conditions", "humidity", "temperature"]));
    let refused = got["refused"].as_str().unwrap();
    assert!(refused.starts_with("env:everything.echo: "), "{refused}");
    assert!(refused.contains("message"), "the server's validation names the field: {refused}");
    let not_an_object = got["notAnObject"].as_str().unwrap();
    assert!(not_an_object.starts_with("env:everything.echo: takes one object of named arguments"), "{not_an_object}");
}

/// A free port on 127.0.0.1 (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamable_http_server_is_mounted_by_url() {
    let port = free_port();
    let mut server = tokio::process::Command::new("node")
        .arg(server_entry())
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(20), "the HTTP server did not listen on {port}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut transport = McpTransport::http(format!("http://127.0.0.1:{port}/mcp"));
    if let McpTransport::Http { headers, .. } = &mut transport {
        headers.push(("X-Folio-Test".into(), "yes".into()));
    }
    let module = mount_mcp("web", transport).await.unwrap();
    assert!(module.docs.contains(&format!("Streamable HTTP endpoint http://127.0.0.1:{port}/mcp")), "{}", module.docs);
    let src = "import { echo } from 'env:web'; export default async () => [await echo({ message: 'over http' }), await echo({ message: 'twice' })];";
    assert_eq!(run_script(module, src).await, json!(["Echo: over http", "Echo: twice"]));
    server.kill().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_failures_name_what_was_tried_and_the_fix() {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let err = mount_mcp("web", McpTransport::http(url.as_str())).await.err().unwrap();
    assert!(matches!(err, McpError::Connect { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains(&format!("Streamable HTTP endpoint {url}")), "{text}");
    assert!(text.contains(&format!("nothing answers at 127.0.0.1:{port} (Connection refused")), "{text}");
    assert!(text.contains("check that the server is running"), "{text}");

    let err = mount_mcp("x", McpTransport::stdio("folio-no-such-mcp-server", ["--stdio"])).await.err().unwrap();
    assert!(matches!(err, McpError::Spawn { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("`folio-no-such-mcp-server --stdio`"), "{text}");
    assert!(text.contains("is not installed or not on PATH"), "{text}");

    let err = mount_mcp("x", McpTransport::stdio("node", ["/nonexistent/folio/server.js"])).await.err().unwrap();
    assert!(matches!(err, McpError::Connect { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("Cannot find module"), "the server's stderr is quoted: {text}");
    assert!(text.contains("run the command by hand"), "{text}");

    let err = mount_mcp("Bad Name", everything_stdio()).await.err().unwrap();
    assert!(err.to_string().contains("must match /^[a-z][a-z0-9_-]*$/"), "{err}");
}

fn shout() -> ToolSpec {
    ToolSpec {
        name: "shout".into(),
        description: "Upper-cases a text.".into(),
        input_schema: json!({
            "type": "object",
            "properties": { "text": { "type": "string", "description": "What to shout" }, "times": { "type": "integer" } },
            "required": ["text"]
        }),
        call: HostFn::Sync(Arc::new(|args: Vec<HostValue>, _ctx: &_| {
            let arg = match args.first() {
                Some(HostValue::Json(v)) => v.clone(),
                _ => return Err("no argument".into()),
            };
            let text = arg["text"].as_str().ok_or("text must be a string")?.to_uppercase();
            let times = arg["times"].as_u64().unwrap_or(1) as usize;
            Ok(HostValue::Json(json!(vec![text; times].join(" "))))
        })),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn define_tools_exposes_host_functions_with_schemas() {
    let module = define_tools("tools", "", vec![shout()]).unwrap();
    assert_eq!(module.description, "1 capabilities callable from scripts.");
    assert!(module.types_dts.contains("export function shout(args: {\n  /** What to shout */\n  text: string;\n  times?: number;\n}): Promise<any>;"), "{}", module.types_dts);
    let src = "
        import { shout } from 'env:tools';
        export default async () => {
          const out = [];
          for (const t of ['a', 'b']) out.push(await shout({ text: t, times: 2 }));
          try { await shout({}); } catch (e) { out.push(e.message); }
          return out;
        }";
    assert_eq!(run_script(module, src).await, json!(["A A", "B B", "env:tools.shout: text must be a string"]));

    // Saving a script that calls a tool at top level never fires the tool.
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(define_tools("tools", "Shouting.", vec![shout()]).unwrap()).unwrap();
    let engine = Engine::new(registry, ScriptLimits::default());
    let path = VPath::parse("/scripts/top.js").unwrap();
    let err = engine
        .validate(
            &MemTree::new(),
            &path,
            "import { shout } from 'env:tools'; await shout({ text: 'x' }); export default () => 1;",
        )
        .err()
        .unwrap();
    assert!(err.to_string().contains("env:tools.shout is not callable while a script is being validated"), "{err}");

    let bad = |name: &str| {
        let mut spec = shout();
        spec.name = name.into();
        define_tools("tools", "", vec![spec, shout()]).err().unwrap().to_string()
    };
    assert!(bad("get-sum").contains("\"get-sum\" is not a valid identifier"), "{}", bad("get-sum"));
    assert!(bad("shout").contains("duplicate function name \"shout\""), "{}", bad("shout"));
    assert!(define_tools("tools", "", vec![]).err().unwrap().to_string().contains("there are no tools"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_call_fails_that_call_by_name_and_is_started_again_at_the_next() {
    let dir = std::env::temp_dir().join(format!("folio-mcp-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pidfile = dir.join("pid");
    // The shell writes its pid and becomes the server, so the test can kill the very process.
    let line = format!("echo $$ > '{}'; exec node '{}' stdio", pidfile.display(), server_entry().display());
    let module = mount_mcp("flaky", McpTransport::stdio("sh", ["-c".to_owned(), line])).await.unwrap();
    let first_pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_owned();
    let killer = {
        let pid = first_pid.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            std::process::Command::new("kill").args(["-9", &pid]).status().unwrap();
        })
    };
    let src = "
        import { trigger_long_running_operation, echo } from 'env:flaky';
        export default async function () {
          let died = '';
          const started = Date.now();
          try { await trigger_long_running_operation({ duration: 20, steps: 20 }); died = 'finished?'; }
          catch (e) { died = e.message; }
          const again = await echo({ message: 'back' });
          return { died, again };
        }";
    let started = std::time::Instant::now();
    let got = run_script(module, src).await;
    killer.await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(15), "the call failed when the server died, not at its end");
    let died = got["died"].as_str().unwrap();
    assert!(
        died.starts_with("env:flaky.trigger_long_running_operation: the MCP server flaky (stdio command `sh -c"),
        "{died}"
    );
    assert!(died.contains("stopped during the call"), "{died}");
    assert!(died.contains("started again at the next call"), "{died}");
    assert_eq!(got["again"], json!("Echo: back"));
    let second_pid = std::fs::read_to_string(&pidfile).unwrap().trim().to_owned();
    assert_ne!(first_pid, second_pid, "a new server process answered the next call");
    let _ = std::fs::remove_dir_all(&dir);
}
