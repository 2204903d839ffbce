// env:std — zero-dependency helpers. Everything is synchronous except sleep.
export const json: {
  /** Parses JSON; throws "invalid JSON: …" with the reason. */
  parse(text: string): any;
  /** pretty: true or a number = that indent (default 2); false or 0 = compact. */
  stringify(value: any, pretty?: boolean | number): string;
};
export const csv: {
  /** Records keyed by the header row; missing cells are "". */
  parse(text: string, opts?: { delimiter?: string }): Record<string, string>[];
  /** Every row including the header. */
  rows(text: string, opts?: { delimiter?: string }): string[][];
  /** Rows (arrays) as-is, or records with a header line; ends with "\n". */
  stringify(rows: any[][] | Record<string, any>[], opts?: { delimiter?: string; headers?: string[] }): string;
};
export const text: {
  lines(s: string): string[];
  joinLines(lines: string[]): string;
  truncate(s: string, max: number, suffix?: string): string;
  dedent(s: string): string;
};
export const bytes: {
  fromText(s: string): Uint8Array;
  toText(b: Uint8Array): string;
  toBase64(b: Uint8Array): string;
  fromBase64(s: string): Uint8Array;
};
/** Waits ms milliseconds (at most 60000 per call); the run's budget still applies. */
export function sleep(ms: number): Promise<void>;
