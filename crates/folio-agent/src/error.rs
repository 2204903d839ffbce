//! The agent layer's errors. Each says what happened, where, and what to do.

/// A model call or agent turn that failed.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The provider could not be reached (DNS, refused connection, TLS, reset). Retried with
    /// backoff by the client; surfaced only when the retries are spent.
    #[error(
        "cannot reach the model provider at {url}: {detail} — hint: check the base URL and your network; for a local model, check that Ollama or LM Studio is running"
    )]
    Connect {
        /// The endpoint.
        url: String,
        /// The transport's error.
        detail: String,
    },
    /// The provider answered with an HTTP error. 429 and 5xx are retried by the client first;
    /// other statuses are not retried (the request itself is wrong).
    #[error("the model provider at {url} answered {status}: {message} — hint: {hint}")]
    Status {
        /// The endpoint.
        url: String,
        /// HTTP status.
        status: u16,
        /// The provider's own message.
        message: String,
        /// What usually fixes it.
        hint: String,
    },
    /// The provider sent an error event in the middle of a stream. Not retried: the partial answer
    /// was already shown.
    #[error(
        "the model provider reported an error mid-stream: {0} — hint: send the request again; if it keeps failing, try another model"
    )]
    StreamError(String),
    /// The stream ended before the provider said it was complete. Not retried automatically.
    #[error(
        "the model's answer was cut off: the stream from {url} ended before {expected} — hint: send the request again; a proxy or a flaky network usually causes this"
    )]
    Truncated {
        /// The endpoint.
        url: String,
        /// The end marker that never came.
        expected: &'static str,
    },
    /// No bytes arrived for longer than the idle limit.
    #[error(
        "the model provider at {url} sent nothing for {seconds}s — hint: the provider may be overloaded; send the request again"
    )]
    Stalled {
        /// The endpoint.
        url: String,
        /// The idle limit.
        seconds: u64,
    },
    /// A stream chunk was not the provider's documented shape.
    #[error(
        "the model provider sent something Folio cannot read: {0} — hint: check that the base URL points at an Anthropic or OpenAI-compatible API"
    )]
    Malformed(String),
    /// The person stopped the turn.
    #[error("stopped by the person")]
    Cancelled,
    /// The provider settings are incomplete.
    #[error("the model provider is not set up: {0}")]
    Config(String),
}
