import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.ts';
import type { Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'waterbook-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function statRows(db: Kysely<Database>, table: 'sqlite_stat1' | 'sqlite_stat4'): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return rows[0].n;
}

describe('SQLite statistics', () => {
  it('keeps the table statistics of ANALYZE and drops its value samples when a connection opens', async () => {
    const url = `sqlite:${join(dir, 'stats.sqlite')}`;
    const first = createDb(url);
    await migrateToLatest(first.db);
    await sql`analyze`.execute(first.db);
    const stat1 = await statRows(first.db, 'sqlite_stat1');
    expect(stat1).toBeGreaterThan(0);
    expect(await statRows(first.db, 'sqlite_stat4')).toBeGreaterThan(0); // the seeded categories
    await first.close();

    const second = createDb(url);
    expect(await statRows(second.db, 'sqlite_stat4')).toBe(0);
    expect(await statRows(second.db, 'sqlite_stat1')).toBe(stat1);
    await second.close();
  });
});
