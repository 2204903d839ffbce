/** Every call also takes `timeoutMs` in its options: ffmpeg's own time limit (default 120000). */
export interface CallOptions {
  /** Milliseconds before ffmpeg is stopped (default 120000, at most 3600000). */
  timeoutMs?: number;
}
export interface StreamSummary {
  kind: "video" | "audio" | "subtitle" | "other";
  /** ffprobe's codec name: "h264", "vp9", "aac", "opus", "subrip", … */
  codec: string;
  /** Index among the streams of its kind (what `track` options count). */
  track: number;
  language?: string;
  title?: string;
  width?: number;
  height?: number;
  /** Frames per second. */
  fps?: number;
  channels?: number;
  /** "mono", "stereo", "5.1", … */
  layout?: string;
  sampleRate?: number;
  /** Display rotation in degrees (phones record upright video as rotated landscape). */
  rotation?: number;
  duration?: number;
}
export interface MediaSummary {
  path: string;
  /** The container as ffprobe names it ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "wav"). */
  format: string;
  bytes: number;
  /** Seconds, millisecond precision; null when unknown. */
  duration: number | null;
  /** Bits per second; null when unknown. */
  bitrate: number | null;
  streams: StreamSummary[];
  /** The first video stream's size and rate. */
  width?: number;
  height?: number;
  fps?: number;
  /** The first audio stream's layout ("stereo"). */
  audio?: string;
}
/** What every writing call returns, read back from the file it wrote. */
export interface Written {
  path: string;
  bytes: number;
  duration?: number | null;
  width?: number;
  height?: number;
  /** Codec of the first video stream ("h264", "png"). */
  video?: string;
  /** Codec of the first audio stream ("aac"). */
  audio?: string;
}
export interface AudioOptions extends CallOptions {
  /** "mp3" | "aac" | "flac" | "opus" | "vorbis" | "pcm" | "copy" (default: what the output's extension implies). */
  codec?: "mp3" | "aac" | "flac" | "opus" | "vorbis" | "pcm" | "copy";
  /** Kilobits per second, 8–3000. Not with codec "copy". */
  bitrate?: number;
  /** 8000–384000. Not with codec "copy". */
  sampleRate?: number;
  /** 1–8. Not with codec "copy". */
  channels?: number;
}
/** Streams, codecs, duration, size, frame rate and audio layout of an audio or video file. */
export function describe(path: string): Promise<MediaSummary>;
/** One picture at `atSeconds` (default 1, or the middle of a shorter clip) as .png, .jpg or .webp. */
export function thumbnail(path: string, out: string, atSeconds?: number, options?: CallOptions): Promise<Written>;
/** PNG frames `dir/frame-00001.png`, … at `fps` per second (default 1), at most `limit` (default 200, ≤ 1000). */
export function frames(path: string, dir: string, options?: { fps?: number; limit?: number } & CallOptions): Promise<string[]>;
/** The part from `start` to `end` seconds, frame-accurate (re-encoded). Video or audio output by extension. */
export function clip(path: string, out: string, options: { start?: number; end: number; crf?: number } & CallOptions): Promise<Written>;
/** Joins ≥ 2 inputs: by stream copy when codecs, sizes and containers match, else re-encoded to the first input's size and rate (`copied` says which). */
export function concat(inputs: string[], out: string, options?: { crf?: number } & CallOptions): Promise<Written & { copied: boolean }>;
/** Converts; the container follows the extension (.mp4/.mov/.mkv: H.264+AAC, .webm: VP9+Opus, .gif, or an audio extension). */
export function transcode(path: string, out: string, options?: { crf?: number; scale?: [number, number]; fps?: number } & CallOptions): Promise<Written>;
/** The sound alone (.mp3, .m4a, .aac, .wav, .flac, .ogg, .oga, .opus). */
export function extractAudio(path: string, out: string, options?: AudioOptions): Promise<Written>;
/** EBU R128 loudness of the first audio stream. A silent track is refused. */
export function loudness(path: string, options?: CallOptions): Promise<{ path: string; lufs: number; truePeak: number; range: number; threshold: number }>;
/** Two-pass loudness normalisation (default -14 LUFS, -1.5 dBTP, range 11); pictures are copied. */
export function normalize(path: string, out: string, options?: { lufs?: number; truePeak?: number; range?: number } & AudioOptions): Promise<Written & { measured: { lufs: number; truePeak: number; range: number; threshold: number } }>;
/** The sound drawn as a picture (.png or .jpg), `size` [w, h] (default [1000, 200]), `colour` "#rrggbb". */
export function waveform(path: string, out: string, options?: { size?: [number, number]; colour?: string } & CallOptions): Promise<Written>;
/** A subtitle track (default 0) to .srt, .vtt, .ass or .ssa. */
export function extractSubtitles(path: string, out: string, options?: { track?: number } & CallOptions): Promise<{ path: string; bytes: number; track: number }>;
/** Draws subtitles into the pictures: a track of the video, or a separate .srt/.vtt/.ass file (`subtitles`). Sound is copied. Set in the bundled DejaVu Sans (the same on every machine); `fonts` lists the faces libass used, and text that would need a font of this machine (CJK, emoji) is refused. */
export function burnSubtitles(path: string, out: string, options: { track?: number; subtitles?: string } & CallOptions): Promise<Written & { fonts: string[] }>;
/** A video of stills, each shown `frameMs` (default 1000), letterboxed to `size` (default: the first image's). */
export function slideshow(images: string[], out: string, options?: { frameMs?: number; size?: [number, number] } & CallOptions): Promise<Written>;
/** `count` pictures (default 9) spread over the video, tiled `columns` wide (default 3), each `width` px (default 320), in one image. */
export function contactSheet(path: string, out: string, options?: { count?: number; columns?: number; width?: number } & CallOptions): Promise<Written & { count: number; columns: number; rows: number }>;
/** Lays an audio track under a video from `offset` s, with `volume`, `fadeIn`/`fadeOut` s, and `duck` (the track gets quieter while the video's own sound plays). Pictures are copied; the result is as long as the video. */
export function mixAudio(video: string, audio: string, out: string, options?: { offset?: number; volume?: number; fadeIn?: number; fadeOut?: number; duck?: boolean } & CallOptions): Promise<Written & { ducked: boolean }>;
/** Speech from text through espeak-ng (refused with its install line when the host has none): `voice` ("en", "en-us", "de", "fr", …), `rate` words per minute (80–450, default 175), `pitch` 0–99. */
export function speak(text: string, out: string, options?: { voice?: string; rate?: number; pitch?: number } & CallOptions): Promise<Written>;
/** One row per tool env:media uses (ffmpeg, ffprobe, espeak-ng), as `folio doctor` prints it for this host. */
export interface Capability {
  name: string;
  ok: boolean;
  required: boolean;
  detail: string;
  fix: string;
}
/** What this host can do, checked when the environment started. */
export function capabilities(): Promise<Capability[]>;
