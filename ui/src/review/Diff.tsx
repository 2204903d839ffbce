// The diff of one pending change: text as unified or side-by-side hunks (computed in Rust); a
// paged document, a workbook, an image, a video or an archive through its visual diff (Pages.tsx,
// Cells.tsx, Media.tsx; computed by folio-diff); other files by size. The header keeps a slot
// for what else the panel says about the file (its provenance line).
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ProblemText } from "../ProblemText";
import { bytes, problem, type Problem } from "../api";
import type { DiffHunk, DiffLine, ReviewDiffResponse } from "../bindings";
import { reviewApi } from "./api";
import { CellsDiff } from "./Cells";
import { ArchiveDiff, ImageDiff, VideoDiff } from "./Media";
import { PagesDiff } from "./Pages";
import { ProvenanceLine } from "../provenance/Provenance";

type Props = { path: string; version: number };

/** What the visual diffs are told: the change and its version (a rewrite re-asks). */
type VisualProps = { path: string; version: number };

const VISUAL: Partial<Record<ReviewDiffResponse["kind"], (p: VisualProps) => JSX.Element>> = {
  pages: PagesDiff,
  cells: CellsDiff,
  image: ImageDiff,
  video: VideoDiff,
  archive: ArchiveDiff,
};

function Unified({ hunks }: { hunks: DiffHunk[] }) {
  return (
    <table class="diff unified">
      <colgroup>
        <col class="no" />
        <col class="no" />
        <col />
      </colgroup>
      {hunks.map((h) => (
        <tbody key={h.header}>
          <tr class="hunk">
            <td colSpan={3}>{h.header}</td>
          </tr>
          {h.lines.map((l, i) => (
            <tr class={`line ${l.tag}`} key={i}>
              <td class="no">{l.oldLine ?? ""}</td>
              <td class="no">{l.newLine ?? ""}</td>
              <td class="text">
                <span class="sign">{l.tag === "added" ? "+" : l.tag === "removed" ? "−" : " "}</span>
                {l.text}
              </td>
            </tr>
          ))}
        </tbody>
      ))}
    </table>
  );
}

// Side by side: removed lines pair with the added lines that follow them.
function pairs(lines: DiffLine[]): [DiffLine | null, DiffLine | null][] {
  const out: [DiffLine | null, DiffLine | null][] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i].tag === "context") {
      out.push([lines[i], lines[i]]);
      i++;
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (i < lines.length && lines[i].tag === "removed") removed.push(lines[i++]);
    while (i < lines.length && lines[i].tag === "added") added.push(lines[i++]);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) out.push([removed[k] ?? null, added[k] ?? null]);
  }
  return out;
}

function Split({ hunks }: { hunks: DiffHunk[] }) {
  return (
    <table class="diff split">
      <colgroup>
        <col class="no" />
        <col />
        <col class="no" />
        <col />
      </colgroup>
      {hunks.map((h) => (
        <tbody key={h.header}>
          <tr class="hunk">
            <td colSpan={4}>{h.header}</td>
          </tr>
          {pairs(h.lines).map(([l, r], i) => (
            <tr class="line" key={i}>
              <td class="no">{l?.oldLine ?? ""}</td>
              <td class={`text ${l ? l.tag : "empty"}`}>{l?.text ?? ""}</td>
              <td class="no">{r?.newLine ?? ""}</td>
              <td class={`text ${r ? r.tag : "empty"}`}>{r?.text ?? ""}</td>
            </tr>
          ))}
        </tbody>
      ))}
    </table>
  );
}

export function Diff({ path, version }: Props) {
  const [diff, setDiff] = useState<ReviewDiffResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [split, setSplit] = useState(false);
  useEffect(() => {
    setError(null);
    reviewApi
      .diff(path)
      .then(setDiff)
      .catch((e) => setError(problem(e)));
  }, [path, version]);
  if (error) return <div class="diff-box error-text"><ProblemText problem={error} /></div>;
  if (!diff) return <div class="diff-box muted">Comparing…</div>;
  const Visual = VISUAL[diff.kind];
  // The provenance line ("made by /scripts/q3.js from …"), in the diff's header.
  const provenanceSlot = <ProvenanceLine path={path} version={version} inReview />;
  return (
    <div class="diff-box" data-diff={path} data-kind={diff.kind}>
      {provenanceSlot}
      <div class="diff-head">
        {diff.kind === "text" && (
          <>
            <span class="stat added">+{diff.added}</span>
            <span class="stat removed">−{diff.removed}</span>
            <div class="spacer" />
            <button class="link small" onClick={() => setSplit(!split)}>
              {split ? "Unified" : "Side by side"}
            </button>
          </>
        )}
        {diff.kind === "binary" && (
          <span class="muted">
            {diff.mediaType}: {bytes(diff.beforeSize) || "nothing"} → {bytes(diff.afterSize) || "removed"}
          </span>
        )}
        {diff.kind === "dir" && <span class="muted">A folder: its files are listed as their own changes.</span>}
        {Visual && (
          <span class="muted">
            {diff.mediaType}: {bytes(diff.beforeSize) || "new"} → {bytes(diff.afterSize) || "removed"}
          </span>
        )}
      </div>
      {diff.note && <div class="diff-note">{diff.note}</div>}
      {diff.kind === "text" && diff.hunks.length === 0 && <div class="muted">No line differs.</div>}
      {diff.kind === "text" && diff.hunks.length > 0 && (split ? <Split hunks={diff.hunks} /> : <Unified hunks={diff.hunks} />)}
      {Visual && <Visual path={path} version={version} />}
    </div>
  );
}
