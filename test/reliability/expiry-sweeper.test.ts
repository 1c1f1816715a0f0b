import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/create-db.ts';
import { insertListing, vendorProfileId } from '../helpers/booking-factories.ts';
import { freshDatabase, killServers, PASSWORD, startServer, type TestDatabase } from './server-process.ts';

// The expiry sweep (decisions §11) in two real server processes on one database (a SQLite file, or
// PostgreSQL with TEST_DATABASE_URL), both sweeping often: every lapsed hold is recorded exactly once,
// none twice, none lost.

const N = 300;
const SWEEP = { EXPIRY_SWEEP_INTERVAL_MS: '20' };

let database: TestDatabase | undefined;
let handle: DbHandle | undefined;
afterAll(async () => {
  await killServers();
  await handle?.close();
  await database?.drop();
});

async function register(url: string, kind: 'vendor' | 'customer', n: number): Promise<number> {
  const res = await fetch(`${url}/api/v1/accounts/register/${kind}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `sweep-${kind}-${n}@example.com`,
      password: PASSWORD,
      business_name: 'Sweep Boats',
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const expiredEntries = async (h: DbHandle) =>
  h.db
    .selectFrom('booking_status_history')
    .select(['booking_id', 'from_status', 'actor_id', 'note'])
    .where('to_status', '=', 'expired')
    .execute();

describe('the expiry sweep in two server processes', () => {
  it(`records each of ${N} lapsed holds exactly once`, async () => {
    database = await freshDatabase();
    // one after the other: the first migrates the new database
    const first = await startServer(database.url, SWEEP);
    await startServer(database.url, SWEEP);
    handle = database.open();
    const db = handle.db;
    const vendorId = await vendorProfileId(db, await register(first.url, 'vendor', 1));
    const customerId = await register(first.url, 'customer', 2);
    const listingId = await insertListing(db, { vendorId });
    const now = Date.now();
    // all at once, already lapsed: both processes' next sweeps find them together
    await db
      .insertInto('bookings')
      .values(
        Array.from({ length: N }, (_, i) => ({
          listing_id: listingId,
          listing_kind: 'equipment' as const,
          vendor_id: vendorId,
          customer_id: customerId,
          status: i % 2 === 0 ? ('requested' as const) : ('approved' as const),
          starts_at: now + (i + 1) * 7_200_000,
          ends_at: now + (i + 1) * 7_200_000 + 3_600_000,
          participants_count: null,
          quantity: 1,
          customer_notes: '',
          vendor_notes: '',
          total_price_cents: 4500,
          currency: 'usd',
          listing_click_id: null,
          expires_at: now - 1000,
          created_at: now - 2000,
          updated_at: now - 2000,
        })),
      )
      .execute();

    const deadline = Date.now() + 20_000;
    while ((await expiredEntries(handle)).length < N && Date.now() < deadline) await sleep(50);
    // several more sweeps of both processes: nothing is recorded twice
    await sleep(200);
    const entries = await expiredEntries(handle);
    expect(entries).toHaveLength(N);
    expect(new Set(entries.map((e) => e.booking_id)).size).toBe(N);
    expect(entries.every((e) => e.actor_id === null && e.note === 'expired')).toBe(true);
    expect(entries.filter((e) => e.from_status === 'requested')).toHaveLength(N / 2);
    const statuses = await db
      .selectFrom('bookings')
      .select(['status', 'expires_at'])
      .where('listing_id', '=', listingId)
      .execute();
    expect(statuses.every((b) => b.status === 'expired' && Number(b.expires_at) === now - 1000)).toBe(true);
  });
});
