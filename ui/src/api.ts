// Typed calls to the desktop app's commands. Each Rust command `resource_method` is exposed here
// as `api.resource.method`; the payload types come from bindings/ (one file per concern), generated from the Rust types.
import { Channel, invoke } from "@tauri-apps/api/core";
import type {
  CommandError,
  CommitApplyParams,
  CommitApplyResponse,
  DiscardApplyParams,
  DiscardApplyResponse,
  FileReadResponse,
  FolderOpenParams,
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
    // readOnly null: the choice remembered for this folder in the recent list.
    open: (path: string, readOnly: boolean | null = null) =>
      invoke<FolderOpenResponse>("folder_open", { params: { path, readOnly } satisfies FolderOpenParams }),
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

/** A failure to show: a command's `{kind, message, hint}`, or a message the UI wrote itself. */
export type Problem = string | CommandError;

/** True for the error a command rejects with. */
export function isCommandError(error: unknown): error is CommandError {
  if (typeof error !== "object" || error === null) return false;
  const e = error as Record<string, unknown>;
  return typeof e.kind === "string" && typeof e.message === "string" && (e.hint === null || typeof e.hint === "string");
}

/** A failed call as a problem to show: a command's error keeps its hint apart, anything else is its text. */
export function problem(error: unknown): Problem {
  return isCommandError(error) ? error : message(error);
}

/** A failure as one line of text (the message, then ` — hint: ` and the fix), where only a line fits. */
export function message(error: unknown): string {
  if (isCommandError(error)) return error.hint ? `${error.message} — hint: ${error.hint}` : error.message;
  return typeof error === "string" ? error : error instanceof Error ? error.message : JSON.stringify(error);
}

/** Bytes as people read them. */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
