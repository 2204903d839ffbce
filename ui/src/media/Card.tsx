// The card for files without an inline preview (binary, too large, or media this webview
// cannot play): what it is, why there is no preview, and Open with the default application.
import { useState } from "preact/hooks";
import type { PreviewInfoResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { bytes, problem, type Problem } from "../api";
import { reviewApi } from "../review/api";

export function Card(props: { path: string; title: string; detail?: string; info?: PreviewInfoResponse }) {
  const [opened, setOpened] = useState<string | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const open = () => {
    setError(null);
    reviewApi
      .open(props.path, false)
      .then((r) => setOpened(r.message))
      .catch((e) => setError(problem(e)));
  };
  return (
    <div class="file-card" data-path={props.path}>
      <strong class="file-card-title">{props.title}</strong>
      {props.info && (
        <span class="muted">
          {props.info.mediaType} · {bytes(props.info.size)}
        </span>
      )}
      {props.detail && <p class="file-card-detail">{props.detail}</p>}
      <div>
        <button class="secondary small open-with" onClick={open}>
          Open with default app
        </button>
      </div>
      {opened && <p class="muted">{opened}</p>}
      {error && <p class="error-text"><ProblemText problem={error} /></p>}
    </div>
  );
}
