// A paged document's visual diff (PDF, DOCX, PPTX): the summary first (page counts and the
// alignment, nothing rendered), then each pair rendered and compared on its own when it scrolls
// into view, with what it cost. Runs of pages known unchanged are folded ("4 unchanged pages"),
// and expand on a click; added and removed pages show their one side, labelled.
import { useEffect, useRef, useState } from "preact/hooks";
import { ProblemText } from "../ProblemText";
import { problem, type Problem } from "../api";
import type {
  JobProgressNotice,
  PageState,
  ReviewPagePair,
  ReviewPageResponse,
  ReviewPagesResponse,
} from "../bindings";
import { JobBar } from "../JobBar";
import { cost, diffImageUrl, reviewApi } from "./api";

const LABEL: Record<PageState, string> = {
  changed: "changed",
  unchanged: "unchanged",
  unknown: "comparing…",
  added: "added",
  removed: "removed",
};

function pageName(p: ReviewPagePair): string {
  if (p.old !== null && p.new !== null) return p.old === p.new ? `Page ${p.new}` : `Page ${p.old} → ${p.new}`;
  if (p.new !== null) return `Page ${p.new}`;
  return `Page ${p.old}`;
}

/** Calls `onVisible` once, when the element first scrolls into view. */
function useVisible(onVisible: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (typeof IntersectionObserver === "undefined") {
      onVisible();
      return;
    }
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        seen.disconnect();
        onVisible();
      }
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return ref;
}

function Side({ png, alt, missing }: { png: string | null; alt: string; missing: string }) {
  return png ? <img src={diffImageUrl(png)} alt={alt} /> : <div class="nothing muted">{missing}</div>;
}

function PagePair({ path, pair }: { path: string; pair: ReviewPagePair }) {
  const [page, setPage] = useState<ReviewPageResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  // A pair found unchanged once compared folds to its header line, like the known-unchanged runs.
  const [shown, setShown] = useState(false);
  const ref = useVisible(() => {
    reviewApi
      .page(path, pair.index)
      .then(setPage)
      .catch((e) => setError(problem(e)));
  });
  const state = page?.state ?? pair.state;
  return (
    <div class={`page-pair ${state}`} ref={ref} data-pair={pair.index} data-state={state}>
      <div class="page-head">
        <b>{pageName(pair)}</b>
        <span class={`page-badge ${state}`}>{LABEL[state]}</span>
        {page && state === "changed" && <span class="muted">{(page.changedFraction * 100).toFixed(1)}% of pixels</span>}
        <div class="spacer" />
        {page && <span class="muted page-cost">compared in {cost(page.ms)}</span>}
        {page && state === "unchanged" && (
          <button class="link small" onClick={() => setShown(!shown)}>
            {shown ? "hide" : "show"}
          </button>
        )}
      </div>
      {error && (
        <div class="error-text">
          <ProblemText problem={error} />
        </div>
      )}
      {!error && !page && <div class="muted page-wait">Rendering both pages…</div>}
      {page && (state !== "unchanged" || shown) && (
        <div class="before-after page-sides">
          <figure>
            <figcaption>Folder now{pair.old !== null && ` · p. ${pair.old}`}</figcaption>
            <div class="page-frame">
              <Side png={page.oldPng} alt={`${path} page ${pair.old} in the folder`} missing="No such page in the folder" />
            </div>
          </figure>
          <figure>
            <figcaption>After commit{pair.new !== null && ` · p. ${pair.new}`}</figcaption>
            <div class="page-frame">
              <Side png={page.newPng} alt={`${path} page ${pair.new} after commit`} missing="Removed by the commit" />
              {page.newPng &&
                page.boxes.map((b, i) => (
                  <span
                    key={i}
                    class="change-box"
                    style={{ left: `${b.x * 100}%`, top: `${b.y * 100}%`, width: `${b.w * 100}%`, height: `${b.h * 100}%` }}
                  />
                ))}
            </div>
          </figure>
        </div>
      )}
    </div>
  );
}

type Run = { fold: true; pairs: ReviewPagePair[] } | { fold: false; pair: ReviewPagePair };

/** Consecutive pages known unchanged become one fold; a single one stays a fold too. */
function runs(pairs: ReviewPagePair[]): Run[] {
  const out: Run[] = [];
  for (const p of pairs) {
    const last = out[out.length - 1];
    if (p.state === "unchanged") {
      if (last && last.fold) last.pairs.push(p);
      else out.push({ fold: true, pairs: [p] });
    } else out.push({ fold: false, pair: p });
  }
  return out;
}

function Fold({ path, pairs }: { path: string; pairs: ReviewPagePair[] }) {
  const [open, setOpen] = useState(false);
  if (open) return <>{pairs.map((p) => <PagePair key={p.index} path={path} pair={p} />)}</>;
  const first = pairs[0];
  const last = pairs[pairs.length - 1];
  const span = pairs.length === 1 ? pageName(first) : `${pageName(first)} – ${pageName(last).replace("Page ", "")}`;
  return (
    <button class="link small page-fold" data-fold={first.index} onClick={() => setOpen(true)}>
      {pairs.length} unchanged page{pairs.length === 1 ? "" : "s"} ({span}) — show
    </button>
  );
}

export function PagesDiff({ path, version }: { path: string; version: number }) {
  const [summary, setSummary] = useState<ReviewPagesResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  const [job, setJob] = useState<JobProgressNotice | null>(null);
  useEffect(() => {
    let current = true;
    setSummary(null);
    setError(null);
    setJob(null);
    reviewApi
      .pages(path, (j) => current && setJob(j))
      .then((s) => current && setSummary(s))
      .catch((e) => current && setError(problem(e)));
    return () => {
      current = false;
    };
  }, [path, version]);
  if (error)
    return (
      <div class="visual-error error-text">
        <ProblemText problem={error} />
      </div>
    );
  if (!summary)
    return (
      <div class="muted visual-wait">
        {!job
          ? "Opening both versions…"
          : job.total === 1
            ? "Converting it to PDF with LibreOffice…"
            : "Converting both versions to PDF with LibreOffice…"}
        {job && <JobBar job={job} />}
      </div>
    );
  const count = (s: PageState) => summary.pairs.filter((p) => p.state === s).length;
  return (
    <div class="pages-diff" data-pages={path}>
      <div class="visual-summary">
        {summary.oldPages} → {summary.newPages} pages
        {count("added") > 0 && <span class="stat added"> · {count("added")} added</span>}
        {count("removed") > 0 && <span class="stat removed"> · {count("removed")} removed</span>}
        {count("unchanged") > 0 && <span class="muted"> · {count("unchanged")} known unchanged</span>}
        <span class="muted"> · opened in {cost(summary.ms)}</span>
      </div>
      {summary.note && <div class="diff-note">{summary.note}</div>}
      {runs(summary.pairs).map((r) =>
        r.fold ? (
          <Fold key={`f${r.pairs[0].index}-${version}`} path={path} pairs={r.pairs} />
        ) : (
          <PagePair key={`p${r.pair.index}-${version}`} path={path} pair={r.pair} />
        ),
      )}
    </div>
  );
}
