// An email message as a card: from, to, cc, date and subject, the body as text, and the
// attachments; clicking an attachment puts it in the scratch zone (/tmp/attachments/…, never the
// folder) and previews it below the card like any other file.
import { useEffect, useState } from "preact/hooks";
import type { PreviewEmailResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { bytes, problem, type Problem } from "../api";
import { preview } from "./api";
import { FileView } from "./FileView";

export function EmailView(props: { path: string; tag: string; compact?: boolean }) {
  const [mail, setMail] = useState<PreviewEmailResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [opened, setOpened] = useState<{ index: number; path: string } | null>(null);
  const [openError, setOpenError] = useState<Problem | null>(null);
  useEffect(() => {
    setMail(null);
    setError(null);
    setOpened(null);
    preview
      .email(props.path)
      .then(setMail)
      .catch((e) => setError(problem(e)));
  }, [props.path, props.tag]);

  if (error) return <p class="error-text"><ProblemText problem={error} /></p>;
  if (!mail) return <p class="muted media-status">Loading…</p>;
  const open = (index: number) => {
    setOpenError(null);
    preview
      .emailAttachment(props.path, index)
      .then((r) => setOpened({ index, path: r.path }))
      .catch((e) => setOpenError(problem(e)));
  };
  const people = (list: string[]) => list.join(", ");
  const date = mail.date ? new Date(mail.date) : null;
  return (
    <div class={`email-view${props.compact ? " compact" : ""}`}>
      <div class="email-card">
        <h3 class="email-subject">{mail.subject || <span class="muted">(no subject)</span>}</h3>
        <dl class="email-head">
          <dt>From</dt>
          <dd class="email-from">{mail.from ?? <span class="muted">(no sender)</span>}</dd>
          <dt>To</dt>
          <dd class="email-to">{people(mail.to) || <span class="muted">(none)</span>}</dd>
          {mail.cc.length > 0 && (
            <>
              <dt>Cc</dt>
              <dd class="email-cc">{people(mail.cc)}</dd>
            </>
          )}
          <dt>Date</dt>
          <dd class="email-date" title={mail.date ?? undefined}>
            {date && !isNaN(date.getTime()) ? date.toUTCString() : mail.date ?? <span class="muted">(no date)</span>}
          </dd>
        </dl>
        <pre class="email-body">{mail.body || "(no text body)"}</pre>
        {mail.bodyTruncated && <p class="muted">The body is cut here; extract the message to read all of it.</p>}
        {mail.attachments.length > 0 && (
          <div class="email-attachments">
            <strong>
              {mail.attachments.length} attachment{mail.attachments.length === 1 ? "" : "s"}
            </strong>
            <ul>
              {mail.attachments.map((a) => (
                <li key={a.index}>
                  <button
                    class={`secondary small email-attachment${opened?.index === a.index ? " active" : ""}`}
                    data-index={a.index}
                    onClick={() => open(a.index)}
                  >
                    {a.embedded ? "✉ " : "📎 "}
                    {a.name}
                  </button>{" "}
                  <span class="muted">
                    {a.embedded ? "message" : a.contentType} · {bytes(a.size)}
                    {a.inline ? " · inline" : ""}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
        {openError && <p class="error-text"><ProblemText problem={openError} /></p>}
      </div>
      {opened && !props.compact && (
        <div class="email-opened" data-path={opened.path}>
          <p class="muted">
            Attachment {mail.attachments[opened.index]?.name} (a copy in {opened.path}; the folder is unchanged)
          </p>
          <FileView path={opened.path} />
        </div>
      )}
    </div>
  );
}
