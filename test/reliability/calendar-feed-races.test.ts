import { describe, expect, it } from 'vitest';
import { useTwoServers } from './two-servers.ts';

// The calendar feed's URL under real concurrency (decisions §24): two server processes on one database
// (a SQLite file, or PostgreSQL with TEST_DATABASE_URL), simultaneous HTTP requests spread over both. The
// first asks at once agree on one URL; rotations at once leave exactly one URL working, the one GET shows.

const world = useTwoServers();
const { send, account } = world;

const FEED = '/api/v1/booking/vendor/calendar-feed/';
const pathOf = (url: string) => new URL(url).pathname;

async function feedRows(vendorUserId: number) {
  return world.handle.db
    .selectFrom('calendar_feeds')
    .innerJoin('users', 'users.vendor_id', 'calendar_feeds.vendor_id')
    .select('calendar_feeds.token')
    .where('users.id', '=', vendorUserId)
    .execute();
}

describe('calendar feed races', () => {
  it('gives every simultaneous first ask the same URL, stored once', async () => {
    const vendor = await account('vendor', { business_name: 'Race Boats' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => send('GET', FEED, undefined, vendor.token)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    // each server writes its own origin (PUBLIC_URL unset): the paths must agree
    const urls = new Set(answers.map((a) => pathOf(a.json.url)));
    expect(urls.size).toBe(1);
    const rows = await feedRows(vendor.id);
    expect(rows).toHaveLength(1);
    expect([...urls][0]).toContain(`/calendar/${rows[0].token}.ics`);
  });

  it('leaves exactly one working URL after simultaneous rotations, the one GET shows', async () => {
    const vendor = await account('vendor', { business_name: 'Rotating Boats' });
    const first = pathOf((await send('GET', FEED, undefined, vendor.token)).json.url);
    const rotations = await Promise.all(
      Array.from({ length: 8 }, () => send('POST', `${FEED}rotate/`, undefined, vendor.token)),
    );
    expect(rotations.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rotated = rotations.map((r) => pathOf(r.json.url));
    expect(new Set(rotated).size).toBe(8);
    const current = pathOf((await send('GET', FEED, undefined, vendor.token)).json.url);
    expect(rotated).toContain(current);
    const rows = await feedRows(vendor.id);
    expect(rows.map((r) => `/calendar/${r.token}.ics`)).toEqual([current]);
    // every other URL, the first included, is gone
    for (const path of [first, ...rotated.filter((u) => u !== current)]) {
      const res = await send('GET', path);
      expect(res).toEqual({ status: 404, json: { detail: 'Calendar feed not found.', code: 'not_found' } });
    }
  });
});
