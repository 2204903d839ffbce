// Settings → Privacy: what may leave the machine. Local-only mode for every folder or only the open
// one (only providers and MCP servers on this machine; anything else is refused before a connection
// opens), and the open folder's never-send paths (their contents never reach a model; scripts may
// still process them locally). Patterns are validated when saved: an invalid one is named under the
// field with its fix, and nothing is saved. A change applies from the next turn.
import { useEffect, useState } from "preact/hooks";
import type { NetworkModeName, PrivacyGetResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { agentApi } from "./api";
import { SelectField, TextField } from "./Field";

const MODES: { value: NetworkModeName; label: string }[] = [
  { value: "open", label: "Open — providers and MCP servers anywhere" },
  { value: "localOnly", label: "Local only — only this machine (Ollama, LM Studio, localhost)" },
];

/** The words of the mode in force, for the form and the header badge's tooltip. */
export function modeWords(view: PrivacyGetResponse): string {
  if (view.effective !== "localOnly") return "Open: providers and MCP servers anywhere may be used.";
  const which = view.source === "folder" ? "this folder's setting" : "the global setting";
  return `Local only (${which}): only providers and MCP servers on this machine; anything else is refused before a connection is opened.`;
}

export function Privacy(props: { onSaved: () => void }) {
  const [view, setView] = useState<PrivacyGetResponse | null>(null);
  const [global, setGlobal] = useState<NetworkModeName>("open");
  const [own, setOwn] = useState<NetworkModeName>("open");
  const [patterns, setPatterns] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Problem | null>(null);
  const [patternError, setPatternError] = useState<Problem | null>(null);
  const [saved, setSaved] = useState(false);

  const adopt = (v: PrivacyGetResponse) => {
    setView(v);
    setGlobal(v.globalMode);
    setOwn(v.folderMode);
    setPatterns(v.neverSend.join("\n"));
  };
  useEffect(() => {
    agentApi.privacy.get().then(adopt).catch((e) => setError(problem(e)));
  }, []);

  if (!view)
    return <div id="privacy">{error ? <div class="notice error"><ProblemText problem={error} /></div> : "Loading…"}</div>;

  const save = async () => {
    setBusy(true);
    setError(null);
    setPatternError(null);
    setSaved(false);
    try {
      const neverSend = patterns.split("\n").map((p) => p.trim()).filter((p) => p !== "");
      adopt(await agentApi.privacy.save({ globalMode: global, folderMode: own, neverSend }));
      setSaved(true);
      props.onSaved();
    } catch (e) {
      const p = problem(e);
      const text = typeof p === "string" ? p : p.message;
      if (text.includes("never-send pattern")) setPatternError(p);
      else setError(p);
    } finally {
      setBusy(false);
    }
  };
  const edited = () => setSaved(false);

  return (
    <div id="privacy" class="privacy">
      <div class={`notice ${view.effective === "localOnly" ? "ok" : ""}`} id="privacy-in-force" data-mode={view.effective}>
        {modeWords(view)}
      </div>
      <SelectField
        label="Network — every folder"
        id="privacy-global"
        value={global}
        options={MODES}
        onValue={(v) => {
          setGlobal(v);
          edited();
        }}
      />
      {view.folder ? (
        <>
          <SelectField
            label={`Network — this folder (${view.folder})`}
            id="privacy-folder"
            value={own}
            options={MODES}
            onValue={(v) => {
              setOwn(v);
              edited();
            }}
          />
          <TextField
            label="Never send — paths whose contents never reach a model (one pattern per line)"
            id="privacy-never-send"
            rows={4}
            value={patterns}
            placeholder={"/clients/**\n**/*salaries*.xlsx"}
            error={patternError}
            onValue={(v) => {
              setPatterns(v);
              setPatternError(null);
              edited();
            }}
          />
          <div class="hint">
            The agent's reads, searches and diffs of these paths are refused; a script may still process them on this
            machine and return only what may be shared. The stricter network setting wins.
          </div>
        </>
      ) : (
        <div class="hint">Open a folder to give it its own network setting and never-send paths.</div>
      )}
      {view.warnings.map((w) => (
        <div class="notice warn" key={w}>
          {w}
        </div>
      ))}
      {error && (
        <div class="notice error" id="privacy-error">
          <ProblemText problem={error} />
        </div>
      )}
      <div class="modal-actions">
        {saved && (
          <span class="hint" id="privacy-saved">
            Saved — applies from the next turn.
          </span>
        )}
        <div class="spacer" />
        <button id="privacy-save" disabled={busy} onClick={save}>
          {busy ? "Saving…" : "Save"}
        </button>
      </div>
    </div>
  );
}
