import { LRUCache } from 'lru-cache';

/**
 * Values tagged with the version (see src/db/cache-versions.ts) they were read at. A value is served only
 * while the version read at the start of a request still equals its tag: the version is bumped by
 * database triggers in every transaction that writes what it covers, so nothing older than an
 * acknowledged write is ever served, whichever server process wrote it. A stale entry is dropped on
 * sight; the least recently used go first when the bound is reached.
 */
export class VersionedCache<V extends object> {
  readonly #entries: LRUCache<string, { version: number; value: V }>;

  constructor(options: LRUCache.Options<string, { version: number; value: V }, unknown>) {
    this.#entries = new LRUCache(options);
  }

  get(key: string, version: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version === version) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, version: number, value: V): void {
    this.#entries.set(key, { version, value });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** the sizes of the entries held, as the bound counts them */
  protected get calculatedSize(): number {
    return this.#entries.calculatedSize;
  }
}

/**
 * Looked-up records by key (a visible listing by kind and public id, the user behind an access token),
 * bounded by entry count. A change to what the version covers makes the next lookup read afresh (or find
 * the record gone). Values are frozen: callers copy, never edit.
 */
export class DetailCache<V extends object> extends VersionedCache<V> {
  constructor(maxEntries = 5_000) {
    super({ max: maxEntries });
  }

  override set(key: string, version: number, value: V): void {
    super.set(key, version, deepFreeze(value));
  }
}

/**
 * Freezes a value and everything in it, with a stack of its own rather than recursion: a cached listing
 * holds its vendor's free-form `details`, which may be stored deeper than today's body bound allows.
 */
function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node || typeof node !== 'object' || Object.isFrozen(node)) continue;
    Object.freeze(node);
    for (const inner of Object.values(node)) pending.push(inner);
  }
  return value;
}

/**
 * `read()`'s value for `key`, from `cache` while the version (read first) equals the value's tag; read
 * afresh, and kept when found, otherwise. A value read after its version may be newer than its tag, never
 * older: at worst the next lookup reads again. Used by the repository lookups that own a cache.
 */
export async function throughCache<V extends object, R extends V | undefined>(
  cache: VersionedCache<V>,
  version: () => Promise<number>,
  key: string,
  read: () => Promise<R>,
): Promise<R | V> {
  const current = await version();
  const cached = cache.get(key, current);
  if (cached) return cached;
  const found = await read();
  if (found) cache.set(key, current, found);
  return found;
}
