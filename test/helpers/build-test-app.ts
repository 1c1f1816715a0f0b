import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import type { Database, Dialect } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import type { HostResolver } from '../../src/modules/notifications/index.ts';
import type { PaymentGateway } from '../../src/modules/payments/index.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Kysely<Database>;
  dialect: Dialect;
  clock: ManualClock;
  config: Config;
  /** a second, independent connection (pool) to the same database: another server process's view */
  openSecondHandle(): DbHandle;
  close(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * A fresh, migrated database and an app on it: SQLite in memory, or, when TEST_DATABASE_URL is set, a new
 * PostgreSQL schema dropped again on close.
 */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    clock?: ManualClock;
    dbFile?: string;
    gateway?: PaymentGateway;
    resolveHost?: HostResolver;
  } = {},
): Promise<TestApp> {
  const clock = options.clock ?? new ManualClock();
  const pgUrl = process.env.TEST_DATABASE_URL;
  let dropSchema = async () => {};
  let handle: ReturnType<typeof createDb>;
  let schema: string | undefined;
  if (pgUrl) {
    schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    handle = createDb(pgUrl, { searchPath: schema, poolSize: 20 });
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    };
  } else {
    handle = createDb(`sqlite:${options.dbFile ?? ':memory:'}`);
  }
  await migrateToLatest(handle.db, schema);
  // each app its own media directory (photos) and mail directory (.eml files), removed with it
  const mediaDir = await mkdtemp(join(tmpdir(), 'waterbook-media-'));
  const mailDir = await mkdtemp(join(tmpdir(), 'waterbook-mail-'));
  const config = loadConfig({
    MEDIA_DIR: mediaDir,
    MAIL_DIR: mailDir,
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'test-secret-that-is-long-enough',
    RATE_LIMIT_LOGIN: '100000',
    RATE_LIMIT_REFRESH: '100000',
    RATE_LIMIT_REGISTER: '100000',
    // no background sweep or outbox loop under a test's manual clock: tests that want one run it themselves
    // (app.outbox.runOnce)
    EXPIRY_SWEEP_INTERVAL_MS: '0',
    NOTIFICATION_POLL_INTERVAL_MS: '0',
    ...options.env,
  });
  const app = await buildApp(config, {
    db: handle.db,
    clock,
    poolStats: handle.poolStats,
    gateway: options.gateway,
    resolveHost: options.resolveHost,
  });
  await app.ready();
  return {
    app,
    db: handle.db,
    dialect: handle.dialect,
    clock,
    config,
    openSecondHandle() {
      if (pgUrl) return createDb(pgUrl, { searchPath: schema });
      if (!options.dbFile) throw new Error('a second handle on SQLite needs buildTestApp({ dbFile })');
      return createDb(`sqlite:${options.dbFile}`);
    },
    async close() {
      await app.close();
      await handle.close();
      await dropSchema();
      await rm(mediaDir, { recursive: true, force: true });
      await rm(mailDir, { recursive: true, force: true });
    },
  };
}

export async function countRows(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0].n);
}

export type Injector = (options: InjectOptions & { token?: string }) => Promise<LightMyRequestResponse>;

/** app.inject with an optional bearer token. */
export function injector(app: FastifyInstance): Injector {
  return ({ token, headers, ...rest }) =>
    app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
}

/** The PostgreSQL schema a test app's migrations run in (undefined on SQLite): what migrate* functions take. */
export async function migrationSchema(t: TestApp): Promise<string | undefined> {
  if (t.dialect !== 'postgres') return undefined;
  return (await sql<{ s: string }>`select current_schema() as s`.execute(t.db)).rows[0].s;
}
