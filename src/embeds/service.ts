/**
 * Embeds: their configuration (the operator's), their public info (anyone's), and minting an end-user
 * session (the customer's backend). Everything an embed session then does goes through the template,
 * asset and render services with the session's principal; nothing here repeats their rules.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  authenticateApiKey,
  type EmbedSessionTokens,
  embedScopes,
  type MintedSession,
} from '../auth/index.ts';
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
};

export interface PublicEmbedInfo {
  enabled: boolean;
  brandTitle: string;
  brandIconUrl: string;
  brandAccentColor: string;
  downloadsEnabled: boolean;
  assetPickerEnabled: boolean;
  smartResizeEnabled: boolean;
}

const notFound = () => new AppError('NOT_FOUND', 'The embed was not found.');

export class EmbedService {
  constructor(
    private readonly store: Store,
    private readonly tokens: EmbedSessionTokens,
  ) {}

  async create(workspaceId: string, input: EmbedSettingsInput): Promise<EmbedRecord> {
    if (!isIdOf('workspace', workspaceId) || !(await this.store.workspaces.get(workspaceId)))
      throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return this.store.embeds.create(workspaceId, { ...EMBED_DEFAULTS, ...input });
  }

  async list(workspaceId: string): Promise<EmbedRecord[]> {
    if (!isIdOf('workspace', workspaceId) || !(await this.store.workspaces.get(workspaceId)))
      throw new AppError('NOT_FOUND', 'The workspace was not found.');
    return this.store.embeds.list(workspaceId);
  }

  /** `within`, on every method by id: the one workspace the caller may manage (null: any). */
  async get(id: string, within: string | null = null): Promise<EmbedRecord> {
    const embed = isIdOf('embed', id) ? await this.store.embeds.get(id) : null;
    if (!embed || (within !== null && embed.workspaceId !== within)) throw notFound();
    return embed;
  }

  async update(id: string, patch: EmbedSettingsInput, within: string | null = null): Promise<EmbedRecord> {
    await this.get(id, within);
    const updated = await this.store.embeds.update(id, patch);
    if (!updated) throw notFound();
    return updated;
  }

  async remove(id: string, within: string | null = null): Promise<void> {
    await this.get(id, within);
    if (!(await this.store.embeds.delete(id))) throw notFound();
  }

  /** Branding and toggles for anyone who knows the id; a disabled embed says so rather than 403. */
  async publicInfo(id: string): Promise<PublicEmbedInfo> {
    const embed = await this.get(id);
    return {
      enabled: embed.enabled,
      brandTitle: embed.brandTitle,
      brandIconUrl: embed.brandIconUrl,
      brandAccentColor: embed.brandAccentColor,
      downloadsEnabled: embed.downloadsEnabled,
      assetPickerEnabled: embed.assetPickerEnabled,
      smartResizeEnabled: embed.smartResizeEnabled,
    };
  }

  /**
   * A studio session for a person in the console: the workspace's own console embed (not
   * multi-tenant, so it edits the workspace's templates), created on first use.
   */
  async consoleSession(workspaceId: string): Promise<MintedSession & { embedId: string }> {
    // Nobody mints on it by the public route without a full API key of the workspace.
    const settings = {
      ...EMBED_DEFAULTS,
      brandTitle: 'Platen console',
      multiTenant: false,
      mintRequiresApiKey: true,
    };
    const embed = await this.store.embeds.consoleEmbed(workspaceId, settings);
    return { ...(await this.tokens.mint(embed, null)), embedId: embed.id };
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
    const principal = await authenticateApiKey(this.store, headers, null);
    if (principal.workspaceId !== embed.workspaceId) throw new AppError('WORKSPACE_MISMATCH');
    const missing = embedScopes(embed).find((scope) => !principal.scopes.has(scope));
    if (missing) {
      throw new AppError('INSUFFICIENT_SCOPE', `Minting this session needs the scope ${missing}.`, {
        requiredScope: missing,
      });
    }
  }
}
