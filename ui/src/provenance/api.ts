// Typed calls to the provenance commands (src-tauri/src/provenance): where a file came from, and
// regenerating it with no model.
import { invoke } from "@tauri-apps/api/core";
import type {
  ProvenanceGetParams,
  ProvenanceGetResponse,
  ProvenanceRegenerateParams,
  ProvenanceRegenerateResponse,
} from "../bindings";

export const provenance = {
  get: (path: string) =>
    invoke<ProvenanceGetResponse>("provenance_get", { params: { path } satisfies ProvenanceGetParams }),
  regenerate: (path: string, useCurrentScript = false) =>
    invoke<ProvenanceRegenerateResponse>("provenance_regenerate", {
      params: { path, useCurrentScript } satisfies ProvenanceRegenerateParams,
    }),
};

/** Asks the review panel to open (ReviewBar listens), re-reading the pending changes. */
export function openReview(path: string) {
  window.dispatchEvent(new CustomEvent("folio:review-open", { detail: { path } }));
}
