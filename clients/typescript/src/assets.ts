/**
 * Images, fonts, videos and audio of the key's workspace: list, read, upload (raw bytes), delete,
 * download.
 */
import type { QueryOf } from './api-types.ts';
import { PlatenError } from './errors.ts';
import type { components } from './openapi.ts';
import { everyItem, type Page } from './paging.ts';
import { type ApiClient, call } from './transport.ts';

export type Asset = components['schemas']['Asset'];

export class Assets {
  constructor(
    private readonly api: ApiClient,
    private readonly fetchFile: (url: string) => Promise<Response>,
  ) {}

  /** One page, newest first; `kind` (image, font, video, audio) filters. */
  list(query: QueryOf<'listAssets'> = {}): Promise<Page<Asset>> {
    return call(this.api.GET('/v1/assets', { params: { query } }));
  }

  async *all(pageSize = 100): AsyncGenerator<Asset> {
    yield* everyItem((query) => this.list(query), pageSize);
  }

  get(id: string): Promise<Asset> {
    return call(this.api.GET('/v1/assets/{id}', { params: { path: { id } } }));
  }

  /**
   * Uploads an image, a font, a video or an audio file as raw bytes. `contentType` is what the file
   * is (`image/png`, `font/ttf`, `video/mp4`…); the service sniffs the bytes and refuses a mismatch.
   * `family` names an uploaded font.
   */
  upload(bytes: Uint8Array | Blob, contentType: string, options: { family?: string } = {}): Promise<Asset> {
    return call(
      this.api.POST('/v1/assets', {
        params: { query: options.family ? { family: options.family } : {} },
        // The body is the file itself, not JSON.
        body: bytes as unknown as string,
        bodySerializer: (body: unknown) => body as BodyInit,
        headers: { 'content-type': contentType },
      }),
    );
  }

  /**
   * Stores the file at a public URL, fetched by the service (https, never a private address, at
   * most the upload size); a URL it cannot fetch rejects with `VALIDATION_FAILED` on `url`.
   */
  uploadFromUrl(url: string, options: { family?: string } = {}): Promise<Asset> {
    return call(this.api.POST('/v1/assets/from-url', { body: { url, ...options } }));
  }

  async delete(id: string): Promise<void> {
    await call(this.api.DELETE('/v1/assets/{id}', { params: { path: { id } } }));
  }

  /** The asset's bytes, from its capability URL. */
  async download(asset: Pick<Asset, 'url'>): Promise<Uint8Array> {
    const response = await this.fetchFile(asset.url);
    if (!response.ok) throw await PlatenError.fromResponse(response);
    return new Uint8Array(await response.arrayBuffer());
  }
}
