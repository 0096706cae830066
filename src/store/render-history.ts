/**
 * A workspace's renders as people look back at them: the recent ones, newest first, and usage per
 * day (renders and credits by format and by source). Read-only; renders.ts writes them.
 */
import { type Kysely, sql } from 'kysely';
import { newestFirstPage, type PageRequest, type ResultPage, toPage } from './paging.ts';
import type { RenderStatus } from './renders.ts';
import type { Database } from './schema.ts';

/** Where a render came from, by the actor that asked (see auth/principal.ts actorLabel). */
export type RenderSource = 'api' | 'embed' | 'mcp' | 'url' | 'console' | 'other';

export interface RenderSummary {
  id: string;
  templateId: string;
  status: RenderStatus;
  format: string;
  fileCount: number;
  charged: number;
  source: RenderSource;
  /** The response as first returned (files' urls), null until done. */
  result: unknown;
  error: unknown;
  expired: boolean;
  createdAt: string;
  finishedAt: string | null;
}

export interface UsageRow {
  day: string;
  format: string;
  source: RenderSource;
  renders: number;
  credits: number;
}

const SOURCE = sql<RenderSource>`case
  when actor like 'api_key:%' then 'api'
  when actor like 'embed:%' then 'embed'
  when actor like 'oauth:%' then 'mcp'
  when actor like 'signed_url:%' then 'url'
  when actor like 'person:%' then 'console'
  else 'other' end`;

export class RenderHistoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async recent(workspaceId: string, page: PageRequest): Promise<ResultPage<RenderSummary>> {
    const query = this.db
      .selectFrom('renders')
      .select([
        'id',
        'template_id',
        'status',
        'format',
        'file_count',
        'charged',
        'result',
        'error',
        'expired',
        'created_at',
        'finished_at',
        SOURCE.as('source'),
      ])
      .where('workspace_id', '=', workspaceId);
    const rows = await newestFirstPage(query, page).execute();
    return toPage(rows, page.limit, (row) => ({
      id: row.id,
      templateId: row.template_id,
      status: row.status as RenderStatus,
      format: row.format,
      fileCount: Number(row.file_count),
      charged: Number(row.charged),
      source: row.source,
      result: row.result ? JSON.parse(row.result) : null,
      error: row.error ? JSON.parse(row.error) : null,
      expired: Boolean(row.expired),
      createdAt: row.created_at,
      finishedAt: row.finished_at,
    }));
  }

  /** Finished renders since `since` (ISO), per UTC day, format and source. */
  async usage(workspaceId: string, since: string): Promise<UsageRow[]> {
    const day = sql<string>`substr(created_at, 1, 10)`;
    const rows = await this.db
      .selectFrom('renders')
      .select([
        day.as('day'),
        'format',
        SOURCE.as('source'),
        sql<number>`count(*)`.as('renders'),
        sql<number>`sum(charged)`.as('credits'),
      ])
      .where('workspace_id', '=', workspaceId)
      .where('created_at', '>=', since)
      .where('status', '=', 'done')
      .groupBy([day, 'format', SOURCE])
      .orderBy(day)
      .execute();
    return rows.map((row) => ({
      day: row.day,
      format: row.format,
      source: row.source,
      renders: Number(row.renders),
      credits: Number(row.credits ?? 0),
    }));
  }
}
