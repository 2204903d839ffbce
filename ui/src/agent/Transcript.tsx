// The conversation: the folder's conversations (new, switch, replayed from the store), the
// streaming transcript (with each model request's "What was sent" row), and the composer (Ctrl/Cmd+Enter sends, Esc stops).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { ConversationNotification, ConversationSummary, MissingCapability } from "../bindings";
import { problem, type Problem } from "../api";
import { agentApi } from "./api";
import { emptyTranscript, reduce, settle, type Transcript as Model } from "./model";
import { Markdown } from "./Markdown";
import { ToolRow } from "./ToolRow";
import { AskCard } from "./AskCard";
import { Handoff } from "./Handoff";
import { SentRow } from "./Sent";
import "./agent.css";

const CAPABILITY: Record<MissingCapability, string> = {
  pdfium: "PDFium (PDF rendering)",
  libreoffice: "LibreOffice (Office documents)",
  chromium: "Chromium (HTML rendering)",
  ffmpeg: "ffmpeg (audio and video)",
};

function tokens(n: number): string {
  return n < 1000 ? `${n}` : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(2)}M`;
}

export function Transcript(props: {
  version: number;
  onChanged: () => void;
  onError: (e: Problem) => void;
  onSelect: (path: string) => void;
  onOpenDoctor: () => void;
  onOpenSettings: () => void;
}) {
  const { onChanged, onError } = props;
  const [model, setModel] = useState<Model>(emptyTranscript());
  const [list, setList] = useState<ConversationSummary[]>([]);
  const [draft, setDraft] = useState("");
  const [live, setLive] = useState(false);
  // A turn that runs without this window's channel (the page reloaded mid-turn): followed by
  // replaying it from the store until it ends, and stoppable.
  const [detached, setDetached] = useState(false);
  const running = live || detached;
  const [dismissed, setDismissed] = useState<MissingCapability[]>([]);
  const modelRef = useRef(model);
  modelRef.current = model;
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  const refreshList = useCallback(async () => {
    try {
      setList((await agentApi.conversation.list()).conversations);
    } catch (e) {
      onError(problem(e));
    }
  }, [onError]);

  const openConversation = useCallback(
    async (id: string) => {
      try {
        const opened = await agentApi.conversation.open(id);
        let t: Model = { ...emptyTranscript(), conversationId: opened.id, title: opened.title };
        for (const n of opened.items) t = reduce(t, n);
        setModel(settle(t, opened.running));
        setDetached(opened.running);
        stick.current = true;
      } catch (e) {
        onError(problem(e));
      }
    },
    [onError],
  );

  // The folder's most recent conversation reopens where it stopped.
  useEffect(() => {
    (async () => {
      try {
        const convs = (await agentApi.conversation.list()).conversations;
        setList(convs);
        if (convs.length > 0 && modelRef.current.conversationId === null) await openConversation(convs[0].id);
      } catch (e) {
        onError(problem(e));
      }
    })();
  }, [openConversation, onError]);

  useEffect(() => {
    if (!detached || !model.conversationId) return;
    const id = model.conversationId;
    const timer = setInterval(() => openConversation(id), 1000);
    return () => clearInterval(timer);
  }, [detached, model.conversationId, openConversation]);

  useEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [model]);

  const send = async (text: string | null) => {
    if (running) return;
    if (text !== null && !text.trim()) return;
    setLive(true);
    if (text !== null) setDraft("");
    stick.current = true;
    const apply = (n: ConversationNotification) => {
      setModel((m) => reduce(m, n));
      if (n.type === "pending") onChanged();
      if (n.type === "started") refreshList();
    };
    try {
      await agentApi.conversation.send({ conversationId: modelRef.current.conversationId, text }, apply);
    } catch (e) {
      if (text !== null) setDraft(text);
      onError(problem(e));
    } finally {
      setLive(false);
      onChanged();
      refreshList();
    }
  };

  const stop = useCallback(async () => {
    const id = modelRef.current.conversationId;
    if (!id) return;
    try {
      await agentApi.conversation.stop(id);
    } catch (e) {
      onError(problem(e));
    }
  }, [onError]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && running) {
        e.preventDefault();
        stop();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, stop]);

  const newConversation = () => {
    if (running) return;
    setModel(emptyTranscript());
    setDismissed([]);
  };

  const answered = (id: number, answer: string) =>
    setModel((m) => ({
      ...m,
      items: m.items.map((i) => (i.kind === "ask" && i.id === id ? { ...i, answer } : i)),
    }));

  const missing = model.missing.filter((c) => !dismissed.includes(c));
  const lastEnd = [...model.items].reverse().find((i) => i.kind === "end" || i.kind === "user");
  const canContinue = !running && lastEnd?.kind === "end" && (lastEnd.end === "maxTurns" || lastEnd.end === "stopped");

  return (
    <section class="panel transcript" aria-label="Conversation">
      <div class="conv-bar">
        <select
          id="conversation-select"
          value={model.conversationId ?? ""}
          disabled={running}
          onChange={(e) => {
            const id = (e.target as HTMLSelectElement).value;
            setDismissed([]);
            if (id) openConversation(id);
            else newConversation();
          }}
        >
          <option value="">New conversation</option>
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
        <button id="new-conversation" class="secondary small" disabled={running} onClick={newConversation}>
          New
        </button>
        <div class="spacer" />
        <span class="usage" id="usage" title="Tokens sent and received in this conversation's turns shown here">
          {model.tokensIn + model.tokensOut > 0 &&
            `${tokens(model.tokensIn)} in · ${tokens(model.tokensOut)} out${
              model.costKnown ? ` · $${model.cost.toFixed(4)}` : ""
            }${model.contextWindow ? ` · ${Math.round((100 * model.lastPrompt) / model.contextWindow)}% of window` : ""}`}
        </span>
      </div>
      {missing.map((c) => (
        <div class="banner warn capability-banner" role="alert" key={c} data-capability={c}>
          <span>
            This needs {CAPABILITY[c]}, which this machine does not have — the Doctor has the command that installs it.
          </span>
          <span>
            <button class="secondary small" onClick={props.onOpenDoctor}>
              Open Doctor
            </button>
            <button class="link" onClick={() => setDismissed([...dismissed, c])}>
              Dismiss
            </button>
          </span>
        </div>
      ))}
      <div
        class="messages"
        id="messages"
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {model.items.length === 0 && (
          <div class="conv-empty">
            <h2>Ask for a deliverable</h2>
            <p class="muted">
              Describe what you need from this folder — a summary, a chart, a cleaned spreadsheet. The agent works on a
              copy; you review and commit what it makes.
            </p>
            <p class="muted">
              <button class="link" onClick={props.onOpenSettings}>
                Settings
              </button>{" "}
              chooses the model.
            </p>
          </div>
        )}
        {model.items.map((item, i) => {
          switch (item.kind) {
            case "user":
              return (
                <div class="msg-user" key={i}>
                  {item.text}
                </div>
              );
            case "text":
              return <Markdown key={i} class="msg-text" text={item.text} />;
            case "tools":
              return (
                <div class="tool-group" key={i}>
                  {item.calls.map((c) => (
                    <ToolRow key={c.id} call={c} />
                  ))}
                </div>
              );
            case "presented":
              return (
                <Handoff
                  key={i}
                  path={item.path}
                  name={item.name}
                  size={item.size}
                  caption={item.caption}
                  version={props.version}
                  onError={onError}
                  onSelect={props.onSelect}
                />
              );
            case "ask":
              return (
                <AskCard
                  key={i}
                  {...item}
                  onAnswered={(a) => answered(item.id, a)}
                  onError={onError}
                />
              );
            case "notice":
              return (
                <div class={`notice ${item.tone}`} key={i} role={item.tone === "error" ? "alert" : undefined}>
                  {item.text}
                </div>
              );
            case "sent":
              return <SentRow key={i} request={item.request} />;
            case "maxTurns":
              return (
                <div class="notice warn max-turns" key={i}>
                  The agent used its run budget ({item.turns} model calls) and paused.
                  <button class="small" disabled={running} onClick={() => send(null)}>
                    Continue
                  </button>
                </div>
              );
            case "end":
              return item.end === "stopped" ? (
                <div class="turn-end stopped" key={i} data-end="stopped">
                  Stopped.
                </div>
              ) : item.end === "failed" ? (
                <div class="turn-end failed" key={i} data-end="failed">
                  The turn failed.
                </div>
              ) : (
                <div class="turn-end" key={i} data-end={item.end} />
              );
          }
        })}
        {running && <div class="working" id="working">Working…</div>}
      </div>
      <div class="composer">
        <textarea
          id="composer"
          value={draft}
          placeholder="Ask for something… (Ctrl+Enter to send)"
          rows={3}
          onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              send(draft);
            }
          }}
        />
        <div class="composer-actions">
          {canContinue && (
            <button class="secondary" id="continue" onClick={() => send(null)}>
              Continue
            </button>
          )}
          {running ? (
            <button id="stop" class="danger" onClick={stop} title="Stop the agent (Esc)">
              Stop
            </button>
          ) : (
            <button id="send" disabled={!draft.trim()} onClick={() => send(draft)} title="Send (Ctrl+Enter)">
              Send
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
