// The window: a header with the folder (and Settings and Doctor), the tree above the script
// catalogue on the left, the conversation in the center, the preview on the right, and the
// review-and-commit bar that is always visible at the bottom.
import { useCallback, useEffect, useState } from "preact/hooks";
import { open as openDialog } from "@tauri-apps/plugin-dialog";
import { ProblemText } from "./ProblemText";
import { api, problem, type Problem } from "./api";
import type { FolderOpenResponse, PrivacyGetResponse, StatusGetResponse } from "./bindings";
import { Tree } from "./Tree";
import { Preview } from "./Preview";
import { Scripts } from "./Scripts";
import { ReviewBar } from "./ReviewBar";
import { DropZone, Recent, useSecondLaunch } from "./review/Shell";
import { Transcript } from "./agent/Transcript";
import { Settings } from "./agent/Settings";
import { Doctor } from "./agent/Doctor";
import { agentApi } from "./agent/api";
import { modeWords } from "./agent/Privacy";
import { UpdateNotice } from "./Update";

/** `first`: the status asked for before the first render (main.tsx), so the app's first
 * command does not wait for the page to render and run its effects. */
export function App({ first }: { first?: Promise<StatusGetResponse> }) {
  const [folder, setFolder] = useState<FolderOpenResponse | null>(null);
  const [status, setStatus] = useState<StatusGetResponse | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [version, setVersion] = useState(0);
  const [dialog, setDialog] = useState<"settings" | "doctor" | null>(null);
  // The open-folder flow's choice: open the picked folder read-only (nothing can become pending).
  const [openReadOnly, setOpenReadOnly] = useState(false);
  // The network mode in force (the header's "Local only" badge), re-read when the folder or
  // Settings → Privacy changes.
  const [privacy, setPrivacy] = useState<PrivacyGetResponse | null>(null);
  const refreshPrivacy = useCallback(() => {
    agentApi.privacy.get().then(setPrivacy).catch((e) => setError(problem(e)));
  }, []);
  useEffect(refreshPrivacy, [refreshPrivacy, folder?.folder]);

  const load = useCallback(async (asked: Promise<StatusGetResponse>) => {
    try {
      const next = await asked;
      setStatus(next);
      if (next.notice) setError(next.notice);
      setVersion((v) => v + 1);
      return next;
    } catch (e) {
      setError(problem(e));
      return null;
    }
  }, []);
  const refresh = useCallback(() => load(api.status.get()), [load]);

  useEffect(() => {
    load(first ?? api.status.get()).then((s) => {
      // The folder named on the command line: what opening it answered (warnings, a recovery).
      if (s?.opened) setFolder(s.opened);
      else if (s?.folder) {
        const name = s.folder.split(/[\\/]/).filter(Boolean).pop() ?? s.folder;
        setFolder({ folder: s.folder, name, warnings: [], recovery: null, readOnly: s.readOnly });
      }
    });
    // (`first` is read once, at the first render.)
  }, [load]);

  // A folder opened from the Recent list or by a second launch (single instance).
  const adopt = (opened: FolderOpenResponse) => {
    setFolder(opened);
    setSelected(null);
    setError(null);
    refresh();
  };
  // The status (refreshed by adopt) says whether a second launch's folder opened read-only.
  useSecondLaunch((f) => adopt({ folder: f, name: f.split(/[\\/]/).filter(Boolean).pop() ?? f, warnings: [], recovery: null, readOnly: false }), setError);

  const openFolder = async () => {
    try {
      const picked = await openDialog({ directory: true, multiple: false, title: "Open a folder" });
      if (typeof picked !== "string") return;
      const opened = await api.folder.open(picked, openReadOnly);
      setFolder(opened);
      setSelected(null);
      setError(null);
      await refresh();
    } catch (e) {
      setError(problem(e));
    }
  };

  const pending = status?.changes.length ?? 0;
  const readOnly = status?.readOnly ?? folder?.readOnly ?? false;
  const readOnlyChoice = (
    <label class="read-only-choice" title="The agent reads everything and changes nothing in the folder; its scratch space /tmp still works">
      <input type="checkbox" id="open-read-only" checked={openReadOnly} onChange={(e) => setOpenReadOnly((e.target as HTMLInputElement).checked)} />
      Open read-only
    </label>
  );
  return (
    <div class="app">
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true" />
          Folio
        </div>
        {folder && (
          <div class="folder" id="folder-name" title={folder.folder}>
            {folder.name}
            {readOnly && (
              <span class="badge read-only" id="read-only-badge" title="Opened read-only: every change to this folder is refused and nothing can become pending. Open it again without “Open read-only” to make changes.">
                read-only
              </span>
            )}
            <span class="folder-path">{folder.folder}</span>
          </div>
        )}
        <div class="spacer" />
        {privacy?.effective === "localOnly" && (
          <span class="badge local-only" id="local-only-badge" data-source={privacy.source ?? ""} title={modeWords(privacy)}>
            Local only · {privacy.source === "folder" ? "this folder" : "all folders"}
          </span>
        )}
        <UpdateNotice />
        <button id="open-doctor" class="secondary" onClick={() => setDialog("doctor")}>
          Doctor
        </button>
        <button id="open-settings" class="secondary" onClick={() => setDialog("settings")}>
          Settings
        </button>
        {folder && readOnlyChoice}
        {folder && (
          <button id="open-folder" class="secondary" onClick={openFolder}>
            Open Folder…
          </button>
        )}
      </header>
      {error && (
        <div class="banner error" role="alert">
          <span><ProblemText problem={error} /></span>
          <button class="link" onClick={() => setError(null)}>
            Dismiss
          </button>
        </div>
      )}
      {folder?.warnings.map((w) => (
        <div class="banner warn" key={w}>
          {w}
        </div>
      ))}
      {!folder ? (
        <main class="empty">
          <div class="empty-card">
            <span class="logo big" aria-hidden="true" />
            <h1>Open a folder to start</h1>
            <p>
              Folio works on a copy of your folder. Nothing reaches your files until you review the changes and commit
              them.
            </p>
            <div class="open-row">
              <button id="open-folder-empty" onClick={openFolder}>
                Open Folder…
              </button>
              {readOnlyChoice}
            </div>
            <Recent onOpened={adopt} onError={setError} />
          </div>
        </main>
      ) : (
        <main class="panels">
          <div class="left-column">
            <Tree version={version} selected={selected} onSelect={setSelected} onError={setError} />
            <Scripts version={version} onDone={refresh} onError={setError} />
          </div>
          <Transcript
            key={folder.folder}
            version={version}
            onChanged={refresh}
            onError={setError}
            onSelect={setSelected}
            onOpenDoctor={() => setDialog("doctor")}
            onOpenSettings={() => setDialog("settings")}
          />
          <Preview path={selected} version={version} />
        </main>
      )}
      {dialog === "settings" && <Settings onClose={() => setDialog(null)} onPrivacyChanged={refreshPrivacy} />}
      {dialog === "doctor" && <Doctor onClose={() => setDialog(null)} />}
      {folder && <DropZone onChanged={refresh} onError={setError} />}
      {folder && <ReviewBar status={status} pending={pending} onChanged={refresh} onError={setError} />}
    </div>
  );
}
