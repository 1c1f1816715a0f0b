import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { listenForRaces, type RaceServers } from '../../helpers/race-servers.ts';
import { confirm } from './day-of-trip-helpers.ts';

// Taps of the Today page at once, over real HTTP on two servers (SQLite: two on one file; PostgreSQL: one
// pool): the booking's lock makes each change one history entry, and many bookings at once never deadlock.

const TAPS = 12;
const BOOKINGS = 6;
let t: TestApp;
let dir: string;
let servers: RaceServers;
let vendor: Account;
const ids: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attendance-race-'));
  t = await buildTestApp({ dbFile: join(dir, 'race.sqlite') }); // now: 2026-06-01T12:00Z
  const api = injector(t.app);
  vendor = await registerVendor(t.app);
  const customer = await registerCustomer(t.app);
  const item = await createEquipment(t.app, vendor, { quantity: BOOKINGS });
  for (let i = 0; i < BOOKINGS; i++) {
    const res = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        equipment_item_id: item.id,
        starts_at: '2026-06-02T09:00:00Z',
        ends_at: '2026-06-02T17:00:00Z',
      },
    });
    ids.push(res.json().id);
    await confirm(api, vendor, customer, ids[i]);
  }
  servers = await listenForRaces(t, join(dir, 'race.sqlite'));
}, 120_000);
afterAll(async () => {
  await servers.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

let sent = 0;
const tap = (id: number, status: string) =>
  fetch(`${servers.addresses[sent++ % servers.addresses.length]}/api/v1/booking/bookings/${id}/attendance/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${vendor.token}` },
    body: JSON.stringify({ status }),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as { attendance: string } }));

const notesOf = async (id: number) =>
  (
    await t.db
      .selectFrom('booking_status_history')
      .select('note')
      .where('booking_id', '=', id)
      .where('note', 'like', 'attendance:%')
      .execute()
  ).map((r) => r.note);

describe('simultaneous attendance', () => {
  it('records one change for many taps of one button', async () => {
    const answers = await Promise.all(Array.from({ length: TAPS }, () => tap(ids[0], 'checked_in')));
    expect(answers.map((a) => a.status)).toEqual(Array(TAPS).fill(200));
    expect(new Set(answers.map((a) => a.body.attendance))).toEqual(new Set(['checked_in']));
    expect(await notesOf(ids[0])).toEqual(['attendance: pending → checked_in']);
  });

  it('checks in every booking at once without a deadlock, one entry each', async () => {
    const answers = await Promise.all(
      ids.slice(1).flatMap((id) => [tap(id, 'checked_in'), tap(id, 'checked_in')]),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    for (const id of ids.slice(1)) expect(await notesOf(id)).toEqual(['attendance: pending → checked_in']);
    const stored = await t.db.selectFrom('bookings').select('attendance').where('id', 'in', ids).execute();
    expect(stored.map((r) => r.attendance)).toEqual(Array(BOOKINGS).fill('checked_in'));
  });
});
