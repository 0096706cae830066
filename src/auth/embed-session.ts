/**
 * Embed session tokens and their authenticator. A token is a JWT (HS256, RFC 7519) minted by the
 * embed service for one end-user of one embed: it names the embed (audience), the workspace, the
 * user and the scopes the embed allowed at minting, and expires after the embed's TTL. The signing
 * key is the deployment's, kept in the database so every instance verifies every token.
 *
 * At each request the embed is read again: a deleted embed, another embed's token, or a token
 * without a user on an embed that is multi-tenant now is 401 INVALID_SESSION, a disabled embed 403
 * EMBED_DISABLED, and the scopes are the embed's toggles now (docs/api.md, Embeds: "toggles are
 * read at each request"), so switching a toggle off takes effect at once. (A suspended workspace
 * is the kernel's check, as for every credential.) A console studio token (`ses`) also needs the
 * console session it was opened from to be live: signing out, or being disabled, ends it at once.
 */
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../core/errors.ts';
import type { EmbedRecord } from '../store/embeds.ts';
import type { Store } from '../store/index.ts';
import type { Authenticated, Authenticator } from './authenticator.ts';
import type { Principal } from './principal.ts';
import type { Scope } from './scopes.ts';

const KEY_NAME = 'embed-session-key';
const ISSUER = 'platen';
const audienceOf = (embedId: string) => `embed:${embedId}`;

/** What an embed's toggles allow a session now. */
export function embedScopes(embed: Pick<EmbedRecord, 'downloadsEnabled' | 'assetPickerEnabled'>): Scope[] {
  return [
    'template:read',
    'template:write',
    ...(embed.downloadsEnabled ? (['render:write'] as const) : []),
    ...(embed.assetPickerEnabled ? (['asset:read', 'asset:write'] as const) : []),
  ];
}

export interface MintedSession {
  token: string;
  expiresAt: string;
}

export class EmbedSessionTokens {
  private key: Promise<Uint8Array> | null = null;

  constructor(private readonly store: Store) {}

  /** `consoleSession`: the console session (its id) a console studio token lives and dies with. */
  async mint(
    embed: EmbedRecord,
    userId: string | null,
    options: { consoleSession?: string } = {},
    now = new Date(),
  ): Promise<MintedSession> {
    const expires = new Date(now.getTime() + embed.sessionTtlSeconds * 1000);
    const claims = {
      wsp: embed.workspaceId,
      scp: embedScopes(embed).join(' '),
      ...(options.consoleSession ? { ses: options.consoleSession } : {}),
    };
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(audienceOf(embed.id))
      .setSubject(userId ?? '')
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expires.getTime() / 1000))
      .sign(await this.signingKey());
    return { token, expiresAt: expires.toISOString() };
  }

  /** The token's workspace and user, if it is ours, unexpired and minted for this embed; else null. */
  async verify(
    token: string,
    embedId: string,
  ): Promise<{ workspaceId: string; userId: string | null; consoleSession: string | null } | null> {
    try {
      const { payload } = await jwtVerify(token, await this.signingKey(), {
        issuer: ISSUER,
        audience: audienceOf(embedId),
        algorithms: ['HS256'],
      });
      if (typeof payload.wsp !== 'string' || typeof payload.sub !== 'string') return null;
      if (payload.ses !== undefined && typeof payload.ses !== 'string') return null;
      return {
        workspaceId: payload.wsp,
        userId: payload.sub === '' ? null : payload.sub,
        consoleSession: payload.ses ?? null,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }

  /** The deployment's key: created once by whichever instance gets there first. */
  private signingKey(): Promise<Uint8Array> {
    this.key ??= this.store.meta
      .secret(KEY_NAME)
      .then((stored) => new Uint8Array(Buffer.from(stored, 'base64url')));
    return this.key;
  }
}

const bearerOf = (authorization: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

export function embedSessionAuthenticator(store: Store, tokens: EmbedSessionTokens): Authenticator {
  return async ({ headers, params, address }): Promise<Authenticated> => {
    const embedId = params.embedId ?? '';
    const token = bearerOf(headers.authorization);
    const claims = token && token.length <= 4096 ? await tokens.verify(token, embedId) : null;
    if (!claims) throw new AppError('INVALID_SESSION');
    const embed = await store.embeds.getWithWorkspace(embedId);
    if (!embed || embed.workspaceId !== claims.workspaceId) throw new AppError('INVALID_SESSION');
    // Minted without a user while the embed was single-tenant: it names no end-user to isolate.
    if (embed.multiTenant && claims.userId === null) throw new AppError('INVALID_SESSION');
    // A console studio token: only while the console session it was opened from lives.
    if (
      claims.consoleSession !== null &&
      !(await store.users.session(claims.consoleSession, new Date().toISOString()))
    )
      throw new AppError('INVALID_SESSION');
    if (!embed.enabled) throw new AppError('EMBED_DISABLED');
    const principal: Principal = {
      workspaceId: embed.workspaceId,
      scopes: new Set(embedScopes(embed)),
      actor: {
        type: 'embed_session',
        embedId,
        userId: claims.userId,
        isolated: embed.multiTenant,
        // The team working in the console's studio edits drafts whatever the embed shows others.
        publishedOnly: embed.publishedOnly && claims.consoleSession === null,
      },
      address,
    };
    return { principal, workspaceSuspended: embed.workspaceSuspended };
  };
}
