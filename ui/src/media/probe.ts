// What this webview can play, asked once at start-up with canPlayType and remembered. The Rust
// side says what a file is made of (container and codecs, as a media type with codecs); this
// module says whether the webview decodes that, so no player is shown that cannot play.

/** The formats asked about at start-up. */
export const PROBED: Record<string, string> = {
  "mp4 H.264 + AAC": 'video/mp4; codecs="avc1.42E01E, mp4a.40.2"',
  "mp4 H.264": 'video/mp4; codecs="avc1.42E01E"',
  "mp4 HEVC": 'video/mp4; codecs="hvc1.1.6.L93.B0"',
  "mp4 AV1": 'video/mp4; codecs="av01.0.05M.08"',
  "webm VP8 + Opus": 'video/webm; codecs="vp8, opus"',
  "webm VP8": 'video/webm; codecs="vp8"',
  "webm VP9": 'video/webm; codecs="vp9"',
  "webm AV1": 'video/webm; codecs="av01.0.05M.08"',
  "ogg Opus": 'audio/ogg; codecs="opus"',
  "ogg Vorbis": 'audio/ogg; codecs="vorbis"',
  "webm Opus": 'audio/webm; codecs="opus"',
  mp3: "audio/mpeg",
  "AAC (m4a)": 'audio/mp4; codecs="mp4a.40.2"',
  FLAC: "audio/flac",
  WAV: "audio/wav",
};

/** The webm preview ffmpeg makes (src-tauri/src/preview/transcode.rs). */
export const WEBM_PREVIEW = 'video/webm; codecs="vp8, opus"';

const answers = new Map<string, string>();

function ask(mime: string): string {
  let answer = answers.get(mime);
  if (answer === undefined) {
    const el = document.createElement(mime.startsWith("audio/") ? "audio" : "video");
    answer = el.canPlayType(mime);
    answers.set(mime, answer);
  }
  return answer;
}

/** Asks about every probed format (at start-up) and returns the answers by label. */
export function probeMedia(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [label, mime] of Object.entries(PROBED)) out[label] = ask(mime) || "no";
  (window as unknown as { __folioMedia?: Record<string, string> }).__folioMedia = out;
  return out;
}

/** True when this webview says it can play `mime` ("maybe" or "probably"). */
export function canPlay(mime: string | null | undefined): boolean {
  return !!mime && ask(mime) !== "";
}

/** The part of a media type before its parameters (`video/mp4`). */
export function baseType(mime: string): string {
  return mime.split(";")[0].trim();
}

/** Media above this size is not loaded into memory; the card offers Open with instead. */
export const BLOB_CAP = 512 * 1024 * 1024;
