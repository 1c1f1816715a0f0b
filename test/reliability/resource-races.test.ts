import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ResourceHold, resourcePeak } from '../../src/modules/booking/resource-use.ts';
import { type Json, raceOnTwoServers } from './http-turns.ts';
import { integrityProblems } from './integrity.ts';

// Shared resources under real concurrency (decisions §22): two server processes on one database (a SQLite
// file, or PostgreSQL with TEST_DATABASE_URL), simultaneous HTTP requests spread over both, for different
// listings sharing resources. Each request locks its listing, then its resources by ascending id (one
// global order): exactly as many succeed as a resource allows, and a mixed workload of requests, cancels,
// quantity edits and departure cancels never over-commits, never deadlocks, never answers 500.

const { world, send, account } = raceOnTwoServers();

const MONDAY = '2031-03-03';
const at = (time: string) => `${MONDAY}T${time}:00.000Z`;

async function resource(token: string, name: string, quantity: number) {
  const made = await send('POST', '/api/v1/booking/vendor/resources/', { name, quantity }, token);
  expect(made.status).toBe(201);
  return made.json.id as number;
}

async function listing(token: string, kind: 'equipment' | 'adventure', fields: Json) {
  const path =
    kind === 'equipment' ? '/api/v1/equipment/vendor/items/' : '/api/v1/adventrues/vendor/offerings/';
  const base =
    kind === 'equipment'
      ? { price_per_day: '40.00', location: 'Lagos', category_id: 1 }
      : { price_per_person: '30.00', meeting_point: 'Marina', duration_minutes: 60, category_id: 1 };
  const made = await send(
    'POST',
    path,
    { public_id: `res-race-${randomBytes(4).toString('hex')}`, title: `Race ${kind}`, ...base, ...fields },
    token,
  );
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  return made.json.id as number;
}

/**
 * The use of each resource recounted from the bookings themselves (status, deadline, window and the
 * listings' uses, unchanged during the test), at its peak from now on.
 */
async function recountPeaks(
  listings: Map<
    number,
    { kind: string; buffer: number; uses: { resource_id: number; per: string; amount: number }[] }
  >,
) {
  const now = Date.now();
  const rows = await world.handle.db
    .selectFrom('bookings')
    .select(['listing_id', 'starts_at', 'ends_at', 'quantity', 'participants_count', 'expires_at'])
    .where('status', 'in', ['requested', 'approved', 'confirmed'])
    .execute();
  const holds = new Map<number, ResourceHold[]>();
  for (const b of rows) {
    if (b.expires_at !== null && Number(b.expires_at) <= now) continue;
    const l = listings.get(b.listing_id);
    if (!l) continue;
    const startsAt = Number(b.starts_at);
    const endsAt = Number(b.ends_at) + l.buffer * 60_000;
    const units = b.quantity ?? b.participants_count ?? 1;
    for (const u of l.uses) {
      const amount = u.per === 'booking' || u.per === 'departure' ? u.amount : u.amount * units;
      const group = u.per === 'departure' ? `${b.listing_id}:${startsAt}` : null;
      const list = holds.get(u.resource_id) ?? [];
      list.push({ startsAt, endsAt, amount, group });
      holds.set(u.resource_id, list);
    }
  }
  return new Map(
    [...holds].map(([id, list]) => [
      id,
      resourcePeak({ startsAt: now, endsAt: Number.MAX_SAFE_INTEGER }, list),
    ]),
  );
}

describe('listings sharing a resource, requested at once through two server processes', () => {
  it('exactly as many requests succeed as the resource allows; the rest get a 409 naming it', async () => {
    const vendor = await account('vendor', { business_name: `Kayak race ${randomBytes(3).toString('hex')}` });
    const kayaks = await resource(vendor.token, 'sea kayak', 5);
    const uses = [{ resource_id: kayaks, per: 'unit', amount: 1 }];
    const ids = await Promise.all(
      [0, 1, 2, 3].map(() => listing(vendor.token, 'equipment', { quantity: 10, resources: uses })),
    );
    const customer = await account('customer');
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        send(
          'POST',
          '/api/v1/booking/bookings/request/',
          { equipment_item_id: ids[i % 4], starts_at: at('09:00'), ends_at: at('11:00'), quantity: 1 },
          customer.token,
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(19);
    for (const r of refused)
      expect(r.json.detail).toBe('No sea kayak is free for that time: all 5 are in use.');
    const booked = await world.handle.db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('listing_id', 'in', ids)
      .executeTakeFirstOrThrow();
    expect(Number(booked.n)).toBe(5);
  }, 60_000);

  it('a mixed workload never over-commits a resource, never deadlocks, never answers 500', async () => {
    const vendor = await account('vendor', {
      business_name: `Mixed race ${randomBytes(3).toString('hex')}`,
      time_zone: 'UTC',
    });
    const boat = await resource(vendor.token, 'RIB boat', 2);
    const guides = await resource(vendor.token, 'guide', 3);
    const schedule = [{ weekdays: ['mon'], start_times: ['09:00', '09:30', '10:00'] }];
    const config = new Map<
      number,
      { kind: string; buffer: number; uses: { resource_id: number; per: string; amount: number }[] }
    >();
    const tourUses = [
      { resource_id: boat, per: 'departure', amount: 1 },
      { resource_id: guides, per: 'booking', amount: 1 },
    ];
    const tours: number[] = [];
    for (let i = 0; i < 2; i++) {
      const id = await listing(vendor.token, 'adventure', {
        booking_mode: 'shared',
        capacity: 8,
        schedule,
        resources: tourUses,
      });
      tours.push(id);
      config.set(id, { kind: 'adventure', buffer: 0, uses: tourUses });
    }
    const rentUses = [{ resource_id: boat, per: 'unit', amount: 1 }];
    const rental = await listing(vendor.token, 'equipment', {
      quantity: 3,
      buffer_minutes: 15,
      resources: rentUses,
    });
    config.set(rental, { kind: 'equipment', buffer: 15, uses: rentUses });
    const customer = await account('customer');
    const starts = ['09:00', '09:30', '10:00'];
    const created: number[] = [];
    const ops: (() => Promise<{ status: number; json: Json }>)[] = [];
    for (let i = 0; i < 40; i++) {
      const time = starts[i % 3];
      if (i % 4 === 3)
        ops.push(() =>
          send(
            'POST',
            '/api/v1/booking/bookings/request/',
            { equipment_item_id: rental, starts_at: at(time), ends_at: at('11:00'), quantity: 1 + (i % 2) },
            customer.token,
          ),
        );
      else
        ops.push(async () => {
          const r = await send(
            'POST',
            '/api/v1/booking/bookings/request/',
            { adventure_offering_id: tours[i % 2], starts_at: at(time), participants_count: 2 },
            customer.token,
          );
          if (r.status === 201) created.push(r.json.id);
          return r;
        });
      if (i % 5 === 0)
        ops.push(async () => {
          const id = created.at(-1);
          if (id === undefined) return { status: 200, json: {} };
          return send('POST', `/api/v1/booking/bookings/${id}/cancel/`, {}, customer.token);
        });
      if (i % 7 === 0)
        ops.push(() =>
          send(
            'PATCH',
            `/api/v1/booking/vendor/resources/${i % 2 ? boat : guides}/`,
            { quantity: 1 + (i % 4) },
            vendor.token,
          ),
        );
      if (i === 20)
        ops.push(async () => {
          departureCancel = await send(
            'POST',
            `/api/v1/adventrues/vendor/offerings/${tours[0]}/departures/${encodeURIComponent(at('09:30'))}/cancel/`,
            { note: 'weather' },
            vendor.token,
          );
          return departureCancel;
        });
    }
    let departureCancel: { status: number; json: Json } | undefined;
    const answers = await Promise.all(ops.map((op) => op()));
    expect(departureCancel?.status).toBe(200);
    // the cancelled departure holds nothing any more
    const left = await world.handle.db
      .selectFrom('bookings')
      .select('id')
      .where('listing_id', '=', tours[0])
      .where('starts_at', '=', Date.parse(at('09:30')))
      .where('status', 'in', ['requested', 'approved', 'confirmed'])
      .execute();
    expect(left).toEqual([]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(
      statuses.every((s) => [200, 201, 409].includes(s)),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
    expect(await integrityProblems(world.handle.db, world.handle.dialect)).toEqual([]);
    const peaks = await recountPeaks(config);
    const quantities = await world.handle.db
      .selectFrom('resources')
      .select(['id', 'quantity'])
      .where('id', 'in', [boat, guides])
      .execute();
    for (const q of quantities) expect(peaks.get(q.id) ?? 0).toBeLessThanOrEqual(q.quantity);
    // what the bookings store agrees with the recount
    for (const id of [boat, guides]) {
      const usage = await send(
        'GET',
        `/api/v1/booking/vendor/resources/${id}/usage/?from=${encodeURIComponent(at('08:00'))}&to=${encodeURIComponent(at('12:00'))}`,
        undefined,
        vendor.token,
      );
      expect(usage.status).toBe(200);
      const max = Math.max(...usage.json.segments.map((s: { used: number }) => s.used));
      expect(max).toBe(peaks.get(id) ?? 0);
    }
  }, 120_000);
});
