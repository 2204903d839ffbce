// One tool call: tinted by its verb class, its arguments in one line, a live progress line (and
// a long job's progress bar with its ETA) while it runs, expandable to every argument and the full output; failures open by default. A file
// being written shows as a code card that fills in as the model types it.
import { useState } from "preact/hooks";
import type { ToolCall } from "./model";
import { partialField } from "./model";
import { JobBar } from "../JobBar";

const CODE = /\.(m?js|ts|py|json|csv|md|txt|html|css|svg)$/i;

function seconds(ms: number | null): string {
  if (ms === null) return "";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The content a write call is writing, as far as the model has written it. */
function writing(call: ToolCall): { path: string; content: string } | null {
  if (call.name !== "write_file") return null;
  const input = call.input as { path?: string; content?: string } | null;
  const path = input?.path ?? partialField(call.raw, "path") ?? "";
  const content = input?.content ?? partialField(call.raw, "content");
  if (content === null || content === undefined || !CODE.test(path)) return null;
  return { path, content };
}

export function ToolRow(props: { call: ToolCall }) {
  const { call } = props;
  const failed = call.status === "error";
  const [open, setOpen] = useState<boolean | null>(null);
  const expanded = open ?? failed;
  const code = writing(call);
  const last = call.progress[call.progress.length - 1];
  const mark =
    call.status === "running" ? "…" : call.status === "success" ? "✓" : call.status === "aborted" ? "■" : "✗";
  return (
    <div class={`tool-row cls-${call.cls} st-${call.status}`} data-name={call.name} data-status={call.status}>
      <button class="tool-head" onClick={() => setOpen(!expanded)} aria-expanded={expanded}>
        <span class="tool-mark" aria-hidden="true">
          {mark}
        </span>
        <span class="tool-name">{call.name}</span>
        <span class="tool-summary">{call.summary}</span>
        <span class="tool-time">{seconds(call.durationMs)}</span>
      </button>
      {call.status === "running" && call.job && <JobBar job={call.job} />}
      {call.status === "running" && last && (
        <div class={`tool-progress ${last.isError ? "err" : ""}`} title={last.text}>
          {last.text}
        </div>
      )}
      {code && call.status === "running" && (
        <pre class="code-card" data-path={code.path}>
          <div class="code-path">{code.path}</div>
          <code>{code.content}</code>
        </pre>
      )}
      {expanded && (
        <div class="tool-detail">
          <div class="detail-label">Arguments</div>
          <pre>{call.input !== null ? JSON.stringify(call.input, null, 2) : call.raw}</pre>
          {call.job && (
            <>
              <div class="detail-label">Progress</div>
              <JobBar job={call.job} />
            </>
          )}
          {call.progress.length > 0 && (
            <>
              <div class="detail-label">Console</div>
              <pre class="console">
                {call.progress.map((l, i) => (
                  <div key={i} class={l.isError ? "err" : ""}>
                    {l.text}
                  </div>
                ))}
              </pre>
            </>
          )}
          {call.output !== null && (
            <>
              <div class="detail-label">{failed ? "Error" : "Output"}</div>
              <pre class={failed ? "err" : ""}>{call.output}</pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
