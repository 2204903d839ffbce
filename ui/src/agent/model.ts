// The transcript as data: notifications (live, or replayed from the store) folded into items the
// view renders. Pure functions, so a live turn and a replay build exactly the same transcript.
import type {
  ConversationNotification,
  JobProgressNotice,
  MissingCapability,
  SentRequest,
  ToolStatus,
  TurnEnd,
  VerbClass,
} from "../bindings";

export type ToolCall = {
  id: string;
  name: string;
  cls: VerbClass;
  status: ToolStatus | "running";
  /** The arguments' JSON as the model has written it so far. */
  raw: string;
  input: unknown;
  summary: string;
  output: string | null;
  durationMs: number | null;
  /** Console lines, in order; a long job's progress is not among them. */
  progress: { text: string; isError: boolean }[];
  /** The latest progress of the call's long job (each replaces the one before), if any. */
  job: JobProgressNotice | null;
  missing: MissingCapability | null;
};

export type Item =
  | { kind: "user"; text: string }
  | { kind: "text"; text: string }
  | { kind: "tools"; calls: ToolCall[] }
  | { kind: "presented"; path: string; name: string; mediaType: string; size: number; caption: string }
  | { kind: "ask"; id: number; question: string; options: string[]; answer: string | null; closed: boolean }
  | { kind: "notice"; tone: "info" | "warn" | "error"; text: string }
  | { kind: "maxTurns"; turns: number }
  /** A model request as the egress ledger recorded it ("What was sent"). */
  | { kind: "sent"; request: SentRequest }
  | { kind: "end"; end: TurnEnd };

export type Transcript = {
  conversationId: string | null;
  title: string;
  items: Item[];
  tokensIn: number;
  tokensOut: number;
  cost: number;
  costKnown: boolean;
  contextWindow: number;
  lastPrompt: number;
  /** Capabilities a call needed that this machine lacks (for the banner). */
  missing: MissingCapability[];
};

export const emptyTranscript = (): Transcript => ({
  conversationId: null,
  title: "",
  items: [],
  tokensIn: 0,
  tokensOut: 0,
  cost: 0,
  costKnown: false,
  contextWindow: 0,
  lastPrompt: 0,
  missing: [],
});

/** The value of a string field in JSON that may be cut anywhere (a script the model is writing). */
export function partialField(json: string, field: string): string | null {
  const start = json.search(new RegExp(`"${field}"\\s*:\\s*"`));
  if (start < 0) return null;
  let i = json.indexOf('"', json.indexOf(":", start)) + 1;
  let out = "";
  while (i < json.length) {
    const c = json[i];
    if (c === '"') break;
    if (c === "\\") {
      const next = json[i + 1];
      if (next === undefined) break;
      if (next === "u") {
        const hex = json.slice(i + 2, i + 6);
        if (hex.length < 4) break;
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      out += ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" } as Record<string, string>)[next] ?? next;
      i += 2;
      continue;
    }
    out += c;
    i += 1;
  }
  return out;
}

function lastTools(items: Item[]): Extract<Item, { kind: "tools" }> | null {
  const last = items[items.length - 1];
  return last && last.kind === "tools" ? last : null;
}

/** The call a script's console line belongs to: the latest running `run` call. */
function runningRun(items: Item[]): ToolCall | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.kind === "tools") {
      const call = [...item.calls].reverse().find((c) => c.status === "running");
      if (call) return call;
    }
  }
  return null;
}

/**
 * Folds one notification into the transcript. The items array and the touched item are copied so
 * the view sees a new object; untouched items keep their identity (cheap re-render while text streams).
 */
export function reduce(t: Transcript, n: ConversationNotification): Transcript {
  const items = [...t.items];
  const next: Transcript = { ...t, items };
  switch (n.type) {
    case "started":
      next.conversationId = n.conversationId;
      next.title = n.title;
      break;
    case "user":
      items.push({ kind: "user", text: n.text });
      break;
    case "modelCall":
      break;
    case "text": {
      const last = items[items.length - 1];
      if (last && last.kind === "text") items[items.length - 1] = { kind: "text", text: last.text + n.text };
      else items.push({ kind: "text", text: n.text });
      break;
    }
    case "toolStarted": {
      const call: ToolCall = {
        id: n.id,
        name: n.name,
        cls: n.class,
        status: "running",
        raw: "",
        input: null,
        summary: "",
        output: null,
        durationMs: null,
        progress: [],
        job: null,
        missing: null,
      };
      const group = lastTools(items);
      if (group) items[items.length - 1] = { kind: "tools", calls: [...group.calls, call] };
      else items.push({ kind: "tools", calls: [call] });
      break;
    }
    case "toolInput":
    case "toolFinished":
    case "toolProgress": {
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i];
        if (item.kind !== "tools") continue;
        const target =
          n.type === "toolProgress" ? runningRun([item]) : (item.calls.find((c) => c.id === n.id) ?? null);
        if (!target) continue;
        const call: ToolCall = { ...target };
        if (n.type === "toolInput") {
          call.raw += n.fragment;
          call.summary = partialField(call.raw, "path") ?? call.summary;
        } else if (n.type === "toolProgress" && n.job) {
          call.job = n.job;
        } else if (n.type === "toolProgress") {
          call.progress = [...call.progress, { text: n.text, isError: n.isError }];
        } else {
          call.status = n.status;
          call.input = n.input;
          call.summary = n.summary;
          call.output = n.output;
          call.durationMs = n.durationMs;
          call.missing = n.missing;
          if (n.missing && !next.missing.includes(n.missing)) next.missing = [...next.missing, n.missing];
        }
        items[i] = { kind: "tools", calls: item.calls.map((c) => (c.id === call.id ? call : c)) };
        if (n.type === "toolFinished" && n.name === "ask_user") {
          // The question this call asked is answered (or was released) now.
          for (let j = items.length - 1; j >= 0; j--) {
            const ask = items[j];
            if (ask.kind === "ask" && !ask.closed) {
              // The verb's output is its message (the answer) then its data; the message is shown.
              const said = n.status === "success" ? n.output.split("\n")[0] : null;
              items[j] = { ...ask, closed: true, answer: ask.answer ?? said };
              break;
            }
          }
        }
        break;
      }
      break;
    }
    case "presented":
      items.push({ kind: "presented", path: n.path, name: n.name, mediaType: n.mediaType, size: n.size, caption: n.caption });
      break;
    case "ask":
      items.push({ kind: "ask", id: n.id, question: n.question, options: n.options, answer: null, closed: false });
      break;
    case "pending":
      break;
    case "retrying":
      items.push({ kind: "notice", tone: "warn", text: `Retrying in ${Math.round(n.delayMs / 100) / 10} s — ${n.reason}` });
      break;
    case "usage":
      next.tokensIn += n.inputTokens;
      next.tokensOut += n.outputTokens;
      next.contextWindow = n.contextWindow;
      next.lastPrompt = n.inputTokens;
      if (n.costUsd !== null) {
        next.cost += n.costUsd;
        next.costKnown = true;
      }
      break;
    case "compacted":
      items.push({
        kind: "notice",
        tone: "info",
        text: `Earlier history was summarised (${n.messages} messages) to stay within the model's window.`,
      });
      break;
    case "maxTurns":
      items.push({ kind: "maxTurns", turns: n.turns });
      break;
    case "finished":
      // Calls still running when a turn ends were cut off by it.
      items.forEach((item, i) => {
        if (item.kind === "tools" && item.calls.some((c) => c.status === "running"))
          items[i] = {
            kind: "tools",
            calls: item.calls.map((c) => (c.status === "running" ? { ...c, status: "aborted" as const } : c)),
          };
        if (item.kind === "ask" && !item.closed) items[i] = { ...item, closed: true };
      });
      items.push({ kind: "end", end: n.end });
      break;
    case "modelRequest":
      items.push({ kind: "sent", request: n.request });
      break;
    case "error":
      items.push({ kind: "notice", tone: "error", text: n.message });
      if (n.missing && !next.missing.includes(n.missing)) next.missing = [...next.missing, n.missing];
      break;
  }
  return next;
}

/** Closes what a replay left open: questions of a turn that is no longer running. */
export function settle(t: Transcript, running: boolean): Transcript {
  if (running) return t;
  return { ...t, items: t.items.map((i) => (i.kind === "ask" && !i.closed ? { ...i, closed: true } : i)) };
}
