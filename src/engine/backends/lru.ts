/**
 * A small least-recently-used map bounded by entry count and, optionally, by total weight (bytes
 * of decoded pixels), with an eviction hook so evicted native resources can be released.
 */

export interface LruOptions<V> {
  maxEntries: number;
  maxWeight?: number;
  weigh?: (value: V) => number;
  onEvict?: (value: V) => void;
}

export class Lru<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private totalWeight = 0;

  constructor(private readonly options: LruOptions<V>) {}

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.totalWeight;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
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
      this.options.onEvict?.(entry.value);
    }
  }

  clear(): void {
    for (const entry of this.entries.values()) this.options.onEvict?.(entry.value);
    this.entries.clear();
    this.totalWeight = 0;
  }
}
