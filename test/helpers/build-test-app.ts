import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import type { Database, Dialect } from '../../src/db/database.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import type { HostResolver } from '../../src/modules/notifications/index.ts';
import type { PaymentGateway } from '../../src/modules/payments/index.ts';
import { openSqliteCopy, postgresCopy } from './test-databases.ts';

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
 * A fresh, migrated database and an app on it: SQLite in memory (or in `dbFile`), or, when
 * TEST_DATABASE_URL is set, a new PostgreSQL database dropped again on close. Both are copies of the
 * run's migrated template (test-databases.ts).
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
  const pgCopy = pgUrl ? await postgresCopy(pgUrl) : undefined;
  const handle = pgCopy ? createDb(pgCopy.url, { poolSize: 20 }) : await openSqliteCopy(options.dbFile);
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
      if (pgCopy) return createDb(pgCopy.url);
      if (!options.dbFile) throw new Error('a second handle on SQLite needs buildTestApp({ dbFile })');
      return createDb(`sqlite:${options.dbFile}`);
    },
    async close() {
      await app.close();
      await handle.close();
      await pgCopy?.drop();
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
