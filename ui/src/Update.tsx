// Signed updates: the header's quiet "Updates" button, which turns into "Update available" when
// the check at start found one, and the Updates panel behind it — the "check at start" setting,
// Check now, and Download and install (with progress), then a restart prompt. Nothing is
// downloaded until the person presses the button; the app verifies the signature before it
// installs anything. A check that fails at start says nothing until the panel is opened.
import { useEffect, useState } from "preact/hooks";
import { Channel, invoke } from "@tauri-apps/api/core";
import type {
  UpdateCheckResponse,
  UpdateGetResponse,
  UpdateInstallResponse,
  UpdateProgressNotification,
  UpdateSettings,
  UpdateTrigger,
} from "./bindings";
import { ProblemText } from "./ProblemText";
import { bytes, problem, type Problem } from "./api";
import "./update.css";

const updateApi = {
  get: () => invoke<UpdateGetResponse>("update_get"),
  save: (settings: UpdateSettings) => invoke<UpdateGetResponse>("update_save", { params: { settings } }),
  check: (trigger: UpdateTrigger) => invoke<UpdateCheckResponse>("update_check", { params: { trigger } }),
  install: (onProgress: (n: UpdateProgressNotification) => void) => {
    const channel = new Channel<UpdateProgressNotification>();
    channel.onmessage = onProgress;
    return invoke<UpdateInstallResponse>("update_install", { onProgress: channel });
  },
  restart: () => invoke<void>("update_restart"),
};

/** The header button; checks once when the window opens (the backend skips it when the setting is off). */
export function UpdateNotice() {
  const [found, setFound] = useState<UpdateCheckResponse | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    // A failure here stays quiet: the panel shows it when opened.
    updateApi.check("start").then(setFound, () => {});
  }, []);

  const available = found?.outcome === "available";
  return (
    <>
      <button
        id="open-updates"
        class={available ? "update-available" : "secondary"}
        title={available ? found.message : "Updates: check for a new version of Folio"}
        onClick={() => setOpen(true)}
      >
        {available ? `Update ${found.version}` : "Updates"}
      </button>
      {open && <UpdatePanel found={found} onFound={setFound} onClose={() => setOpen(false)} />}
    </>
  );
}

function UpdatePanel(props: {
  found: UpdateCheckResponse | null;
  onFound: (r: UpdateCheckResponse) => void;
  onClose: () => void;
}) {
  const [view, setView] = useState<UpdateGetResponse | null>(null);
  const [busy, setBusy] = useState<"check" | "install" | null>(null);
  const [progress, setProgress] = useState<UpdateProgressNotification | null>(null);
  const [installed, setInstalled] = useState<UpdateInstallResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const found = props.found;

  useEffect(() => {
    updateApi.get().then(setView, (e) => setError(problem(e)));
  }, []);

  const toggle = async (checkAtStart: boolean) => {
    try {
      setView(await updateApi.save({ checkAtStart }));
    } catch (e) {
      setError(problem(e));
    }
  };
  const checkNow = async () => {
    setBusy("check");
    setError(null);
    try {
      props.onFound(await updateApi.check("manual"));
    } catch (e) {
      setError(problem(e));
    } finally {
      setBusy(null);
    }
  };
  const install = async () => {
    setBusy("install");
    setError(null);
    try {
      setInstalled(await updateApi.install(setProgress));
    } catch (e) {
      setError(problem(e));
    } finally {
      setBusy(null);
    }
  };

  const failed = found?.outcome === "failed" ? found : null;
  const shown = found && found.outcome !== "skipped" && !failed ? found : null;
  return (
    <div class="modal-back" onClick={(e) => e.target === e.currentTarget && busy !== "install" && props.onClose()}>
      <div class="modal updates" role="dialog" aria-label="Updates" id="updates">
        <h2>Updates</h2>
        <div>Folio {view?.currentVersion ?? found?.currentVersion ?? ""}</div>
        {view && (
          <>
            <label class="check-row">
              <input
                type="checkbox"
                id="updates-check-at-start"
                checked={view.settings.checkAtStart}
                onChange={(e) => toggle((e.target as HTMLInputElement).checked)}
              />
              Check for updates at start
            </label>
            <div class="hint" id="updates-endpoint">
              {view.endpoints.length
                ? `Looks at ${view.endpoints.join(", ")} — one request when the window opens, none when this is off. Updates are signed; one whose signature does not match is never installed.`
                : "This build names no update server (it was built from source), so it never checks."}
            </div>
          </>
        )}
        {shown && (
          <div class={`notice ${shown.outcome === "available" ? "ok" : ""}`} id="updates-result" data-outcome={shown.outcome}>
            {shown.message}
            {shown.date && <div class="hint">Published {shown.date.slice(0, 10)}</div>}
            {shown.notes && <div class="update-notes">{shown.notes}</div>}
          </div>
        )}
        {failed && (
          <div class="notice error" id="updates-result" data-outcome="failed" data-error={failed.error ?? ""}>
            <ProblemText problem={{ kind: "failed", message: failed.message, hint: failed.hint }} />
          </div>
        )}
        {progress && !installed && (
          <div id="updates-progress">
            {progress.phase === "installing" ? "Installing…" : `Downloading ${bytes(progress.downloaded)}${progress.total ? ` of ${bytes(progress.total)}` : ""}`}
            <progress max={progress.total ?? undefined} value={progress.phase === "installing" ? undefined : progress.downloaded} />
          </div>
        )}
        {installed && (
          <div class="notice ok" id="updates-installed">
            Folio {installed.version} is installed. Restart to use it.
          </div>
        )}
        {error && <div class="notice error"><ProblemText problem={error} /></div>}
        <div class="modal-actions">
          <button id="updates-check" class="secondary" disabled={busy !== null} onClick={checkNow}>
            {busy === "check" ? "Checking…" : "Check now"}
          </button>
          <div class="spacer" />
          {installed ? (
            <>
              <button class="secondary" onClick={props.onClose}>
                Later
              </button>
              <button id="updates-restart" onClick={() => updateApi.restart().catch((e) => setError(problem(e)))}>
                Restart now
              </button>
            </>
          ) : (
            <>
              <button class="secondary" disabled={busy === "install"} onClick={props.onClose}>
                Close
              </button>
              {found?.outcome === "available" && (
                <button id="updates-install" disabled={busy !== null} onClick={install}>
                  {busy === "install" ? "Installing…" : `Download and install ${found.version}`}
                </button>
              )}
            </>
          )}
        </div>
      </div>
    </div>
  );
}
