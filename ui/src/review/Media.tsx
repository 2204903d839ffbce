// The visual diffs of single-picture and stream files: an image (before, after, and the
// difference overlay blended over the new version with a slider), a video (both sides' duration,
// codec, fps and size, then each changed frame range with thumbnails of its first and last frame
// on both sides) and an archive (the entry-list diff).
import { useEffect, useState } from "preact/hooks";
import { ProblemText } from "../ProblemText";
import { bytes, problem, type Problem } from "../api";
import type { ArchiveEntryChange, ReviewArchiveResponse, ReviewImageResponse, ReviewVideoResponse, VideoSide } from "../bindings";
import { cost, diffImageUrl, reviewApi } from "./api";

/** Loads one visual diff; re-asks when the change's version moves. */
function useVisual<T>(load: (path: string) => Promise<T>, path: string, version: number): [T | null, Problem | null] {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  useEffect(() => {
    setValue(null);
    setError(null);
    load(path)
      .then(setValue)
      .catch((e) => setError(problem(e)));
  }, [path, version]);
  return [value, error];
}

function Failed({ error }: { error: Problem }) {
  return (
    <div class="visual-error error-text">
      <ProblemText problem={error} />
    </div>
  );
}

function Picture({ png, alt, missing, cls }: { png: string | null; alt: string; missing: string; cls?: string }) {
  return png ? <img class={cls} src={diffImageUrl(png)} alt={alt} /> : <div class="nothing muted">{missing}</div>;
}

export function ImageDiff({ path, version }: { path: string; version: number }) {
  const [d, error] = useVisual<ReviewImageResponse>(reviewApi.image, path, version);
  const [blend, setBlend] = useState(70);
  if (error) return <Failed error={error} />;
  if (!d) return <div class="muted visual-wait">Comparing pixels…</div>;
  const b = d.bbox;
  return (
    <div class="image-diff" data-image={path}>
      <div class="visual-summary">
        {d.width}×{d.height} px ·{" "}
        <span class={d.changedPixels > 0 ? "stat removed" : "muted"} id="image-changed">
          {d.changedPixels.toLocaleString()} pixels changed ({(d.changedFraction * 100).toFixed(2)}%)
        </span>
        {b && (
          <span class="muted" id="image-bbox">
            {" "}
            · in the box at {Math.round(b.x * d.width)},{Math.round(b.y * d.height)} size {Math.round(b.w * d.width)}×{Math.round(b.h * d.height)}
          </span>
        )}
        <span class="muted"> · compared in {cost(d.ms)}</span>
      </div>
      {d.note && <div class="diff-note">{d.note}</div>}
      <div class="before-after three">
        <figure>
          <figcaption>Folder now</figcaption>
          <Picture cls="before" png={d.oldPng} alt={`${path} in the folder`} missing="Not in the folder yet" />
        </figure>
        <figure>
          <figcaption>After commit</figcaption>
          <Picture cls="after" png={d.newPng} alt={`${path} after commit`} missing="Removed by the commit" />
        </figure>
        <figure>
          <figcaption>
            Difference
            <input
              type="range"
              min={0}
              max={100}
              value={blend}
              class="blend"
              aria-label="How strongly the difference shows over the new version"
              onInput={(e) => setBlend(Number((e.target as HTMLInputElement).value))}
            />
          </figcaption>
          <div class="overlay">
            <Picture png={d.newPng ?? d.oldPng} alt={`${path} under the difference`} missing="Nothing to compare" />
            {d.diffPng && <img class="diff-layer" src={diffImageUrl(d.diffPng)} style={{ opacity: blend / 100 }} alt={`the pixels of ${path} that changed`} />}
            {b && <span class="change-box" style={{ left: `${b.x * 100}%`, top: `${b.y * 100}%`, width: `${b.w * 100}%`, height: `${b.h * 100}%` }} />}
          </div>
        </figure>
      </div>
    </div>
  );
}

function seconds(s: number): string {
  return s >= 60 ? `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, "0")}` : `${s.toFixed(2)} s`;
}

function sideRow(label: string, side: VideoSide | null, other: VideoSide | null) {
  const cell = (k: string, v: string | null, o: string | null) => (
    <td key={k} class={o !== null && v !== null && v !== o ? "differs" : ""}>
      {v ?? "—"}
    </td>
  );
  const f = (s: VideoSide | null) =>
    s && {
      duration: s.durationS === null ? "unknown" : seconds(s.durationS),
      codec: s.codec,
      fps: s.fps === null ? "unknown" : `${Number(s.fps.toFixed(3))} fps`,
      size: `${s.width}×${s.height}`,
      frames: `${s.frames} frames`,
    };
  const mine = f(side);
  const theirs = f(other);
  return (
    <tr>
      <th>{label}</th>
      {(["duration", "codec", "fps", "size", "frames"] as const).map((k) => cell(k, mine ? mine[k] : null, theirs ? theirs[k] : null))}
    </tr>
  );
}

export function VideoDiff({ path, version }: { path: string; version: number }) {
  const [d, error] = useVisual<ReviewVideoResponse>(reviewApi.video, path, version);
  if (error) return <Failed error={error} />;
  if (!d) return <div class="muted visual-wait">Decoding both versions frame by frame…</div>;
  const thumb = (key: string | null, alt: string) => (key ? <img src={diffImageUrl(key)} alt={alt} /> : <div class="nothing muted">—</div>);
  return (
    <div class="video-diff" data-video={path}>
      <table class="video-sides">
        <thead>
          <tr>
            <th />
            <th>Duration</th>
            <th>Codec</th>
            <th>Rate</th>
            <th>Size</th>
            <th>Frames</th>
          </tr>
        </thead>
        <tbody>
          {sideRow("Folder now", d.old, d.new)}
          {sideRow("After commit", d.new, d.old)}
        </tbody>
      </table>
      <div class="visual-summary">
        {d.ranges.length === 0
          ? "No frame differs."
          : `${d.ranges.length} changed range${d.ranges.length === 1 ? "" : "s"}`}
        <span class="muted"> · compared in {cost(d.ms)}</span>
      </div>
      {d.note && <div class="diff-note">{d.note}</div>}
      {d.ranges.map((r) => (
        <div class="frame-range" key={r.first} data-range={`${r.first}-${r.last}`}>
          <div class="range-head">
            {r.first === r.last ? `frame ${r.first} changed` : `frames ${r.first}–${r.last} changed`}
          </div>
          <div class="range-thumbs">
            <figure>
              <figcaption>Folder now · {r.first}</figcaption>
              {thumb(r.oldFirst, `frame ${r.first} in the folder`)}
            </figure>
            <figure>
              <figcaption>Folder now · {r.last}</figcaption>
              {thumb(r.oldLast, `frame ${r.last} in the folder`)}
            </figure>
            <figure>
              <figcaption>After commit · {r.first}</figcaption>
              {thumb(r.newFirst, `frame ${r.first} after commit`)}
            </figure>
            <figure>
              <figcaption>After commit · {r.last}</figcaption>
              {thumb(r.newLast, `frame ${r.last} after commit`)}
            </figure>
          </div>
        </div>
      ))}
    </div>
  );
}

function entryRows(kind: "added" | "removed" | "changed", entries: ArchiveEntryChange[]) {
  const sign = { added: "+", removed: "−", changed: "~" }[kind];
  return entries.map((e) => (
    <tr key={`${kind}${e.path}`} class={`entry ${kind}`} data-entry={e.path}>
      <td class="sign">{sign}</td>
      <td class="entry-path">{e.path}</td>
      <td class="size">{e.oldSize !== null ? bytes(e.oldSize) : ""}</td>
      <td class="size">{e.newSize !== null ? bytes(e.newSize) : ""}</td>
      <td class="hash muted">
        {kind === "changed" ? `${e.oldHash ?? "?"} → ${e.newHash ?? "?"}` : e.newHash ?? e.oldHash ?? ""}
      </td>
    </tr>
  ));
}

export function ArchiveDiff({ path, version }: { path: string; version: number }) {
  const [d, error] = useVisual<ReviewArchiveResponse>(reviewApi.archive, path, version);
  if (error) return <Failed error={error} />;
  if (!d) return <div class="muted visual-wait">Listing both archives…</div>;
  return (
    <div class="archive-diff" data-archive={path}>
      <div class="visual-summary">
        <span class="stat added">{d.added.length} added</span> · <span class="stat removed">{d.removed.length} removed</span> ·{" "}
        <span class="stat changed">{d.changed.length} changed</span> · <span class="muted">{d.sameCount} unchanged · listed in {cost(d.ms)}</span>
      </div>
      {d.note && <div class="diff-note">{d.note}</div>}
      <table class="diff archive-entries">
        <colgroup>
          <col class="no" />
          <col />
          <col class="size" />
          <col class="size" />
          <col class="hash" />
        </colgroup>
        <thead>
          <tr>
            <th />
            <th>Entry</th>
            <th>Folder now</th>
            <th>After commit</th>
            <th>Checksum</th>
          </tr>
        </thead>
        <tbody>
          {entryRows("added", d.added)}
          {entryRows("removed", d.removed)}
          {entryRows("changed", d.changed)}
        </tbody>
      </table>
    </div>
  );
}
