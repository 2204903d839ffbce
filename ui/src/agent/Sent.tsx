// "What was sent": one line per model request, as the egress ledger recorded it while the request
// left the machine — provider, model, body size and the start of its SHA-256; opened, the endpoint,
// the whole hash and each item it carried with its provenance (the files and line ranges a tool
// result came from, an image's path and hash). Collapsed by default.
import { useState } from "preact/hooks";
import type { SentItem, SentPurpose, SentRequest } from "../bindings";
import { bytes } from "../api";

const PURPOSE: Record<SentPurpose, string> = {
  turn: "",
  summary: "summary",
  vision: "vision",
  connectionTest: "connection test",
};

function ItemLine({ item }: { item: SentItem }) {
  if (item.image) {
    const i = item.image;
    return (
      <li class="sent-item kind-image">
        <span class="sent-kind">image</span>
        <span class="sent-source">{i.source ?? "(no file)"}</span>
        <span class="sent-meta">
          {i.mediaType} · {bytes(i.bytes)} · sha256 <code>{i.sha256.slice(0, 16)}…</code>
        </span>
      </li>
    );
  }
  return (
    <li class={`sent-item kind-${item.kind}${item.isError ? " is-error" : ""}`}>
      <span class="sent-kind">{item.kind === "toolResult" ? `${item.label} →` : item.label}</span>
      {item.sources.map((s) => (
        <span class="sent-source" key={s.path + (s.range ?? "")}>
          {s.path}
          {s.range ? ` (${s.range})` : ""}
        </span>
      ))}
      <span class="sent-meta">{item.chars} chars</span>
      <span class="sent-preview">{item.preview}</span>
    </li>
  );
}

export function SentRow({ request }: { request: SentRequest }) {
  const [open, setOpen] = useState(false);
  const r = request;
  const purpose = PURPOSE[r.purpose];
  return (
    <div class="sent-row" data-purpose={r.purpose} data-sha256={r.bodySha256} data-bytes={r.bodyBytes}>
      <button class="sent-head" aria-expanded={open} onClick={() => setOpen(!open)} title="What this model request carried">
        <span class="sent-mark">{open ? "▾" : "▸"}</span>
        <span class="sent-title">What was sent</span>
        {purpose && <span class="sent-purpose">{purpose}</span>}
        <span class="sent-summary">
          {r.provider} · {r.model} · {bytes(r.bodyBytes)} · {r.items.length} items · sha256 {r.bodySha256.slice(0, 12)}…
          {r.attempt > 1 ? ` · attempt ${r.attempt}` : ""}
        </span>
      </button>
      {open && (
        <div class="sent-detail">
          <div>
            <span class="detail-label">Endpoint</span> <code>{r.endpoint}</code>
          </div>
          <div>
            <span class="detail-label">Body</span> {r.bodyBytes} bytes · SHA-256 <code class="sent-hash">{r.bodySha256}</code>
          </div>
          <ul class="sent-items">
            {r.items.map((item, i) => (
              <ItemLine key={i} item={item} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
