import { beforeAll, describe, expect, it } from 'vitest';
import { heldWindow, overlaps, peakUnits } from '../../src/modules/booking/availability.ts';
import { type Account, registerCustomer, registerVendor } from '../helpers/factories.ts';
import { postInTurns, raceFixture } from '../helpers/race-servers.ts';
import { listingOf } from '../modules/booking/setup.ts';

// The turnaround buffer under real concurrency (decisions §20): simultaneous requests whose windows never
// overlap but whose holds (ends_at + buffer) all do, over real HTTP, on SQLite (two servers on one file)
// and PostgreSQL. Exactly as many succeed as the item has free units, and no two stored holds of the
// last unit overlap, buffers included.

const N = 40;
const BUFFER_MINUTES = 60;
const fixture = raceFixture('rental-race-');
const send = postInTurns(fixture);
const post = (token: string, body: unknown) => send('/api/v1/booking/bookings/request/', token, body);
let vendor: Account;
let customers: Account[];

beforeAll(async () => {
  vendor = await registerVendor(fixture.t.app);
  customers = await Promise.all(Array.from({ length: N }, () => registerCustomer(fixture.t.app)));
}, 120_000);

/** Customer i's window: one minute at 10:00 + i minutes. No two overlap; with the buffer every two holds do. */
const windowOf = (day: number, i: number) => {
  const start = Date.UTC(2026, 6, day, 10, i);
  return { starts_at: new Date(start).toISOString(), ends_at: new Date(start + 60_000).toISOString() };
};

async function heldPeak(listingId: number): Promise<number> {
  const rows = await fixture.t.db
    .selectFrom('bookings')
    .select(['starts_at', 'ends_at', 'quantity'])
    .where('listing_id', '=', listingId)
    .where('status', '=', 'requested')
    .execute();
  const holds = rows.map((r) =>
    heldWindow({ startsAt: r.starts_at, endsAt: r.ends_at, units: r.quantity ?? 1 }, BUFFER_MINUTES * 60_000),
  );
  return peakUnits({ startsAt: 0, endsAt: Number.MAX_SAFE_INTEGER }, holds);
}

describe(`${N} simultaneous requests whose holds overlap only by the buffer`, () => {
  it('on a single item: exactly one wins, the rest 409, and no two holds overlap', async () => {
    const board = await listingOf(fixture.t.db, vendor, { bufferMinutes: BUFFER_MINUTES });
    const results = await Promise.all(
      customers.map((c, i) => post(c.token, { equipment_item_id: board, ...windowOf(1, i) })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'booking_conflict')).toHaveLength(N - 1);
    expect(await heldPeak(board)).toBe(1);
  });

  it('on the last two free units of three: exactly two win', async () => {
    const boards = await listingOf(fixture.t.db, vendor, { quantity: 3, bufferMinutes: BUFFER_MINUTES });
    // one unit is already held from 09:00 to 10:00 (+ 60 min): its hold overlaps every request's
    const first = await post(customers[0].token, {
      equipment_item_id: boards,
      starts_at: '2026-07-02T09:00:00.000Z',
      ends_at: '2026-07-02T10:00:00.000Z',
    });
    expect(first.status).toBe(201);
    const results = await Promise.all(
      customers.map((c, i) => post(c.token, { equipment_item_id: boards, ...windowOf(2, i) })),
    );
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(2);
    expect(results.filter((r) => r.status === 409)).toHaveLength(N - 2);
    expect(await heldPeak(boards)).toBe(3);
    // the winners' raw windows never overlap each other: only their buffers made them compete
    const [a, b] = won.map((r) => ({
      startsAt: Date.parse(r.body.starts_at as string),
      endsAt: Date.parse(r.body.ends_at as string),
    }));
    expect(overlaps(a, b)).toBe(false);
  });
});
