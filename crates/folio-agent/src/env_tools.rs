//! The working environment's verbs as the loop's [`Tools`].

use std::sync::Arc;

use folio_env::{Environment, Status};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::{BoxFuture, ToolOutcome, Tools};
use crate::message::ToolDef;

/// Adapts an [`Environment`] to the loop.
#[derive(Clone)]
pub struct EnvTools {
    env: Arc<Environment>,
}

impl EnvTools {
    /// Wraps `env`.
    pub fn new(env: Arc<Environment>) -> EnvTools {
        EnvTools { env }
    }

    /// The environment.
    pub fn env(&self) -> &Arc<Environment> {
        &self.env
    }
}

impl Tools for EnvTools {
    fn definitions(&self) -> Vec<ToolDef> {
        self.env
            .tools()
            .into_iter()
            .map(|t| ToolDef { name: t.name.to_owned(), description: t.description.to_owned(), input_schema: t.schema })
            .collect()
    }

    /// Verbs are synchronous; each runs on the blocking pool so a long one never stalls the stream
    /// of another conversation. The model gets the full story: the message, then the data.
    fn call<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, ToolOutcome> {
        let env = self.env.clone();
        let name = name.to_owned();
        let input = input.clone();
        Box::pin(async move {
            let joined = tokio::task::spawn_blocking(move || env.call(&name, input)).await;
            match joined {
                Ok(result) => {
                    let mut content = result.message;
                    if !result.data.is_null() {
                        let data = match &result.data {
                            Value::String(s) => s.clone(),
                            other => serde_json::to_string_pretty(other).unwrap_or_default(),
                        };
                        if !content.is_empty() {
                            content.push('\n');
                        }
                        content.push_str(&data);
                    }
                    ToolOutcome { ok: result.status == Status::Success, content, images: Vec::new() }
                }
                Err(e) => ToolOutcome::text(
                    false,
                    format!(
                        "the verb crashed inside Folio ({e}); this is a bug — report it, and try another approach meanwhile"
                    ),
                ),
            }
        })
    }

    fn facts(&self) -> String {
        let list = |dir: &str| -> String {
            let v = self.env.call("ls", serde_json::json!({"path": dir, "depth": 3}));
            if v.status == Status::Success { v.message } else { format!("{dir}: (none)") }
        };
        format!("{}\n{}", list("/out"), list("/scripts"))
    }
}
