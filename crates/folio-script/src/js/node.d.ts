// Node APIs the sandbox answers (folio-script's node layer). Import fs, fs/promises, path and
// buffer by name (also as node:fs, …); Buffer, TextEncoder/TextDecoder and the timers are globals.
// Every path is a path in the folder: '/out/report.xlsx'; a relative path starts at '/'. A path
// the folder refuses ('/../x') fails with the same message env:fs gives; errors carry Node's
// `code` ('ENOENT', 'EISDIR', 'ENOTDIR', 'EEXIST', 'EINVAL', 'EACCES').

declare module 'fs' {
  type Data = string | Uint8Array | ArrayBuffer;
  type Encoding = 'utf8' | 'utf-8' | 'base64' | 'base64url' | 'hex' | 'latin1' | 'binary' | 'ascii' | 'utf16le';
  interface Stats { size: number; mtimeMs: number; mtime: Date; isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }
  interface Dirent { name: string; parentPath: string; isFile(): boolean; isDirectory(): boolean }
  /** Bytes as a Buffer, or text when an encoding is given. */
  export function readFileSync(path: string): Buffer;
  export function readFileSync(path: string, options: Encoding | { encoding: Encoding }): string;
  /** Creates or replaces the file (parents are created); a pending change like env:fs.writeFile. */
  export function writeFileSync(path: string, data: Data, options?: Encoding | { encoding?: Encoding; flag?: 'w' | 'a' }): void;
  export function appendFileSync(path: string, data: Data, options?: Encoding | { encoding?: Encoding }): void;
  export function existsSync(path: string): boolean;
  export function statSync(path: string, options?: { throwIfNoEntry?: boolean }): Stats;
  export function lstatSync(path: string): Stats;
  /** Names, or Dirent objects with { withFileTypes: true }. */
  export function readdirSync(path: string): string[];
  export function readdirSync(path: string, options: { withFileTypes: true }): Dirent[];
  /** Always recursive. */
  export function mkdirSync(path: string, options?: { recursive?: boolean }): void;
  export function rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void;
  export function unlinkSync(path: string): void;
  export function renameSync(from: string, to: string): void;
  export function copyFileSync(from: string, to: string): void;
  export function accessSync(path: string): void;
  /** Callback forms of the same calls: readFile(path, [options], (err, data) => …), writeFile, … */
  export function readFile(path: string, ...rest: unknown[]): void;
  export function writeFile(path: string, data: Data, ...rest: unknown[]): void;
  export const promises: typeof import('fs/promises');
  export const constants: { F_OK: 0; R_OK: 4; W_OK: 2; X_OK: 1 };
}

declare module 'fs/promises' {
  export function readFile(path: string): Promise<Buffer>;
  export function readFile(path: string, options: string | { encoding: string }): Promise<string>;
  export function writeFile(path: string, data: string | Uint8Array | ArrayBuffer, options?: unknown): Promise<void>;
  export function appendFile(path: string, data: string | Uint8Array, options?: unknown): Promise<void>;
  export function stat(path: string): Promise<import('fs').Stats>;
  export function readdir(path: string, options?: { withFileTypes?: boolean }): Promise<string[]>;
  export function mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  export function rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  export function unlink(path: string): Promise<void>;
  export function rename(from: string, to: string): Promise<void>;
  export function copyFile(from: string, to: string): Promise<void>;
  export function access(path: string): Promise<void>;
}

declare module 'path' {
  /** POSIX paths; the working directory is '/', so resolve('x') is '/x'. */
  export const sep: '/';
  export function join(...parts: string[]): string;
  export function resolve(...parts: string[]): string;
  export function normalize(p: string): string;
  export function dirname(p: string): string;
  export function basename(p: string, ext?: string): string;
  export function extname(p: string): string;
  export function relative(from: string, to: string): string;
  export function isAbsolute(p: string): boolean;
  export function parse(p: string): { root: string; dir: string; base: string; ext: string; name: string };
  export function format(o: { dir?: string; root?: string; base?: string; name?: string; ext?: string }): string;
  export const posix: typeof import('path');
}

declare module 'buffer' {
  export { Buffer };
  export function atob(s: string): string;
  export function btoa(s: string): string;
}

/** A Uint8Array with Node's encodings: utf8, base64, base64url, hex, latin1 (binary), ascii, utf16le. */
declare class Buffer extends Uint8Array {
  static from(text: string, encoding?: string): Buffer;
  static from(bytes: ArrayLike<number> | ArrayBuffer | Uint8Array, byteOffset?: number, length?: number): Buffer;
  static alloc(size: number, fill?: number | string, encoding?: string): Buffer;
  static allocUnsafe(size: number): Buffer;
  static concat(list: Uint8Array[], totalLength?: number): Buffer;
  static isBuffer(x: unknown): x is Buffer;
  static byteLength(x: string | Uint8Array, encoding?: string): number;
  static compare(a: Uint8Array, b: Uint8Array): number;
  toString(encoding?: string, start?: number, end?: number): string;
  equals(other: Uint8Array): boolean;
  compare(other: Uint8Array): number;
  copy(target: Uint8Array, targetStart?: number, start?: number, end?: number): number;
  write(text: string, offset?: number, length?: number, encoding?: string): number;
  slice(start?: number, end?: number): Buffer;
  subarray(start?: number, end?: number): Buffer;
  /** Also readInt8 … readDoubleBE, readBigUInt64LE, and the write… forms. */
  readUInt32LE(offset?: number): number;
  writeUInt32LE(value: number, offset?: number): number;
  toJSON(): { type: 'Buffer'; data: number[] };
}

/** utf-8 only. */
declare class TextEncoder { readonly encoding: 'utf-8'; encode(text?: string): Uint8Array; encodeInto(text: string, dest: Uint8Array): { read?: number; written: number } }
/** utf-8 (default), utf-16le, latin1 (also 'iso-8859-1'; 'windows-1252' is read as latin1). A BOM is dropped. */
declare class TextDecoder { constructor(label?: string, options?: { ignoreBOM?: boolean }); readonly encoding: string; decode(bytes?: Uint8Array | ArrayBuffer): string }

/**
 * Timers on a virtual clock inside the run: nothing waits for real time, a timer fires after every
 * earlier-due one (microtasks drain between them), and timers still pending when the default
 * export settles are cancelled (the run warns). To wait for real time use sleep from env:std.
 */
declare function setTimeout(fn: (...args: any[]) => void, ms?: number, ...args: any[]): { id: number };
declare function setInterval(fn: (...args: any[]) => void, ms?: number, ...args: any[]): { id: number };
declare function setImmediate(fn: (...args: any[]) => void, ...args: any[]): { id: number };
declare function clearTimeout(t?: { id: number } | number): void;
declare function clearInterval(t?: { id: number } | number): void;
declare function clearImmediate(t?: { id: number } | number): void;
declare function queueMicrotask(fn: () => void): void;
