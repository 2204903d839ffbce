//! Images: a vision model answers about one, and tool results carry images in both wire formats.

use folio_agent::testing::{FakeServer, Reply, anthropic, openai};
use folio_agent::{Image, Message, ModelRequest, Part, Provider, Role, VisionClient, WireFormat};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn png() -> Image {
    Image { media_type: "image/png".into(), data: "iVBORw0KGgo=".into(), source: None }
}

#[tokio::test]
async fn a_vision_model_answers_about_an_image() {
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let chunks = match format {
            WireFormat::Anthropic => anthropic("No: every line fits on the page.", &[], 50),
            WireFormat::OpenAi => openai("No: every line fits on the page.", &[], 50),
        };
        let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
        let base = if format == WireFormat::OpenAi { format!("{}/v1", server.base) } else { server.base.clone() };
        let vision = VisionClient::new(Provider::new(format, base, "vision-model")).unwrap();
        let answer =
            vision.look(png(), "Is any text cut off at the right edge?", &CancellationToken::new()).await.unwrap();
        assert_eq!(answer, "No: every line fits on the page.");
        let body = server.requests()[0].body.to_string();
        match format {
            WireFormat::Anthropic => {
                let image = &server.requests()[0].body["messages"][0]["content"][0];
                assert_eq!(image["type"], "image", "{body}");
                assert_eq!(
                    image["source"],
                    json!({"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="})
                );
            }
            WireFormat::OpenAi => assert!(body.contains("data:image/png;base64,iVBORw0KGgo="), "{body}"),
        }
        assert!(body.contains("Is any text cut off"));
        assert!(!body.contains("\"tools\""), "a vision call offers no tools");
    }
}

#[test]
fn tool_results_carry_images_in_each_format() {
    let messages = vec![
        Message::user("look at page 2"),
        Message {
            role: Role::Assistant,
            parts: vec![Part::ToolUse {
                id: "v1".into(),
                name: "view_image".into(),
                input: json!({"path": "/out/r.pdf"}),
            }],
            compaction: false,
        },
        Message {
            role: Role::User,
            parts: vec![Part::ToolResult {
                id: "v1".into(),
                name: "view_image".into(),
                content: "rendered page 2".into(),
                is_error: false,
                images: vec![png()],
                sources: vec![],
            }],
            compaction: false,
        },
    ];
    let req = ModelRequest { system: String::new(), messages, tools: vec![] };
    let a = Provider::new(WireFormat::Anthropic, "http://x", "m").body(&req);
    let result = &a["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["content"][1]["type"], "image");
    assert_eq!(result["content"][1]["source"]["media_type"], "image/png");
    let o = Provider::new(WireFormat::OpenAi, "http://x/v1", "m").body(&req);
    let msgs = o["messages"].as_array().unwrap();
    assert_eq!(msgs[3]["role"], "tool");
    assert_eq!(msgs[4]["role"], "user", "the image follows the tool message as the user's");
    assert_eq!(msgs[4]["content"][1]["image_url"]["url"], "data:image/png;base64,iVBORw0KGgo=");
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDRfake";

fn env_with(options: folio_env::EnvOptions) -> std::sync::Arc<folio_env::Environment> {
    let env = folio_env::Environment::new(std::sync::Arc::new(folio_vfs::MemTree::new()), None, options).unwrap();
    folio_vfs::Tree::write(env.tree(), &folio_vfs::VPath::parse("/out/chart.png").unwrap(), PNG).unwrap();
    std::sync::Arc::new(env)
}

async fn run_agent(env: std::sync::Arc<folio_env::Environment>, server: &FakeServer) -> folio_agent::Conversation {
    let tools = std::sync::Arc::new(folio_agent::EnvTools::new(env, folio_agent::HostEvents::default()));
    let agent = folio_agent::Agent::new(
        folio_agent::ModelClient::new(Provider::new(WireFormat::Anthropic, server.base.clone(), "main")).unwrap(),
        tools,
        folio_agent::AgentConfig::default(),
    );
    let mut conversation = folio_agent::Conversation::default();
    agent
        .run(&mut conversation, Some(Message::user("check the chart")), &CancellationToken::new(), &mut |_| {})
        .await
        .unwrap();
    conversation
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn view_image_sends_the_image_to_a_main_model_that_can_see() {
    let env = env_with(folio_env::EnvOptions {
        vision: Some(std::sync::Arc::new(folio_agent::VisionSeam::MainModel)),
        ..Default::default()
    });
    let server = FakeServer::start(vec![
        Reply::sse(anthropic(
            "",
            &[("v1", "view_image", json!({"path": "/out/chart.png", "prompt": "Is the bar for north taller?"}))],
            10,
        )),
        Reply::sse(anthropic("Yes.", &[], 10)),
    ])
    .await
    .unwrap();
    run_agent(env, &server).await;
    let sent = &server.requests()[1].body;
    let result = sent["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find_map(|m| m["content"].as_array().and_then(|c| c.iter().find(|b| b["type"] == "tool_result")).cloned());
    let result = result.unwrap();
    use base64::Engine as _;
    let expected = base64::engine::general_purpose::STANDARD.encode(PNG);
    assert_eq!(result["content"][1]["type"], "image", "{result}");
    assert_eq!(result["content"][1]["source"]["data"], expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn view_image_asks_a_separate_vision_model_in_words() {
    let eyes = FakeServer::start(vec![Reply::sse(openai("North is taller: 10 vs 7.", &[], 10))]).await.unwrap();
    let vision = VisionClient::new(Provider::new(WireFormat::OpenAi, format!("{}/v1", eyes.base), "vision")).unwrap();
    let env = env_with(folio_env::EnvOptions {
        vision: Some(std::sync::Arc::new(folio_agent::VisionSeam::Model {
            client: Box::new(vision),
            runtime: tokio::runtime::Handle::current(),
        })),
        ..Default::default()
    });
    let server = FakeServer::start(vec![
        Reply::sse(anthropic(
            "",
            &[("v1", "view_image", json!({"path": "/out/chart.png", "prompt": "Is the bar for north taller?"}))],
            10,
        )),
        Reply::sse(anthropic("Yes.", &[], 10)),
    ])
    .await
    .unwrap();
    run_agent(env, &server).await;
    assert!(eyes.requests()[0].body.to_string().contains("Is the bar for north taller?"));
    let sent = server.requests()[1].body.to_string();
    assert!(sent.contains("North is taller: 10 vs 7."), "the answer went back as text: {sent}");
    assert!(!sent.contains("\"type\":\"image\""), "no image for a main model that cannot see");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scripts_loop_over_images_with_env_vision() {
    let eyes =
        FakeServer::start(vec![Reply::sse(openai("no", &[], 10)), Reply::sse(openai("yes", &[], 10))]).await.unwrap();
    let vision = VisionClient::new(Provider::new(WireFormat::OpenAi, format!("{}/v1", eyes.base), "vision")).unwrap();
    let mut registry = folio_script::ModuleRegistry::with_builtins();
    registry.register_native(folio_agent::vision_module(vision, tokio::runtime::Handle::current())).unwrap();
    let engine = std::sync::Arc::new(folio_script::Engine::new(registry, folio_script::ScriptLimits::default()));
    let env = env_with(folio_env::EnvOptions { engine: Some(engine), ..Default::default() });
    folio_vfs::Tree::write(env.tree(), &folio_vfs::VPath::parse("/tmp/page-2.png").unwrap(), PNG).unwrap();
    let script = "/** Finds clipped pages. */\nimport { look } from 'env:vision';\nexport default async function main() {\n  const bad = [];\n  for (const [n, path] of [[1, '/out/chart.png'], [2, '/tmp/page-2.png']]) {\n    const answer = await look({ path, prompt: 'Is any text cut off?' });\n    if (/yes/i.test(answer)) bad.push(n);\n  }\n  return bad;\n}\n";
    let env2 = env.clone();
    let result = tokio::task::spawn_blocking(move || {
        let w = env2.call("write_file", json!({"path": "/scripts/clipped.js", "content": script}));
        assert_eq!(w.status, folio_env::Status::Success, "{}", w.message);
        env2.call("run_script", json!({"path": "/scripts/clipped.js"}))
    })
    .await
    .unwrap();
    assert_eq!(result.status, folio_env::Status::Success, "{}", result.message);
    let value: serde_json::Value = serde_json::from_str(result.message.split("result:\n").nth(1).unwrap()).unwrap();
    assert_eq!(value, json!([2]), "{}", result.message);
    assert_eq!(eyes.requests().len(), 2, "two looks, two answers, one line back");
}

/// `--vision main` gives scripts `env:vision` too, asking the main model — it was documented so
/// but registered nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vision_main_registers_env_vision_over_the_main_model() {
    let main = Provider::new(WireFormat::OpenAi, "http://127.0.0.1:9/v1".to_owned(), "seeing-model");
    let setup = folio_agent::vision_setup("main", &main, &tokio::runtime::Handle::current(), |_| None)
        .unwrap()
        .expect("main is a vision mode");
    let names: Vec<&str> = setup.modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["vision"]);
    let none = folio_agent::vision_setup("", &main, &tokio::runtime::Handle::current(), |_| None).unwrap();
    assert!(none.is_none(), "without a vision mode there is neither view_image nor env:vision");
}

/// A page-sized PNG (1240 × 1754, as view_image renders an A4 page at 150 dpi).
fn page_png() -> Vec<u8> {
    let img = image::RgbImage::from_fn(1240, 1754, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img).write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// The dimensions of the first image in a request body (either wire format).
fn sent_size(body: &serde_json::Value) -> Option<(u32, u32)> {
    use base64::Engine as _;
    let text = body.to_string();
    let start = text.find("iVBOR")?;
    let end = start + text[start..].find('"')?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(&text[start..end]).ok()?;
    let img = image::load_from_memory(&bytes).ok()?;
    Some((img.width(), img.height()))
}

/// view_image sends at most what the provider uses: 1568 px on the long edge for Anthropic;
/// for OpenAI, 2048 × 2048 then 768 px on the short side (issue 28 item 5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn view_image_sends_at_most_the_pixels_the_provider_uses() {
    for (format, expected) in [(WireFormat::Anthropic, (1109, 1568)), (WireFormat::OpenAi, (768, 1086))] {
        let env = env_with(folio_env::EnvOptions {
            vision: Some(std::sync::Arc::new(folio_agent::VisionSeam::MainModel)),
            ..Default::default()
        });
        folio_vfs::Tree::write(env.tree(), &folio_vfs::VPath::parse("/out/page.png").unwrap(), &page_png()).unwrap();
        let call = [("v1", "view_image", json!({"path": "/out/page.png", "prompt": "Is the footer cut off?"}))];
        let replies = match format {
            WireFormat::Anthropic => vec![Reply::sse(anthropic("", &call, 10)), Reply::sse(anthropic("No.", &[], 10))],
            WireFormat::OpenAi => vec![Reply::sse(openai("", &call, 10)), Reply::sse(openai("No.", &[], 10))],
        };
        let server = FakeServer::start(replies).await.unwrap();
        let base = if format == WireFormat::OpenAi { format!("{}/v1", server.base) } else { server.base.clone() };
        let tools = std::sync::Arc::new(folio_agent::EnvTools::new(env, folio_agent::HostEvents::default()));
        let agent = folio_agent::Agent::new(
            folio_agent::ModelClient::new(Provider::new(format, base, "main")).unwrap(),
            tools,
            folio_agent::AgentConfig::default(),
        );
        let mut conversation = folio_agent::Conversation::default();
        agent
            .run(&mut conversation, Some(Message::user("check")), &CancellationToken::new(), &mut |_| {})
            .await
            .unwrap();
        assert_eq!(sent_size(&server.requests()[1].body), Some(expected), "{format:?}");
    }
    let limit = folio_agent::context::ImageLimit::of(WireFormat::Anthropic);
    assert_eq!(limit.fit(800, 600), (800, 600), "never scaled up");
}

/// An image the model saw three model turns ago is replaced in later requests by a line naming
/// its path; the stored conversation keeps it (issue 28 item 5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_image_is_replaced_by_a_line_naming_its_path() {
    let env = env_with(folio_env::EnvOptions {
        vision: Some(std::sync::Arc::new(folio_agent::VisionSeam::MainModel)),
        ..Default::default()
    });
    let look = ("v1", "view_image", json!({"path": "/out/chart.png", "prompt": "Is the bar for north taller?"}));
    let ls = |id: &'static str| (id, "ls", json!({"path": "/out"}));
    let server = FakeServer::start(vec![
        Reply::sse(anthropic("", &[look], 10)),
        Reply::sse(anthropic("", &[ls("l1")], 10)),
        Reply::sse(anthropic("", &[ls("l2")], 10)),
        Reply::sse(anthropic("", &[ls("l3")], 10)),
        Reply::sse(anthropic("Done.", &[], 10)),
    ])
    .await
    .unwrap();
    let conversation = run_agent(env, &server).await;
    let requests = server.requests();
    let images = |n: usize| requests[n].body.to_string().matches("\"type\":\"image\"").count();
    assert_eq!((images(1), images(2), images(3)), (1, 1, 1), "a recent image travels for three model turns");
    assert_eq!(images(4), 0, "then it does not");
    let later = requests[4].body.to_string();
    assert!(
        later.contains("the image of /out/chart.png was shown") && later.contains("call view_image on /out/chart.png"),
        "{later}"
    );
    let kept = conversation
        .messages
        .iter()
        .flat_map(|m| &m.parts)
        .any(|p| matches!(p, Part::ToolResult { images, .. } if !images.is_empty()));
    assert!(kept, "the stored conversation keeps the image");
}
