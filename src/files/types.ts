/**
 * The file storage contract every backend (local folder, S3-compatible) fulfils. Keys are
 * slash-separated paths such as `renders/ws_x/rnd_y.png`; see keys.ts for what a key may contain.
 */

export interface StoredFileInfo {
  key: string;
  byteSize: number;
  contentType: string;
}

/** Inclusive byte offsets within a file, counted as HTTP's Range counts them (`bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/** One stored file as `list` reports it. */
export interface ListedFile {
  key: string;
  /** When the bytes were last written. */
  lastModified: Date;
}

export interface FileStore {
  readonly kind: 'folder' | 's3';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<StoredFileInfo>;
  /** null when absent */
  get(key: string): Promise<{ bytes: Buffer; contentType: string; byteSize: number } | null>;
  /**
   * Streams for serving big files; null when absent. With `range` only those bytes are read (a
   * player seeking in a video never costs the whole file): an end past the last byte stops at it, and
   * a start at or past the end (the file shrank since the caller sized it) streams nothing.
   * `byteSize` is always the whole file's, so the caller can tell whether its range still fits.
   */
  getStream(
    key: string,
    range?: ByteRange,
  ): Promise<{ stream: NodeJS.ReadableStream; contentType: string; byteSize: number } | null>;
  head(key: string): Promise<StoredFileInfo | null>;
  /** Idempotent: deleting an absent key succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Every stored file whose key starts with `prefix` ('' or a valid key, optionally ending in `/`),
   * read page by page (memory stays flat however many there are), in no promised order.
   */
  list(prefix: string): AsyncIterable<ListedFile>;
  /**
   * A directory on the store's own filesystem where another process (a render process) may write
   * and sync a file for `adopt` to move into place; null for a store that takes bytes only (S3).
   */
  readonly stagingDir: string | null;
  /**
   * Stores a file written and synced at `stagedPath` (in `stagingDir`) under `key`, as `put` stores
   * bytes: for a folder a rename, so the bytes are not read again. The staged file is gone
   * afterwards, whether it succeeded or not.
   */
  adopt(key: string, stagedPath: string, contentType: string): Promise<StoredFileInfo>;
  /** Removes staged files written before `before` that were never adopted (a render killed mid-write). */
  sweepStaged(before: Date): Promise<number>;
  /** A short-lived signed URL for a redirect, when the backend supports it; null otherwise. */
  signedUrl(key: string, expiresSeconds: number): Promise<string | null>;
  /** Checks the backend is reachable and writable (used by /readyz); throws when it is not. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Where `createFileStore` keeps files: the `Config` fields it reads. */
export interface FileStoreConfig {
  dataDir: string;
  s3: null | S3FileStoreOptions;
}

export interface S3FileStoreOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Prepended to every key, e.g. `platen/`; empty for none. */
  prefix: string;
}
