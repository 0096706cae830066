/**
 * Asset uploads: the bytes are sniffed, measured and stored under an unguessable key; the record
 * points at a capability URL. Shared by the machine API, the embed asset picker and MCP.
 */
import sharp from 'sharp';
import {
  assertSameWorkspace,
  assetFilterOf,
  ownerOnCreate,
  ownsOrShared,
  type Principal,
  tenancyOf,
} from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { isIdOf, newId, randomToken } from '../core/ids.ts';
import { drawnSize, type MediaInfo } from '../engine/index.ts';
import type { FileStore } from '../files/index.ts';
import { defaultImagePolicy, FetchRefused, guardedFetch } from '../outbound/index.ts';
import type { AssetKind, AssetRow } from '../store/assets.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor } from '../store/paging.ts';
import { DesignInputs, type FontFaceInfo, type SourceImage } from './design-inputs.ts';
import { fontFamilyName } from './font-name.ts';
import { DEFAULT_MEDIA_LIMITS, inspectMedia, type MediaLimits } from './media.ts';
import { sniff } from './sniff.ts';

export interface AssetResponse {
  id: string;
  kind: AssetKind;
  mimeType: string;
  byteSize: number;
  width?: number;
  height?: number;
  fontFamily?: string;
  /** Video and audio assets: what the upload's probe found. */
  durationMs?: number;
  hasVideo?: boolean;
  hasAudio?: boolean;
  url: string;
  createdAt: string;
}

function fileUrl(baseUrl: string, key: string): string {
  return `${baseUrl}/files/${key}`;
}

function toAssetResponse(baseUrl: string, asset: AssetRow): AssetResponse {
  return {
    id: asset.id,
    kind: asset.kind,
    mimeType: asset.mimeType,
    byteSize: asset.byteSize,
    ...(asset.width !== null ? { width: asset.width } : {}),
    ...(asset.height !== null ? { height: asset.height } : {}),
    ...(asset.fontFamily ? { fontFamily: asset.fontFamily } : {}),
    ...(asset.durationMs !== null ? { durationMs: asset.durationMs } : {}),
    ...(asset.hasVideo !== null ? { hasVideo: asset.hasVideo } : {}),
    ...(asset.hasAudio !== null ? { hasAudio: asset.hasAudio } : {}),
    url: fileUrl(baseUrl, asset.fileKey),
    createdAt: asset.createdAt,
  };
}

/**
 * The size an image is drawn at: its stored size (as libvips reads it), turned as Skia turns it by
 * its EXIF orientation, which is read the way the renderer reads it (docs/decisions.md, "EXIF
 * orientation").
 */
async function imageSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: 100_000_000 }).metadata();
    if (meta.width && meta.height)
      return drawnSize(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        meta.width,
        meta.height,
      );
  } catch {
    // reported below
  }
  throw new AppError('VALIDATION_FAILED', 'The image could not be decoded.', [
    { path: 'body', message: 'Undecodable image' },
  ]);
}

/** The whole fetch of an asset from a URL: DNS, connection, redirects and body. */
const FROM_URL_TIMEOUT_MS = 30_000;

export interface UploadInput {
  bytes: Uint8Array;
  fontFamily?: string;
}

export interface AssetLimits {
  /** PLATEN_MAX_ASSET_BYTES: one image or font. */
  maxBytes: number;
  baseUrl: string;
  allowPrivateUrls?: boolean;
  /** Video and audio uploads (media.ts); each limit defaults to DEFAULT_MEDIA_LIMITS. */
  media?: Partial<MediaLimits>;
  /** The ffprobe program (default PLATEN_FFPROBE, else @ffprobe-installer/ffprobe). */
  ffprobe?: string;
}

/** An upload as it will be stored. */
interface ClassifiedFile {
  kind: AssetKind;
  mimeType: string;
  extension: string;
  size: { width: number; height: number } | null;
  fontFamily: string | null;
  media: MediaInfo | null;
}

/** A limit as people read it: 20 MB, 9.8 KB, 500 bytes. */
function readableBytes(bytes: number): string {
  const tenths = (n: number) => Math.round(n * 10) / 10;
  if (bytes >= 2 ** 20) return `${tenths(bytes / 2 ** 20)} MB`;
  return bytes >= 1024 ? `${tenths(bytes / 1024)} KB` : `${bytes} bytes`;
}

export class AssetService {
  private readonly inputs: DesignInputs;
  private readonly media: MediaLimits;

  constructor(
    private readonly store: Store,
    private readonly files: FileStore,
    private readonly limits: AssetLimits,
  ) {
    this.media = { ...DEFAULT_MEDIA_LIMITS, ...limits.media };
    this.inputs = new DesignInputs({
      store,
      files,
      fileUrl: (key) => fileUrl(limits.baseUrl, key),
      allowPrivateUrls: limits.allowPrivateUrls ?? false,
    });
  }

  /** The uploaded font families a render by this principal uses (the studio loads the same files). */
  fontFaces(principal: Principal): Promise<FontFaceInfo[]> {
    return this.inputs.fonts(principal);
  }

  /** The bytes of a design's image `src` as a render by this principal would draw it. */
  sourceImage(principal: Principal, src: string): Promise<SourceImage> {
    return this.inputs.image(principal, src);
  }

  /** The largest upload any kind may be: the body limit of the upload routes. */
  get uploadLimitBytes(): number {
    return Math.max(this.limits.maxBytes, this.media.maxBytes);
  }

  async upload(principal: Principal, input: UploadInput): Promise<AssetResponse> {
    // Every check runs before anything is stored.
    const file = await this.classify(input);
    const id = newId('asset');
    const fileKey = `assets/${principal.workspaceId}/${randomToken(18)}/${id}.${file.extension}`;
    await this.files.put(fileKey, input.bytes, file.mimeType);
    const row = await this.store.assets.create({
      id,
      workspaceId: principal.workspaceId,
      kind: file.kind,
      mimeType: file.mimeType,
      byteSize: input.bytes.length,
      width: file.size?.width ?? null,
      height: file.size?.height ?? null,
      fontFamily: file.fontFamily,
      durationMs: file.media?.durationMs ?? null,
      hasVideo: file.media?.hasVideo ?? null,
      hasAudio: file.media?.hasAudio ?? null,
      fileKey,
      createdAt: new Date().toISOString(),
      // Uploaded through a multi-tenant embed: the end-user's; otherwise the workspace's.
      ...ownerOnCreate(tenancyOf(principal)),
    });
    return toAssetResponse(this.limits.baseUrl, row);
  }

  /**
   * Uploads the file at a public URL (docs/api.md#uploading-from-a-url): fetched through the one
   * SSRF guard (https only, no private or loopback address on any hop, redirects vetted, the body
   * capped at the upload limit, one deadline), then classified and stored exactly as an upload. A
   * refused or failed fetch is a 400 on `url` saying why; the URL itself is never logged.
   */
  async uploadFromUrl(
    principal: Principal,
    input: { url: string; fontFamily?: string },
  ): Promise<AssetResponse> {
    const policy = {
      ...defaultImagePolicy(this.limits.allowPrivateUrls === true),
      maxBytes: this.uploadLimitBytes,
      timeoutMs: FROM_URL_TIMEOUT_MS,
    };
    let bytes: Buffer;
    try {
      const response = await guardedFetch(input.url, policy, { headers: { accept: '*/*' } });
      if (response.status < 200 || response.status > 299)
        throw new FetchRefused('http-status', `The URL answered HTTP ${response.status}.`, response.finalUrl);
      bytes = response.bytes;
    } catch (error) {
      if (!(error instanceof FetchRefused)) throw error;
      const status = error.reason === 'too-large' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED';
      throw new AppError(status, `The file could not be fetched: ${error.message}`, [
        { path: 'url', message: `${error.reason}: ${error.message}` },
      ]);
    }
    return this.upload(principal, { bytes, ...(input.fontFamily ? { fontFamily: input.fontFamily } : {}) });
  }

  /** What the upload is, by its bytes, within its kind's limits; refuses it otherwise. */
  private async classify(input: UploadInput): Promise<ClassifiedFile> {
    const { bytes } = input;
    if (bytes.length === 0) {
      throw new AppError('VALIDATION_FAILED', 'The upload is empty.', [
        { path: 'body', message: 'Empty file' },
      ]);
    }
    if (bytes.length > this.uploadLimitBytes) throw this.tooLarge('An asset', this.uploadLimitBytes);
    const sniffed = await sniff(bytes);
    if (!sniffed) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Assets must be PNG, JPEG, WebP, GIF, SVG, TTF, OTF, WOFF, WOFF2, MP4, WebM, MP3, M4A or WAV.',
      );
    }
    if (sniffed.kind === 'media') {
      if (bytes.length > this.media.maxBytes)
        throw this.tooLarge('A video or audio file', this.media.maxBytes);
      const inspected = await inspectMedia(bytes, sniffed.container, this.media, {
        ...(this.limits.ffprobe ? { program: this.limits.ffprobe } : {}),
      });
      const { width, height } = inspected.media;
      return {
        ...inspected,
        size: width !== undefined && height !== undefined ? { width, height } : null,
        fontFamily: null,
      };
    }
    if (bytes.length > this.limits.maxBytes) throw this.tooLarge('An image or font', this.limits.maxBytes);
    if (sniffed.kind === 'image')
      return { ...sniffed, size: await imageSize(bytes), fontFamily: null, media: null };
    const fontFamily = input.fontFamily ?? fontFamilyName(bytes, sniffed.mimeType);
    if (!fontFamily) {
      throw new AppError('VALIDATION_FAILED', 'The font family could not be read; pass ?family=Name.', [
        { path: 'family', message: 'Required for this font' },
      ]);
    }
    return { ...sniffed, size: null, fontFamily, media: null };
  }

  private tooLarge(what: string, limit: number): AppError {
    return new AppError('PAYLOAD_TOO_LARGE', `${what} may be at most ${readableBytes(limit)}.`, [
      { path: 'body', message: `The limit is ${limit} bytes (${readableBytes(limit)})` },
    ]);
  }

  async list(
    principal: Principal,
    query: { limit: number; cursor?: string; kind?: AssetKind },
  ): Promise<{ items: AssetResponse[]; nextCursor: string | null }> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (after === null) {
      throw new AppError('VALIDATION_FAILED', 'The cursor is not valid.', [
        { path: 'cursor', message: 'Invalid cursor' },
      ]);
    }
    const tenancy = tenancyOf(principal);
    const page = await this.store.assets.list(
      principal.workspaceId,
      { limit: query.limit, ...(after ? { after } : {}) },
      assetFilterOf(tenancy),
      query.kind,
    );
    return {
      items: page.items.map((a) => toAssetResponse(this.limits.baseUrl, a)),
      nextCursor: page.nextCursor,
    };
  }

  async get(principal: Principal, id: string): Promise<AssetResponse> {
    return toAssetResponse(this.limits.baseUrl, await this.load(principal, id));
  }

  private async load(principal: Principal, id: string): Promise<AssetRow> {
    const asset = isIdOf('asset', id) ? await this.store.assets.get(id) : null;
    if (!asset) throw new AppError('NOT_FOUND', 'The asset was not found.');
    assertSameWorkspace(principal, asset.workspaceId);
    // Another end-user's asset does not exist for a tenant session.
    if (!ownsOrShared(tenancyOf(principal), asset))
      throw new AppError('NOT_FOUND', 'The asset was not found.');
    return asset;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    const asset = await this.load(principal, id);
    await this.store.assets.delete(asset.id);
    await this.files.delete(asset.fileKey);
  }
}
