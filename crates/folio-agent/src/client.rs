//! The HTTP client for model providers: one streamed call per turn, with retries, cancel, and
//! named errors for every way a stream can go wrong.
//!
//! Retries (429, 408, 409, 5xx, 529, connection failures) wait with exponential backoff and jitter,
//! or exactly what `Retry-After` says, and are announced as [`StreamEvent::Retrying`] so the person
//! sees why nothing is happening. A stream that has started is never retried: its text has been
//! shown. A stream that ends without the format's end marker is [`AgentError::Truncated`]; one that
//! goes quiet for [`Provider::idle_timeout`] is [`AgentError::Stalled`]; neither hangs.

use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::error::AgentError;
use crate::message::ModelRequest;
use crate::sse::SseDecoder;
use crate::wire::openai::TokenParam;
use crate::wire::{ModelTurn, StreamEvent, TurnBuilder, WireFormat, WireParser, anthropic, openai};

/// One configured model provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Provider {
    /// The API it speaks.
    pub format: WireFormat,
    /// Base URL as the official SDKs take it: OpenAI's includes `/v1`, Anthropic's does not.
    pub base_url: String,
    /// Model id.
    pub model: String,
    /// API key; keyless local servers (Ollama, LM Studio) take none.
    pub api_key: Option<String>,
    /// Output limit per call.
    pub max_tokens: u32,
    /// The model's context window in tokens; compaction is measured against it.
    pub context_window: u64,
    /// How many times a failed request is retried.
    pub max_retries: u32,
    /// The first backoff; doubled per retry, with jitter.
    pub initial_backoff_ms: u64,
    /// A stream silent for this long is abandoned.
    pub idle_timeout_ms: u64,
    /// Which output-limit field to send (OpenAI-style only); `None` picks by base URL.
    pub token_param: Option<TokenParam>,
    /// Prices for the cost shown with usage; `None` when unknown.
    pub pricing: Option<Pricing>,
}

/// USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pricing {
    /// Prompt tokens not from the cache.
    pub input: f64,
    /// Generated tokens.
    pub output: f64,
    /// Prompt tokens read from the cache.
    pub cache_read: f64,
    /// Prompt tokens written to the cache.
    pub cache_write: f64,
}

impl Pricing {
    /// The cost of `usage` in USD.
    pub fn cost(&self, usage: &crate::message::Usage) -> f64 {
        (usage.input_tokens as f64 * self.input
            + usage.output_tokens as f64 * self.output
            + usage.cache_read_tokens as f64 * self.cache_read
            + usage.cache_write_tokens as f64 * self.cache_write)
            / 1_000_000.0
    }
}

impl Provider {
    /// Defaults for a format, base URL and model.
    pub fn new(format: WireFormat, base_url: impl Into<String>, model: impl Into<String>) -> Provider {
        Provider {
            format,
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            max_tokens: 8192,
            context_window: 200_000,
            max_retries: 4,
            initial_backoff_ms: 500,
            idle_timeout_ms: 120_000,
            token_param: None,
            pricing: None,
        }
    }

    /// The endpoint a request goes to.
    pub fn endpoint(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        match self.format {
            WireFormat::Anthropic => format!("{base}/v1/messages"),
            WireFormat::OpenAi => format!("{base}/chat/completions"),
        }
    }

    /// The streamed request body for `req`.
    pub fn body(&self, req: &ModelRequest) -> serde_json::Value {
        match self.format {
            WireFormat::Anthropic => anthropic::body(req, &self.model, self.max_tokens),
            WireFormat::OpenAi => openai::body(
                req,
                &self.model,
                self.max_tokens,
                self.token_param.unwrap_or_else(|| TokenParam::for_base_url(&self.base_url)),
            ),
        }
    }
}

/// A reusable client for one provider.
#[derive(Debug, Clone)]
pub struct ModelClient {
    http: reqwest::Client,
    provider: Provider,
}

fn retryable(status: u16) -> bool {
    matches!(status, 408 | 409 | 429 | 500..=599)
}

fn status_hint(status: u16, format: WireFormat) -> String {
    match status {
        401 | 403 => match format {
            WireFormat::Anthropic => {
                "check the API key (ANTHROPIC_API_KEY, or the key saved in Folio's settings)".to_owned()
            }
            WireFormat::OpenAi => {
                "check the API key for this provider (OPENAI_API_KEY, OPENROUTER_API_KEY, …)".to_owned()
            }
        },
        404 => "check the model id and the base URL (OpenAI-style URLs end in /v1)".to_owned(),
        413 => "the conversation is too large for this model; start a new one or pick a model with a larger window"
            .to_owned(),
        429 => "the provider is rate-limiting this key; wait a minute or raise the limit with the provider".to_owned(),
        400 | 422 => "the provider refused the request; check the model id and that it supports tool use".to_owned(),
        _ => "the provider is having trouble; try again shortly".to_owned(),
    }
}

/// A small xorshift, seeded from the clock: jitter needs no cryptographic randomness.
fn jitter(max: u64) -> u64 {
    let mut x =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(7, |d| d.subsec_nanos() as u64) | 1;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    if max == 0 { 0 } else { x % max }
}

impl ModelClient {
    /// A client for `provider`.
    pub fn new(provider: Provider) -> Result<ModelClient, AgentError> {
        // reqwest is built without a crypto provider; ring is the one the workspace already has.
        // Installing fails harmlessly when the process chose one already.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(20))
            .build()
            .map_err(|e| AgentError::Config(format!("the HTTP client could not start: {e}")))?;
        Ok(ModelClient { http, provider })
    }

    /// The provider this client calls.
    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    /// Streams one model call, passing every event to `sink` as it arrives.
    pub async fn stream(
        &self,
        req: &ModelRequest,
        cancel: &CancellationToken,
        sink: &mut (dyn FnMut(&StreamEvent) + Send),
    ) -> Result<ModelTurn, AgentError> {
        let url = self.provider.endpoint();
        let body = self.provider.body(req);
        let mut attempt = 1;
        let response = loop {
            let mut request = self.http.post(&url).json(&body);
            match (self.provider.format, &self.provider.api_key) {
                (WireFormat::Anthropic, Some(key)) => request = request.header("x-api-key", key),
                (WireFormat::OpenAi, Some(key)) => request = request.bearer_auth(key),
                _ => {}
            }
            if self.provider.format == WireFormat::Anthropic {
                request = request.header("anthropic-version", "2023-06-01");
            }
            let outcome = tokio::select! {
                _ = cancel.cancelled() => return Err(AgentError::Cancelled),
                r = request.send() => r,
            };
            let (reason, retry_after) = match outcome {
                Ok(resp) if resp.status().is_success() => break resp,
                Ok(resp) => {
                    let status = resp.status().as_u16();
                    let retry_after = resp
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<f64>().ok())
                        .map(|s| Duration::from_millis((s * 1000.0) as u64));
                    let text = resp.text().await.unwrap_or_default();
                    let message = serde_json::from_str::<serde_json::Value>(&text)
                        .ok()
                        .and_then(|v| v["error"]["message"].as_str().map(str::to_owned))
                        .unwrap_or_else(|| text.chars().take(300).collect());
                    if !retryable(status) || attempt > self.provider.max_retries {
                        return Err(AgentError::Status {
                            url,
                            status,
                            message,
                            hint: status_hint(status, self.provider.format),
                        });
                    }
                    (format!("HTTP {status}: {message}"), retry_after)
                }
                Err(e) => {
                    if attempt > self.provider.max_retries {
                        return Err(AgentError::Connect { url, detail: e.to_string() });
                    }
                    (format!("connection failed: {e}"), None)
                }
            };
            let backoff = self.provider.initial_backoff_ms.saturating_mul(1 << (attempt - 1).min(10));
            let delay = retry_after.unwrap_or_else(|| Duration::from_millis(backoff + jitter(backoff / 2 + 1)));
            attempt += 1;
            sink(&StreamEvent::Retrying { attempt, delay_ms: delay.as_millis() as u64, reason });
            tokio::select! {
                _ = cancel.cancelled() => return Err(AgentError::Cancelled),
                _ = tokio::time::sleep(delay) => {}
            }
        };

        let mut parser: Box<dyn WireParser> = match self.provider.format {
            WireFormat::Anthropic => Box::<anthropic::Parser>::default(),
            WireFormat::OpenAi => Box::new(openai::Parser),
        };
        let mut decoder = SseDecoder::default();
        let mut builder = TurnBuilder::default();
        let mut bytes = response.bytes_stream();
        let idle = Duration::from_millis(self.provider.idle_timeout_ms);
        loop {
            let next = tokio::select! {
                _ = cancel.cancelled() => return Err(AgentError::Cancelled),
                n = tokio::time::timeout(idle, bytes.next()) => n,
            };
            let chunk = match next {
                Err(_) => return Err(AgentError::Stalled { url, seconds: idle.as_secs() }),
                Ok(None) => break,
                Ok(Some(Err(e))) => {
                    if builder.done {
                        break;
                    }
                    return Err(AgentError::Connect { url, detail: format!("the stream broke: {e}") });
                }
                Ok(Some(Ok(chunk))) => chunk,
            };
            for event in decoder.feed(&chunk) {
                for ev in parser.parse(&event)? {
                    builder.push(&ev);
                    sink(&ev);
                }
            }
            if builder.done {
                break;
            }
        }
        if let Some(event) = decoder.finish() {
            for ev in parser.parse(&event)? {
                builder.push(&ev);
                sink(&ev);
            }
        }
        if !builder.done {
            return Err(AgentError::Truncated { url, expected: parser.end_marker() });
        }
        Ok(builder.finish())
    }
}
