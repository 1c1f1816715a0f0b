import { LRUCache } from 'lru-cache';

/**
 * Public list pages as encoded response bodies, kept per request and tagged with the catalog version they
 * were read at. A page is served only while the version read at the start of a request still equals its
 * tag: the version is bumped by database triggers in every transaction that writes listings, categories
 * or vendor profiles, so nothing older than an acknowledged write is ever served, whichever server process
 * wrote it. Bounded by the bytes it holds (requests differing only in ignored query parameters are
 * separate entries): the least recently used pages go first.
 */
export class ListCache {
  readonly #entries = new Map<string, { version: number; body: Buffer }>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = 8 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  get(key: string, version: number): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#remove(key);
    if (entry.version !== version) return undefined;
    this.#add(key, entry); // most recently used last
    return entry.body;
  }

  set(key: string, version: number, body: Buffer): void {
    this.#remove(key);
    if (body.length > this.#maxBytes) return;
    while (this.#bytes + body.length > this.#maxBytes)
      this.#remove(this.#entries.keys().next().value as string);
    this.#add(key, { version, body });
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  #add(key: string, entry: { version: number; body: Buffer }): void {
    this.#entries.set(key, entry);
    this.#bytes += entry.body.length;
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.body.length;
  }
}

/**
 * Public detail lookups (a visible listing by kind and public id, as the API shows it), tagged with the
 * catalog version they were read at and served under the same rule as ListCache: only while the version
 * read at the start of a request still equals the tag. A listing deactivated, archived or edited, or its
 * category or vendor renamed, bumps the version, so the next view reads it afresh (or finds it gone).
 * Bounded by entry count; the least recently used go first. Values are frozen: callers copy, never edit.
 */
export class DetailCache<V extends object> {
  readonly #entries: LRUCache<string, { version: number; value: V }>;

  constructor(maxEntries = 5_000) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  get(key: string, version: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version === version) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, version: number, value: V): void {
    this.#entries.set(key, { version, value: deepFreeze(value) });
  }

  get size(): number {
    return this.#entries.size;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
