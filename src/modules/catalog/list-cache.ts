/**
 * Public list pages, kept per query and tagged with the catalog version they were read at. A page is
 * served only while the version read at the start of a request still equals its tag: the version is
 * bumped by database triggers in every transaction that writes listings, categories or vendor profiles,
 * so nothing older than an acknowledged write is ever served, whichever server process wrote it.
 * Bounded: the least recently used page goes first.
 */
export class ListCache<T> {
  readonly #entries = new Map<string, { version: number; value: T }>();
  readonly #limit: number;

  constructor(limit = 1000) {
    this.#limit = limit;
  }

  get(key: string, version: number): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.version !== version) return undefined;
    this.#entries.set(key, entry); // most recently used last
    return entry.value;
  }

  set(key: string, version: number, value: T): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { version, value });
  }

  get size(): number {
    return this.#entries.size;
  }
}
