//! Images: a vision model answers about one, and tool results carry images in both wire formats.

use folio_agent::testing::{FakeServer, Reply, anthropic, openai};
use folio_agent::{Image, Message, ModelRequest, Part, Provider, Role, VisionClient, WireFormat};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn png() -> Image {
    Image { media_type: "image/png".into(), data: "iVBORw0KGgo=".into() }
}

#[tokio::test]
async fn a_vision_model_answers_about_an_image() {
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let chunks = match format {
            WireFormat::Anthropic => anthropic("No: every line fits on the page.", &[], 50),
            WireFormat::OpenAi => openai("No: every line fits on the page.", &[], 50),
        };
        let server = FakeServer::start(vec![Reply::sse(chunks)]).await;
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
