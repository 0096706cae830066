/**
 * Operator API: a workspace's URL-signing secrets (`urlsec_…`, shown on create and rotate only),
 * their render caps, rotation with a grace period, and revocation.
 */
import type { JsonAnswer, JsonBody, Schemas } from '../api-types.ts';
import { type ApiClient, call } from '../transport.ts';

export type UrlSigningSecret = Schemas['UrlSigningSecret'];
/** A URL-signing secret with its key (`secret`): shown in this answer only. */
export type UrlSigningSecretWithKey = Schemas['UrlSigningSecretWithKey'];
export type CreateUrlSigningSecret = JsonBody<'createUrlSigningSecret'>;
export type UpdateUrlSigningSecret = JsonBody<'updateUrlSigningSecret'>;

export class UrlSigningSecrets {
  constructor(private readonly api: ApiClient) {}

  list(workspaceId: string): Promise<JsonAnswer<'listUrlSigningSecrets'>> {
    return call(
      this.api.GET('/admin/v1/workspaces/{id}/url-signing-secrets', {
        params: { path: { id: workspaceId } },
      }),
    );
  }

  create(workspaceId: string, body: CreateUrlSigningSecret = {}): Promise<UrlSigningSecretWithKey> {
    return call(
      this.api.POST('/admin/v1/workspaces/{id}/url-signing-secrets', {
        params: { path: { id: workspaceId } },
        body,
      }),
    );
  }

  /** Sets the render cap (`null`: none). */
  update(id: string, body: UpdateUrlSigningSecret): Promise<UrlSigningSecret> {
    return call(this.api.PATCH('/admin/v1/url-signing-secrets/{id}', { params: { path: { id } }, body }));
  }

  /** A new key, shown once; URLs signed with the old one verify until `previousValidUntil`. */
  rotate(id: string): Promise<UrlSigningSecretWithKey> {
    return call(this.api.POST('/admin/v1/url-signing-secrets/{id}/rotate', { params: { path: { id } } }));
  }

  /** No URL it signed verifies any more. */
  async revoke(id: string): Promise<void> {
    await call(this.api.DELETE('/admin/v1/url-signing-secrets/{id}', { params: { path: { id } } }));
  }
}
