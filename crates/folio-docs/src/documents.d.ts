// env:documents — PDF and DOCX: create from one spec, read, and edit.

/** A stretch of text; bold wins over italic. */
export interface Run { text: string; bold?: boolean; italic?: boolean }
/** A bullet item: a string, {text, indent?}, or a nested array (one level deeper). */
export type Item = string | Run[] | { text: string | Run[]; indent?: number } | Item[];
/** One block of content. An unknown block fails with `content[i] is not a recognised block`. */
export type Block =
  | { heading: string; level?: 1 | 2 | 3 }
  | { text: string | (string | Run)[]; bold?: boolean; italic?: boolean }
  | { paragraph: string | (string | Run)[] }
  | { bullets: Item[] }
  | { table: { headers?: (string | number)[]; rows: (string | number | null)[][]; align?: ('left' | 'center' | 'right')[] } }
  | { image: string; width?: number; height?: number }
  | { pageBreak: true };
/** The document spec shared by pdf.create and docx.create. Sizes are in points (1/72 inch). */
export interface DocSpec {
  title?: string; author?: string; subject?: string;
  pageSize?: 'a4' | 'letter' | [number, number];
  margin?: number;
  header?: string; footer?: string; pageNumbers?: boolean;
  content: Block[];
}

/** Sniffs the format (%PDF or ZIP) and describes a PDF or DOCX. */
export function describe(path: string): Promise<object>;

export namespace pdf {
  /** Lays out `spec` and writes a PDF (DejaVu Sans embedded and subset; text extractable). */
  function create(path: string, spec: DocSpec): Promise<{ path: string; pages: number; bytes: number }>;
  /** Pages, page sizes, metadata, encryption and forms. Encrypted files are reported, not refused. */
  function describe(path: string): Promise<{ path: string; format: 'pdf'; bytes: number; pages?: number; pageSizes?: [number, number][]; title?: string | null; author?: string | null; subject?: string | null; creator?: string | null; producer?: string | null; encrypted: boolean; needsPassword?: boolean; forms?: { fields: number; xfa: boolean } }>;
  /** Text per page with `--- page N ---` markers (pages joined by `\n\f\n`), each page `text`, `scanned` or `empty`. */
  function extractText(path: string, opts?: { pages?: string | number[] }): Promise<{ pages: number; kind: 'text' | 'scanned' | 'empty' | 'mixed'; text: string; perPage: { page: number; kind: string; characters: number; text: string }[]; note?: string }>;
  /** Concatenates PDFs in order. */
  function merge(inputs: string[], out: string): Promise<{ path: string; inputs: number; bytes: number }>;
  /** Writes `<dir>/<stem>-<n>.pdf`, one per page. */
  function split(input: string, dir: string): Promise<{ paths: string[]; pages: number }>;
  /** A new PDF with the pages `'1-3,7'` or `[1,3,7]` (1-based, in document order). */
  function extractPages(input: string, out: string, pages: string | number[]): Promise<{ path: string; pages: number[] }>;
  /** Rotates pages (all by default) by a multiple of 90 degrees. */
  function rotate(input: string, out: string, degrees: number, pages?: string | number[]): Promise<{ path: string; rotated: number }>;
  /** Draws a text stamp or watermark (DejaVu Sans; 'center' is rotated 45° by default). */
  function stamp(input: string, out: string, opts: { text: string; position?: 'center' | 'top-left' | 'top' | 'top-right' | 'bottom-left' | 'bottom' | 'bottom-right'; size?: number; opacity?: number; rotate?: number; pages?: string | number[] }): Promise<{ path: string; stamped: number }>;
  /** Sets title, author, subject, keywords, creator, producer; writes `out` (default: in place). */
  function setMetadata(input: string, meta: { title?: string; author?: string; subject?: string; keywords?: string | string[]; creator?: string; producer?: string }, out?: string): Promise<{ path: string }>;
  /** AcroForm fields. */
  function readForm(path: string): Promise<{ fields: { name: string; type: 'text' | 'checkbox' | 'radio' | 'dropdown' | 'optionlist' | 'button' | 'signature'; value: unknown; options?: string[]; readOnly: boolean; required: boolean }[]; xfa: boolean; note?: string }>;
  /** Fills fields by name (an unknown name lists the real ones). XFA refused unless allowXfa. flatten (needs qpdf on the host) burns the values into the page. */
  function fillForm(path: string, values: Record<string, string | number | boolean>, opts?: { output?: string; allowXfa?: boolean; flatten?: boolean }): Promise<{ path: string; filled: number; flattened: boolean }>;
}

export namespace docx {
  /** Writes a DOCX from the spec (styles Heading1–3, bullets, tables, images, header/footer, page numbers). */
  function create(path: string, spec: DocSpec): Promise<{ path: string; bytes: number }>;
  /** Paragraphs, words, characters, headings, tables and a preview. */
  function describe(path: string): Promise<{ path: string; format: 'docx'; bytes: number; paragraphs: number; words: number; characters: number; headings: { level: number; text: string }[]; tables: number; preview: string }>;
  /** The body's text, one paragraph a line. */
  function extractText(path: string, opts?: { changes?: 'accept' | 'reject' | 'markup' }): Promise<{ paragraphs: number; characters: number; text: string; review: { insertions: number; deletions: number; moves: number; formatting: number; comments: number; footnotes: number; endnotes: number }; comments?: { author: string; text: string }[]; footnotes?: string[]; endnotes?: string[]; note?: string }>;
  /** Literal, case-sensitive replacement within paragraphs (across runs); untouched parts copied as they were. Throws when nothing matched. */
  function replaceText(path: string, pairs: Record<string, string> | { find: string; replace: string }[], opts?: { output?: string; parts?: 'all' | 'body' }): Promise<{ path: string; replacements: number; parts: string[]; unmatched: string[] }>;
}
