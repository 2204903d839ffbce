// The preview pane: the selected file through FileView (images, media, pages, tables, text).
import { FileView } from "./media/FileView";
import { ProvenanceLine } from "./provenance/Provenance";

export function Preview({ path, version }: { path: string | null; version: number }) {
  return (
    <section class="panel preview" id="preview">
      <h2 title={path ?? undefined}>{path ?? "Preview"}</h2>
      {path && <ProvenanceLine path={path} version={version} />}
      <div class="scroll">
        {path ? <FileView path={path} version={version} /> : <p class="muted center">Select a file to preview it.</p>}
      </div>
    </section>
  );
}
