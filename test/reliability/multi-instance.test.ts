import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import {
  distinctWindow,
  type Fixture,
  freshDatabase,
  killServers,
  makeFixture,
  type ServerProcess,
  startServer,
  type TestDatabase,
} from './server-process.ts';

// The service as it is deployed with several instances (compose.yaml): two real server processes on one
// database behind a round-robin proxy, every request of the test going through the proxy, so consecutive
// requests land on different processes. On PostgreSQL the main journeys hold across them: a listing
// written through one is read by the next request on the other (the caches check the database's version
// counters), a lapsed hold is recorded as expired once although both sweep, an Idempotency-Key replays on
// the other process, each outbox event is delivered once, and rate limits count both processes' requests
// together (decisions §11, §13, §14, §18). On SQLite, where each process counts its own rate limits
// (decisions §18), the same setup shows that limit per process.

const LOGIN_LIMIT = 6;
const SHARED_ENV = {
  MIGRATE_ON_START: 'false',
  // the proxy's address: client addresses (so rate limits) come from the X-Forwarded-For it appends to
  TRUST_PROXY: '127.0.0.1',
  RATE_LIMIT_LOGIN: String(LOGIN_LIMIT),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  NOTIFICATION_POLL_INTERVAL_MS: '50',
  EXPIRY_SWEEP_INTERVAL_MS: '50',
};

interface Proxy {
  url: string;
  /** the upstream (index into the servers) each request went to, in order */
  served: number[];
  close(): Promise<void>;
}

/** A reverse proxy sending each request to the next upstream in turn, appending to X-Forwarded-For. */
async function roundRobinProxy(upstreams: ServerProcess[]): Promise<Proxy> {
  const served: number[] = [];
  const server: Server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const index = served.length % upstreams.length;
    served.push(index);
    const peer = incoming.socket.remoteAddress ?? '';
    const forwarded = incoming.headers['x-forwarded-for'];
    const upstream = request(
      {
        host: '127.0.0.1',
        port: upstreams[index].port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': forwarded ? `${forwarded}, ${peer}` : peer },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

async function send(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

/** The upstreams of the proxy's last `n` requests. */
const lastServed = (proxy: Proxy, n: number) => proxy.served.slice(-n);

async function until(check: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** `count` wrong-password logins from `client`, one after another; their statuses and the last answer. */
async function logins(proxy: Proxy, client: string, count: number) {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++)
    answers.push(
      await send(proxy.url, 'POST', '/api/v1/accounts/token/', {
        body: { email: 'nobody@example.com', password: 'wrong-password' },
        headers: { 'x-forwarded-for': client },
      }),
    );
  return { statuses: answers.map((a) => a.status), last: answers[answers.length - 1] };
}

/** Two server processes on a fresh database, migrated once beforehand, behind a round-robin proxy. */
async function twoInstances(env: Record<string, string>) {
  const database = await freshDatabase();
  const handle = database.open();
  await migrateToLatest(handle.db);
  const servers = await Promise.all([startServer(database.url, env), startServer(database.url, env)]);
  const proxy = await roundRobinProxy(servers);
  return { database, handle, proxy };
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'two server processes on one PostgreSQL behind a round-robin proxy (needs TEST_DATABASE_URL)',
  () => {
    let database: TestDatabase;
    let handle: DbHandle;
    let proxy: Proxy;
    let fixture: Fixture;
    const received: string[] = [];
    let hook: Server;

    beforeAll(async () => {
      ({ database, handle, proxy } = await twoInstances(SHARED_ENV));
      fixture = await makeFixture(proxy.url);
      hook = createServer((req, res) => {
        received.push(String(req.headers['webhook-id']));
        req.resume().on('end', () => res.writeHead(204).end());
      });
      await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
      const endpoint = await send(proxy.url, 'POST', '/api/v1/notifications/endpoints/', {
        token: fixture.vendorToken,
        body: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`, event_types: ['*'] },
      });
      expect(endpoint.status).toBe(201);
    }, 60_000);

    afterAll(async () => {
      await killServers();
      await proxy?.close();
      hook?.closeAllConnections();
      await new Promise((resolve) => hook?.close(resolve));
      await handle?.close();
      await database?.drop();
    });

    const requestBooking = (key?: string) => {
      const body = { equipment_item_id: fixture.listingId, ...distinctWindow() };
      return () =>
        send(proxy.url, 'POST', '/api/v1/booking/bookings/request/', {
          token: fixture.customerToken,
          body,
          headers: key ? { 'idempotency-key': key } : {},
        });
    };

    /** The answer's booking is the only one in its window: the key's requests made one booking. */
    async function expectOnlyBooking(answer: Answer): Promise<void> {
      const rows = await handle.db
        .selectFrom('bookings')
        .select('id')
        .where('starts_at', '=', Date.parse(answer.json.starts_at as string))
        .execute();
      expect(rows).toEqual([{ id: answer.json.id }]);
    }

    it('alternates the requests between the two processes', async () => {
      for (let i = 0; i < 4; i++) expect((await send(proxy.url, 'GET', '/readyz')).status).toBe(200);
      const [first] = lastServed(proxy, 4);
      expect(lastServed(proxy, 4)).toEqual([first, 1 - first, first, 1 - first]);
    });

    it('lists a listing created through one process on the very next request, served by the other', async () => {
      const list = () => send(proxy.url, 'GET', '/api/v1/equipment/items/?page_size=100');
      const publicIds = (answer: Answer) =>
        (answer.json.results as { public_id: string }[]).map((listing) => listing.public_id);
      // both processes have the list (and the detail) in their caches before the change
      for (let i = 0; i < 2; i++) expect(publicIds(await list())).toEqual([fixture.publicId]);
      const created = await send(proxy.url, 'POST', '/api/v1/equipment/vendor/items/', {
        token: fixture.vendorToken,
        body: {
          public_id: 'multi-sup',
          title: 'Stand-up paddleboard',
          price_per_day: '30.00',
          is_active: true,
          category_id: 1,
        },
      });
      expect(created.status).toBe(201);
      const listed = await list();
      const [createdOn, listedOn] = lastServed(proxy, 2);
      expect(listedOn).toBe(1 - createdOn);
      expect(publicIds(listed)).toEqual(['multi-sup', fixture.publicId]);

      const detail = () => send(proxy.url, 'GET', '/api/v1/equipment/items/multi-sup/');
      for (let i = 0; i < 2; i++) expect((await detail()).json.title).toBe('Stand-up paddleboard');
      const renamed = await send(proxy.url, 'PATCH', `/api/v1/equipment/vendor/items/${created.json.id}/`, {
        token: fixture.vendorToken,
        body: { title: 'Inflatable paddleboard' },
      });
      expect(renamed.status).toBe(200);
      expect((await detail()).json.title).toBe('Inflatable paddleboard');
      const [patchedOn, readOn] = lastServed(proxy, 2);
      expect(readOn).toBe(1 - patchedOn);
    });

    it('records a lapsed hold as expired exactly once, although both processes sweep', async () => {
      const requested = await requestBooking()();
      expect(requested.status).toBe(201);
      const bookingId = requested.json.id as number;
      await handle.db
        .updateTable('bookings')
        .set({ expires_at: Date.now() - 1000 })
        .where('id', '=', bookingId)
        .execute();
      const expiredEntries = () =>
        handle.db
          .selectFrom('booking_status_history')
          .select(['actor_id', 'note'])
          .where('booking_id', '=', bookingId)
          .where('to_status', '=', 'expired')
          .execute();
      await until(async () => (await expiredEntries()).length > 0, 'the expiry sweep');
      // many more sweeps of both processes
      await sleep(500);
      expect(await expiredEntries()).toEqual([{ actor_id: null, note: 'expired' }]);
      for (let i = 0; i < 2; i++) {
        const read = await send(proxy.url, 'GET', `/api/v1/booking/bookings/${bookingId}/`, {
          token: fixture.customerToken,
        });
        expect(read.json.status).toBe('expired');
      }
      const events = await handle.db
        .selectFrom('notification_events')
        .select('type')
        .where('booking_id', '=', bookingId)
        .orderBy('id')
        .execute();
      expect(events.map((e) => e.type)).toEqual(['booking.requested', 'booking.expired']);
    });

    it('replays an Idempotency-Key on the other process: same answer, one booking', async () => {
      const book = requestBooking('multi-instance-key-1');
      const first = await book();
      const replay = await book();
      const [firstOn, replayOn] = lastServed(proxy, 2);
      expect(replayOn).toBe(1 - firstOn);
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.json).toEqual(first.json);
      await expectOnlyBooking(first);
    });

    it('runs one of two simultaneous requests with one key, on whichever process', async () => {
      const book = requestBooking('multi-instance-key-2');
      const answers = await Promise.all([book(), book()]);
      const statuses = answers.map((a) => a.status).sort();
      // the second either waits for the first's answer (a replay) or finds it still running (409)
      expect([
        [201, 201],
        [201, 409],
      ]).toContainEqual(statuses);
      const created = answers.find((a) => a.status === 201)!;
      if (statuses[1] === 201) expect(answers[0].json).toEqual(answers[1].json);
      await expectOnlyBooking(created);
    });

    it('counts login attempts on both processes against one limit', async () => {
      const { statuses, last } = await logins(proxy, '203.0.113.77', LOGIN_LIMIT + 1);
      expect(new Set(lastServed(proxy, LOGIN_LIMIT + 1))).toEqual(new Set([0, 1]));
      expect(statuses).toEqual([...Array(LOGIN_LIMIT).fill(401), 429]);
      expect(last.json).toEqual({
        detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/),
        code: 'throttled',
      });
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(last.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // on both processes, for that client only
      expect((await logins(proxy, '203.0.113.77', 1)).statuses).toEqual([429]);
      expect((await logins(proxy, '203.0.113.78', 1)).statuses).toEqual([401]);
    });

    // last: every event of the journeys above has been written by then
    it('delivers each outbox event to the webhook exactly once, although both processes deliver', async () => {
      const burst = await Promise.all(Array.from({ length: 10 }, () => requestBooking()()));
      expect(burst.map((a) => a.status)).toEqual(Array(10).fill(201));
      const webhookDeliveries = () =>
        handle.db
          .selectFrom('notification_deliveries')
          .innerJoin('notification_events', 'notification_events.id', 'notification_deliveries.event_id')
          .select(['notification_events.public_id', 'status', 'attempts'])
          .where('channel', '=', 'webhook')
          .execute();
      await until(
        async () => (await webhookDeliveries()).every((d) => d.status === 'succeeded'),
        'every webhook delivery',
      );
      await sleep(300);
      const deliveries = await webhookDeliveries();
      // the journeys' events: 10 + 3 requests, 1 expiry
      expect(deliveries).toHaveLength(14);
      expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
      expect(received.toSorted()).toEqual(deliveries.map((d) => d.public_id).toSorted());
      expect(new Set(received).size).toBe(received.length);
    });
  },
);

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'two server processes on one SQLite file behind a round-robin proxy',
  () => {
    let database: TestDatabase;
    let handle: DbHandle;
    let proxy: Proxy;
    beforeAll(async () => {
      ({ database, handle, proxy } = await twoInstances(SHARED_ENV));
    }, 60_000);
    afterAll(async () => {
      await killServers();
      await proxy?.close();
      await handle?.close();
      await database?.drop();
    });

    it('counts rate limits per process (decisions §18): the limit holds on each process on its own', async () => {
      const { statuses, last } = await logins(proxy, '203.0.113.77', 2 * LOGIN_LIMIT + 1);
      expect(statuses).toEqual([...Array(2 * LOGIN_LIMIT).fill(401), 429]);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  },
);
