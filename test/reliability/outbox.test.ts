import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.ts';
import {
  freshDatabase,
  killServers,
  makeFixture,
  type ServerProcess,
  startServer,
  type TestDatabase,
} from './server-process.ts';

// The outbox (decisions §14) in real server processes on one database (a SQLite file, or PostgreSQL with
// TEST_DATABASE_URL), delivering to a real HTTP receiver: a process killed (SIGKILL) in the middle of a
// send leaves the delivery to the next process, which sends it again; two processes sharing the outbox
// deliver every event exactly once; a receiver that fails and then recovers gets the event on a retry.
// Signatures are checked with the reference implementation (the standardwebhooks package).

const WORKER_ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  NOTIFICATION_POLL_INTERVAL_MS: '50',
  NOTIFICATION_CLAIM_TIMEOUT_MS: '1500',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1',
};

interface Received {
  id: string;
  timestamp: string;
  body: string;
  verified: boolean;
}

/** A webhook receiver; `answer` decides each request's fate (a status, or 'hang' never to answer). */
async function receiver(answer: (received: Received, n: number) => number | 'hang') {
  const requests: Received[] = [];
  let secret = '';
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      let verified = false;
      try {
        new Webhook(secret).verify(body, headers);
        verified = true;
      } catch {
        verified = false;
      }
      const received = { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], body, verified };
      requests.push(received);
      const status = answer(received, requests.length);
      if (status === 'hang') return;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    setSecret(s: string) {
      secret = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function api(server: ServerProcess, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** An endpoint for all events at the receiver; its secret goes to the receiver to verify with. */
async function subscribe(
  server: ServerProcess,
  vendorToken: string,
  hook: Awaited<ReturnType<typeof receiver>>,
) {
  const created = await api(server, 'POST', '/api/v1/notifications/endpoints/', vendorToken, {
    url: hook.url,
    event_types: ['*'],
  });
  expect(created.status).toBe(201);
  hook.setSecret(created.json.secret as string);
  return created.json.id as number;
}

async function requestBooking(server: ServerProcess, customerToken: string, listingId: number, day: number) {
  const starts = Date.UTC(2031, 0, 1) + day * 86_400_000;
  const res = await api(server, 'POST', '/api/v1/booking/bookings/request/', customerToken, {
    equipment_item_id: listingId,
    starts_at: new Date(starts).toISOString(),
    ends_at: new Date(starts + 86_400_000).toISOString(),
  });
  expect(res.status).toBe(201);
  return res.json.id as number;
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

let database: TestDatabase | undefined;
let handle: DbHandle | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await killServers();
  for (const close of closers.splice(0)) await close();
  await handle?.close();
  handle = undefined;
  await database?.drop();
  database = undefined;
});
afterAll(killServers);

const deliveries = () =>
  (handle as DbHandle).db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('channel', '=', 'webhook')
    .execute();

describe('the outbox in real server processes', () => {
  it('a process killed mid-send: the next process sends the same event again, once it is claimable', async () => {
    database = await freshDatabase();
    const first = await startServer(database.url, WORKER_ENV);
    handle = database.open();
    const hook = await receiver((_r, n) => (n === 1 ? 'hang' : 204));
    closers.push(hook.close);
    const fixture = await makeFixture(first.url);
    await subscribe(first, fixture.vendorToken, hook);
    const bookingId = await requestBooking(first, fixture.customerToken, fixture.listingId, 1);
    await until(() => hook.requests.length === 1, 'the first send');
    first.child.kill('SIGKILL');
    await first.exited;
    const [claimed] = await deliveries();
    expect(claimed).toMatchObject({ status: 'pending', attempts: 1 });

    await startServer(database.url, WORKER_ENV);
    await until(async () => (await deliveries())[0]?.status === 'succeeded', 'the delivery after the crash');
    expect(hook.requests).toHaveLength(2);
    const [lost, again] = hook.requests;
    expect(again.id).toBe(lost.id);
    expect(again.body).toBe(lost.body);
    expect(again.verified).toBe(true);
    const body = JSON.parse(again.body);
    expect(body).toMatchObject({ id: again.id, type: 'booking.requested' });
    expect(body.data.booking.id).toBe(bookingId);
    const [done] = await deliveries();
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 204 });
  });

  it('two processes sharing the outbox deliver each of many events exactly once', async () => {
    database = await freshDatabase();
    const first = await startServer(database.url, WORKER_ENV);
    const second = await startServer(database.url, WORKER_ENV);
    handle = database.open();
    const hook = await receiver(() => 200);
    closers.push(hook.close);
    const fixture = await makeFixture(first.url);
    await subscribe(first, fixture.vendorToken, hook);
    const N = 40;
    await Promise.all(
      Array.from({ length: N }, (_, i) =>
        requestBooking(i % 2 ? first : second, fixture.customerToken, fixture.listingId, i * 2),
      ),
    );
    await until(
      async () => (await deliveries()).filter((d) => d.status === 'succeeded').length === N,
      'every delivery',
    );
    await sleep(300);
    expect(hook.requests).toHaveLength(N);
    expect(new Set(hook.requests.map((r) => r.id)).size).toBe(N);
    expect(hook.requests.every((r) => r.verified)).toBe(true);
    const rows = await deliveries();
    expect(rows.every((d) => d.attempts === 1 && d.status === 'succeeded')).toBe(true);
  });

  it('a receiver that fails twice and then recovers gets the event on the third attempt', async () => {
    database = await freshDatabase();
    const server = await startServer(database.url, WORKER_ENV);
    handle = database.open();
    const hook = await receiver((_r, n) => (n <= 2 ? 503 : 200));
    closers.push(hook.close);
    const fixture = await makeFixture(server.url);
    const endpointId = await subscribe(server, fixture.vendorToken, hook);
    await requestBooking(server, fixture.customerToken, fixture.listingId, 3);
    await until(async () => (await deliveries())[0]?.status === 'succeeded', 'the retried delivery');
    expect(hook.requests.map((r) => r.id)).toEqual(Array(3).fill(hook.requests[0].id));
    const log = await api(
      server,
      'GET',
      `/api/v1/notifications/endpoints/${endpointId}/deliveries/`,
      fixture.vendorToken,
    );
    expect(log.status).toBe(200);
    const [entry] = log.json.results as Record<string, unknown>[];
    expect(entry).toMatchObject({
      event_type: 'booking.requested',
      status: 'succeeded',
      attempts: 3,
      last_status_code: 200,
      next_attempt_at: null,
    });
    // the retries waited about the schedule's second each (with its jitter)
    const [a, b, c] = hook.requests.map((r) => Number(r.timestamp));
    expect(b - a).toBeGreaterThanOrEqual(1);
    expect(c - b).toBeGreaterThanOrEqual(1);
  });
});
