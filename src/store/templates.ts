/**
 * Templates: metadata plus the normalised design document (the draft). Saving the draft bumps
 * `revision` atomically; an expected revision turns a lost update into a 412.
 */
import type { Kysely, Transaction } from 'kysely';
import { newId } from '../core/ids.ts';
import type { DesignDocument } from '../design/index.ts';
import { documentSummary } from '../design/index.ts';
import { draftSummary } from './draft-summary.ts';
import { newestFirstPage, type OwnerFilter, type PageRequest, type ResultPage, toPage } from './paging.ts';
import { prepareQuery } from './prepared.ts';
import type { Database, TemplatesTable } from './schema.ts';

export interface TemplateRecord {
  id: string;
  name: string;
  width: number;
  height: number;
  pageCount: number;
  revision: number;
  shared: boolean;
  ownerUserId: string | null;
  /** The file key of the latest thumbnail (the service turns it into `thumbnailUrl`). */
  thumbnailKey: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TemplateWithDocument extends TemplateRecord {
  workspaceId: string;
  embedId: string | null;
  document: DesignDocument;
  documentHash: string;
}

export interface TemplateRenderMeta {
  id: string;
  workspaceId: string;
  ownerUserId: string | null;
  embedId: string | null;
  shared: boolean;
  documentHash: string;
  pageIds: string[];
  activePageId: string;
  /** Set when a render pinned a published version: the facts above are that version's. */
  version?: number;
}

/**
 * Runs inside the transaction that creates or saves a template, with the template as written: an
 * event written here (the webhook outbox) commits or rolls back with the change itself.
 */
export type TemplateWriteHook = (trx: Transaction<Database>, template: TemplateWithDocument) => Promise<void>;

export type SaveOutcome =
  | { kind: 'saved'; template: TemplateWithDocument }
  | { kind: 'stale'; revision: number }
  | { kind: 'missing' };

/** Which templates a list shows (see OwnerFilter): all, or the workspace's own, an end-user's, shared ones. */
export type TemplateVisibility = (OwnerFilter & { publishedOnly?: boolean }) | undefined;

function toRecord(row: TemplatesTable): TemplateRecord {
  return {
    id: row.id,
    name: row.name,
    width: Number(row.width),
    height: Number(row.height),
    pageCount: Number(row.page_count),
    revision: Number(row.revision),
    shared: Boolean(row.shared),
    ownerUserId: row.owner_user_id,
    thumbnailKey: row.thumbnail_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function withDocument(row: TemplatesTable): TemplateWithDocument {
  return {
    ...toRecord(row),
    workspaceId: row.workspace_id,
    embedId: row.embed_id,
    document: JSON.parse(row.document) as DesignDocument,
    documentHash: row.document_hash ?? '',
  };
}

export class TemplateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(
    input: {
      workspaceId: string;
      name: string;
      document: DesignDocument;
      ownerUserId?: string | null;
      embedId?: string | null;
      shared?: boolean;
    },
    onWrite?: TemplateWriteHook,
  ): Promise<TemplateWithDocument> {
    const now = new Date().toISOString();
    const summary = documentSummary(input.document);
    const documentJson = JSON.stringify(input.document);
    const draft = draftSummary(documentJson);
    const row: TemplatesTable = {
      id: newId('template'),
      workspace_id: input.workspaceId,
      name: input.name,
      document: documentJson,
      document_hash: draft.documentHash,
      page_ids: draft.pageIds,
      active_page_id: draft.activePageId,
      width: Math.round(summary.width),
      height: Math.round(summary.height),
      page_count: summary.pageCount,
      revision: 1,
      shared: input.shared ? 1 : 0,
      owner_user_id: input.ownerUserId ?? null,
      embed_id: input.embedId ?? null,
      thumbnail_key: null,
      thumbnail_revision: null,
      created_at: now,
      updated_at: now,
    };
    const template = withDocument(row);
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('templates').values(row).execute();
      await onWrite?.(trx, template);
    });
    return template;
  }

  /** Any workspace's template by id: callers decide NOT_FOUND vs WORKSPACE_MISMATCH. */
  async get(id: string): Promise<TemplateWithDocument | null> {
    const row = await this.db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? withDocument(row) : null;
  }

  async list(
    workspaceId: string,
    page: PageRequest,
    visibility: TemplateVisibility = undefined,
  ): Promise<ResultPage<TemplateRecord>> {
    let query = this.db.selectFrom('templates').selectAll().where('workspace_id', '=', workspaceId);
    // The workspace's own templates (owner null) only once published (an embed's publishedOnly).
    if (visibility?.publishedOnly)
      query = query.where((eb) =>
        eb.or([
          eb('owner_user_id', 'is not', null),
          eb.exists(
            eb
              .selectFrom('template_versions')
              .select('template_versions.number')
              .whereRef('template_versions.template_id', '=', 'templates.id'),
          ),
        ]),
      );
    if (visibility) {
      const { workspaceOwned, endUser, sharedToo } = visibility;
      query = query.where((eb) =>
        eb.or([
          ...(workspaceOwned ? [eb('owner_user_id', 'is', null)] : []),
          ...(endUser
            ? [eb.and([eb('owner_user_id', '=', endUser.userId), eb('embed_id', '=', endUser.embedId)])]
            : []),
          ...(sharedToo ? [eb('shared', '=', 1)] : []),
        ]),
      );
    }
    const rows = await newestFirstPage(query, page).execute();
    return toPage(rows, page.limit, toRecord);
  }

  /**
   * Saves a new draft. With `expectedRevision` the write only happens when the stored revision
   * still matches (one conditional UPDATE, so two racing saves cannot both win).
   */
  async saveDocument(
    id: string,
    input: { document: DesignDocument; name?: string; expectedRevision?: number },
    onWrite?: TemplateWriteHook,
  ): Promise<SaveOutcome> {
    return this.db.transaction().execute((trx) => this.saveIn(trx, id, input, onWrite));
  }

  private async saveIn(
    trx: Transaction<Database>,
    id: string,
    input: { document: DesignDocument; name?: string; expectedRevision?: number },
    onWrite?: TemplateWriteHook,
  ): Promise<SaveOutcome> {
    const summary = documentSummary(input.document);
    const documentJson = JSON.stringify(input.document);
    const draft = draftSummary(documentJson);
    let query = trx
      .updateTable('templates')
      .set((eb) => ({
        document: documentJson,
        document_hash: draft.documentHash,
        page_ids: draft.pageIds,
        active_page_id: draft.activePageId,
        width: Math.round(summary.width),
        height: Math.round(summary.height),
        page_count: summary.pageCount,
        revision: eb('revision', '+', 1),
        updated_at: new Date().toISOString(),
        ...(input.name !== undefined ? { name: input.name } : {}),
      }))
      .where('id', '=', id);
    if (input.expectedRevision !== undefined) query = query.where('revision', '=', input.expectedRevision);
    const result = await query.executeTakeFirst();
    const row = await trx.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return { kind: 'missing' };
    const saved = withDocument(row);
    if (Number(result.numUpdatedRows) === 0) return { kind: 'stale', revision: saved.revision };
    await onWrite?.(trx, saved);
    return { kind: 'saved', template: saved };
  }

  /** Which of `fileKeys` a template records as its thumbnail (the orphan-file sweep keeps those). At most 500. */
  async referencedThumbnailKeys(fileKeys: readonly string[]): Promise<Set<string>> {
    if (fileKeys.length === 0) return new Set();
    if (fileKeys.length > 500) throw new Error('referencedThumbnailKeys takes at most 500 keys');
    const rows = await this.db
      .selectFrom('templates')
      .select('thumbnail_key')
      .where('thumbnail_key', 'in', [...fileKeys])
      .execute();
    return new Set(rows.flatMap((r) => (r.thumbnail_key ? [r.thumbnail_key] : [])));
  }

  /** The updated template, or null when it no longer exists. */
  async updateMeta(
    id: string,
    patch: { name?: string; shared?: boolean },
  ): Promise<TemplateWithDocument | null> {
    const set: Partial<TemplatesTable> = { updated_at: new Date().toISOString() };
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.shared !== undefined) set.shared = patch.shared ? 1 : 0;
    await this.db.updateTable('templates').set(set).where('id', '=', id).execute();
    return this.get(id);
  }

  /** What the render path needs before deciding whether a request replays: no document parsing. */
  // Read by every render, replays included: built once (see prepared.ts).
  private readonly renderMetaById = prepareQuery(
    () => this.db,
    ['id'],
    (param) =>
      this.db
        .selectFrom('templates')
        .select([
          'id',
          'workspace_id',
          'owner_user_id',
          'embed_id',
          'shared',
          'document_hash',
          'page_ids',
          'active_page_id',
        ])
        .where('id', '=', param('id')),
  );

  async renderMeta(id: string): Promise<TemplateRenderMeta | null> {
    const [row] = await this.renderMetaById({ id });
    if (!row) return null;
    return {
      id: row.id,
      workspaceId: row.workspace_id,
      ownerUserId: row.owner_user_id,
      embedId: row.embed_id,
      shared: Boolean(row.shared),
      documentHash: row.document_hash ?? '',
      pageIds: JSON.parse(row.page_ids ?? '[]') as string[],
      activePageId: row.active_page_id ?? '',
    };
  }

  /** The template and its versions (template-versions.ts), together. */
  async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('template_versions').where('template_id', '=', id).execute();
      await trx.deleteFrom('templates').where('id', '=', id).execute();
    });
  }
}
