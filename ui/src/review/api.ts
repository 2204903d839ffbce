// Typed calls to the review area's commands (diffs, drops, tree filter and open/reveal, script
// forms, recent folders), and the folio:// URLs the before/after views load.
import { invoke } from "@tauri-apps/api/core";
import type {
  InboxDropResponse,
  RecentListResponse,
  ReviewDiffResponse,
  ScriptsFormResponse,
  TreeFindResponse,
  TreeOpenResponse,
} from "../bindings";

export const reviewApi = {
  diff: (path: string) => invoke<ReviewDiffResponse>("review_diff", { params: { path } }),
  drop: (paths: string[]) => invoke<InboxDropResponse>("inbox_drop", { params: { paths } }),
  find: (query: string) => invoke<TreeFindResponse>("tree_find", { params: { query } }),
  open: (path: string, reveal: boolean) => invoke<TreeOpenResponse>("tree_open", { params: { path, reveal } }),
  form: (path: string) => invoke<ScriptsFormResponse>("scripts_form", { params: { path } }),
  recent: () => invoke<RecentListResponse>("recent_list"),
};

/** The URL of a file of the working environment over the app's folio:// scheme; `base` asks for
 * the folder's own (committed) bytes instead of the agent's version. */
export function fileUrl(path: string, base = false, bust?: number): string {
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  const origin = navigator.userAgent.includes("Windows") ? "http://folio.localhost" : "folio://localhost";
  const query = [base ? "version=base" : "", bust !== undefined ? `v=${bust}` : ""].filter(Boolean).join("&");
  return `${origin}${encoded}${query ? `?${query}` : ""}`;
}
