import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll } from 'vitest';
import { buildTestApp, type TestApp, usingPostgres } from './build-test-app.ts';

export interface RaceServers {
  /** the servers' base URLs (`http://127.0.0.1:<port>`): spread simultaneous requests over them */
  addresses: string[];
  /** stops the second server, if any (the test's own app closes with `t.close()`) */
  close(): Promise<void>;
}

/**
 * The test's own app listening for real HTTP and, on SQLite, a second server on the same database file in
 * a worker thread (test/modules/booking/race-server.worker.ts), as with several instances of the service on
 * one file. On PostgreSQL (TEST_DATABASE_URL) the one server and its connection pool race on their own.
 */
export async function listenForRaces(t: TestApp, dbFile: string): Promise<RaceServers> {
  const addresses = [await t.app.listen({ port: 0, host: '127.0.0.1' })];
  if (usingPostgres) return { addresses, close: async () => {} };
  const worker = new Worker(new URL('../modules/booking/race-server.worker.ts', import.meta.url), {
    workerData: { dbFile, jwtSecret: t.config.jwtSecret, now: t.clock.now().toISOString() },
  });
  addresses.push((await once(worker, 'message'))[0] as string);
  return {
    addresses,
    async close() {
      worker.postMessage('close');
      await once(worker, 'message');
      await worker.terminate();
    },
  };
}

/**
 * A test file's race fixture: before its tests, an app on a fresh SQLite file (or PostgreSQL schema) and
 * the servers listening on it (listenForRaces); after them, everything stopped and removed. Read `t` and
 * `servers` inside tests, once the fixture is set up.
 */
export function raceFixture(prefix: string): { t: TestApp; servers: RaceServers } {
  const fixture = {} as { t: TestApp; servers: RaceServers };
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    fixture.t = await buildTestApp({ dbFile: join(dir, 'race.sqlite') });
    fixture.servers = await listenForRaces(fixture.t, join(dir, 'race.sqlite'));
  }, 120_000);
  afterAll(async () => {
    await fixture.servers?.close();
    await fixture.t?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return fixture;
}

/** A JSON POST with a bearer token to the fixture's servers in turn (`path` from the server's root). */
export function postInTurns(fixture: { servers: RaceServers }) {
  let sent = 0;
  return async (path: string, token: string, body: unknown) => {
    const { addresses } = fixture.servers;
    const res = await fetch(`${addresses[sent++ % addresses.length]}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
}
