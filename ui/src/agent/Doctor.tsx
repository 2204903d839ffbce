// The Doctor view: one row per capability (rendering tools and the model provider), each that does
// not work with the command that fixes it, and a Copy button.
import { useEffect, useState } from "preact/hooks";
import type { DoctorGetResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { agentApi } from "./api";

export function Doctor(props: { onClose: () => void }) {
  const [report, setReport] = useState<DoctorGetResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const load = () => {
    setReport(null);
    agentApi.doctor
      .get()
      .then(setReport)
      .catch((e) => setError(problem(e)));
  };
  useEffect(load, []);
  const copy = async (name: string, fix: string) => {
    try {
      await navigator.clipboard.writeText(fix);
      setCopied(name);
    } catch {
      setError("the clipboard is not available here — select the command and copy it by hand");
    }
  };
  return (
    <div class="modal-back" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div class="modal doctor" role="dialog" aria-label="Doctor" id="doctor">
        <h2>Doctor</h2>
        {error && <div class="notice error"><ProblemText problem={error} /></div>}
        {!report && !error && <div class="muted">Checking this machine…</div>}
        {report && (
          <>
            <div class={`notice ${report.ready ? "ok" : "error"}`}>
              {report.ready
                ? "Ready — every required capability works on this machine."
                : "Not ready — apply the fixes below, then check again."}
            </div>
            {report.warnings.map((w) => (
              <div key={w} class="notice error doctor-warning">
                {w}
              </div>
            ))}
            <ul class="doctor-rows">
              {report.rows.map((r) => (
                <li key={r.name} class={`doctor-row ${r.ok ? "ok" : "bad"}`} data-name={r.name}>
                  <span class="doctor-mark">{r.ok ? "✓" : "✗"}</span>
                  <div class="doctor-body">
                    <div>
                      <strong>{r.name}</strong> {!r.required && <span class="muted">(optional)</span>}
                    </div>
                    <div class="muted doctor-detail">{r.detail}</div>
                    {!r.ok && r.fix && (
                      <div class="doctor-fix">
                        <code>{r.fix}</code>
                        <button class="secondary small" onClick={() => copy(r.name, r.fix)}>
                          {copied === r.name ? "Copied" : "Copy"}
                        </button>
                      </div>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
        <div class="modal-actions">
          <button class="secondary" onClick={load}>
            Check again
          </button>
          <div class="spacer" />
          <button onClick={props.onClose}>Close</button>
        </div>
      </div>
    </div>
  );
}
