//! The `.d.ts` text of the builtin modules, as `/std/<name>/index.d.ts` shows it.

/// `env:fs`.
pub const FS: &str = r#"// env:fs — file I/O inside this environment's tree. Every function is async: always await.
// Paths are absolute (/inbox/data.csv). Writes go through the same checks as the write_file verb:
// read-only areas are refused, size limits apply, and every change can be undone.

/** The size limits in force (bytes). */
export const limits: { maxFileBytes: number; maxVfsBytes: number };
/** The whole file as text. Binary files are refused — use readBytes. */
export function readFile(path: string): Promise<string>;
/** The whole file as bytes. */
export function readBytes(path: string): Promise<Uint8Array>;
/** Creates or replaces a file; parent directories are created. */
export function writeFile(path: string, content: string | Uint8Array): Promise<void>;
/** Adds to the end of a file, creating it when absent. */
export function appendFile(path: string, content: string | Uint8Array): Promise<void>;
/**
 * The children of a directory.
 * NOTE: readdir returns ENTRY OBJECTS, not strings — `e.name.endsWith('.csv')`, not `e.endsWith(...)`.
 * To find files by name pattern, glob() is usually what you want.
 */
export function readdir(path: string): Promise<{ name: string; kind: "file" | "dir"; size: number }[]>;
/** Full paths of the files matching a pattern (`**` crosses directories, `*` stays in one), sorted. */
export function glob(pattern: string): Promise<string[]>;
/** Facts about a path, or null when nothing is there (not an error). */
export function stat(path: string): Promise<{ kind: "file" | "dir"; size: number; mtime: number } | null>;
/** True when something is at the path. */
export function exists(path: string): Promise<boolean>;
/** Creates a directory and its parents. */
export function mkdir(path: string): Promise<void>;
/** Removes a file, or a directory with everything in it. */
export function rm(path: string): Promise<void>;
/** Moves a file or directory to a full destination path. */
export function mv(from: string, to: string): Promise<void>;
/** Copies a file or directory to a full destination path. */
export function cp(from: string, to: string): Promise<void>;
"#;

/// `env:std`.
pub const STD: &str = r#"// env:std — small synchronous helpers. No await needed (it does no harm).

export const json: {
  /** Parses JSON; a syntax error names the position. */
  parse(text: string): any;
  /** Serialises; pretty = true or a number indents, false is compact (default 2 spaces). */
  stringify(value: any, pretty?: boolean | number): string;
};
export const csv: {
  /** Records keyed by the header row; missing cells are "". */
  parse(text: string, opts?: { delimiter?: string }): Record<string, string>[];
  /** Every row as an array of cells, header included. */
  rows(text: string, opts?: { delimiter?: string }): string[][];
  /** Rows (arrays) or records (objects) to CSV text ending in a newline. */
  stringify(rows: any[], opts?: { delimiter?: string; headers?: string[] }): string;
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
/** Waits; at most 60000 ms per call, and the run's own deadline still applies. */
export function sleep(ms: number): Promise<void>;
"#;

/// `env:assert`.
pub const ASSERT: &str = r#"// env:assert — assertions for *.test.js scripts. A failure throws AssertionFailed with both values.

export function equal(actual: any, expected: any, message?: string): void;
export function notEqual(actual: any, expected: any, message?: string): void;
/** Structural equality: arrays, plain objects, Map, Set, Date, typed arrays. */
export function deepEqual(actual: any, expected: any, message?: string): void;
export function ok(value: any, message?: string): void;
/** The value matches a RegExp, or contains a substring. */
export function match(actual: string, pattern: RegExp | string, message?: string): void;
/** Returns what fn threw; fails when it returns normally. */
export function throws(fn: () => any, pattern?: RegExp | string, message?: string): any;
export function rejects(fn: () => Promise<any>, pattern?: RegExp | string, message?: string): Promise<any>;
export function fail(message?: string): never;
"#;
