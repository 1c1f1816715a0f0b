import type { DbHandle } from '../../src/db/create-db.ts';
import { type Json, raceOnTwoServers } from './http-turns.ts';

// Two server processes on one fresh database (a SQLite file, or PostgreSQL with TEST_DATABASE_URL), the
// race suites' world: requests spread over both in turn, accounts made through the API, and a handle on
// the database to count what the races left (not a test file).

export type { Json };

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
  const { world, send, account } = raceOnTwoServers();
  return {
    get handle() {
      return world.handle;
    },
    send,
    account,
  };
}
