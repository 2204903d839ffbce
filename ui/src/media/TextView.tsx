// Text files: markdown rendered (marked, then DOMPurify, since a webview that can call the app
// must never run a file's HTML), JSON pretty-printed, code and plain text with line numbers.
import { useEffect, useState } from "preact/hooks";
import { marked } from "marked";
import DOMPurify from "dompurify";
import type { FileReadResponse, PreviewKind } from "../bindings";
import { ProblemText } from "../ProblemText";
import { api, problem, type Problem } from "../api";

const COMPACT_LINES = 12;

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function TextView(props: { path: string; tag: string; kind: PreviewKind; compact?: boolean }) {
  const [file, setFile] = useState<FileReadResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  useEffect(() => {
    setError(null);
    api.file
      .read(props.path)
      .then(setFile)
      .catch((e) => setError(problem(e)));
  }, [props.path, props.tag]);
  if (error) return <p class="error-text"><ProblemText problem={error} /></p>;
  if (!file) return <p class="muted media-status">Loading…</p>;
  if (file.text === null) return <p class="muted">This file is not text.</p>;
  const more = file.truncated ? "\n… (the preview stops here; open the file to see the rest)" : "";
  if (props.kind === "markdown" && !props.compact) {
    const html = DOMPurify.sanitize(marked.parse(file.text, { async: false }) as string);
    return <div class="markdown" id="preview-text" dangerouslySetInnerHTML={{ __html: html }} />;
  }
  const text = props.kind === "json" && !file.truncated ? pretty(file.text) : file.text;
  let lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines = lines.slice(0, -1);
  const cut = props.compact && lines.length > COMPACT_LINES;
  if (cut) lines = lines.slice(0, COMPACT_LINES);
  if (props.kind === "text" && !props.compact) {
    return (
      <pre id="preview-text" class="text-view">
        {lines.join("\n")}
        {more}
      </pre>
    );
  }
  return (
    <pre id="preview-text" class={`text-view numbered${props.compact ? " compact" : ""}`}>
      {lines.map((line, i) => (
        <div class="line" key={i}>
          <span class="ln">{i + 1}</span>
          <span class="lc">{line || " "}</span>
        </div>
      ))}
      {cut && <div class="muted">…</div>}
      {!props.compact && more}
    </pre>
  );
}
