/** Text out of scanned PDFs and photos, read by tesseract on this machine (offline). */

export interface Description {
  format: 'pdf' | 'image';
  bytes: number;
  totalPages: number;
  /** 1-based pages whose text layer already holds at least 100 characters. */
  textLayerPages: number[];
  /** False when every page has a text layer: use documents.extractText instead. */
  needsOcr: boolean;
  /** Installed languages, e.g. ['eng']. */
  languages: string[];
}

export interface Word {
  text: string;
  /** 0–100. */
  confidence: number;
  /** [left, top, width, height] in pixels of the upright page image. */
  bbox: [number, number, number, number];
}

export interface Page {
  page: number;
  text: string;
  /** Mean word confidence, 0–100. */
  confidence: number;
  words: Word[];
  /** True when the page also has its own text layer (documents.extractText reads it). */
  textLayer?: boolean;
  /** Clockwise degrees the page was turned before reading. */
  rotated?: number;
}

export interface Recognition {
  source: string;
  language: string;
  /** Pages joined by "\n\f\n". */
  text: string;
  characters: number;
  pages: Page[];
  totalPages: number;
  /** Mean over the pages with text. */
  confidence: number;
  /** Low confidence, nothing read, a text layer, a small image, pages past the cap. */
  note?: string;
}

/** Format, pages and which need OCR; recognises nothing. */
export function describe(path: string): Promise<Description>;
/** Recognises pages (default all, at most 20 a call), language 'eng', 300 dpi. */
export function recognize(path: string, options?: { pages?: 'all' | number[]; lang?: string; dpi?: number }): Promise<Recognition>;
/** The installed languages. */
export function languages(): Promise<string[]>;
