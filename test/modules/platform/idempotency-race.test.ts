import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { listenForRaces, type RaceServers } from '../../helpers/race-servers.ts';
import { listingOf } from '../booking/setup.ts';

// Simultaneous requests with one Idempotency-Key against real listening servers: one request does the
// work, the others get its answer replayed or 409 idempotency_key_in_use. On SQLite a second server on the
// same file runs in a worker thread and gets every other request (see ../booking/race-server.worker.ts);
// on PostgreSQL (TEST_DATABASE_URL) the requests share the test's server and its connection pool.

const N = 20;
let t: TestApp;
let dir: string;
let bases: string[];
let servers: RaceServers;
let vendor: Account;
let customer: Account;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idempotency-race-'));
  t = await buildTestApp({ dbFile: join(dir, 'race.sqlite') });
  vendor = await registerVendor(t.app);
  customer = await registerCustomer(t.app);
  servers = await listenForRaces(t, join(dir, 'race.sqlite'));
  bases = servers.addresses;
}, 120_000);
afterAll(async () => {
  await servers.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function requestBooking(base: string, key: string, body: unknown) {
  const res = await fetch(`${base}/api/v1/booking/bookings/request/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${customer.token}`,
      'idempotency-key': key,
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    replayed: res.headers.get('idempotent-replayed'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

it(`${N} simultaneous booking requests with one key create one booking`, async () => {
  const kayak = await listingOf(t.db, vendor, { priceCents: 4500, quantity: N });
  const starts = Date.UTC(2026, 6, 1, 10);
  const body = {
    equipment_item_id: kayak,
    starts_at: new Date(starts).toISOString(),
    ends_at: new Date(starts + 3_600_000).toISOString(),
  };
  const key = 'retry-after-network-drop';
  // The item has a unit for every request: without the key each of them would make a booking.
  const results = await Promise.all(
    Array.from({ length: N }, (_, i) => requestBooking(bases[i % bases.length], key, body)),
  );
  const rows = await t.db
    .selectFrom('bookings')
    .select(['id', 'status'])
    .where('listing_id', '=', kayak)
    .execute();
  expect(rows).toHaveLength(1);
  expect(rows[0].status).toBe('requested');

  const original = results.filter((r) => r.status === 201 && r.replayed === null);
  const replays = results.filter((r) => r.status === 201 && r.replayed === 'true');
  const inUse = results.filter((r) => r.status === 409);
  expect(original).toHaveLength(1);
  expect(original[0].body).toMatchObject({ id: rows[0].id, total_price: '45.00' });
  expect(replays.length + inUse.length).toBe(N - 1);
  for (const r of replays) expect(r.body).toEqual(original[0].body);
  for (const r of inUse) expect(r.body.code).toBe('idempotency_key_in_use');

  // once the first has answered, every server replays it
  for (const base of bases) {
    const again = await requestBooking(base, key, body);
    expect(again).toMatchObject({ status: 201, replayed: 'true', body: original[0].body });
  }
  const keys = await t.db
    .selectFrom('idempotency_keys')
    .select('id')
    .where('user_id', '=', customer.id)
    .execute();
  expect(keys).toHaveLength(1);
});
