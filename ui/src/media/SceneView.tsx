// A motion scene, one frame at a time: each frame is a still rendered on demand by env:motion
// (`preview_scene`, the same renderer as a script's still()), with a scrubber (frame slider and
// frame number) and a play button that asks for the next frame as soon as one arrives. Scrubbing
// is debounced; only the newest request's answer is shown (the Rust side also cancels older
// ones, which answer "superseded"). The renderer's warnings are listed under the frame, and a
// failure is shown loudly with its own text and fix.
import { useEffect, useRef, useState } from "preact/hooks";
import type { PreviewInfoResponse, PreviewSceneResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { preview } from "./api";

/** How long the slider must rest before its frame is rendered. */
const DEBOUNCE_MS = 120;

function superseded(p: Problem): boolean {
  const text = typeof p === "string" ? p : p.message;
  return text.includes("was superseded by a newer request");
}

export function SceneView({ info, compact }: { info: PreviewInfoResponse; compact?: boolean }) {
  const [frame, setFrame] = useState(0);
  const [shown, setShown] = useState<PreviewSceneResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [playing, setPlaying] = useState(false);
  const latest = useRef(0);
  const timer = useRef<number | undefined>(undefined);
  const playingRef = useRef(false);
  const live = useRef(true);
  const frames = shown?.durationInFrames ?? 90;

  const render = (at: number) => {
    const mine = ++latest.current;
    setBusy(true);
    preview
      .scene({ path: info.path, frame: at, width: null, height: null, fps: null, durationInFrames: null })
      .then((r) => {
        if (!live.current || mine !== latest.current) return;
        setShown(r);
        setError(null);
        setBusy(false);
        if (playingRef.current) {
          if (r.frame + 1 < r.durationInFrames) {
            setFrame(r.frame + 1);
            render(r.frame + 1);
          } else {
            playingRef.current = false;
            setPlaying(false);
          }
        }
      })
      .catch((e) => {
        const p = problem(e);
        if (!live.current || mine !== latest.current || superseded(p)) return;
        setError(p);
        setBusy(false);
        playingRef.current = false;
        setPlaying(false);
      });
  };

  useEffect(() => {
    live.current = true;
    render(0);
    return () => {
      live.current = false;
      playingRef.current = false;
      window.clearTimeout(timer.current);
    };
  }, [info.path, info.hash]);

  const scrub = (at: number) => {
    setFrame(at);
    playingRef.current = false;
    setPlaying(false);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => render(at), DEBOUNCE_MS);
  };

  const toggle = () => {
    if (playingRef.current) {
      playingRef.current = false;
      setPlaying(false);
      return;
    }
    const start = frame + 1 >= frames ? 0 : frame;
    playingRef.current = true;
    setPlaying(true);
    setFrame(start);
    render(start);
  };

  return (
    <div class={`scene-view${compact ? " compact" : ""}`} data-path={info.path}>
      {error && (
        <div class="scene-error error-text" role="alert">
          <strong>The scene could not be rendered</strong>
          <ProblemText problem={error} />
        </div>
      )}
      {shown ? (
        <img
          class={`scene-frame${busy ? " busy" : ""}`}
          src={shown.png}
          width={shown.width}
          height={shown.height}
          data-frame={shown.frame}
          alt={`${info.path}, frame ${shown.frame}`}
        />
      ) : (
        !error && <p class="muted media-status">Rendering frame {frame}…</p>
      )}
      <div class="view-tools scene-tools">
        <button id="scene-play" type="button" onClick={toggle} disabled={!shown && !error}>
          {playing ? "Pause" : "Play"}
        </button>
        <input
          id="scene-scrubber"
          type="range"
          min={0}
          max={frames - 1}
          step={1}
          value={frame}
          onInput={(e) => scrub(Number((e.target as HTMLInputElement).value))}
        />
        <span id="scene-frame-label" class="muted">
          Frame {frame} of {frames}
          {shown && ` · ${shown.durationMs} ms`}
        </span>
      </div>
      {shown && shown.warnings.length > 0 && (
        <ul class="scene-warnings">
          {shown.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {!compact && shown && (
        <p class="muted media-caption">
          {shown.width}×{shown.height} at {shown.fps} fps — rendered by env:motion on demand, nothing written
        </p>
      )}
    </div>
  );
}
