/** Keyset paging as the API does it: `{items, nextCursor}`, followed until the cursor is null. */

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Every item of a paged list, fetching one page at a time as the caller iterates. */
export async function* everyItem<T>(
  list: (query: { limit: number; cursor?: string }) => Promise<Page<T>>,
  pageSize: number,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  // A cursor seen before would loop for ever (a broken or hostile server): stop there instead.
  const seen = new Set<string>();
  do {
    const page = await list({ limit: pageSize, ...(cursor ? { cursor } : {}) });
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
    if (cursor !== undefined && seen.has(cursor))
      throw new Error(`the server repeated the page cursor ${cursor}`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor);
}
