// env:fs — VFS-scoped file I/O. Every function here is ASYNC: always await it.
// A failure throws an Error whose message starts with "env:fs.<function>: ".

/** The whole file as text, decoded from UTF-8, UTF-16 (with a BOM), windows-1252 or latin-1 as its bytes say. Binary files are refused: use readBytes. */
export function readFile(path: string): Promise<string>;
/** Same as readFile. */
export function readText(path: string): Promise<string>;
/** The whole file as bytes. */
export function readBytes(path: string): Promise<Uint8Array>;
/** Creates or replaces a file (parents are created). */
export function writeFile(path: string, content: string | Uint8Array | number[]): Promise<void>;
/** Appends to a file, creating it when absent. */
export function appendFile(path: string, content: string | Uint8Array | number[]): Promise<void>;
/** The children of a directory. RETURNS ENTRY OBJECTS, NOT STRINGS: use entry.name.endsWith('.csv'),
 *  or glob('/dir/*.csv') which returns full paths. */
export function readdir(path: string): Promise<{ name: string; kind: "file" | "dir"; size: number }[]>;
/** Full paths of the files matching a pattern (`*`, `**`, `?`), sorted. */
export function glob(pattern: string): Promise<string[]>;
/** Kind, size and modification time (ms since the epoch); null when nothing is there. */
export function stat(path: string): Promise<{ kind: "file" | "dir"; size: number; mtime: number } | null>;
/** True when something is at path. */
export function exists(path: string): Promise<boolean>;
/** Creates a directory and its parents. */
export function mkdir(path: string): Promise<void>;
/** Removes a file, or a directory and everything below it. */
export function rm(path: string): Promise<void>;
/** Moves a file or a directory. */
export function mv(from: string, to: string): Promise<void>;
/** Copies a file or a directory. */
export function cp(from: string, to: string): Promise<void>;
