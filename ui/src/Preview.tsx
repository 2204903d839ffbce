// The preview pane: a text file's content (binary files say so).
import { useEffect, useState } from "preact/hooks";
import { api, bytes, message } from "./api";
import type { FileReadResponse } from "./bindings";

export function Preview({ path, version }: { path: string | null; version: number }) {
  const [file, setFile] = useState<FileReadResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setFile(null);
    setError(null);
    if (path)
      api.file
        .read(path)
        .then(setFile)
        .catch((e) => setError(message(e)));
  }, [path, version]);
  return (
    <section class="panel preview" id="preview">
      <h2>{path ?? "Preview"}</h2>
      <div class="scroll">
        {!path && <p class="muted center">Select a file to preview it.</p>}
        {error && <p class="error-text">{error}</p>}
        {file && file.text !== null && (
          <pre id="preview-text">
            {file.text}
            {file.truncated && "\n… (preview stops here)"}
          </pre>
        )}
        {file && file.text === null && (
          <p class="muted center">
            {file.mediaType}, {bytes(file.size)} — no text preview for this kind of file yet.
          </p>
        )}
      </div>
      {file && (
        <footer class="meta">
          {file.mediaType} · {bytes(file.size)}
        </footer>
      )}
    </section>
  );
}
