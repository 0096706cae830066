/**
 * Embeds: their configuration (the operator's), their public info (anyone's), and minting an end-user
 * session (the customer's backend). Everything an embed session then does goes through the template,
 * asset and render services with the session's principal; nothing here repeats their rules.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AuditTrail } from '../audit/trail.ts';
import {
  authenticateApiKey,
  type EmbedSessionTokens,
  embedScopes,
  type MintedSession,
} from '../auth/index.ts';
import { assertManages, manages, type Principal } from '../auth/principal.ts';
import { AppError } from '../core/errors.ts';
import { isIdOf } from '../core/ids.ts';
import type { EmbedRecord, EmbedSettings } from '../store/embeds.ts';
import type { Store } from '../store/index.ts';
import type { EmbedSettingsInput } from './schemas.ts';

/** A small neutral icon, so public info always carries a URL (docs/api.md, Embeds, gives the defaults). */
const DEFAULT_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%234f46e5'/%3E%3Cpath d='M9 8h9a6 6 0 0 1 0 12h-5v4H9z' fill='white'/%3E%3C/svg%3E";

export const EMBED_DEFAULTS: EmbedSettings = {
  brandTitle: 'Studio',
  brandIconUrl: DEFAULT_ICON,
  brandAccentColor: '#4f46e5',
  enabled: true,
  downloadsEnabled: true,
  assetPickerEnabled: true,
  smartResizeEnabled: true,
  multiTenant: true,
  sessionTtlSeconds: 3600,
  mintRequiresApiKey: false,
  publishedOnly: false,
};

export interface PublicEmbedInfo {
  enabled: boolean;
  brandTitle: string;
  brandIconUrl: string;
  brandAccentColor: string;
  downloadsEnabled: boolean;
  assetPickerEnabled: boolean;
  smartResizeEnabled: boolean;
  publishedOnly: boolean;
}

const notFound = () => new AppError('NOT_FOUND', 'The embed was not found.');
const noWorkspace = () => new AppError('NOT_FOUND', 'The workspace was not found.');

/** What the audit trail keeps of an embed's settings: what decides who may do what. */
const securityRelevant = (embed: EmbedSettings) => ({
  enabled: embed.enabled,
  multiTenant: embed.multiTenant,
  mintRequiresApiKey: embed.mintRequiresApiKey,
  downloadsEnabled: embed.downloadsEnabled,
  assetPickerEnabled: embed.assetPickerEnabled,
  sessionTtlSeconds: embed.sessionTtlSeconds,
  publishedOnly: embed.publishedOnly,
});

export class EmbedService {
  constructor(
    private readonly store: Store,
    private readonly tokens: EmbedSessionTokens,
    private readonly audit: AuditTrail,
  ) {}

  async create(principal: Principal, workspaceId: string, input: EmbedSettingsInput): Promise<EmbedRecord> {
    await this.workspace(principal, workspaceId);
    const created = await this.store.embeds.create(workspaceId, { ...EMBED_DEFAULTS, ...input });
    await this.audit.record(principal, 'embed.created', {
      workspaceId,
      target: created.id,
      details: { settings: securityRelevant(created) },
    });
    return created;
  }

  async list(principal: Principal, workspaceId: string): Promise<EmbedRecord[]> {
    await this.workspace(principal, workspaceId);
    return this.store.embeds.list(workspaceId);
  }

  async get(principal: Principal, id: string): Promise<EmbedRecord> {
    const embed = await this.find(id);
    if (!manages(principal, embed.workspaceId)) throw notFound();
    return embed;
  }

  /** Changes settings; the audit entry names each setting's old and new value. */
  async update(principal: Principal, id: string, patch: EmbedSettingsInput): Promise<EmbedRecord> {
    const before = await this.get(principal, id);
    const updated = await this.store.embeds.update(id, patch);
    if (!updated) throw notFound();
    const changes = Object.fromEntries(
      Object.keys(patch)
        .filter((key) => before[key as keyof EmbedSettings] !== updated[key as keyof EmbedSettings])
        .map((key) => [
          key,
          { from: before[key as keyof EmbedSettings], to: updated[key as keyof EmbedSettings] },
        ]),
    );
    await this.audit.record(principal, 'embed.updated', {
      workspaceId: updated.workspaceId,
      target: id,
      details: { changes },
    });
    return updated;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    const embed = await this.get(principal, id);
    if (!(await this.store.embeds.delete(id))) throw notFound();
    await this.audit.record(principal, 'embed.deleted', { workspaceId: embed.workspaceId, target: id });
  }

  private async find(id: string): Promise<EmbedRecord> {
    const embed = isIdOf('embed', id) ? await this.store.embeds.get(id) : null;
    if (!embed) throw notFound();
    return embed;
  }

  private async workspace(principal: Principal, workspaceId: string): Promise<void> {
    assertManages(principal, workspaceId, noWorkspace);
    if (!isIdOf('workspace', workspaceId) || !(await this.store.workspaces.get(workspaceId)))
      throw noWorkspace();
  }

  /** Branding and toggles for anyone who knows the id; a disabled embed says so rather than 403. */
  async publicInfo(id: string): Promise<PublicEmbedInfo> {
    const embed = await this.find(id);
    return {
      enabled: embed.enabled,
      brandTitle: embed.brandTitle,
      brandIconUrl: embed.brandIconUrl,
      brandAccentColor: embed.brandAccentColor,
      downloadsEnabled: embed.downloadsEnabled,
      assetPickerEnabled: embed.assetPickerEnabled,
      smartResizeEnabled: embed.smartResizeEnabled,
      publishedOnly: embed.publishedOnly,
    };
  }

  /**
   * A studio session for a person in the console: the workspace's own console embed (not
   * multi-tenant, so it edits the workspace's templates), created on first use. The token is bound
   * to the person's console session (`sessionId`): it ends when that session does.
   */
  async consoleSession(
    principal: Principal,
    sessionId: string,
  ): Promise<MintedSession & { embedId: string }> {
    if (principal.actor.type !== 'person' || !manages(principal, principal.workspaceId)) throw noWorkspace();
    const { workspaceId } = principal;
    // Nobody mints on it by the public route without a full API key of the workspace.
    const settings = {
      ...EMBED_DEFAULTS,
      brandTitle: 'Platen console',
      multiTenant: false,
      mintRequiresApiKey: true,
    };
    const embed = await this.store.embeds.consoleEmbed(workspaceId, settings);
    return { ...(await this.tokens.mint(embed, null, { consoleSession: sessionId })), embedId: embed.id };
  }

  /**
   * A session for one end-user. `userId` is trusted as given (the customer authenticated its user);
   * a multi-tenant embed needs one. With `mintRequiresApiKey`, the call must also carry an API key
   * of the embed's workspace, so knowing the embed id is not enough to act as any user.
   */
  async mintSession(
    id: string,
    userId: string | undefined,
    headers: IncomingHttpHeaders,
  ): Promise<MintedSession> {
    const found = isIdOf('embed', id) ? await this.store.embeds.getWithWorkspace(id) : null;
    if (!found) throw notFound();
    // The key first, so a caller without one learns nothing more about the embed than that it exists.
    if (found.mintRequiresApiKey) await this.authenticateMinter(found, headers);
    if (!found.enabled) throw new AppError('EMBED_DISABLED');
    if (found.workspaceSuspended) throw new AppError('SUBSCRIPTION_SUSPENDED');
    if (found.multiTenant && !userId) {
      throw new AppError('VALIDATION_FAILED', 'This embed is multi-tenant: userId is required.', [
        { path: 'userId', message: 'Required for a multi-tenant embed' },
      ]);
    }
    return this.tokens.mint(found, userId ?? null);
  }

  /**
   * An API key of the embed's workspace holding every scope the session would get: a key cannot
   * mint a session that does more than the key itself may (no implicit escalation).
   */
  private async authenticateMinter(embed: EmbedRecord, headers: IncomingHttpHeaders): Promise<void> {
    const { principal } = await authenticateApiKey(this.store, headers, null);
    // The key's suspended workspace is the embed's (checked by mintSession).
    if (principal.workspaceId !== embed.workspaceId) throw new AppError('WORKSPACE_MISMATCH');
    const missing = embedScopes(embed).find((scope) => !principal.scopes.has(scope));
    if (missing) {
      throw new AppError('INSUFFICIENT_SCOPE', `Minting this session needs the scope ${missing}.`, {
        requiredScope: missing,
      });
    }
  }
}
