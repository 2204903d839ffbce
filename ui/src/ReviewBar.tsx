// The review-and-commit bar: the pending count is always visible; the review panel lists each
// change with its kind and size, and commits or discards the ticked ones with a summary.
import { useEffect, useState } from "preact/hooks";
import { api, bytes, message } from "./api";
import type { PendingChange, StatusGetResponse } from "./bindings";

type Props = { status: StatusGetResponse | null; pending: number; onChanged: () => Promise<unknown>; onError: (e: string) => void };

function size(c: PendingChange) {
  if (c.isDir) return "folder";
  if (c.kind === "deleted") return bytes(c.baseSize);
  if (c.baseSize !== null && c.size !== null && c.kind === "modified") return `${bytes(c.baseSize)} → ${bytes(c.size)}`;
  return bytes(c.size);
}

export function ReviewBar({ status, pending, onChanged, onError }: Props) {
  const [open, setOpen] = useState(false);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [summary, setSummary] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changes = status?.changes ?? [];

  useEffect(() => {
    // Keep only ticks that still point at a pending change; tick new changes by default.
    setTicked((prev) => {
      const next = new Set<string>();
      for (const c of changes) if (prev.has(c.path) || !seen.has(c.path)) next.add(c.path);
      for (const c of changes) seen.add(c.path);
      return next;
    });
  }, [status]);

  const below = (path: string, dir: string) => path.startsWith(dir.endsWith("/") ? dir : dir + "/");
  // Ticking or unticking a folder does the same to every change inside it.
  const toggle = (change: PendingChange) => {
    const next = new Set(ticked);
    const on = !next.has(change.path);
    for (const c of changes)
      if (c.path === change.path || (change.isDir && below(c.path, change.path))) on ? next.add(c.path) : next.delete(c.path);
    setTicked(next);
  };
  const tickedChanges = changes.filter((c) => ticked.has(c.path));
  // A folder path commits everything inside it, so a folder is sent only when nothing inside it
  // is unticked; committing a file creates its folders anyway.
  const selection = tickedChanges
    .filter((c) => !c.isDir || changes.every((d) => !below(d.path, c.path) || ticked.has(d.path)))
    .map((c) => c.path);

  const commit = async () => {
    setBusy(true);
    try {
      const overwrite = changes.filter((c) => ticked.has(c.path) && c.conflict).map((c) => c.path);
      const r = await api.commit.apply({ paths: selection, overwrite });
      const done = r.written.length + r.removed.length;
      setSummary(
        `Committed ${done} change${done === 1 ? "" : "s"} to the folder` +
          (r.skipped.length ? `; ${r.skipped.length} skipped (conflict)` : "") +
          `. ${r.pendingLeft} still pending.`,
      );
      await onChanged();
    } catch (e) {
      onError(message(e));
    }
    setBusy(false);
  };
  const discard = async () => {
    setBusy(true);
    try {
      const r = await api.discard.apply({ paths: selection });
      setSummary(`Discarded ${r.discarded.length} change${r.discarded.length === 1 ? "" : "s"}; the folder was not touched.`);
      await onChanged();
    } catch (e) {
      onError(message(e));
    }
    setBusy(false);
  };

  return (
    <>
      {open && (
        <aside class="review" id="review-panel">
          <header>
            <h2>Review changes</h2>
            <label class="all">
              <input
                type="checkbox"
                id="select-all"
                checked={changes.length > 0 && tickedChanges.length === changes.length}
                onChange={(e) => setTicked(new Set((e.target as HTMLInputElement).checked ? changes.map((c) => c.path) : []))}
              />
              Select all
            </label>
          </header>
          {changes.length === 0 && <p class="muted center">Nothing is pending. The folder matches what the agent sees.</p>}
          <ul class="changes">
            {changes.map((c) => (
              <li class={`change ${c.conflict ? "conflict" : ""}`} data-path={c.path} key={c.path}>
                <label>
                  <input type="checkbox" checked={ticked.has(c.path)} onChange={() => toggle(c)} />
                  <span class={`kind ${c.kind}`}>{c.kind}</span>
                  <span class="path">
                    {c.path}
                    {c.from && <span class="muted"> (from {c.from})</span>}
                  </span>
                  <span class="size">{size(c)}</span>
                </label>
                {c.conflict && <div class="conflict-text">Conflict: {c.conflict}. Committing it overwrites the folder's version.</div>}
              </li>
            ))}
          </ul>
          <footer>
            <button id="discard-btn" class="danger" disabled={busy || selection.length === 0} onClick={discard}>
              Discard {tickedChanges.length || ""}
            </button>
            <button id="commit-btn" disabled={busy || selection.length === 0} onClick={commit}>
              Commit {tickedChanges.length || ""} to folder
            </button>
          </footer>
        </aside>
      )}
      <footer class="bar">
        <span class={`dot ${pending ? "on" : ""}`} />
        <span id="pending-count">{pending === 0 ? "No pending changes" : `${pending} pending change${pending === 1 ? "" : "s"}`}</span>
        {status && status.conflicts > 0 && <span class="badge conflict">{status.conflicts} in conflict</span>}
        {summary && (
          <span class="summary" id="summary">
            {summary}
          </span>
        )}
        <div class="spacer" />
        <button id="review-toggle" class={pending ? "" : "secondary"} onClick={() => setOpen(!open)}>
          {open ? "Close review" : "Review & commit"}
        </button>
      </footer>
    </>
  );
}

// Paths the panel has already shown, so a change the person unticked stays unticked.
const seen = new Set<string>();
