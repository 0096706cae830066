/** Stored render results as answered again: a free replay, and file URLs under today's base URL. */
import type { RenderRecord } from '../store/renders.ts';
import type { RenderResponse, RenderResult } from './schemas.ts';

/** The earlier response, free this time: `charged` 0 and the balance after this call. */
export function replayed(job: RenderRecord, balance: number, baseUrl: string): RenderResponse {
  const credits = { charged: 0, balanceAfter: balance };
  const stored = job.result as RenderResponse;
  if ('pages' in stored) return { pages: stored.pages.map((p) => ({ ...atBase(p, baseUrl), credits })) };
  return { ...atBase(stored, baseUrl), credits };
}

/** The file key of a stored result's URL (`…/files/<key>`), or null once retention removed it. */
export function fileKeyOf(result: RenderResult): string | null {
  return (result.url && /\/files\/(renders\/.+)$/.exec(result.url)?.[1]) || null;
}

/**
 * A stored result's file URL under today's base URL: results are stored as first answered, and the
 * deployment may have moved since (a new domain, a restore elsewhere). The file key is what counts.
 */
export function atBase(result: RenderResult, baseUrl: string): RenderResult {
  const key = fileKeyOf(result);
  return key ? { ...result, url: `${baseUrl}/files/${key}` } : result;
}
