// Typed calls to the review area's commands (diffs, visual diffs, drops, tree filter and
// open/reveal, script forms, recent folders). The before/after views load files through
// media/api.ts's fileUrl; the visual diffs' rendered images through diffImageUrl.
import { Channel, convertFileSrc, invoke } from "@tauri-apps/api/core";
import type {
  InboxDropResponse,
  JobProgressNotice,
  RecentListResponse,
  ReviewArchiveResponse,
  ReviewCellsResponse,
  ReviewDiffResponse,
  ReviewImageResponse,
  ReviewPageResponse,
  ReviewPagesResponse,
  ReviewVideoResponse,
  ScriptsFormResponse,
  TreeFindResponse,
  TreeOpenResponse,
} from "../bindings";

const visual = <T,>(cmd: string, path: string) => invoke<T>(cmd, { params: { path } });

export const reviewApi = {
  diff: (path: string) => invoke<ReviewDiffResponse>("review_diff", { params: { path } }),
  /** A paged document's diff; an Office document's LibreOffice conversions report to `onJob`. */
  pages: (path: string, onJob: (job: JobProgressNotice) => void) => {
    const onProgress = new Channel<JobProgressNotice>();
    onProgress.onmessage = onJob;
    return invoke<ReviewPagesResponse>("review_pages", { params: { path }, onProgress });
  },
  page: (path: string, index: number, dpi: number | null = null) =>
    invoke<ReviewPageResponse>("review_page", { params: { path, index, dpi } }),
  cells: (path: string) => visual<ReviewCellsResponse>("review_cells", path),
  image: (path: string) => visual<ReviewImageResponse>("review_image", path),
  video: (path: string) => visual<ReviewVideoResponse>("review_video", path),
  archive: (path: string) => visual<ReviewArchiveResponse>("review_archive", path),
  drop: (paths: string[]) => invoke<InboxDropResponse>("inbox_drop", { params: { paths } }),
  find: (query: string) => invoke<TreeFindResponse>("tree_find", { params: { query } }),
  open: (path: string, reveal: boolean) => invoke<TreeOpenResponse>("tree_open", { params: { path, reveal } }),
  form: (path: string) => invoke<ScriptsFormResponse>("scripts_form", { params: { path } }),
  recent: () => invoke<RecentListResponse>("recent_list"),
};

/** The folio:// URL of an image a visual diff rendered (a page, an overlay, a thumbnail): the
 * key names it in the folder's preview cache (see src-tauri/src/scheme.rs, `?diff=`). */
export function diffImageUrl(key: string): string {
  return `${convertFileSrc("/", "folio")}?diff=${encodeURIComponent(key)}`;
}

/** "180 ms" or "1.4 s". */
export function cost(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
