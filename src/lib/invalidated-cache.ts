/**
 * A per-process cache of what rarely changes (tokens, account plans and domains), kept correct by
 * invalidation notices (NOTIFY, lib/pubsub.ts) rather than by its age alone:
 * - entries are trusted only while the LISTEN connection they were read under is still up (the
 *   pubsub's `epoch`, 0 while none is): a notice can be lost only while it is down, so then
 *   nothing is kept, and the age bound is the worst case;
 * - a read that overlapped an invalidation is used but not kept (`mark` before reading, `set`
 *   with that mark);
 * - bounded by `max` entries, the least recently used going first, and by `maxAgeMs`.
 */
export interface CacheMark {
  readonly generation: number;
  readonly epoch: number;
}

export class InvalidatedCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number; epoch: number }>();
  /** Moves on every invalidation. */
  private generation = 0;
  /** Set when invalidations can no longer be heard: nothing is kept from then on. */
  private deaf = false;

  constructor(
    private readonly maxAgeMs: number,
    /** Which LISTEN connection is up (pubsub.epoch), 0 while none is. */
    private readonly epoch: () => number,
    private readonly max = 10_000,
  ) {}

  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (Date.now() - e.at >= this.maxAgeMs || e.epoch !== this.epoch()) return undefined;
    // Most recently used last: the first key is the one to drop.
    this.entries.set(key, e);
    return e.value;
  }

  /**
   * Where a read starts: pass it to `set`, which ignores the value if anything was invalidated
   * since, or if the LISTEN connection was not the same one up all along (a notice may be lost).
   */
  mark(): CacheMark {
    return { generation: this.generation, epoch: this.epoch() };
  }

  set(key: K, value: V, mark: CacheMark): void {
    const epoch = this.epoch();
    if (this.maxAgeMs <= 0 || this.deaf || epoch === 0 || mark.epoch !== epoch || mark.generation !== this.generation) return;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, at: Date.now(), epoch });
  }

  /** Forgets one key, the entries `which` picks, or (neither) everything. */
  invalidate(key?: K, which?: (value: V) => boolean): void {
    this.generation++;
    if (key !== undefined) this.entries.delete(key);
    else if (!which) this.entries.clear();
    else for (const [k, e] of this.entries) if (which(e.value)) this.entries.delete(k);
  }

  /** Invalidations stopped arriving (or the app closes): keep nothing from now on. */
  stop(): void {
    this.deaf = true;
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
