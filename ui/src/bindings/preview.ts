// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.

export type PreviewKind = "image" | "video" | "audio" | "pdf" | "office" | "tiff" | "spreadsheet" | "csv" | "markdown" | "json" | "code" | "scene" | "email" | "text" | "binary";

export type PreviewInfoParams = { 
/**
 * The agent's path (`/out/chart.png`).
 */
path: string, };

export type MediaProbe = { 
/**
 * The container (`mp4`, `webm`, `matroska`, `ogg`, `mp3`, `wav`, `flac`, `avi`, …).
 */
container: string, 
/**
 * The first video stream's codec (`h264`, `vp8`, `vp9`, `av1`, `hevc`, …), if any.
 */
videoCodec: string | null, 
/**
 * The first audio stream's codec (`aac`, `opus`, `vorbis`, `mp3`, `flac`, `pcm`, …), if any.
 */
audioCodec: string | null, 
/**
 * The media type with codecs to ask the webview about (`video/mp4; codecs="avc1.42E01E"`),
 * or `None` when a codec is unknown (then only a transcode can play it).
 */
mime: string | null, 
/**
 * Seconds, when known.
 */
durationS: number | null, 
/**
 * Frame width and height, when known.
 */
width: number | null, 
/**
 * Frame height, when known.
 */
height: number | null, 
/**
 * `ffprobe` or `magic` (the container's own bytes, when ffprobe is missing).
 */
probedBy: string, 
/**
 * True when ffmpeg is here, so a webm preview can be made.
 */
canTranscode: boolean, 
/**
 * Why a transcode is impossible and the fix, when it is.
 */
transcodeFix: string | null, };

export type PreviewInfoResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * Bytes.
 */
size: number, 
/**
 * The content's hash: the UI reloads a preview only when it changes.
 */
hash: string, 
/**
 * The media type by name and bytes.
 */
mediaType: string, 
/**
 * How to show it.
 */
kind: PreviewKind, 
/**
 * For video and audio: what it is and what can be done with it.
 */
media: MediaProbe | null, 
/**
 * Something the person should know before the preview loads (a missing tool and its fix).
 */
note: string | null, 
/**
 * For a PDF: true when its first page has no text layer (a scan), so the pane shows the
 * text recognised by env:ocr beside the page (`preview_ocr`).
 */
scan: boolean, };

export type PreviewTranscodeParams = { 
/**
 * The agent's path.
 */
path: string, };

export type TranscodeProgressNotification = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * 0 to 1, when the duration is known.
 */
fraction: number | null, 
/**
 * Seconds of output written so far.
 */
seconds: number, };

export type PreviewTranscodeResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * `video/webm` or `audio/webm`, with codecs.
 */
mime: string, 
/**
 * Bytes of the preview.
 */
size: number, 
/**
 * True when it came from the cache (the same content was transcoded before).
 */
cached: boolean, 
/**
 * Milliseconds the transcode took (0 when cached).
 */
durationMs: number, };

export type PreviewPagesParams = { 
/**
 * The agent's path.
 */
path: string, };

export type PreviewPagesResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * How many pages.
 */
pageCount: number, 
/**
 * The first page's size in points (1/72 inch), for placeholders.
 */
pageSizePt: [number, number] | null, };

export type PreviewTableParams = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * The sheet of a workbook (`None`: the first).
 */
sheet: string | null, 
/**
 * Most rows to return (`None`: 500).
 */
limit: number | null, };

export type PreviewTableResponse = { 
/**
 * The agent's path.
 */
path: string, 
/**
 * The workbook's sheets (empty for CSV).
 */
sheets: Array<string>, 
/**
 * The sheet shown (`None` for CSV).
 */
sheet: string | null, 
/**
 * The rows, the first usually the header; cells as text.
 */
rows: Array<Array<string>>, 
/**
 * Rows in the whole table or sheet.
 */
totalRows: number, 
/**
 * True when `rows` stops before `total_rows`.
 */
truncated: boolean, 
/**
 * `[row, column]` in `rows` of each formula cell the file saved no result for (its text is
 * the formula): the workbook was written without being calculated.
 */
uncalculated: Array<[number, number]>, };

export type PreviewSceneParams = { 
/**
 * The scene file's path (`/scenes/intro.jsx`).
 */
path: string, 
/**
 * The frame to render, from 0.
 */
frame: number, 
/**
 * Viewport width (`None`: 640).
 */
width: number | null, 
/**
 * Viewport height (`None`: 360).
 */
height: number | null, 
/**
 * Frames per second (`None`: 30).
 */
fps: number | null, 
/**
 * Frames in the whole scene, the scrubber's length (`None`: 90, three seconds at 30 fps).
 */
durationInFrames: number | null, };

export type PreviewSceneResponse = { 
/**
 * The scene file's path.
 */
path: string, 
/**
 * The frame rendered.
 */
frame: number, 
/**
 * Frames in the whole scene, as rendered.
 */
durationInFrames: number, 
/**
 * Frames per second, as rendered.
 */
fps: number, 
/**
 * Pixel width of the frame.
 */
width: number, 
/**
 * Pixel height of the frame.
 */
height: number, 
/**
 * The frame as a `data:image/png;base64,…` URL.
 */
png: string, 
/**
 * What the renderer warned about (the page logged an error, an unknown easing, …).
 */
warnings: Array<string>, 
/**
 * Milliseconds the still took.
 */
durationMs: number, };

export type PreviewEmailParams = { 
/**
 * The message's path (`/inbox/offer.msg`).
 */
path: string, };

export type EmailAttachment = { 
/**
 * Its position in the message, from 0 (what `preview_email_attachment` asks for).
 */
index: number, 
/**
 * The name the sender gave it.
 */
name: string, 
/**
 * Its media type.
 */
contentType: string, 
/**
 * Bytes.
 */
size: number, 
/**
 * Shown inline in the body rather than attached.
 */
inline: boolean, 
/**
 * An embedded message (opens as a message card of its own).
 */
embedded: boolean, };

export type PreviewEmailResponse = { 
/**
 * The message's path.
 */
path: string, 
/**
 * `eml` or `msg`.
 */
format: string, 
/**
 * The sender, `Name <address>`.
 */
from: string | null, 
/**
 * The recipients.
 */
to: Array<string>, 
/**
 * Copied recipients.
 */
cc: Array<string>, 
/**
 * RFC 3339 date.
 */
date: string | null, 
/**
 * The subject ("" when none).
 */
subject: string, 
/**
 * The plain-text body (the HTML body's text when there is no plain one), cut at 200,000
 * characters.
 */
body: string, 
/**
 * True when `body` was cut.
 */
bodyTruncated: boolean, 
/**
 * The attachments and embedded messages.
 */
attachments: Array<EmailAttachment>, };

export type PreviewEmailAttachmentParams = { 
/**
 * The message's path.
 */
path: string, 
/**
 * The attachment's `index`.
 */
index: number, };

export type PreviewEmailAttachmentResponse = { 
/**
 * The attachment's path in the environment.
 */
path: string, };

export type PreviewOcrParams = { 
/**
 * The scan's path.
 */
path: string, 
/**
 * The page, from 1.
 */
page: number, };

export type PreviewOcrResponse = { 
/**
 * The scan's path.
 */
path: string, 
/**
 * The page, from 1.
 */
page: number, 
/**
 * Pages in the file.
 */
pageCount: number, 
/**
 * The text, lines in reading order.
 */
text: string, 
/**
 * Mean word confidence, 0–100.
 */
confidence: number, 
/**
 * Degrees the page was turned upright before reading.
 */
rotated: number, 
/**
 * What to know about the result (low confidence, nothing read, …).
 */
note: string | null, 
/**
 * True when it came from the cache (recognised before, same content).
 */
cached: boolean, };
