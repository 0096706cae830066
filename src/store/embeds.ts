/** Embed configurations: branding, toggles, tenancy, session lifetime and minting rule, per workspace. */
import type { Kysely } from 'kysely';
import { newId } from '../core/ids.ts';
import type { Database, EmbedsTable } from './schema.ts';

export interface EmbedRecord {
  id: string;
  workspaceId: string;
  brandTitle: string;
  brandIconUrl: string;
  brandAccentColor: string;
  enabled: boolean;
  downloadsEnabled: boolean;
  assetPickerEnabled: boolean;
  smartResizeEnabled: boolean;
  multiTenant: boolean;
  sessionTtlSeconds: number;
  mintRequiresApiKey: boolean;
  /** The workspace's templates show as their latest published version only, read-only. */
  publishedOnly: boolean;
  createdAt: string;
  updatedAt: string;
}

export type EmbedSettings = Omit<EmbedRecord, 'id' | 'workspaceId' | 'createdAt' | 'updatedAt'>;

/** With the suspension state of its workspace: what every embed request needs, in one query. */
export interface EmbedWithWorkspace extends EmbedRecord {
  workspaceSuspended: boolean;
}

function toRecord(row: Omit<EmbedsTable, 'console'>): EmbedRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    brandTitle: row.brand_title,
    brandIconUrl: row.brand_icon_url,
    brandAccentColor: row.brand_accent_color,
    enabled: Boolean(row.enabled),
    downloadsEnabled: Boolean(row.downloads_enabled),
    assetPickerEnabled: Boolean(row.asset_picker_enabled),
    smartResizeEnabled: Boolean(row.smart_resize_enabled),
    multiTenant: Boolean(row.multi_tenant),
    sessionTtlSeconds: Number(row.session_ttl_seconds),
    mintRequiresApiKey: Boolean(row.mint_requires_api_key),
    publishedOnly: Boolean(row.published_only),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(settings: Partial<EmbedSettings>): Partial<Omit<EmbedsTable, 'console'>> {
  const bit = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const columns: Partial<Omit<EmbedsTable, 'console'>> = {
    brand_title: settings.brandTitle,
    brand_icon_url: settings.brandIconUrl,
    brand_accent_color: settings.brandAccentColor,
    enabled: bit(settings.enabled),
    downloads_enabled: bit(settings.downloadsEnabled),
    asset_picker_enabled: bit(settings.assetPickerEnabled),
    smart_resize_enabled: bit(settings.smartResizeEnabled),
    multi_tenant: bit(settings.multiTenant),
    session_ttl_seconds: settings.sessionTtlSeconds,
    mint_requires_api_key: bit(settings.mintRequiresApiKey),
    published_only: bit(settings.publishedOnly),
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

export class EmbedRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(workspaceId: string, settings: EmbedSettings): Promise<EmbedRecord> {
    const now = new Date().toISOString();
    const row = {
      id: newId('embed'),
      workspace_id: workspaceId,
      ...toColumns(settings),
      created_at: now,
      updated_at: now,
    } as Omit<EmbedsTable, 'console'>;
    await this.db.insertInto('embeds').values(row).execute();
    return toRecord(row);
  }

  /**
   * The console's own embed of the workspace, created on first use with `settings` (a race between
   * two first uses leaves two; either serves, and the oldest is found from then on).
   */
  async consoleEmbed(workspaceId: string, settings: EmbedSettings): Promise<EmbedRecord> {
    const found = await this.db
      .selectFrom('embeds')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('console', '=', 1)
      .orderBy('created_at')
      .executeTakeFirst();
    if (found) return toRecord(found);
    const created = await this.create(workspaceId, settings);
    await this.db.updateTable('embeds').set({ console: 1 }).where('id', '=', created.id).execute();
    return created;
  }

  async get(id: string): Promise<EmbedRecord | null> {
    const row = await this.db.selectFrom('embeds').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** The embed and whether its workspace is suspended (the per-request check of every session). */
  async getWithWorkspace(id: string): Promise<EmbedWithWorkspace | null> {
    const row = await this.db
      .selectFrom('embeds')
      .innerJoin('workspaces', 'workspaces.id', 'embeds.workspace_id')
      .selectAll('embeds')
      .select('workspaces.suspended as workspace_suspended')
      .where('embeds.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    const { workspace_suspended, ...embed } = row;
    return { ...toRecord(embed), workspaceSuspended: Boolean(workspace_suspended) };
  }

  async list(workspaceId: string): Promise<EmbedRecord[]> {
    const rows = await this.db
      .selectFrom('embeds')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('console', '=', 0)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  /** The updated embed, or null when there is none. */
  async update(id: string, settings: Partial<EmbedSettings>): Promise<EmbedRecord | null> {
    const columns = toColumns(settings);
    await this.db
      .updateTable('embeds')
      .set({ ...columns, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  /** False when there was none. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('embeds').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
