import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { directSqliteConnection } from '../../src/db/sqlite.ts';

// The databases of the test apps: each one a copy of a database migrated once per run (in global-setup.ts)
// instead of migrated anew, which on PostgreSQL costs many times the copy (docs/performance.md, CI time).
// Every app still has a database of its own. The migrations themselves run for real in
// test/modules/platform/migrations.test.ts, which also checks that a copy equals a migrated database.

/** What global-setup.ts hands the test files: where the migrated templates of this run are. */
export interface TestTemplates {
  /** a file holding the image of a migrated SQLite database (as better-sqlite3's serialize makes it) */
  sqliteImageFile?: string;
  /** a migrated PostgreSQL database on TEST_DATABASE_URL's server, never connected to after set-up */
  pgTemplate?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testTemplates: TestTemplates;
  }
}

/** TEST_DATABASE_URL with another database name. */
export function databaseUrl(pgUrl: string, name: string): string {
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs statements on TEST_DATABASE_URL's own database, one connection for them all. */
export async function adminQuery(pgUrl: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A migrated SQLite database in memory, as an image to copy. */
export async function migratedSqliteImage(): Promise<Buffer> {
  const handle = createDb('sqlite::memory:');
  try {
    await migrateToLatest(handle.db);
    const connection = directSqliteConnection(handle.db);
    if (!connection) throw new Error('no SQLite connection to serialize');
    return connection.database.serialize();
  } finally {
    await handle.close();
  }
}

/** A new PostgreSQL database `name`, migrated; every connection to it closed again. */
export async function migratedPostgresDatabase(pgUrl: string, name: string): Promise<void> {
  await adminQuery(pgUrl, `create database ${name}`);
  const handle = createDb(databaseUrl(pgUrl, name), { poolSize: 1 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
}

function templates(): TestTemplates {
  // outside a run that went through global-setup.ts (another config, or a script outside vitest, where
  // inject throws), every database is migrated anew
  try {
    return inject('testTemplates') ?? {};
  } catch {
    return {};
  }
}

let sqliteImage: Buffer | undefined;

function migratedImage(): Buffer | undefined {
  const { sqliteImageFile } = templates();
  if (sqliteImageFile) sqliteImage ??= readFileSync(sqliteImageFile);
  return sqliteImage;
}

/**
 * A SQLite database for one app: a copy of the template in memory, or in `dbFile` (a new file, written
 * from the template's image; a file that already exists is migrated where it is).
 */
export async function openSqliteCopy(dbFile: string | undefined): Promise<DbHandle> {
  const image = migratedImage();
  if (!dbFile) return image ? createDb('sqlite::memory:', { image }) : migrated(createDb('sqlite::memory:'));
  if (existsSync(dbFile)) return migrated(createDb(`sqlite:${dbFile}`));
  await writeMigratedSqliteFile(dbFile);
  return createDb(`sqlite:${dbFile}`);
}

/** A new SQLite database file `file` with every migration applied: the template's image written there. */
async function writeMigratedSqliteFile(file: string): Promise<void> {
  const image = migratedImage();
  if (image) writeFileSync(file, image, { flag: 'wx' });
  else await (await migrated(createDb(`sqlite:${file}`))).close();
}

export interface PostgresCopy {
  url: string;
  drop(): Promise<void>;
}

/** A new PostgreSQL database for one app: a copy of the template (or, without one, freshly migrated). */
export async function postgresCopy(pgUrl: string): Promise<PostgresCopy> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const { pgTemplate } = templates();
  if (pgTemplate) await cloneDatabase(pgUrl, pgTemplate, name);
  else await migratedPostgresDatabase(pgUrl, name);
  return {
    url: databaseUrl(pgUrl, name),
    drop: () => adminQuery(pgUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * CREATE DATABASE ... TEMPLATE fails while anyone is connected to the template (SQLSTATE 55006, "source
 * database is being accessed by other users"). Nobody is after set-up, but the server may not yet have
 * seen set-up's last connection leave; PostgreSQL waits a few seconds itself, and this tries again after.
 */
async function cloneDatabase(pgUrl: string, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(pgUrl, `create database ${name} template ${template}`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

async function migrated(handle: DbHandle): Promise<DbHandle> {
  await migrateToLatest(handle.db);
  return handle;
}
