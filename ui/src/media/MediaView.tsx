// Video and audio that really play. The bytes are fetched over folio:// into a Blob and played
// from an object URL (WebKitGTK refuses <video src> over custom schemes). Before any player is
// shown the Rust side's probe (container and codecs) is checked against what this webview says
// it plays; when it cannot, ffmpeg makes a webm preview first (with progress), and when that is
// impossible too, an honest card says why and offers Open with.
import type { Ref } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { PreviewInfoResponse } from "../bindings";
import { bytes, message } from "../api";
import { fetchOk, fileUrl, preview } from "./api";
import { BLOB_CAP, WEBM_PREVIEW, baseType, canPlay } from "./probe";
import { Card } from "./Card";

type Phase =
  | { kind: "loading"; what: string }
  | { kind: "transcoding"; fraction: number | null; seconds: number }
  | { kind: "ready"; src: string; source: "direct" | "transcoded" }
  | { kind: "card"; title: string; detail: string };

const MEDIA_ERRORS: Record<number, string> = {
  1: "loading was aborted",
  2: "a network error stopped it",
  3: "the webview could not decode it",
  4: "the webview does not support this format",
};

function describe(info: PreviewInfoResponse): string {
  const m = info.media;
  if (!m) return info.mediaType;
  const codecs = [m.videoCodec, m.audioCodec].filter(Boolean).join(" + ");
  return `${m.container}${codecs ? ` (${codecs})` : ""}`;
}

export function MediaView({ info, compact }: { info: PreviewInfoResponse; compact?: boolean }) {
  const [phase, setPhase] = useState<Phase>({ kind: "loading", what: "Loading…" });
  const tried = useRef(false);
  const live = useRef(true);
  const element = useRef<HTMLMediaElement | null>(null);
  const isVideo = info.kind === "video" && !!info.media?.videoCodec;

  const show = async (source: "direct" | "transcoded", mime: string) => {
    const url = fileUrl(info.path, { version: source === "transcoded" ? "preview" : undefined, tag: info.hash });
    setPhase({ kind: "loading", what: source === "transcoded" ? "Loading the preview…" : "Loading…" });
    const blob = await (await fetchOk(url)).blob();
    if (!live.current) return;
    const typed = new Blob([blob], { type: baseType(mime) });
    setPhase({ kind: "ready", src: URL.createObjectURL(typed), source });
  };

  const transcode = async (why: string) => {
    const media = info.media;
    tried.current = true;
    if (!media?.canTranscode) {
      setPhase({
        kind: "card",
        title: `This webview cannot play ${describe(info)} here`,
        detail: `${why} — and no playable preview can be made: ${media?.transcodeFix ?? "ffmpeg is missing"}`,
      });
      return;
    }
    if (!canPlay(WEBM_PREVIEW)) {
      setPhase({
        kind: "card",
        title: "This webview plays no video format Folio can convert to",
        detail:
          "It reports no support for webm (VP8 + Opus) either — install the GStreamer plugins: sudo apt-get install gstreamer1.0-plugins-good gstreamer1.0-libav",
      });
      return;
    }
    setPhase({ kind: "transcoding", fraction: null, seconds: 0 });
    const done = await preview.transcode(info.path, (p) => {
      if (live.current) setPhase({ kind: "transcoding", fraction: p.fraction, seconds: p.seconds });
    });
    if (live.current) await show("transcoded", done.mime);
  };

  useEffect(() => {
    live.current = true;
    tried.current = false;
    const media = info.media;
    const start = async () => {
      if (info.size > BLOB_CAP) {
        setPhase({
          kind: "card",
          title: `${bytes(info.size)} is too large to preview here`,
          detail: `Previews load media into memory up to ${bytes(BLOB_CAP)}; open it with your video player instead.`,
        });
      } else if (media?.mime && canPlay(media.mime)) {
        await show("direct", media.mime);
      } else {
        const why = media?.mime
          ? `this webview reports no decoder for ${media.mime}`
          : `${describe(info)} is not a format web views play`;
        await transcode(why);
      }
    };
    start().catch((e) => live.current && setPhase({ kind: "card", title: "The preview could not load", detail: message(e) }));
    return () => {
      live.current = false;
    };
  }, [info.path, info.hash]);

  // Revoke each object URL when it is replaced or the view goes away.
  useEffect(() => {
    if (phase.kind !== "ready") return;
    const src = phase.src;
    return () => URL.revokeObjectURL(src);
  }, [phase.kind === "ready" ? phase.src : null]);

  // Falls back to the transcode once when the webview could not play what it said it could.
  const fail = (why: string) => {
    if (phase.kind === "ready" && phase.source === "direct" && !tried.current) {
      transcode(`the webview said it could play it, but ${why}`).catch((err) =>
        setPhase({ kind: "card", title: "The preview could not load", detail: message(err) }),
      );
    } else {
      setPhase({ kind: "card", title: `This webview cannot play ${describe(info)}`, detail: why });
    }
  };
  const onError = (e: Event) => {
    const el = e.currentTarget as HTMLMediaElement;
    fail(MEDIA_ERRORS[el.error?.code ?? 0] ?? "it failed to play");
  };

  // A webview without the decoder may show a black player with working controls and raise no
  // error. If no frame (or, for video, no picture size) arrives soon, that counts as a failure.
  useEffect(() => {
    if (phase.kind !== "ready") return;
    const timer = window.setTimeout(() => {
      const el = element.current;
      if (!el || !live.current) return;
      const noPicture = isVideo && el.readyState >= 1 && (el as HTMLVideoElement).videoWidth === 0;
      if (el.readyState < 2 || noPicture)
        fail(noPicture ? "it decoded no picture" : "it decoded nothing within 10 seconds");
    }, 10_000);
    return () => window.clearTimeout(timer);
  }, [phase.kind === "ready" ? phase.src : null]);

  if (phase.kind === "loading") return <p class="muted media-status">{phase.what}</p>;
  if (phase.kind === "transcoding") {
    const pct = phase.fraction === null ? null : Math.round(phase.fraction * 100);
    return (
      <div class="media-status" id="transcode-progress">
        <p>
          Making a playable preview ({describe(info)} → webm)… {pct === null ? `${phase.seconds.toFixed(1)} s` : `${pct}%`}
        </p>
        <progress max={1} value={phase.fraction ?? undefined} />
      </div>
    );
  }
  if (phase.kind === "card") return <Card path={info.path} title={phase.title} detail={phase.detail} info={info} />;
  const caption =
    phase.source === "transcoded" ? (
      <p class="muted media-caption">Playing a webm preview made by ffmpeg; the file itself is {describe(info)}.</p>
    ) : null;
  const player = isVideo ? (
    <video
      ref={element as Ref<HTMLVideoElement>}
      class={compact ? "media compact" : "media"}
      src={phase.src}
      data-source={phase.source}
      data-path={info.path}
      controls
      preload="auto"
      onError={onError}
    />
  ) : (
    <audio
      ref={element as Ref<HTMLAudioElement>}
      class="media audio"
      src={phase.src}
      data-source={phase.source}
      data-path={info.path}
      controls
      preload="auto"
      onError={onError}
    />
  );
  return (
    <>
      {player}
      {caption}
    </>
  );
}
