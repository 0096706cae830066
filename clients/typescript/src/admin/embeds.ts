/** Operator API: embed configurations (branding, toggles, tenancy, session TTL) of a workspace. */
import type { JsonAnswer, JsonBody, Schemas } from '../api-types.ts';
import { type ApiClient, call } from '../transport.ts';

export type EmbedConfig = Schemas['EmbedConfig'];
export type CreateEmbed = JsonBody<'createEmbed'>;
export type UpdateEmbed = JsonBody<'updateEmbed'>;

export class AdminEmbeds {
  constructor(private readonly api: ApiClient) {}

  list(workspaceId: string): Promise<JsonAnswer<'listEmbeds'>> {
    return call(this.api.GET('/admin/v1/workspaces/{id}/embeds', { params: { path: { id: workspaceId } } }));
  }

  /** Defaults: enabled, downloads, asset picker and smart resize on, multi-tenant, TTL 3600 s. */
  create(workspaceId: string, body: CreateEmbed = {}): Promise<EmbedConfig> {
    return call(
      this.api.POST('/admin/v1/workspaces/{id}/embeds', { params: { path: { id: workspaceId } }, body }),
    );
  }

  get(id: string): Promise<EmbedConfig> {
    return call(this.api.GET('/admin/v1/embeds/{id}', { params: { path: { id } } }));
  }

  /** Toggles take effect at every session's next request. */
  update(id: string, body: UpdateEmbed): Promise<EmbedConfig> {
    return call(this.api.PATCH('/admin/v1/embeds/{id}', { params: { path: { id } }, body }));
  }

  /** Its sessions stop working at once. */
  async delete(id: string): Promise<void> {
    await call(this.api.DELETE('/admin/v1/embeds/{id}', { params: { path: { id } } }));
  }
}
