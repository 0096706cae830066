/**
 * Templates of the key's workspace: list, read, create, save (with `If-Match`), rename, share, delete;
 * and their versions: publish, list, read, roll back, diff (docs/versions.md).
 */
import type { JsonBody } from './api-types.ts';
import type { components, paths } from './openapi.ts';
import { everyItem, type Page } from './paging.ts';
import { type ApiClient, call } from './transport.ts';

export type Template = components['schemas']['Template'];
export type TemplateWithDocument = components['schemas']['TemplateWithDocument'];
export type CreateTemplate = NonNullable<
  paths['/v1/templates']['post']['requestBody']
>['content']['application/json'];
export type SaveTemplate = NonNullable<
  paths['/v1/templates/{id}']['put']['requestBody']
>['content']['application/json'];
export type UpdateTemplate = NonNullable<
  paths['/v1/templates/{id}']['patch']['requestBody']
>['content']['application/json'];

export type TemplateVersion = components['schemas']['TemplateVersion'];
export type TemplateVersionWithDocument = components['schemas']['TemplateVersionWithDocument'];
export type TemplateDiff = components['schemas']['TemplateDiff'];
export type PreflightReport = components['schemas']['PreflightReport'];
export type PreflightFinding = components['schemas']['PreflightFinding'];
export type TemplateVariables = components['schemas']['TemplateVariables'];
/** A version number, `latest` (the last published), or, in a diff, `draft`. */
export type VersionRef = number | 'latest';
export type DiffSide = VersionRef | 'draft';

export class Templates {
  constructor(private readonly api: ApiClient) {}

  list(query: { limit?: number; cursor?: string } = {}): Promise<Page<Template>> {
    return call(this.api.GET('/v1/templates', { params: { query } }));
  }

  /** Every template, page after page. */
  async *all(pageSize = 100): AsyncGenerator<Template> {
    yield* everyItem((query) => this.list(query), pageSize);
  }

  get(id: string): Promise<TemplateWithDocument> {
    return call(this.api.GET('/v1/templates/{id}', { params: { path: { id } } }));
  }

  create(body: CreateTemplate): Promise<TemplateWithDocument> {
    return call(this.api.POST('/v1/templates', { body }));
  }

  /**
   * Saves the draft (`revision` + 1). With `ifMatch` (the revision it was read at) a newer revision
   * on the server refuses the save with `PRECONDITION_FAILED` (412) instead of overwriting it.
   */
  save(id: string, body: SaveTemplate, options: { ifMatch?: number } = {}): Promise<TemplateWithDocument> {
    const header = options.ifMatch === undefined ? {} : { 'if-match': `"${options.ifMatch}"` };
    return call(this.api.PUT('/v1/templates/{id}', { params: { path: { id }, header }, body }));
  }

  /** Name and sharing only; the draft's revision does not change. */
  update(id: string, body: UpdateTemplate): Promise<Template> {
    return call(this.api.PATCH('/v1/templates/{id}', { params: { path: { id } }, body }));
  }

  async delete(id: string): Promise<void> {
    await call(this.api.DELETE('/v1/templates/{id}', { params: { path: { id } } }));
  }

  /**
   * Every `modifications` key the draft (or `version`) takes, with its kind, default and the boxes
   * it fills (docs/variables.md).
   */
  variables(id: string, query: { version?: VersionRef } = {}): Promise<TemplateVariables> {
    return call(this.api.GET('/v1/templates/{id}/variables', { params: { path: { id }, query } }));
  }

  /** Publishes the draft as the next version; an unchanged draft answers the existing one. */
  publish(id: string, body: { note?: string } = {}): Promise<TemplateVersionWithDocument> {
    return call(this.api.POST('/v1/templates/{id}/versions', { params: { path: { id } }, body }));
  }

  /** Published versions, newest first. */
  versions(id: string, query: { limit?: number; cursor?: string } = {}): Promise<Page<TemplateVersion>> {
    return call(this.api.GET('/v1/templates/{id}/versions', { params: { path: { id }, query } }));
  }

  version(id: string, version: VersionRef): Promise<TemplateVersionWithDocument> {
    return call(
      this.api.GET('/v1/templates/{id}/versions/{version}', {
        params: { path: { id, version } },
      }),
    );
  }

  /** Makes the draft a copy of `version` (`revision` + 1); `ifMatch` as for save. */
  rollback(
    id: string,
    version: VersionRef,
    options: { ifMatch?: number } = {},
  ): Promise<TemplateWithDocument> {
    const header = options.ifMatch === undefined ? {} : { 'if-match': `"${options.ifMatch}"` };
    return call(
      this.api.POST('/v1/templates/{id}/versions/{version}/rollback', {
        params: { path: { id, version }, header },
      }),
    );
  }

  /** What changed, element by element (default: from `latest` to `draft`). */
  diff(id: string, query: { from?: DiffSide; to?: DiffSide } = {}): Promise<TemplateDiff> {
    return call(this.api.GET('/v1/templates/{id}/diff', { params: { path: { id }, query } }));
  }

  /** A PNG of one page with its changed pixels in magenta over the newer side, faded. */
  async diffImage(
    id: string,
    query: { from?: DiffSide; to?: DiffSide; pageId?: string } = {},
  ): Promise<Uint8Array> {
    const bytes = await call(
      this.api.GET('/v1/templates/{id}/diff.png', {
        params: { path: { id }, query },
        parseAs: 'arrayBuffer',
      }),
    );
    return new Uint8Array(bytes as ArrayBuffer);
  }

  /**
   * A free preview of one page: at most 512 px long, watermarked PREVIEW, as PNG (default) or JPEG
   * bytes. Nothing is charged; it counts against the render rate limit.
   */
  async preview(id: string, body: JsonBody<'previewTemplate'> = {}): Promise<Uint8Array> {
    const bytes = await call(
      this.api.POST('/v1/templates/{id}/preview', {
        params: { path: { id } },
        body,
        parseAs: 'arrayBuffer',
      }),
    );
    return new Uint8Array(bytes as ArrayBuffer);
  }

  /**
   * What a render would get wrong, free: missing glyphs, overflowing or cut text, low-resolution
   * images, low contrast, failed images, elements beyond the page. With `modifications`, or up to
   * 1,000 sample `rows`. It counts against the render rate limit.
   */
  preflight(id: string, body: JsonBody<'preflightTemplate'> = {}): Promise<PreflightReport> {
    return call(this.api.POST('/v1/templates/{id}/preflight', { params: { path: { id } }, body }));
  }
}
