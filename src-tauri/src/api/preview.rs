//! The payloads of the preview commands (`preview_*`): what kind of preview a file gets, media
//! probing and transcoding, document pages and tables.
//! The file's bytes themselves travel over the `folio://` scheme (`crate::scheme`), not here.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How the preview pane shows a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum PreviewKind {
    /// PNG, JPEG, GIF, WebP, SVG, BMP, AVIF: shown as an image (an SVG drawn to PNG by the
    /// `folio://` scheme, never handed to the webview as SVG).
    Image,
    /// A video container (mp4, webm, mov, mkv, …): played, or transcoded first.
    Video,
    /// An audio file (mp3, ogg, opus, wav, flac, m4a, …): played, or transcoded first.
    Audio,
    /// A PDF: pages rendered by PDFium.
    Pdf,
    /// A Word or PowerPoint file (or ODF text/slides): pages rendered through LibreOffice.
    Office,
    /// A TIFF (one or more pages, BigTIFF too): each page decoded on request, like a PDF's.
    Tiff,
    /// A workbook (xlsx, xls, ods): a table per sheet.
    Spreadsheet,
    /// Delimited text (csv, tsv): a table.
    Csv,
    /// Markdown: rendered.
    Markdown,
    /// JSON: pretty-printed.
    Json,
    /// Source code: text with line numbers.
    Code,
    /// A motion scene (a `.jsx`/`.tsx`/`.js` module that default-exports a component and imports
    /// `folio/motion`, `remotion` or `react-native-reanimated`, or lives under a `scenes/`
    /// folder): one frame at a time, with a scrubber and a play button (`preview_scene`).
    Scene,
    /// An email message (.eml, Outlook .msg): a card with its sender, recipients, date,
    /// subject, body and attachments (`preview_email`); an attachment opens in the preview.
    Email,
    /// Other text.
    Text,
    /// Anything else: a card with its size and kind.
    Binary,
}

/// Asks how to preview a file.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewInfoParams {
    /// The agent's path (`/out/chart.png`).
    pub path: String,
}

/// What the container and codecs of a media file are, and whether this host can transcode it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MediaProbe {
    /// The container (`mp4`, `webm`, `matroska`, `ogg`, `mp3`, `wav`, `flac`, `avi`, …).
    pub container: String,
    /// The first video stream's codec (`h264`, `vp8`, `vp9`, `av1`, `hevc`, …), if any.
    pub video_codec: Option<String>,
    /// The first audio stream's codec (`aac`, `opus`, `vorbis`, `mp3`, `flac`, `pcm`, …), if any.
    pub audio_codec: Option<String>,
    /// The media type with codecs to ask the webview about (`video/mp4; codecs="avc1.42E01E"`),
    /// or `None` when a codec is unknown (then only a transcode can play it).
    pub mime: Option<String>,
    /// Seconds, when known.
    pub duration_s: Option<f64>,
    /// Frame width and height, when known.
    pub width: Option<u32>,
    /// Frame height, when known.
    pub height: Option<u32>,
    /// `ffprobe` or `magic` (the container's own bytes, when ffprobe is missing).
    pub probed_by: String,
    /// True when ffmpeg is here, so a webm preview can be made.
    pub can_transcode: bool,
    /// Why a transcode is impossible and the fix, when it is.
    pub transcode_fix: Option<String>,
}

/// How to preview a file.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewInfoResponse {
    /// The agent's path.
    pub path: String,
    /// Bytes.
    #[ts(type = "number")]
    pub size: u64,
    /// The content's hash: the UI reloads a preview only when it changes.
    pub hash: String,
    /// The media type by name and bytes.
    pub media_type: String,
    /// How to show it.
    pub kind: PreviewKind,
    /// For video and audio: what it is and what can be done with it.
    pub media: Option<MediaProbe>,
    /// Something the person should know before the preview loads (a missing tool and its fix).
    pub note: Option<String>,
    /// For a PDF: true when its first page has no text layer (a scan), so the pane shows the
    /// text recognised by env:ocr beside the page (`preview_ocr`).
    pub scan: bool,
}

/// Asks for an email message's card.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewEmailParams {
    /// The message's path (`/inbox/offer.msg`).
    pub path: String,
}

/// One attachment of a message, as the card lists it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EmailAttachment {
    /// Its position in the message, from 0 (what `preview_email_attachment` asks for).
    pub index: u32,
    /// The name the sender gave it.
    pub name: String,
    /// Its media type.
    pub content_type: String,
    /// Bytes.
    #[ts(type = "number")]
    pub size: u64,
    /// Shown inline in the body rather than attached.
    pub inline: bool,
    /// An embedded message (opens as a message card of its own).
    pub embedded: bool,
}

/// A message's card: who, when, what, and what came with it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewEmailResponse {
    /// The message's path.
    pub path: String,
    /// `eml` or `msg`.
    pub format: String,
    /// The sender, `Name <address>`.
    pub from: Option<String>,
    /// The recipients.
    pub to: Vec<String>,
    /// Copied recipients.
    pub cc: Vec<String>,
    /// RFC 3339 date.
    pub date: Option<String>,
    /// The subject ("" when none).
    pub subject: String,
    /// The plain-text body (the HTML body's text when there is no plain one), cut at 200,000
    /// characters.
    pub body: String,
    /// True when `body` was cut.
    pub body_truncated: bool,
    /// The attachments and embedded messages.
    pub attachments: Vec<EmailAttachment>,
}

/// Asks to open one attachment of a message in the preview.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewEmailAttachmentParams {
    /// The message's path.
    pub path: String,
    /// The attachment's `index`.
    pub index: u32,
}

/// Where the attachment was put: a file in the environment's scratch zone (`/tmp/attachments/…`,
/// never the folder), previewed like any other file.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewEmailAttachmentResponse {
    /// The attachment's path in the environment.
    pub path: String,
}

/// Asks for the text of one page of a scan, recognised by env:ocr.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewOcrParams {
    /// The scan's path.
    pub path: String,
    /// The page, from 1.
    pub page: u32,
}

/// One page's recognised text.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewOcrResponse {
    /// The scan's path.
    pub path: String,
    /// The page, from 1.
    pub page: u32,
    /// Pages in the file.
    pub page_count: u32,
    /// The text, lines in reading order.
    pub text: String,
    /// Mean word confidence, 0–100.
    pub confidence: f32,
    /// Degrees the page was turned upright before reading.
    pub rotated: u32,
    /// What to know about the result (low confidence, nothing read, …).
    pub note: Option<String>,
    /// True when it came from the cache (recognised before, same content).
    pub cached: bool,
}

/// Makes (or finds) the webm preview of a video or audio file that this webview cannot play.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewTranscodeParams {
    /// The agent's path.
    pub path: String,
}

/// How far a transcode is, streamed while ffmpeg runs.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TranscodeProgressNotification {
    /// The agent's path.
    pub path: String,
    /// 0 to 1, when the duration is known.
    pub fraction: Option<f64>,
    /// Seconds of output written so far.
    pub seconds: f64,
}

/// The webm preview, ready to fetch from `folio://localhost/<path>?version=preview`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewTranscodeResponse {
    /// The agent's path.
    pub path: String,
    /// `video/webm` or `audio/webm`, with codecs.
    pub mime: String,
    /// Bytes of the preview.
    #[ts(type = "number")]
    pub size: u64,
    /// True when it came from the cache (the same content was transcoded before).
    pub cached: bool,
    /// Milliseconds the transcode took (0 when cached).
    #[ts(type = "number")]
    pub duration_ms: u64,
}

/// Asks how many pages a PDF or Office document has (an Office file is converted once, cached).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewPagesParams {
    /// The agent's path.
    pub path: String,
}

/// A document's pages; each page is an image at
/// `folio://localhost/<path>?page=<n>&width=<pixels>`, rendered on first request and cached.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewPagesResponse {
    /// The agent's path.
    pub path: String,
    /// How many pages.
    pub page_count: u32,
    /// The first page's size in points (1/72 inch), for placeholders.
    pub page_size_pt: Option<[f32; 2]>,
}

/// Asks for a table: a CSV/TSV file or one sheet of a workbook.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewTableParams {
    /// The agent's path.
    pub path: String,
    /// The sheet of a workbook (`None`: the first).
    #[serde(default)]
    pub sheet: Option<String>,
    /// Most rows to return (`None`: 500).
    #[serde(default)]
    pub limit: Option<u32>,
}

/// The first rows of a table.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewTableResponse {
    /// The agent's path.
    pub path: String,
    /// The workbook's sheets (empty for CSV).
    pub sheets: Vec<String>,
    /// The sheet shown (`None` for CSV).
    pub sheet: Option<String>,
    /// The rows, the first usually the header; cells as text.
    pub rows: Vec<Vec<String>>,
    /// Rows in the whole table or sheet.
    pub total_rows: u32,
    /// True when `rows` stops before `total_rows`.
    pub truncated: bool,
    /// `[row, column]` in `rows` of each formula cell the file saved no result for (its text is
    /// the formula): the workbook was written without being calculated.
    pub uncalculated: Vec<[u32; 2]>,
}

/// Asks for one frame of a motion scene, rendered by env:motion's renderer (the same page,
/// browser and warnings as a script's `still()`), nothing written to the folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewSceneParams {
    /// The scene file's path (`/scenes/intro.jsx`).
    pub path: String,
    /// The frame to render, from 0.
    pub frame: u32,
    /// Viewport width (`None`: 640).
    #[serde(default)]
    pub width: Option<u32>,
    /// Viewport height (`None`: 360).
    #[serde(default)]
    pub height: Option<u32>,
    /// Frames per second (`None`: 30).
    #[serde(default)]
    pub fps: Option<u32>,
    /// Frames in the whole scene, the scrubber's length (`None`: 90, three seconds at 30 fps).
    #[serde(default)]
    pub duration_in_frames: Option<u32>,
}

/// One rendered frame of a scene.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PreviewSceneResponse {
    /// The scene file's path.
    pub path: String,
    /// The frame rendered.
    pub frame: u32,
    /// Frames in the whole scene, as rendered.
    pub duration_in_frames: u32,
    /// Frames per second, as rendered.
    pub fps: u32,
    /// Pixel width of the frame.
    pub width: u32,
    /// Pixel height of the frame.
    pub height: u32,
    /// The frame as a `data:image/png;base64,…` URL.
    pub png: String,
    /// What the renderer warned about (the page logged an error, an unknown easing, …).
    pub warnings: Vec<String>,
    /// Milliseconds the still took.
    #[ts(type = "number")]
    pub duration_ms: u64,
}

/// The preview payloads, for `ui/src/bindings/preview.ts`.
pub fn decls() -> Vec<String> {
    vec![
        PreviewKind::decl(),
        PreviewInfoParams::decl(),
        MediaProbe::decl(),
        PreviewInfoResponse::decl(),
        PreviewTranscodeParams::decl(),
        TranscodeProgressNotification::decl(),
        PreviewTranscodeResponse::decl(),
        PreviewPagesParams::decl(),
        PreviewPagesResponse::decl(),
        PreviewTableParams::decl(),
        PreviewTableResponse::decl(),
        PreviewSceneParams::decl(),
        PreviewSceneResponse::decl(),
        PreviewEmailParams::decl(),
        EmailAttachment::decl(),
        PreviewEmailResponse::decl(),
        PreviewEmailAttachmentParams::decl(),
        PreviewEmailAttachmentResponse::decl(),
        PreviewOcrParams::decl(),
        PreviewOcrResponse::decl(),
    ]
}
