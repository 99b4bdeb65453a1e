/**
 * A small map with per-entry expiry and a size bound (the oldest entry goes first). Expiry is the safety net
 * for changes made by other instances; changes made through this instance invalidate entries explicitly.
 * An expired entry is kept `staleMs` longer for `getStale`: what to answer when the source cannot be asked.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
    private readonly staleMs = 0,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt <= this.now()) {
      if (entry !== undefined && entry.expiresAt + this.staleMs <= this.now()) this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  /** The value even if expired, as long as it is within the stale window; for when the source is down. */
  getStale(key: K): V | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiresAt + this.staleMs > this.now() ? entry.value : undefined;
  }

  set(key: K, value: V, ttlMs = this.ttlMs): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value `matches` (one operator's credentials, say), expired or not. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
