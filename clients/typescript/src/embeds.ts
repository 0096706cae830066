/**
 * The public embed routes a customer's backend calls (docs/api.md, Embeds): an embed's public info,
 * and minting a studio session for one of its end-users. The key is sent along, so an embed with
 * `mintRequiresApiKey` accepts the call. The session routes themselves are the studio's.
 */
import type { JsonBody, Schemas } from './api-types.ts';
import { type ApiClient, call } from './transport.ts';

/** Branding and toggles; `enabled: false` for a disabled embed. */
export type EmbedInfo = Schemas['PublicEmbedInfo'];
/** `{token, expiresAt}`: hand `token` to the studio in the end-user's browser. */
export type EmbedSession = Schemas['EmbedSession'];
export type CreateEmbedSession = JsonBody<'createEmbedSession'>;

export class Embeds {
  constructor(private readonly api: ApiClient) {}

  getInfo(embedId: string): Promise<EmbedInfo> {
    return call(this.api.GET('/v1/embed/{embedId}', { params: { path: { embedId } } }));
  }

  /** `userId` is your own id for the end-user (a multi-tenant embed requires it). */
  createSession(embedId: string, body: CreateEmbedSession = {}): Promise<EmbedSession> {
    return call(this.api.POST('/v1/embed/{embedId}/session', { params: { path: { embedId } }, body }));
  }
}
