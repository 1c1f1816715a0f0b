import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import { buildTestApp, countRows, usingPostgres } from '../helpers/build-test-app.ts';
import { createEquipment } from '../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../helpers/factories.ts';
import { distinctWindow, freePort, killServers, makeFixture, startServer } from './server-process.ts';

// Faults: the database goes away or stays locked. The service answers 503 `service_unavailable` with the
// error body (never a 500, never a crash) and recovers by itself when the database is back.

const UNAVAILABLE = {
  detail: 'The service is temporarily unavailable; try again shortly.',
  code: 'service_unavailable',
};

describe.skipIf(usingPostgres)('SQLite locked by another process', () => {
  let dir = '';
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Another process takes the write lock for `ms`; resolves once it holds it, with its exit to come. */
  async function lockFor(file: string, ms: number): Promise<{ released: Promise<number | null> }> {
    const child = spawn(process.execPath, ['test/reliability/sqlite-locker.ts', file, String(ms)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const released = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    return { released };
  }

  it('answers 503 when the lock outlasts busy_timeout, waits for a shorter one, and reads meanwhile', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-lock-'));
    const file = join(dir, 'app.sqlite');
    const t = await buildTestApp({ dbFile: file });
    try {
      const vendor = await registerVendor(t.app);
      const customer = await registerCustomer(t.app);
      const item = await createEquipment(t.app, vendor);
      const book = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/booking/bookings/request/',
          headers: { authorization: `Bearer ${customer.token}` },
          payload: { equipment_item_id: item.id, ...distinctWindow() },
        });

      const { released } = await lockFor(file, 7_000);
      // readers are not blocked by a writer (WAL)
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/equipment/items/' });
      expect(list.statusCode).toBe(200);
      expect(list.json().count).toBe(1);
      const started = performance.now();
      const refused = await book();
      const waited = performance.now() - started;
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual(UNAVAILABLE);
      expect(refused.headers['retry-after']).toBe('1');
      expect(waited).toBeGreaterThan(4_000); // busy_timeout (5 s) was honoured before giving up
      expect(await released).toBe(0);
      expect(await countRows(t.db, 'bookings')).toBe(0);

      // a lock shorter than busy_timeout is waited for
      const short = (await lockFor(file, 800)).released;
      const accepted = await book();
      expect(accepted.statusCode).toBe(201);
      expect(accepted.json().status).toBe('requested');
      expect(await short).toBe(0);
      expect(await countRows(t.db, 'bookings')).toBe(1);
    } finally {
      await t.close();
    }
  }, 30_000);
});

// A PostgreSQL server of the test's own (stopped and started again), so TEST_DATABASE_URL's is untouched.
// Needs root (the server runs as the postgres user) and the PostgreSQL binaries, as scripts/pg-throwaway.sh.
const PGBIN = existsSync('/usr/lib/postgresql')
  ? readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(a) - Number(b))
      .map((v) => `/usr/lib/postgresql/${v}/bin`)
      .at(-1)
  : undefined;
const canRunPostgres =
  usingPostgres && process.getuid?.() === 0 && PGBIN !== undefined && existsSync(`${PGBIN}/pg_ctl`);

describe.skipIf(!canRunPostgres)('PostgreSQL stopped while the server runs', () => {
  let dir = '';
  let port = 0;
  const asPostgres = (command: string) =>
    execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
  const pgCtl = (args: string) => asPostgres(`${PGBIN}/pg_ctl -D ${dir}/data -l ${dir}/log -w ${args}`);
  const startPg = () => pgCtl(`-o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off' start`);
  afterAll(async () => {
    await killServers();
    if (!dir) return;
    try {
      pgCtl('-m immediate stop');
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 with the error body, fails /readyz, does not crash, and recovers by itself', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pg-fault-'));
    port = Number(process.env.FAULT_PG_PORT ?? (await freePort()));
    writeFileSync(join(dir, 'pw'), 'pw\n');
    execFileSync('chown', ['-R', 'postgres:postgres', dir]);
    asPostgres(`${PGBIN}/initdb -D ${dir}/data -U app --pwfile=${dir}/pw -A scram-sha-256 --no-sync`);
    startPg();
    execFileSync(`${PGBIN}/createdb`, ['-h', '127.0.0.1', '-p', String(port), '-U', 'app', 'app'], {
      env: { ...process.env, PGPASSWORD: 'pw' },
    });
    const server = await startServer(`postgres://app:pw@127.0.0.1:${port}/app`);
    const fixture = await makeFixture(server.url);
    const auth = { authorization: `Bearer ${fixture.customerToken}` };
    const book = () =>
      fetch(`${server.url}/api/v1/booking/bookings/request/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ equipment_item_id: fixture.listingId, ...distinctWindow() }),
      });
    const view = () => fetch(`${server.url}/api/v1/equipment/items/${fixture.publicId}/`);
    const me = () => fetch(`${server.url}/api/v1/accounts/me/`, { headers: auth });

    expect((await book()).status).toBe(201);
    for (const mode of ['fast', 'immediate']) {
      pgCtl(`-m ${mode} stop`);
      for (const attempt of [book, view, me]) {
        const started = performance.now();
        const res = await attempt();
        expect(res.status, `${attempt.name} after a ${mode} stop`).toBe(503);
        expect(await res.json()).toEqual(UNAVAILABLE);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(performance.now() - started).toBeLessThan(5_000);
      }
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ detail: 'Database unavailable.', code: 'service_unavailable' });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();

      startPg();
      const deadline = Date.now() + 20_000;
      while ((await fetch(`${server.url}/readyz`)).status !== 200) {
        expect(Date.now()).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 200));
      }
      const booked = await book();
      expect(booked.status).toBe(201);
      expect(((await booked.json()) as { total_price: string }).total_price).toBe('45.00');
      expect((await view()).status).toBe(200);
      expect((await me()).status).toBe(200);
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output().stderr).toBe('');
  }, 90_000);
});

describe('PostgreSQL unreachable without an answer (a black-holed host)', () => {
  it('gives up connecting after the connect timeout and answers 503 instead of hanging', async () => {
    // accepts TCP connections and never says a word, like a host behind a dropping firewall
    const sockets = new Set<Socket>();
    const hole = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    const { port } = hole.address() as { port: number };
    const handle = createDb(`postgres://app:pw@127.0.0.1:${port}/app`, { connectTimeoutMs: 300 });
    const app = await buildApp(
      loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: 'test-secret-that-is-long-enough' }),
      {
        db: handle.db,
      },
    );
    try {
      const started = performance.now();
      const [list, ready] = await Promise.all([
        app.inject({ method: 'GET', url: '/api/v1/equipment/items/' }),
        app.inject({ method: 'GET', url: '/readyz' }),
      ]);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(list.statusCode).toBe(503);
      expect(list.json()).toEqual(UNAVAILABLE);
      expect(ready.statusCode).toBe(503);
      expect(sockets.size).toBeGreaterThan(0); // it did try
    } finally {
      await app.close();
      await handle.close().catch(() => {});
      for (const socket of sockets) socket.destroy();
      hole.close();
    }
  }, 20_000);
});
