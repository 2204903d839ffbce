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

    /// The model's answer to `prompt` about `image`.
    pub async fn look(&self, image: Image, prompt: &str, cancel: &CancellationToken) -> Result<String, AgentError> {
        let request = ModelRequest {
            system: VISION_SYSTEM.to_owned(),
            messages: vec![Message {
                role: Role::User,
                parts: vec![
                    Part::Image { media_type: image.media_type, data: image.data },
                    Part::Text { text: prompt.to_owned() },
                ],
                compaction: false,
            }],
            tools: Vec::new(),
        };
        let turn = self.client.stream(&request, cancel, &mut |_: &StreamEvent| {}).await?;
        let answer = turn.message.text();
        if answer.trim().is_empty() {
            return Err(AgentError::Malformed(format!(
                "the vision model {} returned no answer — hint: check that it accepts images",
                self.client.provider().model
            )));
        }
        Ok(answer)
    }
}
