// The review-and-commit bar: the pending count is always visible; the review panel lists each
// change with its kind and size and its diff, resolves conflicts (keep mine, take theirs,
// overwrite), and commits or discards the ticked changes with progress and a summary.
// Ctrl/Cmd+Shift+R toggles the panel; Ctrl/Cmd+Shift+Enter commits the ticked changes (or opens
// the panel first, so nothing is committed unseen).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, bytes, problem, type Problem } from "./api";
import type { PendingChange, StatusGetResponse } from "./bindings";
import { Diff } from "./review/Diff";
import "./review/review.css";

type Props = { status: StatusGetResponse | null; pending: number; onChanged: () => Promise<unknown>; onError: (e: Problem) => void };
type Summary = { text: string; skipped: { path: string; reason: string }[] };

function size(c: PendingChange) {
  if (c.isDir) return "folder";
  if (c.kind === "deleted") return bytes(c.baseSize);
  if (c.baseSize !== null && c.size !== null && c.kind === "modified") return `${bytes(c.baseSize)} → ${bytes(c.size)}`;
  return bytes(c.size);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const mod = (e: KeyboardEvent) => (e.ctrlKey || e.metaKey) && e.shiftKey;

export function ReviewBar({ status, pending, onChanged, onError }: Props) {
  const [open, setOpen] = useState(false);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [kept, setKept] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState<string | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const changes = status?.changes ?? [];

  useEffect(() => {
    // Keep only ticks that still point at a pending change; tick new changes by default, except
    // conflicts, which are resolved one by one.
    setTicked((prev) => {
      const next = new Set<string>();
      for (const c of changes) if (prev.has(c.path) || (!seen.has(c.path) && !c.conflict)) next.add(c.path);
      for (const c of changes) seen.add(c.path);
      return next;
    });
    setVersion((v) => v + 1);
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
  const flip = (set: Set<string>, path: string) => {
    const next = new Set(set);
    next.has(path) ? next.delete(path) : next.add(path);
    return next;
  };
  const tickedChanges = changes.filter((c) => ticked.has(c.path));
  // A folder path commits everything inside it, so a folder is sent only when nothing inside it
  // is unticked; committing a file creates its folders anyway.
  const selection = tickedChanges
    .filter((c) => !c.isDir || changes.every((d) => !below(d.path, c.path) || ticked.has(d.path)))
    .map((c) => c.path);

  const run = async (label: string, job: () => Promise<Summary>) => {
    setBusy(label);
    try {
      setSummary(await job());
      await onChanged();
    } catch (e) {
      onError(problem(e));
    }
    setBusy(null);
    setConfirming(null);
  };

  // Conflicting changes are never overwritten by Commit: they come back as skipped, with the
  // reason, until the person picks Overwrite for that one change.
  const commit = () =>
    run(`Committing ${plural(selection.length, "change")}…`, async () => {
      const r = await api.commit.apply({ paths: selection, overwrite: [] });
      const done = r.written.length + r.removed.length;
      return {
        text:
          `Committed ${plural(done, "change")} to the folder` +
          (r.skipped.length ? `; ${r.skipped.length} skipped` : "") +
          `. ${r.pendingLeft} still pending.`,
        skipped: r.skipped,
      };
    });
  const discard = () =>
    run(`Discarding ${plural(selection.length, "change")}…`, async () => {
      const r = await api.discard.apply({ paths: selection });
      return { text: `Discarded ${plural(r.discarded.length, "change")}; the folder was not touched.`, skipped: [] };
    });
  const takeTheirs = (c: PendingChange) =>
    run(`Taking the folder's version of ${c.path}…`, async () => {
      await api.discard.apply({ paths: [c.path] });
      return { text: `Took the folder's version of ${c.path}; Folio's change was dropped.`, skipped: [] };
    });
  const overwrite = (c: PendingChange) =>
    run(`Overwriting ${c.path}…`, async () => {
      const r = await api.commit.apply({ paths: [c.path], overwrite: [c.path] });
      const done = r.written.length + r.removed.length;
      return {
        text: `Overwrote the folder's version of ${c.path} (${plural(done, "change")} committed). ${r.pendingLeft} still pending.`,
        skipped: r.skipped,
      };
    });
  const keepMine = (c: PendingChange) => {
    setKept(new Set(kept).add(c.path));
    const next = new Set(ticked);
    next.delete(c.path);
    setTicked(next);
    setSummary({ text: `Kept Folio's change to ${c.path} pending; the folder keeps its own version for now.`, skipped: [] });
  };

  // Opening the panel re-reads the pending changes, so edits made outside Folio show as conflicts.
  const show = (next: boolean) => {
    setOpen(next);
    if (next) onChanged();
  };

  // Keyboard: toggle the panel; commit (opening the panel first when it is closed).
  const latest = useRef({ open, commit, show, ready: false });
  latest.current = { open, commit, show, ready: !busy && selection.length > 0 };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (mod(e) && e.key.toLowerCase() === "r") {
        e.preventDefault();
        latest.current.show(!latest.current.open);
      } else if (mod(e) && e.key === "Enter") {
        e.preventDefault();
        if (!latest.current.open) latest.current.show(true);
        else if (latest.current.ready) latest.current.commit();
      }
    };
    // The provenance line's Regenerate asks for the panel, to show its pending result.
    const onAsk = () => latest.current.show(true);
    window.addEventListener("keydown", onKey);
    window.addEventListener("folio:review-open", onAsk);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("folio:review-open", onAsk);
    };
  }, []);

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
          {changes.length === 0 && status?.readOnly && (
            <p class="muted center" id="read-only-review">
              This folder is open read-only, so nothing can become pending: every change the agent or a script attempts is refused (it can still work in /tmp). Open the folder again without “Open read-only” to make changes you can commit.
            </p>
          )}
          {changes.length === 0 && !status?.readOnly && <p class="muted center">Nothing is pending. The folder matches what the agent sees.</p>}
          <ul class="changes">
            {changes.map((c) => (
              <li class={`change ${c.conflict ? "conflict" : ""}`} data-path={c.path} key={c.path}>
                <div class="change-row">
                  <label>
                    <input type="checkbox" checked={ticked.has(c.path)} onChange={() => toggle(c)} />
                    <span class={`kind ${c.kind}`}>{c.kind}</span>
                    <span class="path">
                      {c.path}
                      {c.from && <span class="muted"> (from {c.from})</span>}
                    </span>
                    <span class="size">{size(c)}</span>
                  </label>
                  {!c.isDir && (
                    <button class="link small diff-toggle" onClick={() => setExpanded(flip(expanded, c.path))}>
                      {expanded.has(c.path) ? "Hide diff" : "Diff"}
                    </button>
                  )}
                </div>
                {c.conflict && (
                  <div class="conflict-box">
                    <div class="conflict-text">
                      Conflict: {c.conflict}.{" "}
                      {kept.has(c.path) ? "Kept pending — choose again when you are ready." : "Choose which version wins:"}
                    </div>
                    <div class="choices">
                      <button class="secondary small keep-mine" disabled={!!busy} onClick={() => keepMine(c)} title="Leave Folio's change pending; nothing is written">
                        Keep mine (pending)
                      </button>
                      <button class="secondary small take-theirs" disabled={!!busy} onClick={() => takeTheirs(c)} title="Drop Folio's change; the folder's version stays">
                        Take theirs
                      </button>
                      <button
                        class="danger small overwrite"
                        disabled={!!busy}
                        onClick={() => (confirming === c.path ? overwrite(c) : setConfirming(c.path))}
                        title="Write Folio's version over the folder's"
                      >
                        {confirming === c.path ? "Confirm overwrite" : "Overwrite…"}
                      </button>
                    </div>
                  </div>
                )}
                {expanded.has(c.path) && <Diff path={c.path} version={version} />}
              </li>
            ))}
          </ul>
          {summary && summary.skipped.length > 0 && (
            <ul class="skipped" id="skipped">
              {summary.skipped.map((s) => (
                <li key={s.path}>
                  Skipped <b>{s.path}</b>: {s.reason} — resolve it above.
                </li>
              ))}
            </ul>
          )}
          <footer>
            {busy && (
              <span class="progress" id="review-progress">
                <span class="spinner" aria-hidden="true" />
                {busy}
              </span>
            )}
            <div class="spacer" />
            <button id="discard-btn" class="danger" disabled={!!busy || selection.length === 0} onClick={discard}>
              Discard {tickedChanges.length || ""}
            </button>
            <button id="commit-btn" disabled={!!busy || selection.length === 0} onClick={commit} title="Ctrl/Cmd+Shift+Enter">
              Commit {tickedChanges.length || ""} to folder
            </button>
          </footer>
        </aside>
      )}
      <footer class="bar">
        <span class={`dot ${pending ? "on" : ""}`} />
        <span id="pending-count">{pending === 0 ? "No pending changes" : `${pending} pending change${pending === 1 ? "" : "s"}`}</span>
        {status?.readOnly && (
          <span class="badge read-only" id="read-only-note" title="Open the folder again without “Open read-only” to make changes">
            read-only: nothing can become pending
          </span>
        )}
        {status && status.conflicts > 0 && <span class="badge conflict">{status.conflicts} in conflict</span>}
        {summary && (
          <span class="summary" id="summary">
            {summary.text}
          </span>
        )}
        <div class="spacer" />
        <button id="review-toggle" class={pending ? "" : "secondary"} onClick={() => show(!open)} title="Ctrl/Cmd+Shift+R">
          {open ? "Close review" : "Review & commit"}
        </button>
      </footer>
    </>
  );
}

// Paths the panel has already shown, so a change the person unticked stays unticked.
const seen = new Set<string>();
