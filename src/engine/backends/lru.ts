/**
 * A small least-recently-used map bounded by entry count and, optionally, by total weight (bytes
 * of decoded pixels), with an eviction hook so evicted native resources can be released. A named
 * cache counts its hits, misses and evictions, which `cacheStats()` reports for the process (the
 * benchmarks print them).
 */

export interface CacheStats {
  name: string;
  entries: number;
  bytes: number;
  maxBytes: number | null;
  hits: number;
  misses: number;
  evictions: number;
}

const named = new Map<string, Lru<unknown, unknown>>();

/** Every named cache of this process, as counted since it started. */
export function cacheStats(): CacheStats[] {
  return [...named.values()].map((cache) => cache.stats());
}

export interface LruOptions<V> {
  /** Names the cache in cacheStats(); unnamed caches are not reported. */
  name?: string;
  maxEntries: number;
  maxWeight?: number;
  weigh?: (value: V) => number;
  onEvict?: (value: V) => void;
}

export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private totalWeight = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(private readonly options: LruOptions<V>) {
    if (options.name) named.set(options.name, this as Lru<unknown, unknown>);
  }

  stats(): CacheStats {
    return {
      name: this.options.name ?? '',
      entries: this.entries.size,
      bytes: this.totalWeight,
      maxBytes: this.options.maxWeight ?? null,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.totalWeight;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const existing = this.entries.get(key);
    if (existing) {
      this.entries.delete(key);
      this.totalWeight -= existing.weight;
    }
    const weight = this.options.weigh?.(value) ?? 0;
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    this.evict(key);
  }

  private evict(keep: K): void {
    const maxWeight = this.options.maxWeight ?? Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.totalWeight <= maxWeight) return;
      if (key === keep) continue;
      this.entries.delete(key);
      this.totalWeight -= entry.weight;
      this.evictions++;
      this.options.onEvict?.(entry.value);
    }
  }

  clear(): void {
    for (const entry of this.entries.values()) this.options.onEvict?.(entry.value);
    this.entries.clear();
    this.totalWeight = 0;
  }
}
