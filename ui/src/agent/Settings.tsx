// The Settings dialog: provider, model, base URL, API key (OS keychain, or the key file where none
// runs — said so), vision model, run budget and script run budget; Test connection makes one real
// minimal request. The Capabilities tab lists the MCP servers scripts import (Capabilities.tsx); the
// Privacy tab sets local-only mode and the never-send paths (Privacy.tsx). Every field is Field.tsx's.
import { useEffect, useState } from "preact/hooks";
import type { AgentSettings, ConnectionTestResponse, SettingsGetResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { agentApi } from "./api";
import { Capabilities } from "./Capabilities";
import { Privacy } from "./Privacy";
import { SelectField, TextField } from "./Field";

export function Settings(props: { onClose: () => void; onPrivacyChanged?: () => void }) {
  const [view, setView] = useState<SettingsGetResponse | null>(null);
  const [form, setForm] = useState<AgentSettings | null>(null);
  const [key, setKey] = useState("");
  const [test, setTest] = useState<ConnectionTestResponse | null>(null);
  const [busy, setBusy] = useState<"test" | "save" | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [tab, setTab] = useState<"model" | "capabilities" | "privacy">("model");

  useEffect(() => {
    agentApi.settings
      .get()
      .then((v) => {
        setView(v);
        setForm(v.settings);
      })
      .catch((e) => setError(problem(e)));
  }, []);

  if (!view || !form)
    return (
      <div class="modal-back">
        <div class="modal">{error ? <div class="notice error"><ProblemText problem={error} /></div> : "Loading…"}</div>
      </div>
    );

  const preset = view.presets.find((p) => p.name === form.provider);
  const set = (patch: Partial<AgentSettings>) => {
    setForm({ ...form, ...patch });
    setTest(null);
  };
  const typedKey = key.trim() ? key.trim() : null;

  const runTest = async () => {
    setBusy("test");
    setError(null);
    try {
      setTest(await agentApi.connection.test({ settings: form, apiKey: typedKey }));
    } catch (e) {
      setError(problem(e));
    } finally {
      setBusy(null);
    }
  };
  const save = async () => {
    setBusy("save");
    setError(null);
    try {
      const next = await agentApi.settings.save({ settings: form, apiKey: typedKey });
      setView(next);
      setForm(next.settings);
      setKey("");
      props.onClose();
    } catch (e) {
      setError(problem(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div class="modal-back" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="modal settings" role="dialog" aria-label="Settings" id="settings">
        <h2>Settings</h2>
        <div class="tabs" role="tablist">
          <button role="tab" id="settings-tab-model" class={tab === "model" ? "tab active" : "tab"} onClick={() => setTab("model")}>
            Model
          </button>
          <button
            role="tab"
            id="settings-tab-capabilities"
            class={tab === "capabilities" ? "tab active" : "tab"}
            onClick={() => setTab("capabilities")}
          >
            Capabilities
          </button>
          <button
            role="tab"
            id="settings-tab-privacy"
            class={tab === "privacy" ? "tab active" : "tab"}
            onClick={() => setTab("privacy")}
          >
            Privacy
          </button>
        </div>
        {tab !== "model" ? (
          <>
            {tab === "capabilities" ? <Capabilities /> : <Privacy onSaved={() => props.onPrivacyChanged?.()} />}
            <div class="modal-actions">
              <div class="spacer" />
              <button class="secondary" id="settings-close" onClick={props.onClose}>
                Close
              </button>
            </div>
          </>
        ) : (
        <>
        <SelectField
          label="Provider"
          id="settings-provider"
          value={form.provider}
          options={view.presets.map((p) => ({ value: p.name, label: p.name }))}
          onValue={(provider) => set({ provider })}
        />
        <TextField
          label="Model"
          id="settings-model"
          value={form.model}
          placeholder={preset?.defaultModel || "required: the model id your server serves"}
          onValue={(model) => set({ model })}
        />
        <TextField
          label="Base URL"
          id="settings-base-url"
          value={form.baseUrl}
          placeholder={preset?.baseUrl}
          onValue={(baseUrl) => set({ baseUrl })}
        />
        {preset?.keyEnv !== null && (
          <TextField
            label="API key"
            id="settings-key"
            type="password"
            value={key}
            autocomplete="off"
            placeholder={
              view.key.present && form.provider === view.settings.provider
                ? `saved — in ${view.key.source}`
                : `paste the key (or set ${preset?.keyEnv})`
            }
            onValue={(typed) => {
              setKey(typed);
              setTest(null);
            }}
          />
        )}
        {view.key.notice && <div class="hint">{view.key.notice}</div>}
        <TextField
          label="Vision model"
          id="settings-vision"
          value={form.visionModel}
          placeholder="none — or main, or provider:model (e.g. openai:gpt-4.1-mini)"
          onValue={(visionModel) => set({ visionModel })}
        />
        <TextField
          label="Run budget (model calls per request)"
          id="settings-max-turns"
          type="number"
          min={1}
          value={form.maxTurns}
          onValue={(v) => set({ maxTurns: Math.max(1, parseInt(v, 10) || 1) })}
        />
        <TextField
          label="Script run budget (seconds per script run, 1 to 3600)"
          id="settings-script-budget"
          type="number"
          min={1}
          max={3600}
          step="any"
          value={form.scriptBudgetMs / 1000}
          onValue={(v) => {
            const seconds = parseFloat(v);
            set({ scriptBudgetMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0 });
          }}
        />
        <div class="hint" id="settings-script-budget-hint">
          How long one script may run before it is stopped (30 s by default); long renders and conversions that
          would not fit are refused up front. Applies to folders opened after saving — open the folder again to use
          it now.
        </div>
        {test && (
          <div class={`notice ${test.outcome === "ok" ? "ok" : "error"}`} id="connection-result" data-outcome={test.outcome}>
            {test.message}
          </div>
        )}
        {error && <div class="notice error"><ProblemText problem={error} /></div>}
        <div class="modal-actions">
          <button id="settings-test" class="secondary" disabled={busy !== null} onClick={runTest}>
            {busy === "test" ? "Testing…" : "Test connection"}
          </button>
          <div class="spacer" />
          <button class="secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button id="settings-save" disabled={busy !== null} onClick={save}>
            Save
          </button>
        </div>
        </>
        )}
      </div>
    </div>
  );
}
