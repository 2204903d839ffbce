// Typed calls to the preview commands, and the folio:// URLs that carry a file's bytes.
import { Channel, convertFileSrc, invoke } from "@tauri-apps/api/core";
import type {
  PreviewEmailAttachmentResponse,
  PreviewEmailResponse,
  PreviewInfoResponse,
  PreviewOcrResponse,
  PreviewPagesResponse,
  PreviewSceneParams,
  PreviewSceneResponse,
  PreviewTableResponse,
  PreviewTranscodeResponse,
  TranscodeProgressNotification,
} from "../bindings";

export const preview = {
  info: (path: string) => invoke<PreviewInfoResponse>("preview_info", { params: { path } }),
  pages: (path: string) => invoke<PreviewPagesResponse>("preview_pages", { params: { path } }),
  table: (path: string, sheet: string | null, limit: number | null) =>
    invoke<PreviewTableResponse>("preview_table", { params: { path, sheet, limit } }),
  scene: (params: PreviewSceneParams) => invoke<PreviewSceneResponse>("preview_scene", { params }),
  email: (path: string) => invoke<PreviewEmailResponse>("preview_email", { params: { path } }),
  emailAttachment: (path: string, index: number) =>
    invoke<PreviewEmailAttachmentResponse>("preview_email_attachment", { params: { path, index } }),
  ocr: (path: string, page: number) => invoke<PreviewOcrResponse>("preview_ocr", { params: { path, page } }),
  transcode: (path: string, onProgress: (p: TranscodeProgressNotification) => void) => {
    const channel = new Channel<TranscodeProgressNotification>();
    channel.onmessage = onProgress;
    return invoke<PreviewTranscodeResponse>("preview_transcode", { params: { path }, onProgress: channel });
  },
};

/** Query options of a folio:// URL (see src-tauri/src/scheme.rs). */
export interface UrlOptions {
  version?: "base" | "preview";
  page?: number;
  width?: number;
  /** A cache buster (the content hash), so a rewritten file is fetched again. */
  tag?: string;
}

/** The folio:// URL of a path of the working environment (`/out/chart.png`). */
export function fileUrl(path: string, opts: UrlOptions = {}): string {
  const query = new URLSearchParams();
  if (opts.version) query.set("version", opts.version);
  if (opts.page !== undefined) query.set("page", String(opts.page));
  if (opts.width !== undefined) query.set("width", String(opts.width));
  if (opts.tag) query.set("t", opts.tag);
  const q = query.toString();
  return convertFileSrc(path, "folio") + (q ? `?${q}` : "");
}

/** Fetches a folio:// URL; a failed response throws the scheme's own message. */
export async function fetchOk(url: string): Promise<Response> {
  const response = await fetch(url);
  if (!response.ok) {
    const text = await response.text().catch(() => "");
    throw new Error(text || `the file could not be loaded (HTTP ${response.status})`);
  }
  return response;
}

/** The reason a folio:// URL fails, read from its body (for an <img> that did not load). */
export async function failureOf(url: string): Promise<string> {
  try {
    await fetchOk(url);
    return "the image could not be decoded by this webview";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
