// The script catalogue: every script in /scripts with its one-liner, a Run button that opens the
// script's argument form (derived from its .d.ts: one input per argument, or raw JSON), live
// console lines and a long job's progress bar with its ETA while it runs, and the result.
import { useEffect, useState } from "preact/hooks";
import { ProblemText } from "./ProblemText";
import { api, message, problem, type Problem } from "./api";
import type { JobProgressNotice, ScriptField, ScriptInfo, ScriptsFormResponse, ScriptsRunResponse } from "./bindings";
import { JobBar } from "./JobBar";
import { reviewApi } from "./review/api";
import "./review/review.css";

type Run = {
  path: string;
  lines: string[];
  /** The latest progress of the run's long job: it replaces the one before, never joins `lines`. */
  job: JobProgressNotice | null;
  result: ScriptsRunResponse | null;
  error: string | null;
};
type Values = Record<string, string | boolean>;

// The arguments object from the form's values, or the message naming the field to fix.
function argsFrom(form: ScriptsFormResponse, values: Values, raw: string, useRaw: boolean): Record<string, unknown> | string {
  if (useRaw || form.rawOnly) {
    if (!raw.trim()) return {};
    try {
      const parsed = JSON.parse(raw);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return "The arguments must be a JSON object, like {\"path\": \"/inbox/data.csv\"}.";
      return parsed;
    } catch (e) {
      return `The arguments are not valid JSON: ${message(e)}. Fix the text, or switch to the form.`;
    }
  }
  const args: Record<string, unknown> = {};
  for (const f of form.fields) {
    const v = values[f.name];
    if (f.input === "boolean") {
      if (v !== undefined) args[f.name] = v;
      else if (!f.optional) args[f.name] = false;
      continue;
    }
    const text = typeof v === "string" ? v.trim() : "";
    if (!text) {
      if (!f.optional) return `${f.name} is required (${f.ty}).`;
      continue;
    }
    if (f.input === "number") {
      const n = Number(text);
      if (Number.isNaN(n)) return `${f.name} must be a number; “${text}” is not one.`;
      args[f.name] = n;
    } else if (f.input === "json") {
      try {
        args[f.name] = JSON.parse(text);
      } catch (e) {
        return `${f.name} must be JSON of type ${f.ty}: ${message(e)}.`;
      }
    } else args[f.name] = text;
  }
  return args;
}

function Field({ f, value, onChange }: { f: ScriptField; value: string | boolean | undefined; onChange: (v: string | boolean) => void }) {
  const label = (
    <span>
      {f.name}
      {f.optional ? "" : " *"} <span class="field-type">{f.ty}</span>
    </span>
  );
  if (f.input === "boolean")
    return (
      <label class="check">
        <input type="checkbox" data-field={f.name} checked={value === true} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
        {label}
      </label>
    );
  return (
    <label>
      {label}
      <input
        type={f.input === "number" ? "number" : "text"}
        data-field={f.name}
        placeholder={f.input === "json" ? "JSON" : ""}
        value={typeof value === "string" ? value : ""}
        onInput={(e) => onChange((e.target as HTMLInputElement).value)}
      />
    </label>
  );
}

function Form({ path, busy, onRun, onCancel }: { path: string; busy: boolean; onRun: (args: Record<string, unknown>) => void; onCancel: () => void }) {
  const [form, setForm] = useState<ScriptsFormResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [values, setValues] = useState<Values>({});
  const [raw, setRaw] = useState("{}");
  const [useRaw, setUseRaw] = useState(false);
  useEffect(() => {
    reviewApi
      .form(path)
      .then(setForm)
      .catch((e) => setError(problem(e)));
  }, [path]);
  if (error) return <div class="script-form error-text"><ProblemText problem={error} /></div>;
  if (!form) return <div class="script-form muted">Reading the script's arguments…</div>;
  const submit = (e: Event) => {
    e.preventDefault();
    const args = argsFrom(form, values, raw, useRaw);
    if (typeof args === "string") setInvalid(args);
    else {
      setInvalid(null);
      onRun(args);
    }
  };
  const raws = useRaw || form.rawOnly;
  return (
    <form class="script-form" id="script-form" onSubmit={submit}>
      {form.signature && <div class="sig">{form.signature}</div>}
      {!raws && form.fields.length === 0 && <div class="muted">This script takes no arguments.</div>}
      {!raws && form.fields.map((f) => <Field key={f.name} f={f} value={values[f.name]} onChange={(v) => setValues({ ...values, [f.name]: v })} />)}
      {raws && (
        <label>
          <span>Arguments (a JSON object)</span>
          <textarea id="script-args-json" rows={4} value={raw} onInput={(e) => setRaw((e.target as HTMLTextAreaElement).value)} />
        </label>
      )}
      {invalid && (
        <div class="error-text" id="script-form-error">
          {invalid}
        </div>
      )}
      <div class="form-actions">
        <button type="submit" class="small" id="script-run" disabled={busy}>
          Run
        </button>
        <button type="button" class="secondary small" onClick={onCancel}>
          Cancel
        </button>
        <div class="spacer" />
        {!form.rawOnly && (
          <button type="button" class="link small" id="script-raw-toggle" onClick={() => setUseRaw(!useRaw)}>
            {useRaw ? "Use the form" : "Raw JSON"}
          </button>
        )}
      </div>
    </form>
  );
}

export function Scripts({ version, onDone, onError }: { version: number; onDone: () => void; onError: (e: Problem) => void }) {
  const [scripts, setScripts] = useState<ScriptInfo[] | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  useEffect(() => {
    api.scripts
      .list()
      .then((r) => setScripts(r.scripts))
      .catch((e) => onError(problem(e)));
  }, [version]);

  const start = async (path: string, args: Record<string, unknown>) => {
    setAsking(null);
    const lines: string[] = [];
    let job: JobProgressNotice | null = null;
    setRun({ path, lines, job, result: null, error: null });
    try {
      const result = await api.scripts.run({ path, args }, (line) => {
        if (line.job) job = line.job;
        else lines.push(line.isError ? `! ${line.text}` : line.text);
        setRun({ path, lines: [...lines], job, result: null, error: null });
      });
      setRun({ path, lines: [...lines], job, result, error: null });
    } catch (e) {
      setRun({ path, lines: [...lines], job, result: null, error: message(e) });
    }
    onDone();
  };

  const running = run !== null && run.result === null && run.error === null;
  return (
    <section class="panel scripts" id="scripts">
      <h2>Scripts</h2>
      <div class="scroll">
        {scripts?.length === 0 && <p class="muted empty-note">No scripts yet. Scripts the agent writes appear in /scripts.</p>}
        <ul class="catalogue">
          {scripts?.map((s) => (
            <li class="script" data-path={s.path} key={s.path}>
              <div class="script-text">
                <div class="script-name">{s.name}</div>
                <div class="script-summary">{s.summary || "No description."}</div>
              </div>
              <button class="run small" disabled={running} onClick={() => setAsking(asking === s.path ? null : s.path)}>
                {running && run?.path === s.path ? "Running…" : "Run…"}
              </button>
            </li>
          ))}
        </ul>
        {asking && <Form key={asking} path={asking} busy={running} onRun={(args) => start(asking, args)} onCancel={() => setAsking(null)} />}
        {run && (
          <div class="run-output" id="run-output">
            <div class={`run-state ${run.error || (run.result && !run.result.ok) ? "failed" : run.result ? "ok" : "busy"}`} id="run-state">
              {running && "Running " + run.path + "…"}
              {run.result?.ok && `Finished in ${run.result.durationMs} ms`}
              {run.result && !run.result.ok && `Failed after ${run.result.durationMs} ms`}
              {run.error && "Could not run"}
            </div>
            {run.job && <JobBar job={run.job} />}
            {run.lines.length > 0 && <pre class="console">{run.lines.join("\n")}</pre>}
            {run.result?.resultText && <pre class="result" id="run-result">{run.result.resultText}</pre>}
            {(run.result?.error || run.error) && <pre class="error-text">{run.result?.error ?? run.error}</pre>}
          </div>
        )}
      </div>
    </section>
  );
}
