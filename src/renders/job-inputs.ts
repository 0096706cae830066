/**
 * Gathers what a render job needs from the workspace: bytes of the `asset:<id>` images a document
 * uses and of the uploaded fonts it names. Asset files are immutable, so their bytes are cached.
 */
import type { DesignDocument } from '../design/index.ts';
import type { FileStore } from '../files/index.ts';
import { assetIdsReferenced } from '../render/index.ts';
import type { Store } from '../store/index.ts';

export interface JobInputs {
  assets: Record<string, { bytes: Uint8Array; mimeType: string }>;
  fonts: Array<{ family: string; bytes: Uint8Array; assetId: string }>;
}

const CACHE_BYTES = 128 * 1024 * 1024;

export class JobInputLoader {
  private readonly cache = new Map<string, Uint8Array>();
  private cachedBytes = 0;

  constructor(
    private readonly store: Store,
    private readonly files: FileStore,
  ) {}

  async load(workspaceId: string, document: DesignDocument): Promise<JobInputs> {
    const assets: JobInputs['assets'] = {};
    const ids = assetIdsReferenced(document);
    for (const row of await this.store.assets.getMany(workspaceId, ids)) {
      const bytes = await this.bytes(row.id, row.fileKey);
      if (bytes && row.kind === 'image') assets[row.id] = { bytes, mimeType: row.mimeType };
    }
    const families = fontFamiliesOf(document);
    const fonts: JobInputs['fonts'] = [];
    if (families.size > 0) {
      for (const row of await this.store.assets.fonts(workspaceId)) {
        if (!row.fontFamily || !families.has(row.fontFamily.toLowerCase())) continue;
        const bytes = await this.bytes(row.id, row.fileKey);
        if (bytes) fonts.push({ family: row.fontFamily, bytes, assetId: row.id });
      }
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
      if (this.cachedBytes <= CACHE_BYTES) break;
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
