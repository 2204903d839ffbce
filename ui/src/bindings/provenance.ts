// TEMPORARY hand-written stand-in, replaced by the generated file.
export type ProvenanceGetParams = { path: string, };
export type ProvenanceStanding = "current" | "stale" | "editedSince" | "unknown";
export type ProvenanceScriptState = "same" | "changed" | "gone";
export type ProvenanceOriginKind = "agent" | "direct" | "regenerate";
export type ProvenanceInput = { path: string, hash: string, changed: boolean, gone: boolean, };
export type ProvenanceMade = { script: string, scriptHash: string, scriptState: ProvenanceScriptState, inputs: Array<ProvenanceInput>, runId: string, origin: ProvenanceOriginKind, conversation: string | null, turn: number | null, model: string | null, fromRun: string | null, madeAtMs: number, };
export type ProvenanceGetResponse = { path: string, standing: ProvenanceStanding, made: ProvenanceMade | null, line: string, };
export type ProvenanceRegenerateParams = { path: string, useCurrentScript: boolean, };
export type ProvenanceRegenerateResponse = { path: string, script: string, runId: string, beforeSize: number, afterSize: number, changed: boolean, pending: boolean, changedInputs: Array<string>, notes: Array<string>, };
