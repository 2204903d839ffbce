// Shows any file of the working environment by its path (`/out/chart.png`): images, video and
// audio that really play, motion scenes frame by frame, PDF and Office pages (a scan with its
// recognised text beside the page), email messages as cards, text / markdown / JSON / code, CSV and workbooks
// as tables, and a card with Open with for everything else. `compact` is for inline hand-offs
// (the transcript): smaller, first page only, first rows only. `version` is a refresh counter:
// when it changes the file is asked about again, and reloaded only if its content changed.
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { PreviewInfoResponse } from "../bindings";
import { ProblemText } from "../ProblemText";
import { bytes, problem, type Problem } from "../api";
import { preview } from "./api";
import { probeMedia } from "./probe";
import { Card } from "./Card";
import { EmailView } from "./EmailView";
import { ScanText } from "./ScanText";
import { ImageView } from "./ImageView";
import { MediaView } from "./MediaView";
import { PagesView } from "./PagesView";
import { SceneView } from "./SceneView";
import { TableView } from "./TableView";
import { TextView } from "./TextView";
import "./media.css";

// Ask the webview what it plays once, at start-up (the answers are remembered in probe.ts).
probeMedia();

export function FileView(props: { path: string; compact?: boolean; version?: number }): JSX.Element {
  const [info, setInfo] = useState<PreviewInfoResponse | null>(null);
  const [error, setError] = useState<Problem | null>(null);
  useEffect(() => {
    let live = true;
    setError(null);
    preview
      .info(props.path)
      .then((next) => {
        // Keep the same object while the content is unchanged, so players are not reloaded.
        if (live) setInfo((prev) => (prev && prev.path === next.path && prev.hash === next.hash ? prev : next));
      })
      .catch((e) => {
        if (live) {
          setInfo(null);
          setError(problem(e));
        }
      });
    return () => {
      live = false;
    };
  }, [props.path, props.version]);

  const cls = `file-view${props.compact ? " compact" : ""}`;
  if (error)
    return (
      <div class={cls} data-path={props.path}>
        <p class="error-text"><ProblemText problem={error} /></p>
      </div>
    );
  if (!info || info.path !== props.path)
    return (
      <div class={cls} data-path={props.path}>
        <p class="muted media-status">Loading…</p>
      </div>
    );
  return (
    <div class={cls} data-path={info.path} data-kind={info.kind}>
      {info.note && <p class="file-note">{info.note}</p>}
      {body(info, props.compact)}
      {!props.compact && <p class="muted file-meta">{meta(info)}</p>}
    </div>
  );
}

/** What the file is, in one line: media type, size, and a media file's container and codecs. */
function meta(info: PreviewInfoResponse): string {
  const parts = [info.mediaType.split(";")[0], bytes(info.size)];
  const m = info.media;
  if (m) {
    const codecs = [m.videoCodec, m.audioCodec].filter(Boolean).join(" + ");
    const size = m.width && m.height ? ` ${m.width}×${m.height}` : "";
    const length = m.durationS ? ` ${m.durationS.toFixed(1)} s` : "";
    parts.push(`${m.container}${codecs ? ` (${codecs})` : ""}${size}${length}`);
  }
  return parts.join(" · ");
}

function body(info: PreviewInfoResponse, compact?: boolean): JSX.Element {
  const tag = info.hash;
  switch (info.kind) {
    case "image":
      return <ImageView path={info.path} tag={tag} compact={compact} />;
    case "video":
    case "audio":
      return <MediaView key={`${info.path}:${tag}`} info={info} compact={compact} />;
    case "pdf":
      // A scan (no text layer) shows env:ocr's text beside the page.
      return info.scan ? (
        <PagesView
          path={info.path}
          tag={tag}
          compact={compact}
          aside={(page) => <ScanText path={info.path} tag={tag} page={page} />}
        />
      ) : (
        <PagesView path={info.path} tag={tag} compact={compact} />
      );
    case "tiff":
      return <PagesView path={info.path} tag={tag} compact={compact} />;
    case "email":
      return <EmailView key={`${info.path}:${tag}`} path={info.path} tag={tag} compact={compact} />;
    case "office":
      return info.note ? (
        <Card path={info.path} title="No preview without LibreOffice" info={info} />
      ) : (
        <PagesView path={info.path} tag={tag} compact={compact} office />
      );
    case "spreadsheet":
    case "csv":
      return <TableView path={info.path} tag={tag} compact={compact} />;
    case "scene":
      return <SceneView key={`${info.path}:${tag}`} info={info} compact={compact} />;
    case "markdown":
    case "json":
    case "code":
    case "text":
      return <TextView path={info.path} tag={tag} kind={info.kind} compact={compact} />;
    case "binary":
      return (
        <Card
          path={info.path}
          title={info.note ? "Too large to preview here" : "No preview for this kind of file"}
          info={info}
        />
      );
  }
}
