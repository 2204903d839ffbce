/** One attachment as `describe` lists it. */
export interface AttachmentInfo {
  name: string;
  bytes: number;
  contentType: string;
  /** Shown inline in the body (a `cid:` image); `extract` skips these unless `inline: true`. */
  inline: boolean;
  /** Present when the attachment is itself a message. */
  embeddedMessage?: { subject: string; from?: string; date?: string; attachments: number };
}

/** What `describe` returns. */
export interface MessageSummary {
  format: 'eml' | 'msg' | 'mbox';
  bytes: number;
  subject: string;
  from?: string;
  to: string[];
  cc: string[];
  date?: string;
  messageId?: string;
  attachments: AttachmentInfo[];
  textCharacters: number;
  hasHtml: boolean;
  hasRtf: boolean;
  /** Only for an mbox: how many messages it holds. */
  messages?: number;
}

/** One attachment written by `extract`. */
export interface WrittenAttachment extends AttachmentInfo {
  /** Where it was written. */
  path: string;
  /** The sender's name when it had to be made safe. */
  originalName?: string;
  contentId?: string;
}

/** What `extract` returns. */
export interface ExtractedMessage extends Omit<MessageSummary, 'attachments'> {
  bcc: string[];
  replyTo: string[];
  text: string;
  html?: string;
  /** Outlook's RTF body, decompressed. */
  rtf?: string;
  /** Header names lowercased; the first value of each. */
  headers: Record<string, string>;
  attachments: WrittenAttachment[];
  dir: string;
  note?: string;
}

/** Sender, recipients, subject, date and attachments of an .eml or .msg; an .mbox gives its count. Writes nothing. */
export function describe(path: string): Promise<MessageSummary>;

/**
 * The whole message, with its attachments written under `dir` (default `<path without
 * extension>.attachments`). `include` is a glob over attachment names; `inline: true` also
 * writes inline parts. Refused for an .mbox and over the caps, before anything is written.
 */
export function extract(
  path: string,
  options?: { dir?: string; include?: string; inline?: boolean },
): Promise<ExtractedMessage>;
