// Model output as markdown: parsed with marked, sanitised with DOMPurify before it reaches a webview
// that can call the app's commands (no script, no event handlers, no iframes), links never navigate
// the window away.
import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "preact/hooks";

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: false }) as string;
  return DOMPurify.sanitize(html, { FORBID_TAGS: ["style", "iframe", "form", "input"], FORBID_ATTR: ["style"] });
}

export function Markdown(props: { text: string; class?: string }) {
  const html = useMemo(() => renderMarkdown(props.text), [props.text]);
  return (
    <div
      class={`markdown ${props.class ?? ""}`}
      onClick={(e) => {
        // A link in a reply must not replace the app with a web page.
        if ((e.target as HTMLElement).closest("a")) e.preventDefault();
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
