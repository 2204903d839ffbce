// The folder as the agent sees it, one directory level at a time, with pending-change badges.
import { useEffect, useState } from "preact/hooks";
import { api, bytes, message } from "./api";
import type { TreeEntry } from "./bindings";

type Props = { version: number; selected: string | null; onSelect: (path: string) => void; onError: (e: string) => void };

function Dir(props: Props & { path: string; depth: number }) {
  const [entries, setEntries] = useState<TreeEntry[] | null>(null);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  useEffect(() => {
    api.tree
      .list(props.path)
      .then((r) => setEntries(r.entries))
      .catch((e) => props.onError(message(e)));
  }, [props.path, props.version]);
  if (!entries) return null;
  return (
    <ul class="tree-level">
      {entries.map((e) => (
        <li key={e.path}>
          <div
            class={`row ${props.selected === e.path ? "selected" : ""} ${e.badge === "deleted" ? "gone" : ""}`}
            data-path={e.path}
            style={{ paddingLeft: `${8 + props.depth * 14}px` }}
            onClick={() => (e.isDir ? setOpen({ ...open, [e.path]: !open[e.path] }) : props.onSelect(e.path))}
          >
            <span class={`icon ${e.isDir ? (open[e.path] ? "dir open" : "dir") : "file"}`} aria-hidden="true" />
            <span class="name">{e.name}</span>
            {e.badge && (
              <span class={`badge ${e.badge}`} title={e.badge}>
                {e.badge === "added" ? "A" : e.badge === "modified" ? "M" : e.badge === "deleted" ? "D" : "!"}
              </span>
            )}
            {!e.isDir && <span class="size">{bytes(e.size)}</span>}
          </div>
          {e.isDir && open[e.path] && <Dir {...props} path={e.path} depth={props.depth + 1} />}
        </li>
      ))}
    </ul>
  );
}

export function Tree(props: Props) {
  return (
    <section class="panel tree" id="tree">
      <h2>Files</h2>
      <div class="scroll">
        <Dir {...props} path="/" depth={0} />
      </div>
    </section>
  );
}
