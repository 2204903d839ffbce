//! The `folio://` URI scheme: the open working environment's file bytes for the webview.
//!
//! `folio://localhost/<path>` (`http://folio.localhost/<path>` on Windows; the UI builds both
//! with `convertFileSrc(path, "folio")`, which percent-encodes the whole path) serves what the
//! agent sees, pending changes included, with the file's media type, `Accept-Ranges: bytes`,
//! and HTTP Range (`206` with `Content-Range`, `416` for a range past the end). A Range or `HEAD`
//! request for those bytes is answered from the file's size (`stat`) and reads only the range
//! (`Tree::read_range`), so seeking in a 200 MB video never reads the whole file. The query picks
//! other bytes of the same path:
//!
//! - `?version=base` — the folder's committed bytes (the "before" of a before/after view);
//! - `?version=preview` — the webm preview `preview_transcode` made of a video or audio file;
//! - `?page=<n>&width=<px>` — page `n` of a PDF, an Office document or a TIFF as a PNG (rendered
//!   once, cached);
//! - `?diff=<key>` — a picture the review panel's visual diff made (a rendered page, a difference
//!   overlay, a video thumbnail), kept in the folder's preview cache by its content hash
//!   (`crate::review::visual`); the path is not read.
//!
//! An SVG is never served as SVG: it is drawn to a PNG (`image/png`, cached), whatever the
//! request, so a `<script>` or an event handler in it never reaches the webview.
//! `/.env` and everything below it are refused (`403`), as are paths that climb out of the tree
//! or resolve outside the folder. Errors answer with the message as a `text/plain` body, so the UI
//! can show why a page or a video did not load.
//!
//! Linux caveat: WebKitGTK refuses `<video src>` over a
//! custom scheme, so the UI fetches media into a Blob and plays an object URL; images and fetches
//! work directly.

use std::sync::Arc;

use folio_vfs::{Kind, Tree};
use percent_encoding::percent_decode_str;
use tauri::http::{Method, Request, Response, StatusCode, header};
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use crate::commands::AppState;
use crate::preview::error::PreviewError;
use crate::preview::{HEAD, Previews, READ_CAP, Version, checked_path, kind, read, read_range};
use crate::session::Session;

/// The scheme's name.
pub const SCHEME: &str = "folio";

/// What a `Range` header asks of a body of `len` bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeReply {
    /// No usable range: send everything (`200`). Malformed and multi-range headers land here,
    /// as RFC 9110 allows a server to ignore them.
    Full,
    /// Send bytes `start..=end` (`206`).
    Partial {
        /// First byte.
        start: u64,
        /// Last byte, inclusive.
        end: u64,
    },
    /// The range starts past the end (`416` with `Content-Range: bytes */len`).
    Unsatisfiable,
}

/// Resolves a `Range` header (`bytes=a-b`, `bytes=a-`, `bytes=-n`) against a body length.
pub fn resolve_range(header: Option<&str>, len: u64) -> RangeReply {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else { return RangeReply::Full };
    if spec.contains(',') {
        return RangeReply::Full;
    }
    let Some((first, last)) = spec.trim().split_once('-') else { return RangeReply::Full };
    let (first, last) = (first.trim(), last.trim());
    let number = |s: &str| s.parse::<u64>().ok();
    match (first.is_empty(), last.is_empty()) {
        // A suffix: the last n bytes.
        (true, false) => match number(last) {
            Some(0) => RangeReply::Unsatisfiable,
            Some(_) if len == 0 => RangeReply::Unsatisfiable,
            Some(n) => RangeReply::Partial { start: len.saturating_sub(n), end: len - 1 },
            None => RangeReply::Full,
        },
        (false, _) => {
            let Some(start) = number(first) else { return RangeReply::Full };
            let end = if last.is_empty() { Some(u64::MAX) } else { number(last) };
            match end {
                None => RangeReply::Full,
                Some(end) if end < start => RangeReply::Full,
                Some(_) if start >= len => RangeReply::Unsatisfiable,
                Some(end) => RangeReply::Partial { start, end: end.min(len - 1) },
            }
        }
        (true, true) => RangeReply::Full,
    }
}

/// `?version=`: which bytes of the path a request wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionParam {
    /// No `version`: what the agent sees now.
    Current,
    /// `version=base`: the folder's committed bytes.
    Base,
    /// `version=preview`: the webm preview `preview_transcode` made.
    Preview,
}

impl VersionParam {
    /// The values `version=` takes, and what each means.
    const NAMES: [(&'static str, VersionParam); 2] = [("base", VersionParam::Base), ("preview", VersionParam::Preview)];

    /// The version a `version=` value names, or `None` for an unknown one.
    pub fn parse(value: &str) -> Option<VersionParam> {
        VersionParam::NAMES.iter().find(|(name, _)| *name == value).map(|(_, v)| *v)
    }
}

/// What a request asks for, from its URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The decoded path (`/out/chart.png`).
    pub path: String,
    /// `?version=`.
    pub version: VersionParam,
    /// `?page=`.
    pub page: Option<u32>,
    /// `?width=` (page renders; default 1200).
    pub width: Option<u32>,
    /// `?diff=`: the key of a picture a visual diff made.
    pub diff: Option<String>,
}

fn decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// Reads the path and query of a `folio://` URI's path-and-query part. Both spellings of the
/// path work: percent-encoded whole (`/%2Fout%2Fa.png`, what `convertFileSrc` makes) and plain.
pub fn target(path: &str, query: Option<&str>) -> Result<Target, PreviewError> {
    let decoded = decode(path);
    let path = format!("/{}", decoded.trim_start_matches('/'));
    let mut t = Target { path, version: VersionParam::Current, page: None, width: None, diff: None };
    for pair in query.unwrap_or_default().split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = decode(value);
        let bad = |why: String| PreviewError::Unsupported { path: t.path.clone(), why };
        match key {
            "version" => {
                t.version = VersionParam::parse(&value).ok_or_else(|| {
                    let known: Vec<String> = VersionParam::NAMES.iter().map(|(n, _)| format!("version={n}")).collect();
                    bad(format!("version={value} is unknown; use {}", known.join(" or ")))
                })?;
            }
            "page" => t.page = Some(value.parse().map_err(|_| bad(format!("page={value} is not a page number")))?),
            "width" => t.width = Some(value.parse().map_err(|_| bad(format!("width={value} is not a pixel width")))?),
            "diff" => t.diff = Some(value),
            // Cache busters and the like are ignored.
            _ => {}
        }
    }
    Ok(t)
}

/// The bytes and media type a target names.
fn body(session: &Session, previews: &Previews, t: &Target) -> Result<(Vec<u8>, String), PreviewError> {
    if let Some(key) = &t.diff {
        let gone = || PreviewError::NotFound { path: format!("the diff picture {key}") };
        let file = crate::review::visual::png_path(previews, session, key).ok_or_else(gone)?;
        return Ok((std::fs::read(&file).map_err(|_| gone())?, "image/png".into()));
    }
    let at = checked_path(&t.path)?;
    let version = if t.version == VersionParam::Base { Version::Base } else { Version::Current };
    if let Some(page) = t.page {
        let png = previews.page_png(session, &at, version, page, t.width.unwrap_or(1200))?;
        return Ok((png, "image/png".into()));
    }
    if t.version == VersionParam::Preview {
        let file = previews.transcoded(session, &at)?;
        let bytes = std::fs::read(&file)
            .map_err(|e| PreviewError::Read { path: file.display().to_string(), why: e.to_string() })?;
        let video = crate::preview::media::magic(&bytes).video.is_some();
        return Ok((bytes, if video { "video/webm" } else { "audio/webm" }.into()));
    }
    let bytes = read(session, &at, version)?;
    let (_, mime) = kind::classify(&t.path, &bytes[..bytes.len().min(HEAD)]);
    if mime == SVG {
        return Ok((previews.svg_png(session, &t.path, &bytes)?, "image/png".into()));
    }
    Ok((bytes, mime))
}

/// The media type of an SVG, which is served drawn (see the module docs).
const SVG: &str = "image/svg+xml";

/// What a response says: the media type, the file's length, what the `Range` header resolved
/// to, and the bytes to send (the whole file for `Full`, the range for `Partial`, nothing for a
/// `HEAD` or a `416`).
struct Answer {
    mime: String,
    len: u64,
    reply: RangeReply,
    bytes: Vec<u8>,
}

/// Answers a request: from the file's size and only the bytes sent when [`sized`] can, else from
/// the whole body.
fn answer(
    session: &Session,
    previews: &Previews,
    t: &Target,
    range: Option<&str>,
    head: bool,
) -> Result<Answer, PreviewError> {
    if let Some(answer) = sized(session, t, range, head)? {
        return Ok(answer);
    }
    let (bytes, mime) = body(session, previews, t)?;
    let len = bytes.len() as u64;
    let reply = resolve_range(range, len);
    let bytes = match reply {
        _ if head => Vec::new(),
        RangeReply::Full => bytes,
        RangeReply::Partial { start, end } => bytes.get(start as usize..=end as usize).unwrap_or_default().to_vec(),
        RangeReply::Unsatisfiable => Vec::new(),
    };
    Ok(Answer { mime, len, reply, bytes })
}

/// A `Range` or `HEAD` request for what the agent sees now, answered from `stat` and reading only
/// the file's first bytes (for the media type) and the range — never the whole file. `None` hands
/// the request to the whole read: a plain `GET`, another version, a page, and any path that is
/// not a file within [`READ_CAP`] (missing, a directory, outside the folder, too large), whose
/// refusal the whole read words exactly as before. `/.env` is refused here as there.
fn sized(session: &Session, t: &Target, range: Option<&str>, head: bool) -> Result<Option<Answer>, PreviewError> {
    if t.page.is_some() || t.diff.is_some() || t.version != VersionParam::Current || (range.is_none() && !head) {
        return Ok(None);
    }
    let at = checked_path(&t.path)?;
    let stat = session.environment().tree().stat(&at).ok().flatten();
    let Some(len) = stat.filter(|s| s.kind == Kind::File && s.size <= READ_CAP).map(|s| s.size) else {
        return Ok(None);
    };
    let reply = resolve_range(range, len);
    if reply == RangeReply::Full && !head {
        return Ok(None);
    }
    let first = read_range(session, &at, 0, HEAD as u64)?;
    let (_, mime) = kind::classify(&t.path, &first);
    if mime == SVG {
        // Its bytes are not what is served: the drawing is made from the whole file.
        return Ok(None);
    }
    let bytes = match reply {
        RangeReply::Partial { start, end } if !head => read_range(session, &at, start, end - start + 1)?,
        _ => Vec::new(),
    };
    Ok(Some(Answer { mime, len, reply, bytes }))
}

fn with_common(builder: tauri::http::response::Builder) -> tauri::http::response::Builder {
    builder
        .header(header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")
        .header(header::ACCESS_CONTROL_EXPOSE_HEADERS, "Content-Range, Content-Length, Accept-Ranges, Content-Type")
        .header(header::CACHE_CONTROL, "no-store")
}

fn plain(status: u16, text: String) -> Response<Vec<u8>> {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    with_common(Response::builder().status(status))
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .body(text.into_bytes())
        .unwrap_or_else(|_| Response::new(Vec::new()))
}

/// Answers one request against the open session (or the error saying none is open).
pub fn serve(
    session: Result<&Session, PreviewError>,
    previews: &Previews,
    request: &Request<Vec<u8>>,
) -> Response<Vec<u8>> {
    if request.method() == Method::OPTIONS {
        return with_common(Response::builder().status(StatusCode::NO_CONTENT))
            .header(header::ACCESS_CONTROL_ALLOW_HEADERS, "Range")
            .header(header::ACCESS_CONTROL_ALLOW_METHODS, "GET, HEAD, OPTIONS")
            .body(Vec::new())
            .unwrap_or_else(|_| Response::new(Vec::new()));
    }
    let range = request.headers().get(header::RANGE).and_then(|v| v.to_str().ok());
    let head = request.method() == Method::HEAD;
    let found = session.and_then(|s| {
        let t = target(request.uri().path(), request.uri().query())?;
        answer(s, previews, &t, range, head)
    });
    let Answer { mime, len, reply, bytes } = match found {
        Ok(found) => found,
        Err(e) => return plain(e.status(), e.to_string()),
    };
    let builder =
        with_common(Response::builder()).header(header::CONTENT_TYPE, mime).header(header::ACCEPT_RANGES, "bytes");
    let response = match reply {
        RangeReply::Full => builder.status(StatusCode::OK).header(header::CONTENT_LENGTH, len).body(bytes),
        RangeReply::Partial { start, end } => builder
            .status(StatusCode::PARTIAL_CONTENT)
            .header(header::CONTENT_RANGE, format!("bytes {start}-{end}/{len}"))
            .header(header::CONTENT_LENGTH, end - start + 1)
            .body(bytes),
        RangeReply::Unsatisfiable => builder
            .status(StatusCode::RANGE_NOT_SATISFIABLE)
            .header(header::CONTENT_RANGE, format!("bytes */{len}"))
            .body(bytes),
    };
    response.unwrap_or_else(|e| plain(500, format!("the response could not be built: {e}")))
}

/// The scheme handler registered with Tauri: answers on the blocking pool, since reading a file
/// or rendering a page may take a while.
pub fn handle<R: Runtime>(ctx: UriSchemeContext<'_, R>, request: Request<Vec<u8>>, responder: UriSchemeResponder) {
    let app = ctx.app_handle().clone();
    tauri::async_runtime::spawn_blocking(move || {
        let state = app.state::<AppState>();
        let previews = app.state::<Arc<Previews>>();
        let session = state.current().map_err(|_| PreviewError::NoFolder);
        let response = match &session {
            Ok(session) => serve(Ok(session), &previews, &request),
            Err(_) => serve(Err(PreviewError::NoFolder), &previews, &request),
        };
        responder.respond(response);
    });
}

#[cfg(test)]
#[path = "scheme_tests.rs"]
mod tests;
