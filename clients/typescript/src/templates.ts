/** Templates of the key's workspace: list, read, create, save (with `If-Match`), rename, share, delete. */
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
}
