/**
 * A workspace's render history for whoever acts for the whole workspace (an API key, an OAuth
 * grant, a person in the console): the recent renders with their files, and usage per day.
 * Embed sessions never reach it (their routes do not offer it).
 */
import { type Principal, tenancyOf } from '../auth/index.ts';
import { AppError, validationFailed } from '../core/errors.ts';
import type { Store } from '../store/index.ts';
import { decodeCursor } from '../store/paging.ts';
import type { RenderSource, RenderSummary, UsageRow } from '../store/render-history.ts';
import type { RenderStatus } from '../store/renders.ts';

export const MAX_USAGE_DAYS = 366;

export interface RenderListItem {
  id: string;
  templateId: string;
  status: RenderStatus;
  format: string;
  files: number;
  credits: number;
  source: RenderSource;
  /** The first file's URL (null until done, and once retention removed the files). */
  url: string | null;
  errorCode: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function firstUrl(result: unknown): string | null {
  if (!isRecord(result)) return null;
  if (typeof result.url === 'string') return result.url;
  const first = Array.isArray(result.pages) ? result.pages[0] : undefined;
  return isRecord(first) && typeof first.url === 'string' ? first.url : null;
}

function toItem(render: RenderSummary): RenderListItem {
  const error = isRecord(render.error) && typeof render.error.code === 'string' ? render.error.code : null;
  return {
    id: render.id,
    templateId: render.templateId,
    status: render.status,
    format: render.format,
    files: render.fileCount,
    credits: render.charged,
    source: render.source,
    url: render.expired ? null : firstUrl(render.result),
    errorCode: error,
    createdAt: render.createdAt,
    finishedAt: render.finishedAt,
  };
}

export class RenderHistory {
  constructor(private readonly store: Store) {}

  async recent(
    principal: Principal,
    query: { limit: number; cursor?: string },
  ): Promise<{ items: RenderListItem[]; nextCursor: string | null }> {
    this.wholeWorkspace(principal);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (after === null) throw validationFailed([{ path: 'cursor', message: 'Invalid cursor' }]);
    const page = await this.store.renderHistory.recent(principal.workspaceId, {
      limit: query.limit,
      ...(after ? { after } : {}),
    });
    return { items: page.items.map(toItem), nextCursor: page.nextCursor };
  }

  /** Renders and credits per UTC day over the last `days` days (today included), by format and source. */
  async usage(principal: Principal, days: number): Promise<{ since: string; days: UsageRow[] }> {
    this.wholeWorkspace(principal);
    const start = new Date();
    start.setUTCHours(0, 0, 0, 0);
    start.setUTCDate(start.getUTCDate() - (days - 1));
    const since = start.toISOString();
    return {
      since: since.slice(0, 10),
      days: await this.store.renderHistory.usage(principal.workspaceId, since),
    };
  }

  private wholeWorkspace(principal: Principal): void {
    // Fail closed: an embed session acts for one user, not for the workspace's history.
    if (tenancyOf(principal).scope !== 'workspace') throw new AppError('NOT_FOUND');
  }
}
