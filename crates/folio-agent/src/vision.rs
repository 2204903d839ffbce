//! Asking a model about an image: the separately configured vision model behind `view_image` (when
//! the main model cannot see) and behind `env:vision.look` in scripts.

use tokio_util::sync::CancellationToken;

use crate::client::{ModelClient, Provider};
use crate::error::AgentError;
use crate::message::{Image, Message, ModelRequest, Part, Role};
use crate::wire::StreamEvent;

const VISION_SYSTEM: &str = "You inspect one image for an analyst's assistant. Answer the question about it precisely and briefly. \
Quote any text you are asked about exactly as it appears. If the image does not show what is asked about, say so plainly instead of guessing.";

/// A model used only to look at images.
#[derive(Debug, Clone)]
pub struct VisionClient {
    client: ModelClient,
}

impl VisionClient {
    /// A vision client calling `provider` (any multimodal model of either wire format).
    pub fn new(provider: Provider) -> Result<VisionClient, AgentError> {
        Ok(VisionClient { client: ModelClient::new(provider)? })
    }

    /// The same client behind the folder's boundary, its requests ledgered to `ledger`.
    pub fn guarded(
        mut self,
        boundary: folio_boundary::Boundary,
        ledger: Option<crate::ledger::LedgerSink>,
    ) -> VisionClient {
        self.client = self.client.with_boundary(boundary);
        if let Some(sink) = ledger {
            self.client = self.client.with_ledger(sink);
        }
        self
    }

    /// The model's answer to `prompt` about `image`.
    pub async fn look(&self, image: Image, prompt: &str, cancel: &CancellationToken) -> Result<String, AgentError> {
        // At most what the vision model uses (crate::context::ImageLimit).
        let image = crate::context::fit_image(image, self.client.provider().format);
        let request = ModelRequest {
            system: VISION_SYSTEM.to_owned(),
            messages: vec![Message {
                role: Role::User,
                parts: vec![
                    Part::Image { media_type: image.media_type, data: image.data, source: image.source },
                    Part::Text { text: prompt.to_owned() },
                ],
                compaction: false,
            }],
            tools: Vec::new(),
        };
        let turn = self
            .client
            .stream_as(crate::ledger::Purpose::Vision, &request, cancel, &mut |_: &StreamEvent| {}, &mut |_| {})
            .await?;
        let answer = turn.message.text();
        if answer.trim().is_empty() {
            return Err(AgentError::NoAnswer { at: Box::new(self.client.provider().site()) });
        }
        Ok(answer)
    }
}

/// How the environment's `view_image` sees, for the agent's configuration.
pub enum VisionSeam {
    /// The main model can see: images travel back with the tool result.
    MainModel,
    /// A separate vision model answers in words. `runtime` runs its calls; verbs call the seam
    /// from the blocking pool, where blocking on a runtime handle is allowed.
    Model {
        /// The vision model (boxed: a client with its boundary is large).
        client: Box<VisionClient>,
        /// The runtime its calls run on.
        runtime: tokio::runtime::Handle,
    },
}

impl folio_env::Vision for VisionSeam {
    fn look(&self, image: &[u8], media_type: &str, prompt: &str) -> Result<folio_env::Sight, String> {
        match self {
            VisionSeam::MainModel => Ok(folio_env::Sight::Attach),
            VisionSeam::Model { client, runtime } => {
                let image = Image { media_type: media_type.to_owned(), data: encode(image), source: None };
                runtime
                    .block_on(client.look(image, prompt, &CancellationToken::new()))
                    .map(folio_env::Sight::Answer)
                    .map_err(|e| e.to_string())
            }
        }
    }
}

/// Base64 of `bytes`, as providers take images.
pub(crate) fn encode(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `env:vision` for scripts: `look({ path, prompt })` asks `client` about an image in the tree,
/// so a script can check forty rendered pages in a loop and keep the answers in a variable.
///
/// The HTTP call runs on `runtime` (the host's), not on the script's own short-lived runtime: a
/// connection opened there would die with the run, and the script runtime has no I/O driver.
pub fn vision_module(client: VisionClient, runtime: tokio::runtime::Handle) -> folio_script::NativeModule {
    use folio_script::{HostFn, HostValue, NativeFunction};
    let look = HostFn::Async(std::sync::Arc::new(move |args: Vec<HostValue>, ctx: folio_script::CallContext| {
        let client = client.clone();
        let runtime = runtime.clone();
        Box::pin(async move {
            let Some(HostValue::Json(arg)) = args.into_iter().next() else {
                return Err("look takes one object: look({ path: '/tmp/page-1.png', prompt: 'Is any text cut off?' })"
                    .to_owned());
            };
            let (Some(path), Some(prompt)) = (arg["path"].as_str(), arg["prompt"].as_str()) else {
                return Err("look needs { path, prompt } as strings — e.g. look({ path: '/tmp/page-1.png', prompt: 'Is any text cut off?' })".to_owned());
            };
            if prompt.trim().is_empty() {
                return Err("look needs a prompt saying what to check — a blank question gets a blank look".to_owned());
            }
            let vpath = folio_vfs::VPath::parse(path).map_err(|e| e.to_string())?;
            // A never-send image may be processed by the script, not shown to a model.
            client.client.boundary().check_read(vpath.as_str()).map_err(|e| e.to_string())?;
            let bytes = ctx.fs.read(&vpath)?;
            let Some(media_type) = folio_env::sniff(&bytes).filter(|m| m.starts_with("image/")) else {
                return Err(format!(
                    "{path} is not a PNG, JPEG, GIF or WebP image — rasterize documents first (env:render.rasterize) and look at the pages"
                ));
            };
            let image =
                Image { media_type: media_type.to_owned(), data: encode(&bytes), source: Some(path.to_owned()) };
            let token = CancellationToken::new();
            let asked = {
                let (token, prompt) = (token.clone(), prompt.to_owned());
                runtime.spawn(async move { client.look(image, &prompt, &token).await })
            };
            tokio::select! {
                _ = ctx.cancel.cancelled() => {
                    token.cancel();
                    Err("the run was cancelled while the vision model was looking".to_owned())
                }
                joined = asked => match joined {
                    Ok(answer) => answer.map(|a| HostValue::Json(serde_json::Value::String(a))).map_err(|e| e.to_string()),
                    Err(e) => Err(format!("the vision call failed inside Folio ({e}) — try again")),
                },
            }
        }) as folio_script::HostFuture
    }));
    folio_script::NativeModule {
        name: "vision".to_owned(),
        description: "Ask a vision model about an image: look({ path, prompt }) → the answer as text.".to_owned(),
        version: "1".to_owned(),
        types_dts: "/** Asks the configured vision model a question about an image in the tree (PNG, JPEG, GIF or WebP). Rasterize documents first with env:render. */\nexport function look(request: { path: string; prompt: string }): Promise<string>;\n".to_owned(),
        docs: "# env:vision\n\n`look({ path, prompt })` sends one image and one question to the vision model and resolves to its answer. Ask something falsifiable (\"Is any text cut off at the right edge?\"), loop over pages in a script, and keep the answers in a variable instead of reading each one.\n".to_owned(),
        functions: vec![NativeFunction { name: "look".to_owned(), call: look }],
        js_api: None,
    }
}
