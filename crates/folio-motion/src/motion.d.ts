// env:motion — render a scene (a .jsx/.tsx file) to video or a still image.
// The scene API — what a scene file imports (`folio/motion`: useFrame, useVideoConfig,
// interpolate, spring, Easing, Sequence; React; react-native + Reanimated) and how it is timed —
// is in /std/motion/README.md. Read it before writing a scene.

/** Options of render() and still(). */
export interface RenderArgs {
  /** Frames per second (default 30). */
  fps?: number;
  /** Frames in the scene; wins over durationSeconds. */
  durationInFrames?: number;
  /** Seconds of video (default 3, so 90 frames at 30 fps). */
  durationSeconds?: number;
  /** Viewport width in CSS pixels (default 1280). */
  width?: number;
  /** Viewport height in CSS pixels (default 720). Odd sizes are padded to even for .mp4. */
  height?: number;
  /** The page's background, a CSS colour (default '#ffffff'). */
  background?: string;
  /** 'auto' (default: the frame number and the clock both move), 'clock' or 'frame'. */
  mode?: "auto" | "clock" | "frame";
  /** Encoder quality: lower is better and larger (default 18). */
  crf?: number;
  /** A tree directory that also receives every frame as frame-00000.png … (video outputs). */
  keepFrames?: string;
  /** Split a long render across this many browser tabs (default: 2 for 48+ frames on a multi-core host). */
  tabs?: number;
}
/** What render() and still() return. Treat a non-empty `warnings` as a failure to fix. */
export interface RenderResult {
  /** The output's tree path. */
  path: string;
  width: number;
  height: number;
  /** Frames rendered (1 for a still or .png). */
  frames: number;
  fps?: number;
  /** Video length, 3 decimals. */
  durationSeconds?: number;
  /** Size of the video file. */
  bytes?: number;
  /** A frames directory: every file written. */
  files?: string[];
  /** Missing images or fonts, page errors, "every frame is identical" — each names its fix. */
  warnings: string[];
}
/**
 * Renders the scene (a tree file that default-exports a React component) to `out`; the extension
 * picks the format: .mp4 (H.264), .webm (VP9), .gif, .png (the last frame), or no extension for a
 * directory of frame-00000.png files.
 */
export function render(scene: string, out: string, args?: RenderArgs): Promise<RenderResult>;
/** Renders one frame (default 0, frames count from 0) to a .png — the cheap check before a render. */
export function still(scene: string, out: string, args?: RenderArgs & { frame?: number }): Promise<RenderResult>;
/** What this host can render, checked when the environment started. */
export function capabilities(): Promise<{
  browser: string | null;
  canRender: boolean;
  video: boolean;
  reanimated: boolean;
  remotion: boolean;
  maxFrames: number;
  maxBrowsers: number;
  formats: string[];
  rows: { name: string; ok: boolean; required: boolean; detail: string; fix: string }[];
}>;
