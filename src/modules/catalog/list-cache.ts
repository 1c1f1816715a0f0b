import { LRUCache } from 'lru-cache';

/**
 * Values tagged with the catalog version they were read at. A value is served only while the version
 * read at the start of a request still equals its tag: the version is bumped by database triggers in
 * every transaction that writes listings, categories or vendor profiles, so nothing older than an
 * acknowledged write is ever served, whichever server process wrote it. A stale entry is dropped on
 * sight; the least recently used go first when the bound is reached.
 */
class VersionedCache<V extends object> {
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
 * Public list pages as encoded response bodies, kept per request (requests differing only in ignored
 * query parameters are separate entries). Bounded by the bytes it holds; a body larger than the whole
 * budget is not kept.
 */
export class ListCache extends VersionedCache<Buffer> {
  constructor(maxBytes = 8 * 1024 * 1024) {
    // an empty body counts as one byte: the bound needs a positive size
    super({ maxSize: maxBytes, sizeCalculation: (entry) => entry.value.length || 1 });
  }

  get bytes(): number {
    return this.calculatedSize;
  }
}

/**
 * Public detail lookups (a visible listing by kind and public id, as the API shows it). A listing
 * deactivated, archived or edited, or its category or vendor renamed, bumps the version, so the next view
 * reads it afresh (or finds it gone). Bounded by entry count. Values are frozen: callers copy, never edit.
 */
export class DetailCache<V extends object> extends VersionedCache<V> {
  constructor(maxEntries = 5_000) {
    super({ max: maxEntries });
  }

  override set(key: string, version: number, value: V): void {
    super.set(key, version, deepFreeze(value));
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
