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

// Requests spread over server processes in turn, and accounts made through them (race tests).

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
export type Json = Record<string, any>;

export function httpTurns(servers: () => ServerProcess[]) {
  let turn = 0;
  /** One request to the next server in turn. */
  async function send(method: string, path: string, body?: unknown, token?: string) {
    const list = servers();
    const base = list[turn++ % list.length].url;
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : null) as Json };
  }
  async function account(kind: 'vendor' | 'customer', extra: Record<string, unknown> = {}) {
    const email = `${kind}-${randomBytes(4).toString('hex')}@example.com`;
    const made = await send('POST', `/api/v1/accounts/register/${kind}/`, {
      email,
      password: PASSWORD,
      ...extra,
    });
    expect(made.status).toBe(201);
    const token = await send('POST', '/api/v1/accounts/token/', { email, password: PASSWORD });
    return { id: made.json.id as number, token: token.json.access as string };
  }
  return { send, account };
}

/**
 * Registers the suite's setup: a fresh migrated database (a SQLite file, or PostgreSQL with
 * TEST_DATABASE_URL) and two server processes on it, with requests spread over them in turn.
 */
export function raceOnTwoServers() {
  let database: TestDatabase;
  const world = { handle: undefined as unknown as DbHandle, servers: [] as ServerProcess[] };
  beforeAll(async () => {
    database = await freshDatabase();
    world.handle = database.open();
    await migrateToLatest(world.handle.db);
    const env = {
      MIGRATE_ON_START: 'false',
      EXPIRY_SWEEP_INTERVAL_MS: '0',
      NOTIFICATION_POLL_INTERVAL_MS: '0',
    };
    world.servers = await Promise.all([startServer(database.url, env), startServer(database.url, env)]);
  }, 60_000);
  afterAll(async () => {
    await killServers();
    await world.handle?.close();
    await database?.drop();
  });
  return { world, ...httpTurns(() => world.servers) };
}
