/**
 * What a design draws with, for an editor that must draw it as the renderer does: the bytes of an
 * image source (`asset:<id>`, an https URL or a data URI) and the workspace's uploaded font families, each
 * under the renderer's own visibility rule (an end-user sees the workspace's assets and their own;
 * job-inputs.ts applies the same `ownsOrShared`). Remote images come only through the SSRF guard,
 * bounded as render fetches are, and only bytes that sniff as an image are handed back, so this is
 * no open proxy for arbitrary content.
 */
import { ownsOrShared, type Principal, tenancyOf } from '../auth/index.ts';
import { AppError } from '../core/errors.ts';
import { assetIdOf, classifyImageSrc } from '../design/index.ts';
import { decodeDataUri } from '../engine/index.ts';
import type { FileStore } from '../files/index.ts';
import { defaultImagePolicy, type FetchPolicy, FetchRefused, fetchImageBytes } from '../outbound/index.ts';
import type { AssetRow } from '../store/assets.ts';
import type { Store } from '../store/index.ts';
import { sniff } from './sniff.ts';

export interface SourceImage {
  bytes: Uint8Array;
  mimeType: string;
}

export interface FontFaceInfo {
  family: string;
  assetId: string;
  mimeType: string;
  url: string;
}

export interface DesignInputDeps {
  store: Store;
  files: FileStore;
  fileUrl: (fileKey: string) => string;
  allowPrivateUrls: boolean;
  /** Test seam: parts of the fetch policy (DNS, address rule). */
  fetchPolicy?: Partial<FetchPolicy>;
}

const notFound = () => new AppError('NOT_FOUND', 'The image was not found.');

function refused(error: FetchRefused): AppError {
  return new AppError('RENDER_FAILED', 'The image URL could not be fetched.', {
    reason: error.reason,
    message: error.message,
  });
}

export class DesignInputs {
  constructor(private readonly deps: DesignInputDeps) {}

  /** The workspace's uploaded fonts this principal's renders would use, by family. */
  async fonts(principal: Principal): Promise<FontFaceInfo[]> {
    const tenancy = tenancyOf(principal);
    const rows = await this.deps.store.assets.fonts(principal.workspaceId);
    return rows
      .filter((row) => row.fontFamily && ownsOrShared(tenancy, row))
      .map((row) => ({
        family: row.fontFamily ?? '',
        assetId: row.id,
        mimeType: row.mimeType,
        url: this.deps.fileUrl(row.fileKey),
      }));
  }

  /** The image a document's `src` names, as a render by this principal would draw it. */
  async image(principal: Principal, src: string): Promise<SourceImage> {
    switch (classifyImageSrc(src)) {
      case 'asset':
        return this.assetImage(principal, assetIdOf(src) ?? '');
      case 'url':
        return this.remoteImage(src);
      case 'data':
        return imageOnly(decodeDataUri(src).bytes);
      default:
        throw new AppError(
          'VALIDATION_FAILED',
          'The source must be asset:<id>, an https URL or a data URI.',
          [{ path: 'src', message: 'Not asset:<id>, an https URL or a data:image URI' }],
        );
    }
  }

  private async assetImage(principal: Principal, id: string): Promise<SourceImage> {
    const [row] = await this.deps.store.assets.getMany(principal.workspaceId, [id]);
    if (row?.kind !== 'image' || !ownsOrShared(tenancyOf(principal), row)) throw notFound();
    return this.fileOf(row);
  }

  private async fileOf(row: AssetRow): Promise<SourceImage> {
    const file = await this.deps.files.get(row.fileKey);
    if (!file) throw notFound();
    return { bytes: new Uint8Array(file.bytes), mimeType: row.mimeType };
  }

  private async remoteImage(url: string): Promise<SourceImage> {
    let bytes: Uint8Array;
    try {
      ({ bytes } = await fetchImageBytes(url, {
        ...defaultImagePolicy(this.deps.allowPrivateUrls),
        ...this.deps.fetchPolicy,
      }));
    } catch (error) {
      if (error instanceof FetchRefused) throw refused(error);
      throw error;
    }
    return imageOnly(bytes);
  }
}

/** The declared type is not trusted: only bytes that are an image the renderer draws go back. */
async function imageOnly(bytes: Uint8Array): Promise<SourceImage> {
  const sniffed = await sniff(bytes);
  if (sniffed?.kind !== 'image') {
    throw new AppError('RENDER_FAILED', 'The source does not hold an image.', { reason: 'not an image' });
  }
  return { bytes, mimeType: sniffed.mimeType };
}
