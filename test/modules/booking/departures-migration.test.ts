import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownThrough, migrateToLatest } from '../../../src/db/migrate.ts';
import { buildTestApp, migrationSchema, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { tourWorld } from './departures-helpers.ts';

// Migration 2026112801 (decisions §19) down and up again on a database holding a scheduled tour, a booking
// and a departure override: down removes the columns and the table and keeps every listing and booking;
// up gives existing listings no schedule and no cutoff.

let t: TestApp;
let schema: string | undefined;
beforeAll(async () => {
  t = await buildTestApp();
  schema = await migrationSchema(t);
});
afterAll(() => t.close());

describe('migration 2026112801-departures', () => {
  it('goes down and up again, keeping listings and bookings', async () => {
    const w = await tourWorld(t);
    const booked = await w.request('2026-06-06T08:00:00.000Z', { participants_count: 2 });
    expect(booked.statusCode).toBe(201);
    const closed = await w.api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${w.tour.id}/departures/2026-06-06T13%3A30%3A00.000Z/`,
      token: w.vendor.token,
      payload: { is_closed: true },
    });
    expect(closed.statusCode).toBe(200);

    const down = await migrateDownThrough(t.db, '2026112801-departures', schema);
    expect(down.at(-1)).toBe('Down 2026112801-departures: Success');
    const columns = usingPostgres
      ? (
          await sql<{ name: string }>`select column_name as name from information_schema.columns
            where table_name = 'listings' and table_schema = ${schema}`.execute(t.db)
        ).rows
      : (await sql<{ name: string }>`select name from pragma_table_info('listings')`.execute(t.db)).rows;
    expect(columns.map((c) => c.name)).not.toContain('schedule');
    expect(columns.map((c) => c.name)).not.toContain('booking_cutoff_minutes');
    const booking = await sql<{
      status: string;
    }>`select status from bookings where id = ${booked.json().id}`.execute(t.db);
    expect(booking.rows).toEqual([{ status: 'requested' }]);

    await migrateToLatest(t.db, schema);
    const listing = await t.db
      .selectFrom('listings')
      .select(['schedule', 'booking_cutoff_minutes'])
      .where('id', '=', w.tour.id)
      .executeTakeFirstOrThrow();
    expect(listing).toEqual({ schedule: '[]', booking_cutoff_minutes: 0 });
    expect(await t.db.selectFrom('departure_overrides').selectAll().execute()).toEqual([]);
  });
});
