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
import type { FileStore } from '../files/index.ts';
import type { AssetRow } from '../store/assets.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor } from '../store/paging.ts';
import { DesignInputs, type FontFaceInfo, type SourceImage } from './design-inputs.ts';
import { fontFamilyName } from './font-name.ts';
import { sniff } from './sniff.ts';

export interface AssetResponse {
  id: string;
  kind: 'image' | 'font';
  mimeType: string;
  byteSize: number;
  width?: number;
  height?: number;
  fontFamily?: string;
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
    url: fileUrl(baseUrl, asset.fileKey),
    createdAt: asset.createdAt,
  };
}

async function imageSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(bytes, { limitInputPixels: 100_000_000 }).metadata();
    if (meta.width && meta.height) return { width: meta.width, height: meta.height };
  } catch {
    // reported below
  }
  throw new AppError('VALIDATION_FAILED', 'The image could not be decoded.', [
    { path: 'body', message: 'Undecodable image' },
  ]);
}

export interface UploadInput {
  bytes: Uint8Array;
  fontFamily?: string;
}

export class AssetService {
  private readonly inputs: DesignInputs;

  constructor(
    private readonly store: Store,
    private readonly files: FileStore,
    private readonly limits: { maxBytes: number; baseUrl: string; allowPrivateUrls?: boolean },
  ) {
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

  async upload(principal: Principal, input: UploadInput): Promise<AssetResponse> {
    if (input.bytes.length === 0) {
      throw new AppError('VALIDATION_FAILED', 'The upload is empty.', [
        { path: 'body', message: 'Empty file' },
      ]);
    }
    if (input.bytes.length > this.limits.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE');
    const sniffed = await sniff(input.bytes);
    if (!sniffed) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Assets must be PNG, JPEG, WebP, GIF, SVG, TTF, OTF, WOFF or WOFF2.',
      );
    }
    const size = sniffed.kind === 'image' ? await imageSize(input.bytes) : null;
    const fontFamily =
      sniffed.kind === 'font' ? (input.fontFamily ?? fontFamilyName(input.bytes, sniffed.mimeType)) : null;
    if (sniffed.kind === 'font' && !fontFamily) {
      throw new AppError('VALIDATION_FAILED', 'The font family could not be read; pass ?family=Name.', [
        { path: 'family', message: 'Required for this font' },
      ]);
    }
    const id = newId('asset');
    const fileKey = `assets/${principal.workspaceId}/${randomToken(18)}/${id}.${sniffed.extension}`;
    await this.files.put(fileKey, input.bytes, sniffed.mimeType);
    const row = await this.store.assets.create({
      id,
      workspaceId: principal.workspaceId,
      kind: sniffed.kind,
      mimeType: sniffed.mimeType,
      byteSize: input.bytes.length,
      width: size?.width ?? null,
      height: size?.height ?? null,
      fontFamily,
      fileKey,
      createdAt: new Date().toISOString(),
      // Uploaded through a multi-tenant embed: the end-user's; otherwise the workspace's.
      ...ownerOnCreate(tenancyOf(principal)),
    });
    return toAssetResponse(this.limits.baseUrl, row);
  }

  async list(
    principal: Principal,
    query: { limit: number; cursor?: string },
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
