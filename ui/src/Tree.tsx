// The folder as the agent sees it, one directory level at a time, with pending-change badges; the
// environment's zones (/tmp, /std, /skills: never part of a commit) listed apart, after the
// person's folders, in a muted "Environment" group; a
// filter box that searches every path; /out and /scripts pinned at the top; and, on the selected
// row, open with the default application or reveal in the file manager (a file that exists only
// in Folio is opened as a temporary copy, and the notice says so).
import { useEffect, useState } from "preact/hooks";
import { api, bytes, message } from "./api";
import type { TreeEntry } from "./bindings";
import { reviewApi } from "./review/api";
import "./review/review.css";

type Props = {
  version: number;
  selected: string | null;
  onSelect: (path: string) => void;
  onError: (e: string) => void;
};
type Inner = Props & { onNotice: (text: string) => void };
type RowProps = Inner & { entry: TreeEntry; depth: number; open: boolean; onToggle: () => void; showPath?: boolean };

const PINNED = ["/out", "/scripts"];

function Badge({ badge }: { badge: TreeEntry["badge"] }) {
  if (!badge) return null;
  const letter = badge === "added" ? "A" : badge === "modified" ? "M" : badge === "deleted" ? "D" : "!";
  return (
    <span class={`badge ${badge}`} title={badge}>
      {letter}
    </span>
  );
}

function Row({ entry: e, depth, open, onToggle, showPath, ...props }: RowProps) {
  const hand = (reveal: boolean) => async (ev: Event) => {
    ev.stopPropagation();
    try {
      const r = await reviewApi.open(e.path, reveal);
      props.onNotice(r.message);
    } catch (err) {
      props.onError(message(err));
    }
  };
  return (
    <div
      class={`row ${props.selected === e.path ? "selected" : ""} ${e.badge === "deleted" ? "gone" : ""} ${e.zone ? "zone" : ""}`}
      data-path={e.path}
      title={e.zone ? `${e.path} ${e.zone.holds}${e.zone.writable ? "" : " (read-only)"} — kept by the environment, never committed` : undefined}
      style={{ paddingLeft: `${8 + depth * 14}px` }}
      onClick={() => (e.isDir ? onToggle() : props.onSelect(e.path))}
    >
      <span class={`icon ${e.isDir ? (open ? "dir open" : "dir") : "file"}`} aria-hidden="true" />
      <span class="name" title={e.path}>
        {showPath ? e.path : e.name}
      </span>
      <Badge badge={e.badge} />
      <span class="actions">
        {!e.isDir && (
          <button class="link open-file" title="Open with the default application" onClick={hand(false)}>
            Open
          </button>
        )}
        <button class="link reveal-file" title="Reveal in the file manager" onClick={hand(true)}>
          Reveal
        </button>
      </span>
      {!e.isDir && <span class="size">{bytes(e.size)}</span>}
    </div>
  );
}

function Dir(props: Inner & { path: string; depth: number }) {
  const [entries, setEntries] = useState<TreeEntry[] | null>(null);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  useEffect(() => {
    api.tree
      .list(props.path)
      .then((r) => setEntries(r.entries))
      .catch((e) => props.onError(message(e)));
  }, [props.path, props.version]);
  if (!entries) return null;
  const item = (e: TreeEntry) => (
    <li key={e.path}>
      <Row {...props} entry={e} depth={props.depth} open={!!open[e.path]} onToggle={() => setOpen({ ...open, [e.path]: !open[e.path] })} />
      {e.isDir && open[e.path] && <Dir {...props} path={e.path} depth={props.depth + 1} />}
    </li>
  );
  const zones = entries.filter((e) => e.zone);
  return (
    <>
      <ul class="tree-level">{entries.filter((e) => !e.zone).map(item)}</ul>
      {zones.length > 0 && (
        <div class="tree-zones" id="tree-zones">
          <h3 class="zone-heading" title="Kept by the environment in Folio's state directory, never part of a commit">
            Environment
          </h3>
          <ul class="tree-level">{zones.map(item)}</ul>
        </div>
      )}
    </>
  );
}

function Found(props: Inner & { query: string }) {
  const [found, setFound] = useState<{ entries: TreeEntry[]; truncated: boolean } | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      reviewApi
        .find(props.query)
        .then(setFound)
        .catch((e) => props.onError(message(e)));
    }, 150);
    return () => clearTimeout(timer);
  }, [props.query, props.version]);
  if (!found) return <p class="muted tree-note">Searching…</p>;
  if (found.entries.length === 0) return <p class="muted tree-note" id="tree-no-match">Nothing matches “{props.query}”.</p>;
  return (
    <ul class="tree-level" id="tree-found">
      {found.entries.map((e) => (
        <li key={e.path}>
          <Row {...props} entry={e} depth={0} open={false} onToggle={() => props.onSelect(e.path)} showPath />
        </li>
      ))}
      {found.truncated && <li class="muted tree-note">More match: type more of the name.</li>}
    </ul>
  );
}

export function Tree(outer: Props) {
  const [notice, setNotice] = useState<string | null>(null);
  const props: Inner = { ...outer, onNotice: setNotice };
  const [query, setQuery] = useState("");
  const [pinned, setPinned] = useState<string | null>(null);
  const [pins, setPins] = useState<string[]>([]);
  useEffect(() => {
    api.tree
      .list("/")
      .then((r) => setPins(PINNED.filter((p) => r.entries.some((e) => e.path === p && e.isDir))))
      .catch(() => setPins([]));
  }, [props.version]);
  return (
    <section class="panel tree" id="tree">
      <h2>Files</h2>
      <div class="tree-tools">
        <input
          id="tree-filter"
          type="search"
          placeholder="Filter files…"
          value={query}
          onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          onKeyDown={(e) => e.key === "Escape" && setQuery("")}
        />
      </div>
      {!query && pins.length > 0 && (
        <div class="pins">
          {pins.map((p) => (
            <button key={p} class={`secondary small pin ${pinned === p ? "on" : ""}`} data-pin={p} onClick={() => setPinned(pinned === p ? null : p)}>
              {p}
            </button>
          ))}
        </div>
      )}
      <div class="scroll">
        {query.trim() ? (
          <Found {...props} query={query} />
        ) : pinned ? (
          <Dir {...props} path={pinned} depth={0} />
        ) : (
          <Dir {...props} path="/" depth={0} />
        )}
      </div>
      {notice && (
        <p class="muted tree-note" id="tree-notice">
          {notice}{" "}
          <button class="link small" onClick={() => setNotice(null)}>
            OK
          </button>
        </p>
      )}
    </section>
  );
}
