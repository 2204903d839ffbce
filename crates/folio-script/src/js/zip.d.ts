// env:zip — zip, gzip, zlib and raw deflate inside the script (fflate, vendored). A summary of
// what works here; fflate's full typings describe the same names. Everything is synchronous.
// The callback forms (zip(data, cb), unzip(data, cb), …) and the Async… classes need Web
// Workers, which the sandbox does not have: use the *Sync functions. Bytes reach the folder
// only through env:fs (writeFile / readBytes).

/** Files to zip: a path inside the archive → its bytes, or a nested folder object. */
export type Zippable = { [path: string]: Uint8Array | Zippable | [Uint8Array, ZipOptions] };
/** The files of an archive: path inside the archive → bytes. */
export type Unzipped = { [path: string]: Uint8Array };
/** level: 0 (store) to 9 (smallest), default 6; mtime: a Date or ms for every entry. */
export interface ZipOptions { level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9; mtime?: Date | number | string; comment?: string }
/** filter: return false to skip an entry (by name, size, compression). */
export interface UnzipOptions { filter?: (file: { name: string; size: number; originalSize: number; compression: number }) => boolean }

/** An archive of `data` as ZIP bytes. */
export function zipSync(data: Zippable, opts?: ZipOptions): Uint8Array;
/** The files of ZIP bytes. */
export function unzipSync(data: Uint8Array, opts?: UnzipOptions): Unzipped;
/** gzip bytes of `data`. */
export function gzipSync(data: Uint8Array, opts?: { level?: number; filename?: string; mtime?: Date | number }): Uint8Array;
/** The bytes inside gzip `data`. */
export function gunzipSync(data: Uint8Array): Uint8Array;
/** zlib-wrapped deflate of `data`. */
export function zlibSync(data: Uint8Array, opts?: { level?: number }): Uint8Array;
/** The bytes inside zlib `data`. */
export function unzlibSync(data: Uint8Array): Uint8Array;
/** Raw deflate of `data`. */
export function deflateSync(data: Uint8Array, opts?: { level?: number }): Uint8Array;
/** The bytes inside raw deflate `data`. */
export function inflateSync(data: Uint8Array): Uint8Array;
/** gzip, zlib or raw deflate, detected from the header. */
export function decompressSync(data: Uint8Array): Uint8Array;
/** UTF-8 bytes of `str` (latin1: one byte per char). */
export function strToU8(str: string, latin1?: boolean): Uint8Array;
/** The text of UTF-8 bytes (latin1: one char per byte). */
export function strFromU8(data: Uint8Array, latin1?: boolean): string;

// Streaming, with synchronous members only: const archive = new Zip((err, chunk, final) => …),
// then archive.add(new ZipDeflate(name) | new ZipPassThrough(name)), file.push(bytes, final),
// archive.end();
// new Unzip((file) => …) with unzip.register(UnzipInflate), file.ondata, file.start(),
// unzip.push(bytes, final); new Deflate/Inflate/Gzip/Gunzip/Zlib/Unzlib((chunk, final) => …)
// with .push(bytes, final). Also exported: FlateErrorCode, DecodeUTF8, EncodeUTF8.
