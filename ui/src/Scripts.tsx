// The script catalogue: every script in /scripts with its one-liner, a Run button, live console
// lines while it runs, and the result.
import { useEffect, useState } from "preact/hooks";
import { api, message } from "./api";
import type { ScriptInfo, ScriptsRunResponse } from "./bindings";

type Run = { path: string; lines: string[]; result: ScriptsRunResponse | null; error: string | null };

export function Scripts({ version, onDone, onError }: { version: number; onDone: () => void; onError: (e: string) => void }) {
  const [scripts, setScripts] = useState<ScriptInfo[] | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  useEffect(() => {
    api.scripts
      .list()
      .then((r) => setScripts(r.scripts))
      .catch((e) => onError(message(e)));
  }, [version]);

  const start = async (path: string) => {
    const lines: string[] = [];
    setRun({ path, lines, result: null, error: null });
    try {
      const result = await api.scripts.run({ path, args: null }, (line) => {
        lines.push(line.isError ? `! ${line.text}` : line.text);
        setRun({ path, lines: [...lines], result: null, error: null });
      });
      setRun({ path, lines: [...lines], result, error: null });
    } catch (e) {
      setRun({ path, lines: [...lines], result: null, error: message(e) });
    }
    onDone();
  };

  const running = run !== null && run.result === null && run.error === null;
  return (
    <section class="panel scripts" id="scripts">
      <h2>Scripts</h2>
      <div class="scroll">
        {scripts?.length === 0 && <p class="muted">No scripts yet. Scripts the agent writes appear in /scripts.</p>}
        <ul class="catalogue">
          {scripts?.map((s) => (
            <li class="script" data-path={s.path} key={s.path}>
              <div class="script-text">
                <div class="script-name">{s.name}</div>
                <div class="script-summary">{s.summary || "No description."}</div>
              </div>
              <button class="run small" disabled={running} onClick={() => start(s.path)}>
                {running && run?.path === s.path ? "Running…" : "Run"}
              </button>
            </li>
          ))}
        </ul>
        {run && (
          <div class="run-output" id="run-output">
            <div class={`run-state ${run.error || (run.result && !run.result.ok) ? "failed" : run.result ? "ok" : "busy"}`} id="run-state">
              {running && "Running " + run.path + "…"}
              {run.result?.ok && `Finished in ${run.result.durationMs} ms`}
              {run.result && !run.result.ok && `Failed after ${run.result.durationMs} ms`}
              {run.error && "Could not run"}
            </div>
            {run.lines.length > 0 && <pre class="console">{run.lines.join("\n")}</pre>}
            {run.result?.resultText && <pre class="result" id="run-result">{run.result.resultText}</pre>}
            {(run.result?.error || run.error) && <pre class="error-text">{run.result?.error ?? run.error}</pre>}
          </div>
        )}
      </div>
    </section>
  );
}
