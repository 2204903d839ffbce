// Typed calls to the review area's commands (diffs, drops, tree filter and open/reveal, script
// forms, recent folders). The before/after views load files through media/api.ts's fileUrl.
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
