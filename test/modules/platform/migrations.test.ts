import { readdirSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../../src/db/create-db.ts';
import type { Database } from '../../../src/db/database.ts';
import { migrateDownThrough, migrateToLatest } from '../../../src/db/migrate.ts';
import { buildTestApp, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { adminQuery, databaseUrl } from '../../helpers/test-databases.ts';

// The migrations themselves, run for real on an empty database (SQLite in memory, or a new PostgreSQL
// database): every one up, every one down to nothing, and up again. The test apps' databases are copies of
// one database migrated per run (test-databases.ts); the last test checks that such a copy is exactly
// what the migrations make, so no test depends on the copying.

const NAMES = readdirSync(new URL('../../../src/db/migrations/', import.meta.url))
  .filter((file) => /^\d{10}-.+\.ts$/.test(file))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();
const BOOKKEEPING = ['kysely_migration', 'kysely_migration_lock'];

let empty: DbHandle;
let dropEmpty = async () => {};
let t: TestApp;

beforeAll(async () => {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const name = `mig_${process.pid}_${Date.now()}`;
    await adminQuery(pgUrl, `create database ${name}`);
    empty = createDb(databaseUrl(pgUrl, name), { poolSize: 2 });
    dropEmpty = () => adminQuery(pgUrl, `drop database if exists ${name} with (force)`);
  } else {
    empty = createDb('sqlite::memory:');
  }
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
  await empty?.close();
  await dropEmpty();
});

/** Everything the migrations define, as text to compare: tables, columns, indexes, constraints, triggers, functions. */
async function schemaOf(db: Kysely<Database>): Promise<string[]> {
  if (!usingPostgres) {
    const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
      select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name`.execute(
      db,
    );
    return rows.map((r) => `${r.type} ${r.name}: ${r.sql}`);
  }
  const { rows } = await sql<{ line: string }>`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable
           || ' default=' || coalesce(column_default, '') as line
      from information_schema.columns where table_schema = 'public'
    union all
    select 'index ' || indexname || ': ' || indexdef from pg_indexes where schemaname = 'public'
    union all
    select 'constraint ' || conrelid::regclass || '.' || conname || ': ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace and conrelid <> 0
    union all
    select 'trigger ' || tgrelid::regclass || '.' || tgname || ': ' || pg_get_triggerdef(oid)
      from pg_trigger where not tgisinternal
    union all
    select 'function ' || p.proname || ': ' || md5(p.prosrc) from pg_proc p
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    order by 1`.execute(db);
  return rows.map((r) => r.line);
}

async function tablesOf(db: Kysely<Database>): Promise<string[]> {
  const { rows } = usingPostgres
    ? await sql<{ name: string }>`select table_name as name from information_schema.tables
        where table_schema = 'public' order by 1`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master
        where type = 'table' and name not like 'sqlite_%' order by 1`.execute(db);
  return rows.map((r) => r.name);
}

/** Rows per table: what the migrations insert (the seeded categories) besides their bookkeeping. */
async function rowCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tablesOf(db)) {
    if (BOOKKEEPING.includes(table)) continue;
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0].n);
  }
  return counts;
}

describe('the migrations on an empty database', () => {
  it('run up one by one, in order, and then find nothing left to do', async () => {
    expect(await migrateToLatest(empty.db)).toEqual(NAMES.map((name) => `Up ${name}: Success`));
    expect(await migrateToLatest(empty.db)).toEqual([]);
    expect((await tablesOf(empty.db)).length).toBeGreaterThan(20);
  });

  it('go down one by one to an empty schema, leaving only their bookkeeping', async () => {
    const down = await migrateDownThrough(empty.db, NAMES[0]);
    expect(down).toEqual(NAMES.toReversed().map((name) => `Down ${name}: Success`));
    expect(await tablesOf(empty.db)).toEqual(BOOKKEEPING);
    const leftOver = (await schemaOf(empty.db)).filter((line) => !BOOKKEEPING.some((b) => line.includes(b)));
    expect(leftOver).toEqual([]);
  });

  it('come up again to what a test app copies: the same schema, the same seeded rows', async () => {
    expect(await migrateToLatest(empty.db)).toEqual(NAMES.map((name) => `Up ${name}: Success`));
    const [fresh, copy] = await Promise.all([schemaOf(empty.db), schemaOf(t.db)]);
    expect(fresh.length).toBeGreaterThan(100);
    expect(copy).toEqual(fresh);
    const seeded = await rowCounts(empty.db);
    expect(seeded.categories).toBe(10);
    expect(await rowCounts(t.db)).toEqual(seeded);
    const applied = sql<{ name: string }>`select name from kysely_migration order by name`;
    expect((await applied.execute(t.db)).rows.map((r) => r.name)).toEqual(NAMES);
  });
});
