// A PDF's or Office document's pages, rendered by PDFium (Office files through LibreOffice
// first). One page at a time, fetched only when shown, with "Page N of M"; compact mode shows
// the first page only.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { PreviewPagesResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import { failureOf, fileUrl, preview } from "./api";

/** The width pages are rendered at, in pixels (sharp on a 2x screen in a ~600 px pane). */
const PAGE_WIDTH = 1200;

export function PagesView(props: {
  path: string;
  tag: string;
  compact?: boolean;
  office?: boolean;
  /** Shown beside the page (a scan's recognised text), given the page shown. */
  aside?: (page: number) => JSX.Element;
}) {
  const [doc, setDoc] = useState<PreviewPagesResponse | null>(null);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<Problem | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  useEffect(() => {
    setDoc(null);
    setError(null);
    setPage(1);
    preview
      .pages(props.path)
      .then(setDoc)
      .catch((e) => setError(problem(e)));
  }, [props.path, props.tag]);
  useEffect(() => setPageError(null), [page]);

  if (error) return <p class="error-text"><ProblemText problem={error} /></p>;
  if (!doc) return <p class="muted media-status">{props.office ? "Converting with LibreOffice…" : "Loading…"}</p>;
  const url = fileUrl(props.path, { page, width: PAGE_WIDTH, tag: props.tag });
  const [w, h] = doc.pageSizePt ?? [612, 792];
  const image = pageError ? (
    <p class="error-text">{pageError}</p>
  ) : (
    <img
      class="page"
      key={url}
      src={url}
      alt={`Page ${page} of ${props.path}`}
      data-page={page}
      style={{ aspectRatio: `${w} / ${h}` }}
      onError={() => failureOf(url).then(setPageError)}
    />
  );
  return (
    <div class={`pages${props.compact ? " compact" : ""}`}>
      {!props.compact && (
        <div class="view-tools">
          <button class="secondary small" id="page-prev" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            ‹ Prev
          </button>
          <span id="page-label">
            Page {page} of {doc.pageCount}
          </span>
          <button
            class="secondary small"
            id="page-next"
            disabled={page >= doc.pageCount}
            onClick={() => setPage(page + 1)}
          >
            Next ›
          </button>
        </div>
      )}
      {props.aside && !props.compact ? (
        <div class="page-beside">
          {image}
          {props.aside(page)}
        </div>
      ) : (
        image
      )}
      {props.compact && (
        <span class="muted">
          Page 1 of {doc.pageCount}
        </span>
      )}
    </div>
  );
}
