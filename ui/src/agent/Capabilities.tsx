// Settings → Capabilities: the MCP servers scripts import as env:<name>. Add one by command +
// arguments + environment, or by URL + headers; for every folder or only this one; turn it on or
// off; remove it; Test mounts it and lists its tools, or shows why it failed with the server's own
// stderr. Secret values go to the keychain; the list lives in the state directory's mcp.json,
// which `folio ask` reads too. A change reopens the folder, so new conversations see it.
import { useEffect, useState } from "preact/hooks";
import { invoke } from "@tauri-apps/api/core";
import type {
  CapabilitiesGetResponse,
  CapabilitiesTestResponse,
  McpServerForm,
  McpSettingRow,
} from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { SelectField, TextField } from "./Field";

const api = {
  get: () => invoke<CapabilitiesGetResponse>("capabilities_get"),
  save: (server: McpServerForm, replacing: string | null) =>
    invoke<CapabilitiesGetResponse>("capabilities_save", { params: { server, replacing } }),
  remove: (name: string) => invoke<CapabilitiesGetResponse>("capabilities_remove", { params: { name } }),
  enable: (name: string, enabled: boolean) =>
    invoke<CapabilitiesGetResponse>("capabilities_enable", { params: { name, enabled } }),
  test: (server: McpServerForm) => invoke<CapabilitiesTestResponse>("capabilities_test", { params: { server } }),
};

const SECRET = /authorization|token|secret|password|key|cookie/i;

function blank(): McpServerForm {
  return { name: "", kind: "stdio", command: "", args: [], url: "", settings: [], enabled: true, folder: null };
}

function TestResult(props: { result: CapabilitiesTestResponse; id: string }) {
  const r = props.result;
  return (
    <div class={`notice ${r.ok ? "ok" : "error"}`} id={props.id} data-ok={String(r.ok)}>
      {r.ok ? (
        <>
          <div>
            {r.tools.length} tools over the {r.tried} ({r.tookMs} ms):
          </div>
          <ul class="mcp-tools">
            {r.tools.map((t) => (
              <li key={t.binding} class="mcp-tool">
                <code>{t.binding}</code> — {t.description.split("\n")[0]}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <pre class="mcp-error">{r.error}</pre>
      )}
    </div>
  );
}

export function Capabilities() {
  const [view, setView] = useState<CapabilitiesGetResponse | null>(null);
  const [form, setForm] = useState<McpServerForm>(blank());
  const [editing, setEditing] = useState<string | null>(null);
  const [argsText, setArgsText] = useState("");
  const [tested, setTested] = useState<{ name: string; result: CapabilitiesTestResponse } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<Problem | null>(null);

  useEffect(() => {
    api.get().then(setView).catch((e) => setError(problem(e)));
  }, []);

  const run = async (what: string, job: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await job();
    } catch (e) {
      setError(problem(e));
    } finally {
      setBusy(null);
    }
  };
  const current = (): McpServerForm => ({
    ...form,
    args: argsText.split("\n").map((a) => a.trim()).filter((a) => a !== ""),
  });
  const set = (patch: Partial<McpServerForm>) => {
    setForm({ ...form, ...patch });
    setTested(null);
  };
  const setRow = (i: number, patch: Partial<McpSettingRow>) => {
    const settings = form.settings.map((r, j) => (j === i ? { ...r, ...patch } : r));
    set({ settings });
  };
  const edit = (s: McpServerForm) => {
    setEditing(s.name);
    setForm(s);
    setArgsText(s.args.join("\n"));
    setTested(null);
  };
  const reset = () => {
    setEditing(null);
    setForm(blank());
    setArgsText("");
  };

  if (!view)
    return <div id="capabilities">{error ? <div class="notice error"><ProblemText problem={error} /></div> : "Loading…"}</div>;

  const what = form.kind === "stdio" ? "Environment variables" : "Headers";
  return (
    <div id="capabilities" class="capabilities">
      <div class="hint">
        MCP servers give scripts their tools: each one on is <code>env:&lt;name&gt;</code> in conversations started
        after a change. The list is kept in {view.file}; secret values in the keychain.
      </div>
      {view.servers.length === 0 && <div class="hint" id="mcp-empty">No MCP servers yet.</div>}
      <ul class="mcp-servers">
        {view.servers.map((s) => (
          <li key={s.name} class="mcp-server" data-name={s.name} data-enabled={String(s.enabled)}>
            <div class="mcp-server-line">
              <label class="mcp-toggle">
                <input
                  type="checkbox"
                  id={`mcp-enabled-${s.name}`}
                  checked={s.enabled}
                  disabled={busy !== null}
                  onChange={(e) =>
                    run("enable", async () => setView(await api.enable(s.name, (e.target as HTMLInputElement).checked)))
                  }
                />
                <code>env:{s.name}</code>
              </label>
              <span class="mcp-where">
                {s.kind === "stdio" ? [s.command, ...s.args].join(" ") : s.url} · {s.folder ? "this folder" : "every folder"}
              </span>
              <div class="spacer" />
              <button
                class="secondary"
                id={`mcp-test-${s.name}`}
                disabled={busy !== null}
                onClick={() => run("test", async () => setTested({ name: s.name, result: await api.test(s) }))}
              >
                {busy === "test" && tested?.name !== s.name ? "Testing…" : "Test"}
              </button>
              <button class="secondary" id={`mcp-edit-${s.name}`} disabled={busy !== null} onClick={() => edit(s)}>
                Edit
              </button>
              <button
                class="secondary"
                id={`mcp-remove-${s.name}`}
                disabled={busy !== null}
                onClick={() =>
                  run("remove", async () => {
                    setView(await api.remove(s.name));
                    if (editing === s.name) reset();
                  })
                }
              >
                Remove
              </button>
            </div>
            {tested?.name === s.name && <TestResult result={tested.result} id={`mcp-result-${s.name}`} />}
          </li>
        ))}
      </ul>
      {view.warnings.map((w) => (
        <div class="notice warn mcp-warning" key={w}>
          {w}
        </div>
      ))}

      <h3>{editing ? `Edit env:${editing}` : "Add a server"}</h3>
      <TextField
        label="Name (scripts import env:name)"
        id="mcp-name"
        value={form.name}
        placeholder="e.g. github — lower-case letters, digits and _"
        onValue={(name) => set({ name })}
      />
      <SelectField
        label="Transport"
        id="mcp-kind"
        value={form.kind}
        options={[
          { value: "stdio", label: "Command (stdio)" },
          { value: "http", label: "URL (Streamable HTTP)" },
        ]}
        onValue={(kind) => set({ kind, settings: [] })}
      />
      {form.kind === "stdio" ? (
        <>
          <TextField
            label="Command"
            id="mcp-command"
            value={form.command}
            placeholder="npx, node, uvx, or a full path"
            onValue={(command) => set({ command })}
          />
          <TextField
            label="Arguments (one per line)"
            id="mcp-args"
            rows={3}
            value={argsText}
            placeholder={"-y\n@modelcontextprotocol/server-everything"}
            onValue={(text) => {
              setArgsText(text);
              setTested(null);
            }}
          />
        </>
      ) : (
        <TextField
          label="URL"
          id="mcp-url"
          value={form.url}
          placeholder="http://127.0.0.1:3001/mcp"
          onValue={(url) => set({ url })}
        />
      )}
      <div class="mcp-settings">
        <div class="hint">{what}</div>
        {form.settings.map((r, i) => (
          <div class="mcp-setting" key={i}>
            <input
              class="mcp-setting-name"
              value={r.name}
              placeholder={form.kind === "stdio" ? "NAME" : "Header"}
              onInput={(e) => {
                const name = (e.target as HTMLInputElement).value;
                setRow(i, { name, secret: r.secret || SECRET.test(name) });
              }}
            />
            <input
              class="mcp-setting-value"
              type={r.secret ? "password" : "text"}
              value={r.value}
              autocomplete="off"
              placeholder={r.saved ? "saved — in the keychain" : "value"}
              onInput={(e) => setRow(i, { value: (e.target as HTMLInputElement).value })}
            />
            <label class="mcp-secret">
              <input type="checkbox" checked={r.secret} onChange={(e) => setRow(i, { secret: (e.target as HTMLInputElement).checked })} />
              secret
            </label>
            <button class="secondary" onClick={() => set({ settings: form.settings.filter((_, j) => j !== i) })}>
              ×
            </button>
          </div>
        ))}
        <button
          class="secondary"
          id="mcp-add-setting"
          onClick={() => set({ settings: [...form.settings, { name: "", value: "", secret: false, saved: false }] })}
        >
          {form.kind === "stdio" ? "Add variable" : "Add header"}
        </button>
      </div>
      <SelectField
        label="Where"
        id="mcp-scope"
        value={form.folder ? "folder" : "global"}
        options={[
          { value: "global", label: "Every folder" },
          ...(view.folder ? [{ value: "folder" as const, label: `Only this folder (${view.folder})` }] : []),
        ]}
        onValue={(where) => set({ folder: where === "folder" ? view.folder : null })}
      />
      {tested?.name === "" && <TestResult result={tested.result} id="mcp-test-result" />}
      {error && <div class="notice error" id="mcp-error"><ProblemText problem={error} /></div>}
      <div class="modal-actions">
        <button
          id="mcp-test"
          class="secondary"
          disabled={busy !== null}
          onClick={() => run("test-form", async () => setTested({ name: "", result: await api.test(current()) }))}
        >
          {busy === "test-form" ? "Testing…" : "Test"}
        </button>
        {editing && (
          <button class="secondary" onClick={reset}>
            Cancel edit
          </button>
        )}
        <div class="spacer" />
        <button
          id="mcp-save"
          disabled={busy !== null}
          onClick={() =>
            run("save", async () => {
              setView(await api.save(current(), editing));
              reset();
              setTested(null);
            })
          }
        >
          {busy === "save" ? "Saving…" : editing ? "Save server" : "Add server"}
        </button>
      </div>
    </div>
  );
}
