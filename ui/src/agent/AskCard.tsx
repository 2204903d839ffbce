// The agent's question: its options as buttons, and free text (always allowed).
import { useState } from "preact/hooks";
import { agentApi } from "./api";
import { problem, type Problem } from "../api";

export function AskCard(props: {
  id: number;
  question: string;
  options: string[];
  answer: string | null;
  closed: boolean;
  onAnswered: (answer: string) => void;
  onError: (e: Problem) => void;
}) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const send = async (answer: string) => {
    setBusy(true);
    try {
      await agentApi.conversation.answer(props.id, answer);
      props.onAnswered(answer);
    } catch (e) {
      props.onError(problem(e));
    } finally {
      setBusy(false);
    }
  };
  const live = !props.closed && props.answer === null;
  return (
    <div class={`ask-card ${live ? "live" : "done"}`} data-question={props.id}>
      <div class="ask-question">{props.question}</div>
      {live ? (
        <>
          <div class="ask-options">
            {props.options.map((o) => (
              <button key={o} class="secondary ask-option" data-option={o} disabled={busy} onClick={() => send(o)}>
                {o}
              </button>
            ))}
          </div>
          <form
            class="ask-free"
            onSubmit={(e) => {
              e.preventDefault();
              if (text.trim()) send(text.trim());
            }}
          >
            <input
              value={text}
              placeholder={props.options.length ? "Or type another answer…" : "Type your answer…"}
              onInput={(e) => setText((e.target as HTMLInputElement).value)}
            />
            <button type="submit" class="small" disabled={busy || !text.trim()}>
              Answer
            </button>
          </form>
        </>
      ) : (
        <div class="ask-answer muted">
          {props.answer !== null ? `Answered: ${props.answer}` : "Not answered (the turn ended)."}
        </div>
      )}
    </div>
  );
}
