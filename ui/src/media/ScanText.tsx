// A scan's recognised text for the page shown beside it: env:ocr reads the page (tesseract,
// turned upright first) the first time, the cache answers after.
import { useEffect, useState } from "preact/hooks";
import type { PreviewOcrResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { preview } from "./api";

export function ScanText(props: { path: string; tag: string; page: number }) {
  const [ocr, setOcr] = useState<PreviewOcrResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  useEffect(() => {
    let live = true;
    setOcr(null);
    setError(null);
    preview
      .ocr(props.path, props.page)
      .then((r) => live && setOcr(r))
      .catch((e) => live && setError(problem(e)));
    return () => {
      live = false;
    };
  }, [props.path, props.tag, props.page]);

  return (
    <aside class="scan-text" data-page={props.page}>
      <strong>Recognised text</strong>
      {error ? (
        <p class="error-text"><ProblemText problem={error} /></p>
      ) : !ocr ? (
        <p class="muted">Reading page {props.page} with tesseract…</p>
      ) : (
        <>
          <span class="muted scan-meta">
            confidence {ocr.confidence.toFixed(0)}
            {ocr.rotated ? ` · turned ${ocr.rotated}°` : ""}
            {ocr.cached ? " · cached" : ""}
          </span>
          {ocr.note && <p class="file-note">{ocr.note}</p>}
          <pre class="scan-ocr">{ocr.text || "(nothing read)"}</pre>
        </>
      )}
    </aside>
  );
}
