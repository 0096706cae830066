/**
 * Image loads shared by every row of a preflight: each source is loaded once (its failure too),
 * a few at a time, and the rows' sources are started ahead of the row that needs them, so rows
 * naming remote images wait for the slowest fetch of a few, not for each fetch in turn.
 */
import { ImageSourceError, type SourceContext } from '../backends/image-sources.ts';
import { loadImage } from '../backends/prepare.ts';

/** Fetches and decodes at once: as a page's own images load in a render. */
const AT_ONCE = 8;

export class ImageLoads {
  private readonly outcomes = new Map<string, Promise<string | null>>();
  private running = 0;
  private readonly queued: (() => void)[] = [];

  constructor(private readonly context: SourceContext) {}

  /** null once `src` is loaded (and in the context's cache), or why it cannot be. */
  outcome(src: string): Promise<string | null> {
    let known = this.outcomes.get(src);
    if (!known) {
      known = this.load(src);
      this.outcomes.set(src, known);
    }
    return known;
  }

  /** Starts loading sources a later row will ask for. */
  prefetch(sources: Iterable<string>): void {
    // A failure other than the image's own surfaces where the row awaits it.
    for (const src of sources) this.outcome(src).catch(() => {});
  }

  private async load(src: string): Promise<string | null> {
    if (this.running >= AT_ONCE) await new Promise<void>((resolve) => this.queued.push(resolve));
    this.running += 1;
    try {
      await loadImage(src, this.context);
      return null;
    } catch (error) {
      if (error instanceof ImageSourceError) return error.reason;
      throw error;
    } finally {
      this.running -= 1;
      this.queued.shift()?.();
    }
  }
}
