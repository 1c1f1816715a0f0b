import type { Db } from './database.ts';
import { preparedQuery } from './prepared-query.ts';
import { readSharedPerTurn } from './turn-read.ts';

/**
 * The version counters of `cache_versions`, each bumped by triggers inside every transaction that writes
 * what it covers (migrations 2026112208 and 2026112216), so once a write is acknowledged every reader, in
 * any server process, sees the new number:
 * - `catalog`: listings, categories and vendor profiles (the public list, detail and listing caches);
 * - `accounts`: users and vendor profiles (the users behind access tokens).
 */
const NAMES = ['catalog', 'accounts'] as const;
export type CacheVersionName = (typeof NAMES)[number];

// By primary key, never by scanning the table: on PostgreSQL every bump leaves a dead row version behind
// until vacuum, so right after a bulk write (a seeded catalog) a scan reads many times the rows a key
// lookup does.
const versionsQuery = preparedQuery(
  (db) =>
    db
      .selectFrom('cache_versions')
      .select(['name', 'version'])
      .where('name', 'in', [...NAMES]),
  [],
);

// All counters in one read, shared by the requests of one event-loop turn (see readSharedPerTurn).
const readVersions = readSharedPerTurn(
  async (db) => new Map((await versionsQuery(db, {})).map((row) => [row.name, Number(row.version)])),
);

export async function cacheVersion(db: Db, name: CacheVersionName): Promise<number> {
  const version = (await readVersions(db)).get(name);
  if (version === undefined) throw new Error(`cache_versions has no "${name}" row`);
  return version;
}
