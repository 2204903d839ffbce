// The app shell's review-area pieces: drop anywhere → /inbox (with a veil while dragging and the
// per-file results after), the recent-folders list for the empty state, and the listener for a
// folder a second launch asked this window to open.
import { useEffect, useState } from "preact/hooks";
import { listen } from "@tauri-apps/api/event";
import { getCurrentWebview } from "@tauri-apps/api/webview";
import { api, message, problem, type Problem } from "../api";
import type { FolderOpenResponse, FolderOpenedNotification, InboxDropResponse, RecentFolder } from "../bindings";
import { reviewApi } from "./api";
import "./review.css";

declare global {
  interface Window {
    /** What a drop does with the host paths it got: the drop handler's own code path, callable
     * by the end-to-end tests (WebDriver cannot perform an OS drag and drop). */
    __folioDrop?: (paths: string[]) => Promise<InboxDropResponse>;
  }
}

/** Drop files anywhere in the window: they are copied into /inbox, never overwriting. */
export function DropZone({ onChanged, onError }: { onChanged: () => unknown; onError: (e: Problem) => void }) {
  const [dragging, setDragging] = useState(false);
  const [result, setResult] = useState<InboxDropResponse | null>(null);
  useEffect(() => {
    const handle = async (paths: string[]) => {
      const r = await reviewApi.drop(paths);
      setResult(r);
      await onChanged();
      return r;
    };
    window.__folioDrop = handle;
    let stop: (() => void) | null = null;
    let gone = false;
    getCurrentWebview()
      .onDragDropEvent((event) => {
        const p = event.payload;
        if (p.type === "enter" || p.type === "over") setDragging(true);
        else if (p.type === "leave") setDragging(false);
        else if (p.type === "drop") {
          setDragging(false);
          if (p.paths.length) handle(p.paths).catch((e) => onError(problem(e)));
        }
      })
      .then((unlisten) => (gone ? unlisten() : (stop = unlisten)))
      .catch((e) => onError(`Dropping files will not work in this window: ${message(e)}`));
    return () => {
      gone = true;
      stop?.();
      delete window.__folioDrop;
    };
  }, []);
  return (
    <>
      {dragging && (
        <div class="drop-veil">
          <div>Drop to copy into /inbox — nothing is overwritten</div>
        </div>
      )}
      {result && (
        <section class="drop-results" id="drop-results">
          <header>
            Added {result.added} to /inbox{result.refused ? `, refused ${result.refused}` : ""}
            <div class="spacer" />
            <button class="link small" onClick={() => setResult(null)}>
              Close
            </button>
          </header>
          <ul>
            {result.results.map((r, i) => (
              <li key={i} class={r.addedAs ? "ok" : "no"} data-source={r.source}>
                {r.addedAs ? `${r.source.split(/[\\/]/).pop()} → ${r.addedAs}` : `${r.source}: refused — ${r.refused}`}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** Folders opened before, for the empty state. */
export function Recent({ onOpened, onError }: { onOpened: (r: FolderOpenResponse) => void; onError: (e: Problem) => void }) {
  const [folders, setFolders] = useState<RecentFolder[]>([]);
  useEffect(() => {
    reviewApi
      .recent()
      .then((r) => setFolders(r.folders))
      .catch((e) => onError(problem(e)));
  }, []);
  if (folders.length === 0) return null;
  // readOnly null: the choice remembered for the folder.
  const open = async (path: string, readOnly: boolean | null) => {
    try {
      onOpened(await api.folder.open(path, readOnly));
    } catch (e) {
      onError(problem(e));
    }
  };
  return (
    <div class="recent" id="recent">
      <h3>Recent</h3>
      <ul>
        {folders.map((f) => (
          <li key={f.path}>
            <button class="secondary" data-recent={f.path} disabled={!f.exists} title={f.exists ? f.path : `${f.path} is gone`} onClick={() => open(f.path, null)}>
              <span>
                {f.name}
                {f.readOnly && <span class="badge read-only">read-only</span>}
              </span>
              <span class="recent-path">{f.exists ? f.path : `${f.path} (missing)`}</span>
            </button>
            {f.exists && (
              <button class="link small recent-mode" data-recent-mode={f.path} onClick={() => open(f.path, !f.readOnly)}>
                {f.readOnly ? "Open writable" : "Open read-only"}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Calls `onOpened` when a second launch opened a folder in this window (single instance). */
export function useSecondLaunch(onOpened: (folder: string) => void, onError: (e: Problem) => void) {
  useEffect(() => {
    const stop = listen<FolderOpenedNotification>("folder-opened", (e) => {
      if (e.payload.folder) onOpened(e.payload.folder);
      else if (e.payload.error) onError(e.payload.error);
    });
    return () => {
      stop.then((f) => f());
    };
  }, []);
}
