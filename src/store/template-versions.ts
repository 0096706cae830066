/**
 * Template versions (migration 015): immutable, numbered copies of a template's draft. Publishing
 * an unchanged draft answers the version it already is (by content hash), so publishing is
 * idempotent; two concurrent publishes of one template meet at the primary key and the loser
 * reads again. A template's versions go with it (TemplateRepository.delete).
 */
import type { Kysely } from 'kysely';
import type { DesignDocument } from '../design/index.ts';
import { decodeCursor, encodeCursor, type ResultPage } from './paging.ts';
import type { Database, TemplateVersionsTable } from './schema.ts';
import { isUniqueViolation } from './users.ts';

export interface TemplateVersionRecord {
  templateId: string;
  number: number;
  note: string | null;
  width: number;
  height: number;
  pageCount: number;
  /** The draft revision that was published. */
  draftRevision: number;
  publishedBy: string;
  createdAt: string;
}

export interface TemplateVersionWithDocument extends TemplateVersionRecord {
  workspaceId: string;
  document: DesignDocument;
  documentHash: string;
}

/** What the render path reads of a pinned version before its document (as TemplateRenderMeta). */
export interface VersionRenderFacts {
  number: number;
  documentHash: string;
  pageIds: string[];
  activePageId: string;
}

export type PublishOutcome =
  | { kind: 'published'; version: TemplateVersionWithDocument }
  | { kind: 'unchanged'; version: TemplateVersionWithDocument }
  | { kind: 'missing' };

const toRecord = (row: TemplateVersionsTable): TemplateVersionRecord => ({
  templateId: row.template_id,
  number: row.number,
  note: row.note,
  width: row.width,
  height: row.height,
  pageCount: row.page_count,
  draftRevision: row.draft_revision,
  publishedBy: row.published_by,
  createdAt: row.created_at,
});

const withDocument = (row: TemplateVersionsTable): TemplateVersionWithDocument => ({
  ...toRecord(row),
  workspaceId: row.workspace_id,
  document: JSON.parse(row.document) as DesignDocument,
  documentHash: row.document_hash,
});

/** A list cursor names the last number shown (versions list newest first, by number). */
const cursorOf = (row: TemplateVersionsTable) =>
  encodeCursor({ createdAt: row.created_at, id: String(row.number) });

export class TemplateVersionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Freezes the template's current draft as its next version, unless the latest already is it. */
  async publish(
    templateId: string,
    input: { note: string | null; publishedBy: string },
  ): Promise<PublishOutcome> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          const draft = await trx
            .selectFrom('templates')
            .selectAll()
            .where('id', '=', templateId)
            .executeTakeFirst();
          if (!draft) return { kind: 'missing' } as const;
          const latest = await trx
            .selectFrom('template_versions')
            .selectAll()
            .where('template_id', '=', templateId)
            .orderBy('number', 'desc')
            .limit(1)
            .executeTakeFirst();
          if (latest && latest.document_hash === draft.document_hash)
            return { kind: 'unchanged', version: withDocument(latest) } as const;
          const row: TemplateVersionsTable = {
            template_id: templateId,
            number: (latest?.number ?? 0) + 1,
            workspace_id: draft.workspace_id,
            document: draft.document,
            document_hash: draft.document_hash ?? '',
            page_ids: draft.page_ids ?? '[]',
            active_page_id: draft.active_page_id ?? '',
            width: draft.width,
            height: draft.height,
            page_count: draft.page_count,
            note: input.note,
            draft_revision: draft.revision,
            published_by: input.publishedBy,
            created_at: new Date().toISOString(),
          };
          await trx.insertInto('template_versions').values(row).execute();
          return { kind: 'published', version: withDocument(row) } as const;
        });
      } catch (error) {
        // Another publish took the number between our read and our insert: read again.
        if (attempt < 4 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }

  async get(templateId: string, number: number): Promise<TemplateVersionWithDocument | null> {
    const row = await this.db
      .selectFrom('template_versions')
      .selectAll()
      .where('template_id', '=', templateId)
      .where('number', '=', number)
      .executeTakeFirst();
    return row ? withDocument(row) : null;
  }

  /** The number of the last published version, or null when none is. */
  async latestNumber(templateId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('template_versions')
      .select((eb) => eb.fn.max('number').as('latest'))
      .where('template_id', '=', templateId)
      .executeTakeFirst();
    return row?.latest == null ? null : Number(row.latest);
  }

  /** The render facts of one version (no document). */
  async renderFacts(templateId: string, number: number): Promise<VersionRenderFacts | null> {
    const row = await this.db
      .selectFrom('template_versions')
      .select(['number', 'document_hash', 'page_ids', 'active_page_id'])
      .where('template_id', '=', templateId)
      .where('number', '=', number)
      .executeTakeFirst();
    if (!row) return null;
    return {
      number: row.number,
      documentHash: row.document_hash,
      pageIds: JSON.parse(row.page_ids) as string[],
      activePageId: row.active_page_id,
    };
  }

  /** Newest first; the cursor comes from a previous page of the same template. */
  async list(
    templateId: string,
    page: { limit: number; cursor?: string },
  ): Promise<ResultPage<TemplateVersionRecord>> {
    const before = page.cursor ? Number(decodeCursor(page.cursor)?.id) : Number.NaN;
    let query = this.db.selectFrom('template_versions').selectAll().where('template_id', '=', templateId);
    if (Number.isInteger(before)) query = query.where('number', '<', before);
    const rows = await query
      .orderBy('number', 'desc')
      .limit(page.limit + 1)
      .execute();
    const more = rows.length > page.limit;
    const shown = more ? rows.slice(0, page.limit) : rows;
    const last = shown.at(-1);
    return { items: shown.map(toRecord), nextCursor: more && last ? cursorOf(last) : null };
  }
}
