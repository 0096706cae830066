/** After a load run: waiting until the service's background work is done, and trends of samples. */

/** Polls `/metrics` until no webhook message waits and no render is queued, then lets thumbnails finish. */
export async function drained(base: string, admin: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${admin}` } })
      .then((res) => res.text())
      .catch(() => '');
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    if (gauge('platen_webhook_outbox_pending') === 0 && gauge('platen_render_queue_depth') === 0) {
      // Thumbnails of the last saves wait 400 ms (debounce) and render in well under a second.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${base} did not drain within ${timeoutMs} ms`);
}

export interface Trend {
  /** Least-squares slope per unit of x. */
  slope: number;
  mean: number;
  first: number;
  last: number;
}

export function trend(points: Array<[number, number]>): Trend {
  const n = points.length;
  const first = points[0]?.[1] ?? 0;
  const last = points.at(-1)?.[1] ?? 0;
  if (n < 2) return { slope: 0, mean: first, first, last };
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  }
  return { slope: den === 0 ? 0 : num / den, mean: meanY, first, last };
}
