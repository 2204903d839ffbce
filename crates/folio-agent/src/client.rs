//! The HTTP client for model providers: one streamed call per turn, with retries, cancel, and
//! named errors for every way a stream can go wrong.
//!
//! **Retried** (each retry announced as [`StreamEvent::Retrying`], so the person sees why nothing
//! is happening): HTTP 408, 409, 429 and 5xx (Anthropic's 529 "overloaded" included); a refused
//! or reset connection; a stream that broke or ended before its first text or tool call; an
//! Anthropic `overloaded_error` event before any content. The wait is exponential from
//! [`Provider::initial_backoff_ms`] with up to 50 % jitter, or exactly what `Retry-After` (or
//! OpenAI's `retry-after-ms`) says; at most [`Provider::max_retries`] retries, and no single wait
//! longer than [`Provider::max_retry_wait_ms`] — a provider asking for more is named instead.
//!
//! **Named** (the turn ends with an [`AgentError`] saying what, where and the fix): any other
//! status; a stream that broke ([`AgentError::Interrupted`]) or ended without the format's end
//! marker ([`AgentError::Truncated`]) after content had streamed — the choice is to name it
//! rather than resend, because resending would show the person the start of the answer twice and
//! the shells have no way to take back text they printed; a provider silent for
//! [`Provider::idle_timeout_ms`] while the response is awaited or within the stream
//! ([`AgentError::Stalled`]); a line that is not SSE or an event that is not JSON
//! ([`AgentError::Malformed`]). Cancel is raced against every wait (headers, body, backoff) and
//! drops the connection at once.
//!
//! **The boundary.** Before the first attempt the client asks its [`Boundary`] whether the
//! provider's base URL may be reached (local-only mode allows loopback only); a refusal ends the
//! call with [`AgentError::Boundary`] before any connection is opened. **The ledger.** Each
//! attempt serialises the body once, and the exact bytes posted are what the
//! [`LedgerEntry`](crate::LedgerEntry) handed to the ledger sink describes and hashes.

use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use folio_boundary::{Boundary, Crossing};

use crate::error::{AgentError, Secs, Site, StallPhase, Tries};
use crate::ledger::{LedgerEntry, LedgerSink, Purpose};
use crate::message::ModelRequest;
use crate::sse::SseDecoder;
use crate::wire::openai::TokenParam;
use crate::wire::{ModelTurn, StreamEvent, TurnBuilder, WireError, WireFormat, WireParser, anthropic, openai};

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
    /// A provider silent for this long (no response headers, or no bytes within the stream) is
    /// abandoned with [`AgentError::Stalled`]. 120 s by default: a local server loading a large
    /// model sends nothing until it is loaded.
    pub idle_timeout_ms: u64,
    /// The longest single wait before a retry; a `Retry-After` asking for more is named instead.
    #[serde(default = "default_max_retry_wait_ms")]
    pub max_retry_wait_ms: u64,
    /// Which output-limit field to send (OpenAI-style only); `None` picks by base URL.
    pub token_param: Option<TokenParam>,
    /// Prices for the cost shown with usage; `None` when unknown.
    pub pricing: Option<Pricing>,
    /// The preset it was made from (`ollama`, `openai`, …), which names it in messages and the
    /// ledger whatever its base URL; `None` for a provider built by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
}

fn default_max_retry_wait_ms() -> u64 {
    60_000
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
            max_retry_wait_ms: default_max_retry_wait_ms(),
            token_param: None,
            pricing: None,
            preset: None,
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
#[derive(Clone)]
pub struct ModelClient {
    http: reqwest::Client,
    provider: Provider,
    boundary: Boundary,
    ledger: Option<LedgerSink>,
}

impl std::fmt::Debug for ModelClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelClient").field("provider", &self.provider).field("boundary", &self.boundary).finish()
    }
}

fn retryable(status: u16) -> bool {
    matches!(status, 408 | 409 | 429 | 500..=599)
}

fn status_hint(status: u16, format: WireFormat, endpoint: &str) -> String {
    match status {
        401 | 403 => match format {
            WireFormat::Anthropic => {
                "check the API key (ANTHROPIC_API_KEY, or the key saved in Folio's settings)".to_owned()
            }
            WireFormat::OpenAi => {
                "check the API key for this provider (OPENAI_API_KEY, OPENROUTER_API_KEY, …)".to_owned()
            }
        },
        404 => {
            format!("check the model id and the base URL ({endpoint} was not found; OpenAI-style base URLs end in /v1)")
        }
        413 => "the conversation is too large for this model; start a new one or pick a model with a larger window"
            .to_owned(),
        429 => "the provider is rate-limiting this key; wait a minute or raise the limit with the provider".to_owned(),
        400 | 422 => "the provider refused the request; check the model id and that it supports tool use".to_owned(),
        529 => "the provider is overloaded right now; wait a minute and send the message again, or pick another model"
            .to_owned(),
        _ => {
            "the provider is having trouble; wait a moment and send the message again, or pick another model".to_owned()
        }
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

/// The wait a response asks for: OpenAI's `retry-after-ms`, else `Retry-After` in seconds. An
/// HTTP-date `Retry-After` is not read; the backoff applies then.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let number = |name: &str| {
        headers.get(name).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<f64>().ok()).filter(|n| *n >= 0.0)
    };
    number("retry-after-ms")
        .map(|ms| Duration::from_millis(ms as u64))
        .or_else(|| number("retry-after").map(|s| Duration::from_millis((s * 1000.0) as u64)))
}

/// An error and its causes on one line: reqwest's own message rarely names the cause
/// ("connection reset by peer" is two sources down).
fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

/// What one request's failure means for the next.
enum Failure {
    /// Worth asking again after `wait` (the backoff when `None`); `reason` goes with the notice,
    /// `error` ends the turn when the retries are spent.
    Retry { error: AgentError, reason: String, wait: Option<Duration> },
    /// The turn ends with this.
    Fatal(AgentError),
}

/// Characters of the answer an event shows the person (a tool call's start counts as one).
fn shown(event: &StreamEvent) -> usize {
    match event {
        StreamEvent::TextDelta(t) => t.chars().count(),
        StreamEvent::ToolStart { .. } => 1,
        StreamEvent::ToolInputDelta { fragment, .. } => fragment.chars().count(),
        _ => 0,
    }
}

/// One attempt's stream state.
struct Reading<'a> {
    at: &'a Site,
    parser: Box<dyn WireParser>,
    builder: TurnBuilder,
    streamed: usize,
}

impl Reading<'_> {
    fn take(
        &mut self,
        event: &crate::sse::SseEvent,
        sink: &mut (dyn FnMut(&StreamEvent) + Send),
    ) -> Result<(), Failure> {
        let events = self.parser.parse(event).map_err(|e| match e {
            WireError::Malformed(detail) => {
                Failure::Fatal(AgentError::Malformed { at: Box::new(self.at.clone()), detail })
            }
            WireError::Provider { message, transient } => {
                let error = AgentError::StreamError {
                    at: Box::new(self.at.clone()),
                    message: message.clone(),
                    tries: Tries(1),
                };
                if transient && self.streamed == 0 {
                    Failure::Retry { error, reason: format!("the provider reported {message}"), wait: None }
                } else {
                    Failure::Fatal(error)
                }
            }
        })?;
        for ev in events {
            self.streamed += shown(&ev);
            self.builder.push(&ev);
            sink(&ev);
        }
        Ok(())
    }
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
        Ok(ModelClient { http, provider, boundary: Boundary::open(), ledger: None })
    }

    /// The same client, asking `boundary` before each call (the folder's local-only mode).
    pub fn with_boundary(mut self, boundary: Boundary) -> ModelClient {
        self.boundary = boundary;
        self
    }

    /// The same client, also handing each request's ledger entry to `sink` (for calls made
    /// where no stream sink reaches the conversation: the vision model's, inside a tool).
    pub fn with_ledger(mut self, sink: LedgerSink) -> ModelClient {
        self.ledger = Some(sink);
        self
    }

    /// The boundary this client asks.
    pub fn boundary(&self) -> &Boundary {
        &self.boundary
    }

    /// The provider this client calls.
    pub fn provider(&self) -> &Provider {
        &self.provider
    }

    /// Streams one model call, passing every event to `sink` as it arrives; retries as the module
    /// documentation says, each retry announced to `sink` first.
    pub async fn stream(
        &self,
        req: &ModelRequest,
        cancel: &CancellationToken,
        sink: &mut (dyn FnMut(&StreamEvent) + Send),
    ) -> Result<ModelTurn, AgentError> {
        self.stream_as(Purpose::Turn, req, cancel, sink, &mut |_| {}).await
    }

    /// [`ModelClient::stream`] for `purpose`, handing each attempt's ledger entry to `ledger`
    /// (and to the client's own sink, when it has one) just before its bytes are sent.
    pub async fn stream_as(
        &self,
        purpose: Purpose,
        req: &ModelRequest,
        cancel: &CancellationToken,
        sink: &mut (dyn FnMut(&StreamEvent) + Send),
        ledger: &mut (dyn FnMut(LedgerEntry) + Send),
    ) -> Result<ModelTurn, AgentError> {
        let at = self.provider.site();
        // Before anything else: no connection is opened to a provider the boundary refuses.
        self.boundary.check_url(Crossing::Provider(&at.provider), &self.provider.base_url)?;
        let body = serde_json::to_vec(&self.provider.body(req))
            .map_err(|e| AgentError::Config(format!("the request could not be serialised: {e}")))?;
        let max_wait = self.provider.max_retry_wait_ms;
        let mut attempt: u32 = 1;
        loop {
            let entry = crate::ledger::entry(&at, purpose, attempt, req, &body);
            if let Some(own) = &self.ledger {
                own(entry.clone());
            }
            ledger(entry);
            let (mut error, reason, wait) = match self.attempt(&at, &body, cancel, sink).await {
                Ok(turn) => return Ok(turn),
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Retry { error, reason, wait }) => (error, reason, wait),
            };
            if attempt > self.provider.max_retries {
                return Err(error.after(attempt));
            }
            let backoff = self.provider.initial_backoff_ms.saturating_mul(1 << (attempt - 1).min(10));
            let delay = match wait {
                Some(asked) => asked,
                None => Duration::from_millis(backoff.saturating_add(jitter(backoff / 2 + 1)).min(max_wait)),
            };
            if delay > Duration::from_millis(max_wait) {
                if let AgentError::Status { hint, .. } = &mut error {
                    *hint = format!(
                        "the provider asks Folio to wait {} before trying again, longer than Folio waits on its own ({}); send the message again after that",
                        Secs(delay.as_millis() as u64),
                        Secs(max_wait)
                    );
                }
                return Err(error.after(attempt));
            }
            attempt += 1;
            sink(&StreamEvent::Retrying { attempt, delay_ms: delay.as_millis() as u64, reason });
            tokio::select! {
                _ = cancel.cancelled() => return Err(AgentError::Cancelled),
                _ = tokio::time::sleep(delay) => {}
            }
        }
    }

    /// One request and its stream.
    async fn attempt(
        &self,
        at: &Site,
        body: &[u8],
        cancel: &CancellationToken,
        sink: &mut (dyn FnMut(&StreamEvent) + Send),
    ) -> Result<ModelTurn, Failure> {
        let mut request =
            self.http.post(&at.endpoint).header(reqwest::header::CONTENT_TYPE, "application/json").body(body.to_vec());
        match (self.provider.format, &self.provider.api_key) {
            (WireFormat::Anthropic, Some(key)) => request = request.header("x-api-key", key),
            (WireFormat::OpenAi, Some(key)) => request = request.bearer_auth(key),
            _ => {}
        }
        if self.provider.format == WireFormat::Anthropic {
            request = request.header("anthropic-version", "2023-06-01");
        }
        let idle = Duration::from_millis(self.provider.idle_timeout_ms);
        let stalled = |phase| {
            Failure::Fatal(AgentError::Stalled {
                at: Box::new(at.clone()),
                waited: Secs(self.provider.idle_timeout_ms),
                phase,
            })
        };
        let cancelled = || Failure::Fatal(AgentError::Cancelled);
        let outcome = tokio::select! {
            _ = cancel.cancelled() => return Err(cancelled()),
            r = tokio::time::timeout(idle, request.send()) => r,
        };
        let response = match outcome {
            Err(_) => return Err(stalled(StallPhase::Headers)),
            Ok(Err(e)) => {
                let detail = chain(&e);
                return Err(Failure::Retry {
                    reason: format!("connection failed: {detail}"),
                    error: AgentError::Connect { at: Box::new(at.clone()), detail, tries: Tries(1) },
                    wait: None,
                });
            }
            Ok(Ok(resp)) if resp.status().is_success() => resp,
            Ok(Ok(resp)) => {
                let status = resp.status().as_u16();
                let wait = retry_after(resp.headers());
                let text = tokio::select! {
                    _ = cancel.cancelled() => return Err(cancelled()),
                    t = tokio::time::timeout(idle, resp.text()) => t,
                };
                let text = match text {
                    Err(_) => return Err(stalled(StallPhase::Stream)),
                    Ok(t) => t.unwrap_or_default(),
                };
                let message = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v["error"]["message"].as_str().map(str::to_owned))
                    .unwrap_or_else(|| text.chars().take(300).collect());
                let error = AgentError::Status {
                    at: Box::new(at.clone()),
                    status,
                    message: message.clone(),
                    hint: status_hint(status, self.provider.format, &at.endpoint),
                    tries: Tries(1),
                };
                if !retryable(status) {
                    return Err(Failure::Fatal(error));
                }
                return Err(Failure::Retry { error, reason: format!("HTTP {status}: {message}"), wait });
            }
        };

        let mut reading = Reading {
            at,
            parser: match self.provider.format {
                WireFormat::Anthropic => Box::<anthropic::Parser>::default(),
                WireFormat::OpenAi => Box::<openai::Parser>::default(),
            },
            builder: TurnBuilder::default(),
            streamed: 0,
        };
        let mut decoder = SseDecoder::default();
        let stray = |line: String| {
            Failure::Fatal(AgentError::Malformed {
                at: Box::new(at.clone()),
                detail: format!("a line that is not Server-Sent Events: `{line}`"),
            })
        };
        let mut bytes = response.bytes_stream();
        loop {
            let next = tokio::select! {
                _ = cancel.cancelled() => return Err(cancelled()),
                n = tokio::time::timeout(idle, bytes.next()) => n,
            };
            let chunk = match next {
                Err(_) => return Err(stalled(StallPhase::Stream)),
                Ok(None) => break,
                Ok(Some(Err(e))) => {
                    if reading.builder.done {
                        break;
                    }
                    let detail = format!("the stream broke: {}", chain(&e));
                    if reading.streamed == 0 {
                        return Err(Failure::Retry {
                            reason: format!("{detail} (before the answer began)"),
                            error: AgentError::Connect { at: Box::new(at.clone()), detail, tries: Tries(1) },
                            wait: None,
                        });
                    }
                    return Err(Failure::Fatal(AgentError::Interrupted {
                        at: Box::new(at.clone()),
                        detail,
                        streamed: reading.streamed,
                    }));
                }
                Ok(Some(Ok(chunk))) => chunk,
            };
            let events = decoder.feed(&chunk);
            if let Some(line) = decoder.take_stray() {
                return Err(stray(line));
            }
            for event in events {
                reading.take(&event, sink)?;
            }
            if reading.builder.done {
                break;
            }
        }
        if let Some(event) = decoder.finish() {
            if let Some(line) = decoder.take_stray() {
                return Err(stray(line));
            }
            reading.take(&event, sink)?;
        }
        if !reading.builder.done {
            let error = AgentError::Truncated {
                at: Box::new(at.clone()),
                expected: reading.parser.end_marker(),
                tries: Tries(1),
            };
            if reading.streamed == 0 {
                return Err(Failure::Retry {
                    error,
                    reason: "the stream ended before the answer began".to_owned(),
                    wait: None,
                });
            }
            return Err(Failure::Fatal(error));
        }
        Ok(reading.builder.finish())
    }
}
