/** Asset metadata; the bytes live in the file store under `file_key`. */
import type { Kysely } from 'kysely';
import { newestFirstPage, type OwnerFilter, type PageRequest, type ResultPage, toPage } from './paging.ts';
import type { AssetsTable, Database } from './schema.ts';

export const ASSET_KINDS = ['image', 'font', 'video', 'audio'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

export interface AssetRow {
  id: string;
  workspaceId: string;
  kind: AssetKind;
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
  /** Video and audio: the upload's probe (`width`/`height` are then the picture's, video only). */
  durationMs: number | null;
  hasVideo: boolean | null;
  hasAudio: boolean | null;
}

/** What a caller creating an asset may leave out: ownership (the workspace's) and media facts (none). */
type Defaulted = 'ownerUserId' | 'embedId' | 'durationMs' | 'hasVideo' | 'hasAudio';

const flag = (value: number | null): boolean | null => (value === null ? null : Number(value) === 1);
const toFlag = (value: boolean | null): number | null => (value === null ? null : value ? 1 : 0);
const kindOf = (kind: string): AssetKind =>
  (ASSET_KINDS as readonly string[]).includes(kind) ? (kind as AssetKind) : 'image';

function toAsset(row: AssetsTable): AssetRow {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    kind: kindOf(row.kind),
    mimeType: row.mime_type,
    byteSize: Number(row.byte_size),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    fontFamily: row.font_family,
    fileKey: row.file_key,
    createdAt: row.created_at,
    ownerUserId: row.owner_user_id,
    embedId: row.embed_id,
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    hasVideo: flag(row.has_video),
    hasAudio: flag(row.has_audio),
  };
}

export class AssetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: Omit<AssetRow, Defaulted> & Partial<Pick<AssetRow, Defaulted>>): Promise<AssetRow> {
    const asset: AssetRow = {
      ...input,
      ownerUserId: input.ownerUserId ?? null,
      embedId: input.embedId ?? null,
      durationMs: input.durationMs ?? null,
      hasVideo: input.hasVideo ?? null,
      hasAudio: input.hasAudio ?? null,
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
        duration_ms: asset.durationMs,
        has_video: toFlag(asset.hasVideo),
        has_audio: toFlag(asset.hasAudio),
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

  /** The workspace's assets that `owners` shows (all when undefined), of one `kind` when given. */
  async list(
    workspaceId: string,
    page: PageRequest,
    owners?: OwnerFilter,
    kind?: AssetKind,
  ): Promise<ResultPage<AssetRow>> {
    let query = this.db.selectFrom('assets').selectAll().where('workspace_id', '=', workspaceId);
    if (kind) query = query.where('kind', '=', kind);
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
