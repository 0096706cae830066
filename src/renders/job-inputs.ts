/**
 * Gathers what a render job needs from the workspace: bytes of the `asset:<id>` images a document
 * uses and of the uploaded fonts it names. Asset files are immutable, so their bytes are cached.
 * What one render may load is bounded from the asset records before any file is read.
 */
import { AppError } from '../core/errors.ts';
import type { DesignDocument } from '../design/index.ts';
import { assetIdsReferenced } from '../engine/index.ts';
import type { FileStore } from '../files/index.ts';
import type { Store } from '../store/index.ts';

export interface JobInputs {
  assets: Record<string, { bytes: Uint8Array; mimeType: string }>;
  fonts: Array<{ family: string; bytes: Uint8Array; assetId: string }>;
}

/** Bytes of asset images and fonts one render may load (a document may name 25,000 assets of 20 MB). */
const MAX_JOB_INPUT_BYTES = 200 * 1024 * 1024;

export class JobInputLoader {
  private readonly cache = new Map<string, Uint8Array>();
  private cachedBytes = 0;

  constructor(
    private readonly store: Store,
    private readonly files: FileStore,
    /** PLATEN_CACHE_JOB_INPUTS_MB: asset bytes kept in this process between renders. */
    private readonly cacheBytes = 128 * 1024 * 1024,
  ) {}

  /**
   * `visible` says which assets the asking principal may use: a tenant's document naming another
   * end-user's `asset:<id>` renders as if that asset did not exist.
   */
  async load(
    workspaceId: string,
    document: DesignDocument,
    visible: (asset: { ownerUserId: string | null; embedId: string | null }) => boolean = () => true,
  ): Promise<JobInputs> {
    const images = (await this.store.assets.getMany(workspaceId, assetIdsReferenced(document))).filter(
      (row) => row.kind === 'image' && visible(row),
    );
    const families = fontFamiliesOf(document);
    const fontRows =
      families.size === 0
        ? []
        : (await this.store.assets.fonts(workspaceId)).filter(
            (row) => row.fontFamily && families.has(row.fontFamily.toLowerCase()) && visible(row),
          );
    const total = [...images, ...fontRows].reduce((sum, row) => sum + row.byteSize, 0);
    if (total > MAX_JOB_INPUT_BYTES) {
      throw new AppError('RENDER_FAILED', 'The images and fonts this render uses are too large together.', {
        reason: `assets total ${Math.ceil(total / 2 ** 20)} MB; the limit is ${MAX_JOB_INPUT_BYTES / 2 ** 20} MB a render`,
      });
    }
    const assets: JobInputs['assets'] = {};
    for (const row of images) {
      const bytes = await this.bytes(row.id, row.fileKey);
      if (bytes) assets[row.id] = { bytes, mimeType: row.mimeType };
    }
    const fonts: JobInputs['fonts'] = [];
    for (const row of fontRows) {
      const bytes = await this.bytes(row.id, row.fileKey);
      if (bytes && row.fontFamily) fonts.push({ family: row.fontFamily, bytes, assetId: row.id });
    }
    return { assets, fonts };
  }

  private async bytes(id: string, fileKey: string): Promise<Uint8Array | null> {
    const cached = this.cache.get(id);
    if (cached) {
      this.cache.delete(id);
      this.cache.set(id, cached);
      return cached;
    }
    const file = await this.files.get(fileKey);
    if (!file) return null;
    const bytes = new Uint8Array(file.bytes);
    this.cache.set(id, bytes);
    this.cachedBytes += bytes.length;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= this.cacheBytes) break;
      this.cache.delete(key);
      this.cachedBytes -= value.length;
    }
    return bytes;
  }
}

function fontFamiliesOf(document: DesignDocument): Set<string> {
  const families = new Set<string>();
  for (const page of document.pages) {
    for (const element of page.elements) {
      if (element.type === 'text') families.add(element.fontFamily.toLowerCase());
    }
  }
  return families;
}
