// Typed calls to the desktop app's commands. Each Rust command `resource_method` is exposed here
// as `api.resource.method`; the payload types come from bindings/ (one file per concern), generated from the Rust types.
import { Channel, invoke } from "@tauri-apps/api/core";
import type {
  CommitApplyParams,
  CommitApplyResponse,
  DiscardApplyParams,
  DiscardApplyResponse,
  FileReadResponse,
  FolderOpenResponse,
  ScriptProgressNotification,
  ScriptsListResponse,
  ScriptsRunParams,
  ScriptsRunResponse,
  StatusGetResponse,
  TreeListResponse,
} from "./bindings";

export const api = {
  folder: {
    open: (path: string) => invoke<FolderOpenResponse>("folder_open", { params: { path } }),
  },
  status: {
    get: () => invoke<StatusGetResponse>("status_get"),
  },
  tree: {
    list: (path: string) => invoke<TreeListResponse>("tree_list", { params: { path } }),
  },
  file: {
    read: (path: string) => invoke<FileReadResponse>("file_read", { params: { path } }),
  },
  scripts: {
    list: () => invoke<ScriptsListResponse>("scripts_list"),
    run: (params: ScriptsRunParams, onLine: (line: ScriptProgressNotification) => void) => {
      const onProgress = new Channel<ScriptProgressNotification>();
      onProgress.onmessage = onLine;
      return invoke<ScriptsRunResponse>("scripts_run", { params, onProgress });
    },
  },
  commit: {
    apply: (params: CommitApplyParams) => invoke<CommitApplyResponse>("commit_apply", { params }),
  },
  discard: {
    apply: (params: DiscardApplyParams) => invoke<DiscardApplyResponse>("discard_apply", { params }),
  },
};

/** The message of a failed command (commands reject with a readable string). */
export function message(error: unknown): string {
  return typeof error === "string" ? error : error instanceof Error ? error.message : JSON.stringify(error);
}

/** Bytes as people read them. */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
