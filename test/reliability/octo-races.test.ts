import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Json, useTwoServers } from './two-servers.ts';

// OCTO reservations under real concurrency (decisions §24): two server processes on one database (a SQLite
// file, or PostgreSQL with TEST_DATABASE_URL), simultaneous HTTP requests spread over both. The last seats
// of a departure go to exactly as many holds as there are seats; one uuid reserved ten times at once makes
// one booking; a hold lapsing while its channel confirms and others reserve its seats is either confirmed
// in time or refused, never confirmed without its seats; a key sees its own vendor's products only.

const world = useTwoServers();
const { send, account } = world;

// a departure far ahead of the real clock the servers run on: 09:00 in Lisbon (UTC+1 in June)
const DAY = '2031-06-02';
const WHEN = `${DAY}T09:00:00+01:00`;

async function tourWithChannel(capacity: number) {
  const vendor = await account('vendor', {
    business_name: `OCTO races ${randomBytes(3).toString('hex')}`,
    time_zone: 'Europe/Lisbon',
  });
  const publicId = `octo-race-${randomBytes(4).toString('hex')}`;
  const made = await send(
    'POST',
    '/api/v1/adventrues/vendor/offerings/',
    {
      public_id: publicId,
      title: 'Race tour',
      price_per_person: '25.00',
      duration_minutes: 120,
      capacity,
      booking_mode: 'shared',
      category_id: 1,
      schedule: [{ weekdays: ['mon'], start_times: ['09:00'], from_date: DAY, to_date: DAY }],
    },
    vendor.token,
  );
  expect(made.status).toBe(201);
  const channel = await send('POST', '/api/v1/channels/', { name: 'Race reseller' }, vendor.token);
  expect(channel.status).toBe(201);
  return { id: made.json.id as number, publicId, key: channel.json.api_key as string };
}

const reserve = (tour: { publicId: string; key: string }, body: Record<string, unknown> = {}) =>
  send(
    'POST',
    '/octo/v1/bookings',
    {
      productId: tour.publicId,
      optionId: 'DEFAULT',
      availabilityId: `${tour.publicId}@${WHEN}`,
      unitItems: [{ unitId: 'person' }],
      ...body,
    },
    tour.key,
  );

async function holding(listingId: number) {
  const now = Date.now();
  const rows = await world.handle.db
    .selectFrom('bookings')
    .select(['id', 'participants_count', 'status', 'expires_at', 'confirmed_at'])
    .where('listing_id', '=', listingId)
    .execute();
  const holds = rows.filter(
    (r) =>
      r.status === 'confirmed' ||
      ((r.status === 'requested' || r.status === 'approved') && (r.expires_at ?? 0) > now),
  );
  return { rows, seats: holds.reduce((sum, r) => sum + (r.participants_count ?? 0), 0) };
}

describe('OCTO reserves at once, through two server processes', () => {
  it('give the last seats of a departure to exactly as many holds as there are seats', async () => {
    const tour = await tourWithChannel(5);
    const answers = await Promise.all(Array.from({ length: 14 }, () => reserve(tour)));
    expect(answers.filter((a) => a.status === 200 && a.json.status === 'ON_HOLD')).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 400);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.json.error).toBe('UNPROCESSABLE_ENTITY');
    expect((await holding(tour.id)).seats).toBe(5);
  });

  it('make one booking of a uuid reserved ten times at once', async () => {
    const tour = await tourWithChannel(20);
    const uuid = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, () => reserve(tour, { uuid })));
    for (const a of answers) expect(a.status, JSON.stringify(a.json)).toBe(200);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    const rows = await world.handle.db
      .selectFrom('bookings')
      .select('id')
      .where('octo_uuid', '=', uuid)
      .execute();
    expect(rows).toHaveLength(1);
    expect((await holding(tour.id)).seats).toBe(1);
  });

  it('never confirm a hold that lapsed while others reserved its seats', async () => {
    const tour = await tourWithChannel(2);
    const held = await reserve(tour, { unitItems: [{ unitId: 'person' }, { unitId: 'person' }] });
    expect(held.status).toBe(200);
    // the hold lapses in a moment: its confirm and others' reserves for its seats arrive around that instant
    const lapse = Date.now() + 400;
    await world.handle.db
      .updateTable('bookings')
      .set({ expires_at: lapse })
      .where('id', '=', Number(held.json.id))
      .execute();
    const later = (ms: number, work: () => Promise<{ status: number; json: Json }>) =>
      new Promise<{ status: number; json: Json }>((resolve, reject) =>
        setTimeout(() => work().then(resolve, reject), ms),
      );
    const confirm = () =>
      send(
        'POST',
        `/octo/v1/bookings/${held.json.uuid}/confirm`,
        { contact: { fullName: 'Ana Costa' } },
        tour.key,
      );
    const answers = await Promise.all([
      ...[350, 380, 400, 420].map((ms) => later(ms, confirm)),
      ...[360, 390, 400, 410, 430, 460, 600].map((ms) => later(ms, () => reserve(tour))),
    ]);
    const { rows, seats } = await holding(tour.id);
    expect(seats).toBeLessThanOrEqual(2);
    const booking = rows.find((r) => r.id === Number(held.json.id));
    if (booking?.status === 'confirmed') {
      // confirmed in time: it kept its seats, so no reserve got one
      expect(booking.confirmed_at).toBeLessThan(lapse);
      expect(seats).toBe(2);
      expect(answers.slice(4).filter((a) => a.status === 200)).toHaveLength(0);
    } else {
      // refused: OCTO's error, and the seats went to others
      expect(
        answers.slice(0, 4).some((a) => a.status === 400 && a.json.error === 'UNPROCESSABLE_ENTITY'),
      ).toBe(true);
      expect(answers.slice(0, 4).every((a) => a.status !== 200 || a.json.status === 'CONFIRMED')).toBe(true);
    }
    for (const a of answers.slice(0, 4)) if (a.status === 200) expect(booking?.status).toBe('confirmed');
  });

  it("answers INVALID_PRODUCT_ID to a key reserving another vendor's product", async () => {
    const mine = await tourWithChannel(3);
    const theirs = await tourWithChannel(3);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        reserve(
          { publicId: theirs.publicId, key: mine.key },
          { availabilityId: `${theirs.publicId}@${WHEN}` },
        ),
      ),
    );
    for (const a of answers)
      expect(a.json).toMatchObject({ error: 'INVALID_PRODUCT_ID', productId: theirs.publicId });
    expect((await holding(theirs.id)).rows).toHaveLength(0);
  });
});
