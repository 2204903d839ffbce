// The preview pane: the selected file through FileView (images, media, pages, tables, text).
import { FileView } from "./media/FileView";

export function Preview({ path, version }: { path: string | null; version: number }) {
  return (
    <section class="panel preview" id="preview">
      <h2 title={path ?? undefined}>{path ?? "Preview"}</h2>
      <div class="scroll">
        {path ? <FileView path={path} version={version} /> : <p class="muted center">Select a file to preview it.</p>}
      </div>
    </section>
  );
}
