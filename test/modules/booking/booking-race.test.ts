import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, countRows, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { listingOf } from './setup.ts';

// Simultaneous overlapping requests against real listening servers: exactly one may win, on SQLite (a
// file database, as in production) and on PostgreSQL (TEST_DATABASE_URL). On SQLite a second server on
// the same file runs in a worker thread and gets every other request (see race-server.worker.ts).

const N = 50;
let t: TestApp;
let dir: string;
let sent = 0;
let bases: string[];
let worker: Worker | undefined;
let vendor: Account;
let customers: Account[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'booking-race-'));
  t = await buildTestApp({ dbFile: join(dir, 'race.sqlite') });
  vendor = await registerVendor(t.app);
  customers = await Promise.all(Array.from({ length: N }, () => registerCustomer(t.app)));
  const addresses = [await t.app.listen({ port: 0, host: '127.0.0.1' })];
  if (!usingPostgres) {
    worker = new Worker(new URL('./race-server.worker.ts', import.meta.url), {
      workerData: {
        dbFile: join(dir, 'race.sqlite'),
        jwtSecret: t.config.jwtSecret,
        now: t.clock.now().toISOString(),
      },
    });
    addresses.push((await once(worker, 'message'))[0] as string);
  }
  bases = addresses.map((a) => `${a}/api/v1/booking`);
}, 120_000);
afterAll(async () => {
  if (worker) {
    worker.postMessage('close');
    await once(worker, 'message');
    await worker.terminate();
  }
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(path: string, token: string, body: unknown) {
  const base = bases[sent++ % bases.length];
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function activeBookingsOf(listingId: number) {
  return t.db
    .selectFrom('bookings')
    .select(['id', 'customer_id', 'starts_at', 'ends_at', 'status'])
    .where('listing_id', '=', listingId)
    .execute();
}

describe(`${N} simultaneous overlapping booking requests`, () => {
  it('on an equipment item: exactly one 201, the rest 409 booking_conflict, one row', async () => {
    const kayak = await listingOf(t.db, vendor, { priceCents: 4500 });
    const start = Date.UTC(2026, 6, 1, 10);
    // every window contains 12:00-13:00, each customer asks for a slightly different one
    const results = await Promise.all(
      customers.map((c, i) =>
        post('/bookings/request/', c.token, {
          equipment_item_id: kayak,
          starts_at: new Date(start + i * 60_000).toISOString(),
          ends_at: new Date(start + 3 * 3_600_000 + i * 60_000).toISOString(),
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(N - 1);
    expect(refused.every((r) => r.body.code === 'booking_conflict')).toBe(true);
    const rows = await activeBookingsOf(kayak);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: created[0].body.id, status: 'requested' });
    expect(created[0].body).toMatchObject({ total_price: '45.00', customer_id: rows[0].customer_id });
    expect(
      await t.db
        .selectFrom('booking_status_history')
        .select('id')
        .where('booking_id', '=', rows[0].id)
        .execute(),
    ).toHaveLength(1);
  });

  it('on an adventure covered by a slot, identical windows: exactly one wins', async () => {
    const tour = await listingOf(t.db, vendor, { kind: 'adventure', priceCents: 3000, capacity: 10 });
    await t.db
      .insertInto('availability_slots')
      .values({
        listing_id: tour,
        vendor_id: await vendorProfileId(t.db, vendor.id),
        starts_at: Date.UTC(2026, 6, 2, 8),
        ends_at: Date.UTC(2026, 6, 2, 18),
        is_available: 1,
        created_at: Date.UTC(2026, 5, 1),
        updated_at: Date.UTC(2026, 5, 1),
      })
      .execute();
    const before = await countRows(t.db, 'bookings');
    const results = await Promise.all(
      customers.map((c) =>
        post('/bookings/request/', c.token, {
          adventure_offering_id: tour,
          starts_at: '2026-07-02T09:00:00Z',
          ends_at: '2026-07-02T12:00:00Z',
          participants_count: 2,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(N - 1).fill(409)]);
    expect(results.find((r) => r.status === 201)!.body).toMatchObject({
      total_price: '60.00',
      participants_count: 2,
    });
    expect(await countRows(t.db, 'bookings')).toBe(before + 1);
    expect(await activeBookingsOf(tour)).toHaveLength(1);
  });

  it('lets non-overlapping requests all through while overlapping ones race', async () => {
    const kayak = await listingOf(t.db, vendor);
    // 10 distinct touching hours, each asked for by 5 customers at once
    const results = await Promise.all(
      customers.map((c, i) => {
        const hour = i % 10;
        return post('/bookings/request/', c.token, {
          equipment_item_id: kayak,
          starts_at: new Date(Date.UTC(2026, 6, 3, hour)).toISOString(),
          ends_at: new Date(Date.UTC(2026, 6, 3, hour + 1)).toISOString(),
        }).then((r) => ({ ...r, hour }));
      }),
    );
    const winners = results
      .filter((r) => r.status === 201)
      .map((r) => r.hour)
      .sort((a, b) => a - b);
    expect(winners).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results.filter((r) => r.status === 409)).toHaveLength(N - 10);
    expect(await activeBookingsOf(kayak)).toHaveLength(10);
  });
});
