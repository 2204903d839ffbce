/** One entry of an archive as stored. */
export interface ArchiveEntry {
  /** Its stored name (relative, `/`-separated; a directory ends in `/`). */
  name: string;
  /** Its uncompressed size as declared. */
  bytes: number;
  /** True for a directory entry. */
  directory: boolean;
}

/** What `describe` says about an archive. */
export interface ArchiveSummary {
  format: 'zip' | 'tar' | 'tar.gz';
  /** The archive's own size. */
  bytes: number;
  entries: number;
  files: number;
  directories: number;
  /** The sum of the entries' declared sizes. */
  uncompressedBytes: number;
  /** The first 12 entries. */
  sample: ArchiveEntry[];
  /** Entries extract would refuse (unsafe names, links, devices, encryption, unknown methods). */
  refused?: { name: string; refused: string }[];
  note?: string;
}

/** Format, sizes, entry counts and the first entries of a .zip, .tar or .tar.gz/.tgz. */
export function describe(path: string): Promise<ArchiveSummary>;

/** Every entry: `[{name, bytes, directory}]`. */
export function list(path: string): Promise<ArchiveEntry[]>;

/**
 * Extracts the archive's files under `dir` (names resolved inside `dir`); returns the paths
 * written. `include` is a glob over entry names (`'**\/*.csv'`, a leading `**` also matches the
 * root). Matching nothing is an error. Unsafe names, links, devices, encrypted entries, unknown
 * methods, more than MAX_ENTRIES entries and inflating past the tree's budget are refused by name,
 * before anything is written.
 */
export function extract(path: string, dir: string, options?: { include?: string }): Promise<string[]>;

/**
 * Packs the files under `dir` (names relative to it, `glob` filtering them) into `output`; the
 * format follows the extension (.zip, .tar, .tar.gz/.tgz) unless `format` says.
 */
export function create(
  dir: string,
  output: string,
  options?: { glob?: string; format?: 'zip' | 'tar' | 'tgz' },
): Promise<{ path: string; format: string; entries: number; bytes: number }>;
