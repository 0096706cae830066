/**
 * The file storage contract every backend (local folder, S3-compatible) fulfils. Keys are
 * slash-separated paths such as `renders/ws_x/rnd_y.png`; see keys.ts for what a key may contain.
 */

export interface StoredFileInfo {
  key: string;
  byteSize: number;
  contentType: string;
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
  /** Streams for serving big files; null when absent */
  getStream(
    key: string,
  ): Promise<{ stream: NodeJS.ReadableStream; contentType: string; byteSize: number } | null>;
  head(key: string): Promise<StoredFileInfo | null>;
  /** Idempotent: deleting an absent key succeeds. */
  delete(key: string): Promise<void>;
  /**
   * Every stored file whose key starts with `prefix` ('' or a valid key, optionally ending in `/`),
   * read page by page (memory stays flat however many there are), in no promised order.
   */
  list(prefix: string): AsyncIterable<ListedFile>;
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
