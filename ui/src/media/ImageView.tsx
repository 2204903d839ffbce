// An image: fitted to the pane, or at 1:1 with scrolling (click the image or the button).
import { useState } from "preact/hooks";
import { failureOf, fileUrl } from "./api";

export function ImageView(props: { path: string; tag: string; compact?: boolean; version?: "base" }) {
  const [actual, setActual] = useState(false);
  const [size, setSize] = useState<[number, number] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const url = fileUrl(props.path, { tag: props.tag, version: props.version });
  if (error) return <p class="error-text">{error}</p>;
  return (
    <div class={`image-view${actual ? " actual" : ""}${props.compact ? " compact" : ""}`}>
      {!props.compact && (
        <div class="view-tools">
          <button class="secondary small zoom" onClick={() => setActual(!actual)}>
            {actual ? "Fit" : "1:1"}
          </button>
          {size && (
            <span class="muted">
              {size[0]} × {size[1]} px
            </span>
          )}
        </div>
      )}
      <div class="image-frame">
        <img
          src={url}
          alt={props.path}
          data-path={props.path}
          onLoad={(e) => {
            const img = e.currentTarget as HTMLImageElement;
            setSize([img.naturalWidth, img.naturalHeight]);
          }}
          onError={() => failureOf(url).then(setError)}
          onClick={() => !props.compact && setActual(!actual)}
        />
      </div>
    </div>
  );
}
