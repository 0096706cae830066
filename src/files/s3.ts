/**
 * FileStore over S3-compatible object storage (AWS S3, MinIO, R2, s3rver), so several instances
 * can serve one deployment. Keys map one to one to object keys under an optional prefix; the
 * content type is the object's own Content-Type.
 */
import { readFile, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { assertValidKey, assertValidPrefix, isValidKey, normalisePrefix } from './keys.ts';
import type { ByteRange, FileStore, ListedFile, S3FileStoreOptions, StoredFileInfo } from './types.ts';

const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/** S3 answers a missing object with NoSuchKey (GET) or a bodiless 404 named NotFound (HEAD). */
function isMissingObject(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound';
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;

/**
 * The whole object's size from a ranged GET's `Content-Range: bytes a-b/size`, or null unless it
 * answers exactly the range asked (its end clamped to the last byte). Some S3-compatible servers
 * ignore a Range or misread one (s3rver takes `bytes=0-0` for the whole object).
 */
function servedRangeSize(contentRange: string | undefined, range: ByteRange): number | null {
  const match = CONTENT_RANGE.exec(contentRange ?? '');
  if (!match) return null;
  const [start, end, size] = match.slice(1).map(Number) as [number, number, number];
  return start === range.start && end === Math.min(range.end, size - 1) ? size : null;
}

export function s3ClientConfig(options: S3FileStoreOptions): S3ClientConfig {
  const { accessKeyId, secretAccessKey } = options;
  return {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    // Newer SDKs add CRC checksums to every request by default; many S3-compatible servers
    // (s3rver, older MinIO, some gateways) reject or ignore them, so only send them when required.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Without explicit keys the SDK's default chain applies (env, profile, instance role).
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly listPageSize: number;

  /** `listPageSize` (at most 1000, S3's own cap) is for tests that exercise paging. */
  constructor(options: S3FileStoreOptions, tuning: { listPageSize?: number } = {}) {
    this.bucket = options.bucket;
    this.prefix = normalisePrefix(options.prefix);
    this.client = new S3Client(s3ClientConfig(options));
    this.listPageSize = tuning.listPageSize ?? 1000;
  }

  private objectKey(key: string): string {
    assertValidKey(key);
    return this.prefix + key;
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<StoredFileInfo> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.byteLength,
      }),
    );
    return { key, byteSize: bytes.byteLength, contentType };
  }

  /** Renders send their bytes to an S3 store: nobody stages files for it. */
  readonly stagingDir = null;

  /** Uploads a local file (a caller's own staging) and removes it. */
  async adopt(key: string, stagedPath: string, contentType: string): Promise<StoredFileInfo> {
    try {
      return await this.put(key, await readFile(stagedPath), contentType);
    } finally {
      await rm(stagedPath, { force: true });
    }
  }

  async sweepStaged(): Promise<number> {
    return 0;
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string; byteSize: number } | null> {
    const found = await this.getObject(key);
    if (!found) return null;
    const bytes = Buffer.from(await found.body.transformToByteArray());
    return { bytes, contentType: found.contentType, byteSize: bytes.byteLength };
  }

  async getStream(
    key: string,
    range?: ByteRange,
  ): Promise<{ stream: NodeJS.ReadableStream; contentType: string; byteSize: number } | null> {
    let found: Awaited<ReturnType<S3FileStore['getObject']>>;
    try {
      found = await this.getObject(key, range);
    } catch (error) {
      // S3 refuses a range that starts past the end (416 InvalidRange); the contract streams nothing.
      if (!(range && error instanceof Error && error.name === 'InvalidRange')) throw error;
      const info = await this.head(key);
      return info && { stream: Readable.from([]), contentType: info.contentType, byteSize: info.byteSize };
    }
    if (!found) return null;
    const { body } = found;
    if (!(body instanceof Readable)) {
      throw new Error('S3 returned a non-Node stream body; is this running outside Node?');
    }
    return { stream: body, contentType: found.contentType, byteSize: found.byteSize };
  }

  private async getObject(key: string, range?: ByteRange) {
    const objectKey = this.objectKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Range: range && `bytes=${range.start}-${range.end}`,
        }),
      );
      if (!out.Body) throw new Error(`S3 returned no body for ${objectKey}`);
      const byteSize = range ? servedRangeSize(out.ContentRange, range) : out.ContentLength;
      if (byteSize === null) {
        // Wrong bytes would play as a corrupt video: better a failed request than a silent mix-up.
        if (out.Body instanceof Readable) out.Body.destroy();
        throw new Error(
          `S3 answered Content-Range ${out.ContentRange} to bytes=${range?.start}-${range?.end}`,
        );
      }
      return {
        body: out.Body,
        contentType: out.ContentType || FALLBACK_CONTENT_TYPE,
        byteSize: byteSize ?? 0,
      };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<StoredFileInfo | null> {
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { key, byteSize: out.ContentLength ?? 0, contentType: out.ContentType || FALLBACK_CONTENT_TYPE };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3's DeleteObject already succeeds on an absent key.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /**
   * ListObjects (v1) paged by Marker, the last key seen: every S3-compatible server has it, while
   * v2's continuation tokens break some (s3rver's need DES, which OpenSSL 3 refuses).
   */
  async *list(prefix: string): AsyncIterable<ListedFile> {
    assertValidPrefix(prefix);
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListObjectsCommand({
          Bucket: this.bucket,
          Prefix: this.prefix + prefix,
          MaxKeys: this.listPageSize,
          Marker: marker,
        }),
      );
      const objects = page.Contents ?? [];
      for (const object of objects) {
        const key = object.Key?.slice(this.prefix.length) ?? '';
        // Objects that are not ours (foreign names in a shared bucket) are not files of this store.
        if (!object.Key?.startsWith(this.prefix) || !isValidKey(key)) continue;
        // No date (never seen from S3 itself): taken as new, so it never looks old enough to sweep.
        yield { key, lastModified: object.LastModified ?? new Date() };
      }
      const last = objects.at(-1)?.Key;
      if (!page.IsTruncated || !last) return;
      marker = last;
    }
  }

  /**
   * null: presigning needs @aws-sdk/s3-request-presigner, which is not a dependency. Callers then
   * stream the object through the service instead of redirecting, which the contract allows.
   */
  async signedUrl(key: string, _expiresSeconds: number): Promise<string | null> {
    this.objectKey(key);
    return null;
  }

  /** HeadBucket proves the endpoint answers, the credentials work and the bucket exists. */
  async ready(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
