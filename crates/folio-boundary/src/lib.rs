//! `folio-boundary`: what may leave the machine.
//!
//! An analyst's folder holds client data. Two promises rest on this crate, and every shell gets
//! them from the same place:
//!
//! - **Local-only mode.** A global or per-folder switch under which only destinations on this
//!   machine are allowed: model providers whose base URL is on loopback (Ollama, LM Studio, a local
//!   OpenAI-compatible server) and MCP servers that are spawned over stdio or listen on loopback.
//!   [`Boundary::check_url`] is asked *before a connection is opened*; a refusal names the
//!   destination, the URL and the setting that refused it.
//! - **Never-send paths.** A per-folder list of globs (the VFS's own [`folio_vfs::Glob`] syntax)
//!   whose contents never reach a model. [`Boundary::never_send`] says which pattern covers a
//!   path; the agent's tools refuse such reads with [`BoundaryError::NeverSend`], whose hint says
//!   that a script may still process the file locally and return only what the model may see.
//!
//! # Decisions
//!
//! - **No name resolution.** Deciding whether `db.internal` is local would take a DNS query,
//!   which itself leaves the machine and can be answered by anyone. Only `localhost` and IP
//!   literals in `127.0.0.0/8` or `::1` (and IPv4-mapped loopback) count as loopback.
//! - **The stricter setting wins.** Local-only is on when either the global or the folder's
//!   switch is on, and the refusal names the one that is.
//! - **This crate decides; it does not connect.** It holds no client and no store: the agent
//!   crate asks it before each request, the host before mounting a server, the shells persist
//!   the settings.

use std::fmt;
use std::net::IpAddr;

use folio_vfs::Glob;
use serde::{Deserialize, Serialize};

/// Whether destinations off this machine are allowed. A closed set: persisted as `"open"` or
/// `"localOnly"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NetworkMode {
    /// Providers and servers anywhere may be used (the default).
    #[default]
    Open,
    /// Only providers and servers on loopback; everything else is refused before connecting.
    LocalOnly,
}

/// Which switch turned local-only mode on, so a refusal can say where to turn it off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ModeSource {
    /// The global setting (Settings → Privacy in the app, `--local-only` or the config file in
    /// the CLI).
    Global,
    /// This folder's own setting.
    Folder,
}

impl fmt::Display for ModeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ModeSource::Global => "the global local-only setting",
            ModeSource::Folder => "this folder's local-only setting",
        })
    }
}

/// What is about to cross the boundary, for the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossing<'a> {
    /// A model provider (its preset name).
    Provider(&'a str),
    /// An MCP server (the name a person gave it).
    McpServer(&'a str),
}

impl fmt::Display for Crossing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Crossing::Provider(name) => write!(f, "the model provider {name}"),
            Crossing::McpServer(name) => write!(f, "the MCP server {name}"),
        }
    }
}

/// Why something may not cross the boundary. Raised before any byte is sent; nothing retries it
/// automatically — the person changes the destination or the setting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoundaryError {
    /// Local-only mode is on and the destination is not on loopback. Raised by
    /// [`Boundary::check_url`] before a connection is opened.
    #[error(
        "{what} at {url} is not on this machine, and {setting} is on — nothing was sent. hint: use a provider or server on localhost or 127.0.0.1 (Ollama, LM Studio, a local OpenAI-compatible server, an MCP server over stdio), or turn {setting} off"
    )]
    NotLocal {
        /// The destination, as [`Crossing`] words it.
        what: String,
        /// The URL that was refused.
        url: String,
        /// The switch that refused it.
        setting: ModeSource,
    },
    /// The destination's URL does not parse or has no host; raised by [`Boundary::check_url`]
    /// in local-only mode, where an unparsable URL cannot be shown to be local.
    #[error(
        "{what}: {url:?} is not a URL with a host ({detail}), so it cannot be shown to be on this machine — hint: give a full URL such as http://127.0.0.1:11434"
    )]
    BadUrl {
        /// The destination.
        what: String,
        /// The text given as a URL.
        url: String,
        /// The parser's complaint.
        detail: String,
    },
    /// The path is on the folder's never-send list. Raised by the agent's reading tools; the
    /// agent can still process the file in a script and return only derived results.
    #[error(
        "{path} is on this folder's never-send list ({pattern}), so its contents never reach the model — hint: process it in a script (env:fs reads it on this machine) and return only what may be shared, or remove the pattern from the folder's never-send list"
    )]
    NeverSend {
        /// The path that was refused.
        path: String,
        /// The pattern that covers it.
        pattern: String,
    },
    /// A never-send pattern is empty or not a path pattern; raised when the list is saved.
    #[error("never-send pattern {pattern:?} {detail} — hint: write a path pattern such as /clients/** or **/*.xlsx")]
    BadPattern {
        /// The pattern as given.
        pattern: String,
        /// What is wrong with it.
        detail: String,
    },
}

/// The folder's boundary: its network mode (and which switch set it) and its never-send list.
#[derive(Debug, Clone, Default)]
pub struct Boundary {
    local_only: Option<ModeSource>,
    never_send: Vec<(String, Glob)>,
}

impl Boundary {
    /// No restriction: any destination, every path may be sent.
    pub fn open() -> Boundary {
        Boundary::default()
    }

    /// The boundary for a folder from the global mode, the folder's own mode and its never-send
    /// patterns. The stricter mode wins; a folder's switch is named when both are on.
    pub fn new(global: NetworkMode, folder: NetworkMode, never_send: &[String]) -> Result<Boundary, BoundaryError> {
        let local_only = match (folder, global) {
            (NetworkMode::LocalOnly, _) => Some(ModeSource::Folder),
            (_, NetworkMode::LocalOnly) => Some(ModeSource::Global),
            _ => None,
        };
        let never_send = never_send.iter().map(|p| compile(p)).collect::<Result<_, _>>()?;
        Ok(Boundary { local_only, never_send })
    }

    /// The effective mode.
    pub fn mode(&self) -> NetworkMode {
        if self.local_only.is_some() { NetworkMode::LocalOnly } else { NetworkMode::Open }
    }

    /// The switch that set local-only mode, if it is on.
    pub fn mode_source(&self) -> Option<ModeSource> {
        self.local_only
    }

    /// The never-send patterns, as given.
    pub fn never_send_patterns(&self) -> impl Iterator<Item = &str> {
        self.never_send.iter().map(|(p, _)| p.as_str())
    }

    /// Whether `what` may be reached at `url`. In open mode everything passes (a malformed URL
    /// is the client's to report); in local-only mode only loopback hosts pass.
    pub fn check_url(&self, what: Crossing<'_>, url: &str) -> Result<(), BoundaryError> {
        let Some(source) = self.local_only else {
            return Ok(());
        };
        if is_loopback_url(url).map_err(|detail| BoundaryError::BadUrl {
            what: what.to_string(),
            url: url.to_owned(),
            detail,
        })? {
            Ok(())
        } else {
            Err(BoundaryError::NotLocal { what: what.to_string(), url: url.to_owned(), setting: source })
        }
    }

    /// The never-send pattern covering `path` (a VFS path such as `/clients/acme.xlsx`), if any.
    /// A directory is covered when a pattern covers everything below it (`/clients/**` covers
    /// `/clients`).
    pub fn never_send(&self, path: &str) -> Option<&str> {
        let path = if path.starts_with('/') { path.to_owned() } else { format!("/{path}") };
        let below = format!("{}/", path.trim_end_matches('/'));
        self.never_send
            .iter()
            .find(|(pattern, glob)| glob.matches(&path) || (pattern.ends_with("/**") && glob.matches(&below)))
            .map(|(p, _)| p.as_str())
    }

    /// [`Boundary::never_send`] as a refusal for the agent's reading tools.
    pub fn check_read(&self, path: &str) -> Result<(), BoundaryError> {
        match self.never_send(path) {
            Some(pattern) => Err(BoundaryError::NeverSend { path: path.to_owned(), pattern: pattern.to_owned() }),
            None => Ok(()),
        }
    }
}

/// Checks one never-send pattern the way [`Boundary::new`] does, for a settings form.
pub fn validate_pattern(pattern: &str) -> Result<(), BoundaryError> {
    compile(pattern).map(|_| ())
}

fn compile(pattern: &str) -> Result<(String, Glob), BoundaryError> {
    let trimmed = pattern.trim();
    let bad = |detail: &str| BoundaryError::BadPattern { pattern: pattern.to_owned(), detail: detail.to_owned() };
    if trimmed.is_empty() {
        return Err(bad("is empty"));
    }
    if trimmed.contains('\\') {
        return Err(bad("uses \\ — folder paths use /"));
    }
    if trimmed.split('/').any(|segment| segment == "..") {
        return Err(bad("contains .. — patterns are paths inside the folder"));
    }
    Ok((trimmed.to_owned(), Glob::new(trimmed)))
}

/// Whether `url`'s host is loopback: `localhost` (any case, with or without a trailing dot) or
/// an IP literal in `127.0.0.0/8`, `::1` or IPv4-mapped loopback. No name is resolved. `Err`
/// carries why the text is not a URL with a host.
pub fn is_loopback_url(url: &str) -> Result<bool, String> {
    let parsed = url::Url::parse(url.trim()).map_err(|e| e.to_string())?;
    match parsed.host() {
        None => Err("it has no host".to_owned()),
        Some(url::Host::Domain(name)) => Ok(name.trim_end_matches('.').eq_ignore_ascii_case("localhost")),
        Some(url::Host::Ipv4(ip)) => Ok(IpAddr::V4(ip).is_loopback()),
        Some(url::Host::Ipv6(ip)) => Ok(ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())),
    }
}

#[cfg(test)]
mod tests;
