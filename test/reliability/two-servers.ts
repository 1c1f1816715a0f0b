import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import {
  freshDatabase,
  killServers,
  PASSWORD,
  type ServerProcess,
  startServer,
  type TestDatabase,
} from './server-process.ts';

// Two server processes on one fresh database (a SQLite file, or PostgreSQL with TEST_DATABASE_URL), the
// race suites' world: requests spread over both in turn, accounts made through the API, and a handle on
// the database to count what the races left (not a test file).

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
export type Json = Record<string, any>;

export interface TwoServers {
  /** the test's own connection to the servers' database */
  readonly handle: DbHandle;
  /** one request to the next server in turn */
  send(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; json: Json }>;
  /** a new account of that kind through the API, logged in */
  account(
    kind: 'vendor' | 'customer',
    extra?: Record<string, unknown>,
  ): Promise<{ id: number; token: string }>;
}

/** Starts the database and the two servers before the file's tests (beforeAll) and stops them after. */
export function useTwoServers(): TwoServers {
  let database: TestDatabase;
  let handle: DbHandle;
  let servers: ServerProcess[];
  beforeAll(async () => {
    database = await freshDatabase();
    handle = database.open();
    await migrateToLatest(handle.db);
    const env = {
      MIGRATE_ON_START: 'false',
      EXPIRY_SWEEP_INTERVAL_MS: '0',
      NOTIFICATION_POLL_INTERVAL_MS: '0',
    };
    servers = await Promise.all([startServer(database.url, env), startServer(database.url, env)]);
  }, 60_000);
  afterAll(async () => {
    await killServers();
    await handle?.close();
    await database?.drop();
  });

  let turn = 0;
  const send: TwoServers['send'] = async (method, path, body, token) => {
    const base = servers[turn++ % servers.length].url;
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Json };
  };
  const account: TwoServers['account'] = async (kind, extra = {}) => {
    const email = `${kind}-${randomBytes(4).toString('hex')}@example.com`;
    const made = await send('POST', `/api/v1/accounts/register/${kind}/`, {
      email,
      password: PASSWORD,
      ...extra,
    });
    expect(made.status).toBe(201);
    const token = await send('POST', '/api/v1/accounts/token/', { email, password: PASSWORD });
    return { id: made.json.id as number, token: token.json.access as string };
  };
  return {
    get handle() {
      return handle;
    },
    send,
    account,
  };
}
