/** Keyset paging shared by every list: newest first by (created_at, id), opaque cursors. */
import { type SelectQueryBuilder, sql } from 'kysely';

export interface PageRequest {
  limit: number;
  /** A position from `decodeCursor`: callers decode (and refuse) the client's cursor themselves. */
  after?: CursorPosition;
}

export interface ResultPage<T> {
  items: T[];
  nextCursor: string | null;
}

export interface CursorPosition {
  createdAt: string;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** The position an opaque cursor names, or null when it names none. */
export function decodeCursor(cursor: string): CursorPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // not a cursor of ours
  }
  return null;
}

/** Given limit+1 rows, returns the page and the cursor of its last item when more follow. */
export function toPage<Row extends { created_at: string; id: string }, T>(
  rows: Row[],
  limit: number,
  map: (row: Row) => T,
): ResultPage<T> {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(map),
    nextCursor: more && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/**
 * Newest first over (created_at, id), after the cursor's position, one row more than the page so
 * `toPage` can tell whether more follow. Every paged table has both columns.
 */
export function newestFirstPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageRequest,
): SelectQueryBuilder<DB, TB, O> {
  let paged = query;
  if (page.after) {
    const { createdAt, id } = page.after;
    paged = paged.where(
      sql<boolean>`(created_at < ${createdAt} or (created_at = ${createdAt} and id < ${id}))`,
    );
  }
  return paged.orderBy(sql`created_at desc, id desc`).limit(page.limit + 1);
}

/**
 * Which rows of a workspace a list shows: all (undefined), or the workspace's own rows (no owner)
 * plus, with `endUser`, that end-user's (of that embed) and, with `sharedToo`, rows marked shared.
 */
export type OwnerFilter =
  | undefined
  | { workspaceOwned: boolean; endUser?: { embedId: string; userId: string }; sharedToo?: boolean };
