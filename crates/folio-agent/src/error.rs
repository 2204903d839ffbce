//! The agent layer's errors. Each says what happened, where (the provider, its host and the
//! model, as a [`Site`]), and what to do.
//!
//! Which faults the client retries is decided by one rule (see `client`): a fault is retried when
//! nothing of the answer has been shown yet — an HTTP 408/409/429/5xx/529, a refused or reset
//! connection, a stream that ended or broke before its first text or tool call, Anthropic's
//! `overloaded_error` before any content. Once text has streamed, a broken or truncated stream is
//! named ([`AgentError::Interrupted`], [`AgentError::Truncated`]) rather than resent, so nothing the
//! person has read is shown twice. A silent provider ([`AgentError::Stalled`]) and an unreadable
//! stream ([`AgentError::Malformed`]) are named at once: waiting or asking again would only
//! repeat them.

use std::fmt;

/// Where a model call went: the provider's name (a preset's, or the wire format's for any other
/// endpoint), the host it was sent to, and the model. Shown as
/// `at api.anthropic.com (anthropic, model claude-sonnet-4-5)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// `anthropic`, `openai`, …, or `Anthropic-compatible` / `OpenAI-compatible`.
    pub provider: String,
    /// Host and port of the base URL.
    pub host: String,
    /// The model id.
    pub model: String,
    /// The full endpoint the request went to.
    pub endpoint: String,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {} ({}, model {})", self.host, self.provider, self.model)
    }
}

/// How many requests were made, shown after the failure when there was more than one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tries(pub u32);

impl fmt::Display for Tries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 > 1 { write!(f, " (gave up after {} attempts)", self.0) } else { Ok(()) }
    }
}

/// A wait, in seconds with a tenth when it is short (`0.3 s`, `120 s`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Secs(pub u64);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 10_000 && !self.0.is_multiple_of(1000) {
            write!(f, "{:.1} s", self.0 as f64 / 1000.0)
        } else {
            write!(f, "{} s", self.0 / 1000)
        }
    }
}

/// When a provider went silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StallPhase {
    /// The request was sent; no response headers came.
    Headers,
    /// The response started; then no bytes came.
    Stream,
}

impl fmt::Display for StallPhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StallPhase::Headers => "after the request was sent (no response began)",
            StallPhase::Stream => "after its response began",
        })
    }
}

/// A model call or agent turn that failed.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The provider could not be reached (DNS, refused connection, TLS, a reset before the answer
    /// began). Retried with backoff by the client; surfaced only when the retries are spent.
    #[error(
        "cannot reach the model provider {at}: {detail}{tries} — hint: check the base URL and your network; for a local model, check that Ollama or LM Studio is running"
    )]
    Connect {
        /// Where.
        at: Box<Site>,
        /// The transport's error.
        detail: String,
        /// Requests made.
        tries: Tries,
    },
    /// The provider answered with an HTTP error. 408, 409, 429 and 5xx (529 included) are retried
    /// by the client first, honouring `Retry-After`; other statuses are not retried (the request
    /// itself is wrong), nor is a `Retry-After` longer than the client waits on its own.
    #[error("the model provider {at} answered {status}: {message}{tries} — hint: {hint}")]
    Status {
        /// Where.
        at: Box<Site>,
        /// HTTP status.
        status: u16,
        /// The provider's own message.
        message: String,
        /// What usually fixes it.
        hint: String,
        /// Requests made.
        tries: Tries,
    },
    /// The provider sent an error event in its stream. Retried by the client when it is a
    /// transient kind (overloaded, rate limit) and nothing had streamed yet; otherwise not: the
    /// partial answer was already shown.
    #[error(
        "the model provider {at} reported an error mid-stream: {message}{tries} — hint: send the message again; if it keeps failing, try another model"
    )]
    StreamError {
        /// Where.
        at: Box<Site>,
        /// The provider's kind and message.
        message: String,
        /// Requests made.
        tries: Tries,
    },
    /// The stream ended before the provider said it was complete. Retried by the client when it
    /// ended before any content; after content it is named, not resent.
    #[error(
        "the model's answer was cut off: the stream from the model provider {at} ended before {expected}{tries} — hint: send the message again (the partial answer was not kept); a proxy or a flaky network usually causes this"
    )]
    Truncated {
        /// Where.
        at: Box<Site>,
        /// The end marker that never came.
        expected: &'static str,
        /// Requests made.
        tries: Tries,
    },
    /// The connection broke after part of the answer had streamed. Not retried: resending would
    /// show the person the beginning of the answer twice.
    #[error(
        "the connection to the model provider {at} broke mid-answer, after {streamed} characters had streamed: {detail} — hint: send the message again; the partial answer was not kept, and Folio does not resend on its own so that nothing is shown twice"
    )]
    Interrupted {
        /// Where.
        at: Box<Site>,
        /// The transport's error.
        detail: String,
        /// Characters of text and tool arguments shown before the break.
        streamed: usize,
    },
    /// No bytes arrived for longer than the provider's idle limit (`Provider::idle_timeout_ms`),
    /// waiting for the response or within it. Not retried: another wait as long would follow.
    #[error(
        "the model provider {at} sent nothing for {waited} {phase} — hint: the provider may be overloaded; send the message again, or try another model"
    )]
    Stalled {
        /// Where.
        at: Box<Site>,
        /// The idle limit that passed.
        waited: Secs,
        /// Waiting for the headers or within the stream.
        phase: StallPhase,
    },
    /// A stream line or event was not the provider's documented shape (a line that is not SSE,
    /// an event that is not JSON). Not retried.
    #[error(
        "the model provider {at} sent something Folio cannot read: {detail} — hint: check that the base URL points at an Anthropic or OpenAI-compatible API"
    )]
    Malformed {
        /// Where.
        at: Box<Site>,
        /// What was wrong, with the offending text.
        detail: String,
    },
    /// A vision model answered with no text.
    #[error("the vision model {at} returned no answer — hint: check that this model accepts images")]
    NoAnswer {
        /// Where.
        at: Box<Site>,
    },
    /// The person stopped the turn.
    #[error("stopped by the person")]
    Cancelled,
    /// The provider settings are incomplete.
    #[error("the model provider is not set up: {0}")]
    Config(String),
    /// The folder's boundary refused the request before any connection was opened (local-only
    /// mode and a provider off this machine). Not retried: the person changes the provider or
    /// the setting the message names.
    #[error("{0}")]
    Boundary(#[from] folio_boundary::BoundaryError),
}

impl AgentError {
    /// The same error, counting `n` requests.
    pub(crate) fn after(mut self, n: u32) -> AgentError {
        match &mut self {
            AgentError::Connect { tries, .. }
            | AgentError::Status { tries, .. }
            | AgentError::StreamError { tries, .. }
            | AgentError::Truncated { tries, .. } => *tries = Tries(n),
            _ => {}
        }
        self
    }
}
