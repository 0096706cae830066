/** Asset metadata; the bytes live in the file store under `file_key`. */
import type { Kysely } from 'kysely';
import { newestFirstPage, type OwnerFilter, type PageRequest, type ResultPage, toPage } from './paging.ts';
import type { AssetsTable, Database } from './schema.ts';

export interface AssetRow {
  id: string;
  workspaceId: string;
  kind: 'image' | 'font';
  mimeType: string;
  byteSize: number;
  width: number | null;
  height: number | null;
  fontFamily: string | null;
  fileKey: string;
  createdAt: string;
  /** The embed end-user who uploaded it (multi-tenant embeds), or null: the workspace's. */
  ownerUserId: string | null;
  /** The embed it came through; an end-user id means something only within its embed. */
  embedId: string | null;
}

function toAsset(row: AssetsTable): AssetRow {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    kind: row.kind === 'font' ? 'font' : 'image',
    mimeType: row.mime_type,
    byteSize: Number(row.byte_size),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    fontFamily: row.font_family,
    fileKey: row.file_key,
    createdAt: row.created_at,
    ownerUserId: row.owner_user_id,
    embedId: row.embed_id,
  };
}

export class AssetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(
    input: Omit<AssetRow, 'ownerUserId' | 'embedId'> & {
      ownerUserId?: string | null;
      embedId?: string | null;
    },
  ): Promise<AssetRow> {
    const asset: AssetRow = {
      ...input,
      ownerUserId: input.ownerUserId ?? null,
      embedId: input.embedId ?? null,
    };
    await this.db
      .insertInto('assets')
      .values({
        id: asset.id,
        workspace_id: asset.workspaceId,
        kind: asset.kind,
        mime_type: asset.mimeType,
        byte_size: asset.byteSize,
        width: asset.width,
        height: asset.height,
        font_family: asset.fontFamily,
        file_key: asset.fileKey,
        created_at: asset.createdAt,
        owner_user_id: asset.ownerUserId,
        embed_id: asset.embedId,
      })
      .execute();
    return asset;
  }

  async get(id: string): Promise<AssetRow | null> {
    const row = await this.db.selectFrom('assets').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toAsset(row) : null;
  }

  async getMany(workspaceId: string, ids: string[]): Promise<AssetRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('assets')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
    return rows.map(toAsset);
  }

  async fonts(workspaceId: string): Promise<AssetRow[]> {
    const rows = await this.db
      .selectFrom('assets')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', 'font')
      .orderBy('created_at')
      .execute();
    return rows.map(toAsset);
  }

  /** The workspace's assets that `owners` shows (all when undefined). */
  async list(workspaceId: string, page: PageRequest, owners?: OwnerFilter): Promise<ResultPage<AssetRow>> {
    let query = this.db.selectFrom('assets').selectAll().where('workspace_id', '=', workspaceId);
    if (owners) {
      const { workspaceOwned, endUser } = owners;
      query = query.where((eb) =>
        eb.or([
          ...(workspaceOwned ? [eb('owner_user_id', 'is', null)] : []),
          ...(endUser
            ? [eb.and([eb('owner_user_id', '=', endUser.userId), eb('embed_id', '=', endUser.embedId)])]
            : []),
        ]),
      );
    }
    const rows = await newestFirstPage(query, page).execute();
    return toPage(rows, page.limit, toAsset);
  }

  /** Which of `fileKeys` an asset records (the others were written by an upload that never finished). At most 500. */
  async referencedFileKeys(fileKeys: readonly string[]): Promise<Set<string>> {
    if (fileKeys.length === 0) return new Set();
    if (fileKeys.length > 500) throw new Error('referencedFileKeys takes at most 500 keys');
    const rows = await this.db
      .selectFrom('assets')
      .select('file_key')
      .where('file_key', 'in', [...fileKeys])
      .execute();
    return new Set(rows.map((r) => r.file_key));
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('assets').where('id', '=', id).execute();
  }
}
