import { type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../../src/db/database.ts';

/**
 * Counts every committed row change (insert, update, delete) in every table of a test database, with
 * row triggers feeding one counter row. A rolled-back transaction rolls its counts back too, so the
 * counter moves exactly when the database's content changed. Test instrumentation only.
 *
 * Left out: the rate-limit counters (PostgreSQL), which count every attempt on a limited route, refused
 * ones included, by design: that is what a limit on password guesses is.
 */
const NOT_COUNTED = ['rate_limit_hits'];

export async function installChangeCounter(
  db: Kysely<Database>,
  dialect: Dialect,
  options: { notCounted?: string[] } = {},
): Promise<{ read: () => Promise<number>; tables: string[] }> {
  const anyDb = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const tables =
    dialect === 'sqlite'
      ? // Virtual tables (the FTS5 search index) take no triggers; they and their shadow tables
        // (<name>_data, ...) change only with the table they index, which is counted.
        (
          await sql<{ name: string }>`select name from sqlite_master m
            where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'
              and not exists (select 1 from sqlite_master v
                where v.sql like 'create virtual table%' and substr(m.name || '_', 1, length(v.name) + 1) = v.name || '_')`.execute(
            db,
          )
        ).rows.map((r) => r.name)
      : (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'
              and table_name not like 'kysely_%'`.execute(db)
        ).rows.map((r) => r.name);
  const left = [...NOT_COUNTED, ...(options.notCounted ?? [])];
  const counted = tables.filter((table) => !left.includes(table));
  await sql`create table zz_changes (n bigint not null)`.execute(db);
  await sql`insert into zz_changes (n) values (0)`.execute(db);
  if (dialect === 'postgres') {
    await sql`create function zz_count_change() returns trigger language plpgsql as $$
      begin update zz_changes set n = n + 1; return null; end $$`.execute(db);
  }
  for (const table of counted) {
    for (const op of ['insert', 'update', 'delete']) {
      const name = sql.raw(`zz_${table}_${op}`);
      if (dialect === 'sqlite') {
        await sql`create trigger ${name} after ${sql.raw(op)} on ${sql.table(table)}
          begin update zz_changes set n = n + 1; end`.execute(db);
      } else {
        await sql`create trigger ${name} after ${sql.raw(op)} on ${sql.table(table)}
          for each row execute function zz_count_change()`.execute(db);
      }
    }
  }
  const read = async () => {
    const row = await anyDb.selectFrom('zz_changes').select('n').executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return { read, tables: counted };
}
