import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, PASSWORD, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { addTeamMember } from '../../helpers/team-factories.ts';
import { newChannel, octo } from './channels-helpers.ts';

// A vendor's channels (decisions §24, §25): the key shown once and kept as a hash, rotation, deactivation,
// deletion, each channel's account that can never sign in, and who of the team may do what.

let t: TestApp;
let api: Injector;
let owner: Account;
let manager: Account;
let staff: Account;
let other: Account;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  owner = await registerVendor(t.app, { business_name: 'Lagos Sea Co' });
  other = await registerVendor(t.app, { business_name: 'Elsewhere' });
  manager = await addTeamMember(t, owner, 'manager');
  staff = await addTeamMember(t, owner, 'staff');
});
afterAll(() => t?.close());

const get = (account: Account, url: string) => api({ method: 'GET', url, token: account.token });

describe('creating a channel', () => {
  it('shows the key once, stores only its SHA-256, and lists the channel without it', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/channels/',
      token: owner.token,
      payload: { name: '  Harbour Hotel concierge ' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Harbour Hotel concierge',
      is_active: true,
      created_at: '2026-06-01T12:00:00.000Z',
      updated_at: '2026-06-01T12:00:00.000Z',
      api_key: expect.stringMatching(/^wbk_[A-Za-z0-9_-]{43}$/),
    });
    const row = await t.db
      .selectFrom('channels')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(created.api_key));
    expect(JSON.stringify(row)).not.toContain(created.api_key.slice(4));

    const read = await get(owner, `/api/v1/channels/${created.id}/`);
    expect(read.json()).toEqual({ ...created, api_key: undefined });
    expect(read.json()).not.toHaveProperty('api_key');
    const list = await get(manager, '/api/v1/channels/');
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((c: { id: number }) => c.id)).toContain(created.id);
    expect(list.body).not.toContain(created.api_key);
  });

  it('keeps no answer for an Idempotency-Key: the key is never stored in clear', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/channels/',
      token: owner.token,
      headers: { 'idempotency-key': 'create-channel-1' },
      payload: { name: 'Kiosk' },
    });
    expect(res.statusCode).toBe(201);
    const kept = await t.db.selectFrom('idempotency_keys').select('response_body').execute();
    expect(kept.map((k) => k.response_body ?? '').join()).not.toContain(res.json().api_key);
    expect(kept).toEqual([]);
  });

  it('gives each channel an account that can never sign in', async () => {
    const { id } = await newChannel(api, owner, 'Tourist office');
    const channel = await t.db
      .selectFrom('channels')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const account = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', channel.account_id)
      .executeTakeFirstOrThrow();
    expect(account.email).toMatch(/^channel-[0-9a-f-]{36}@channels\.invalid$/);
    expect(account.deactivated_at).toBe(new Date('2026-06-01T12:00:00Z').getTime());
    expect([account.is_vendor, account.is_staff, account.vendor_id]).toEqual([0, 0, null]);
    for (const password of [PASSWORD, account.password_hash]) {
      const login = await api({
        method: 'POST',
        url: '/api/v1/accounts/token/',
        payload: { email: account.email, password },
      });
      expect(login.statusCode, password).toBe(401);
    }
  });

  it('refuses a blank or missing name (400 naming it)', async () => {
    for (const payload of [{ name: '   ' }, {}, { name: 'x'.repeat(101) }]) {
      const res = await api({ method: 'POST', url: '/api/v1/channels/', token: owner.token, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toHaveProperty('name');
    }
  });
});

describe('changing a channel', () => {
  it('renames, deactivates (its key refused) and reactivates (its key accepted again)', async () => {
    const { id, apiKey } = await newChannel(api, owner, 'Surf shop');
    expect((await octo(api, apiKey)('GET', 'supplier')).statusCode).toBe(200);
    t.clock.advance(60_000);
    const off = await api({
      method: 'PATCH',
      url: `/api/v1/channels/${id}/`,
      token: manager.token,
      payload: { name: 'Surf shop (old)', is_active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ name: 'Surf shop (old)', is_active: false });
    expect(off.json().updated_at).not.toBe(off.json().created_at);
    expect((await octo(api, apiKey)('GET', 'supplier')).json().error).toBe('FORBIDDEN');
    const on = await api({
      method: 'PATCH',
      url: `/api/v1/channels/${id}/`,
      token: owner.token,
      payload: { is_active: true },
    });
    expect(on.json()).toMatchObject({ name: 'Surf shop (old)', is_active: true });
    expect((await octo(api, apiKey)('GET', 'supplier')).statusCode).toBe(200);
  });

  it('rotates the key: the new one works, the old one is refused at once', async () => {
    const { id, apiKey } = await newChannel(api, owner, 'Beach bar');
    const rotated = await api({
      method: 'POST',
      url: `/api/v1/channels/${id}/rotate-key/`,
      token: owner.token,
    });
    expect(rotated.statusCode, rotated.body).toBe(201);
    const newKey = rotated.json().api_key;
    expect(newKey).toMatch(/^wbk_/);
    expect(newKey).not.toBe(apiKey);
    expect(rotated.json()).toMatchObject({ id, name: 'Beach bar', is_active: true });
    expect((await octo(api, apiKey)('GET', 'supplier')).statusCode).toBe(403);
    expect((await octo(api, newKey)('GET', 'supplier')).statusCode).toBe(200);
    const row = await t.db
      .selectFrom('channels')
      .select('key_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(newKey));
  });

  it('deletes a channel nothing was booked through, with its account', async () => {
    const { id } = await newChannel(api, owner, 'One-off');
    const users = await countRows(t.db, 'users');
    const res = await api({ method: 'DELETE', url: `/api/v1/channels/${id}/`, token: manager.token });
    expect(res.statusCode, res.body).toBe(204);
    expect((await get(owner, `/api/v1/channels/${id}/`)).statusCode).toBe(404);
    expect(await countRows(t.db, 'users')).toBe(users - 1);
  });

  it('refuses to delete a channel with bookings (409 invalid_state): it stays, to be deactivated', async () => {
    const { id, apiKey } = await newChannel(api, owner, 'Busy reseller');
    const item = await createEquipment(t.app, owner);
    const customer = await registerCustomer(t.app);
    const booking = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        equipment_item_id: item.id,
        starts_at: '2026-07-01T09:00:00Z',
        ends_at: '2026-07-02T09:00:00Z',
      },
    });
    expect(booking.statusCode, booking.body).toBe(201);
    // a stand-in for a reservation through the channel (the OCTO bookings of later rounds)
    await t.db.updateTable('bookings').set({ channel_id: id }).where('id', '=', booking.json().id).execute();
    const res = await api({ method: 'DELETE', url: `/api/v1/channels/${id}/`, token: owner.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('invalid_state');
    expect((await get(owner, `/api/v1/channels/${id}/`)).json().is_active).toBe(true);
    expect((await octo(api, apiKey)('GET', 'supplier')).statusCode).toBe(200);
  });
});

describe('who may do what', () => {
  it('lets only the owner create channels and rotate keys; managers manage the rest; staff nothing', async () => {
    const { id } = await newChannel(api, owner, 'Ferry desk');
    const denied = async (
      account: Account,
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload?: object,
    ) => {
      const res = await api({ method, url, token: account.token, ...(payload && { payload }) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('permission_denied');
    };
    const channels = await countRows(t.db, 'channels');
    await denied(manager, 'POST', '/api/v1/channels/', { name: 'Sneaky' });
    await denied(manager, 'POST', `/api/v1/channels/${id}/rotate-key/`);
    for (const [method, url] of [
      ['GET', '/api/v1/channels/'],
      ['GET', `/api/v1/channels/${id}/`],
      ['PATCH', `/api/v1/channels/${id}/`],
      ['DELETE', `/api/v1/channels/${id}/`],
      ['POST', '/api/v1/channels/'],
    ] as const)
      await denied(staff, method, url, method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' });
    expect(await countRows(t.db, 'channels')).toBe(channels);
    expect((await get(manager, `/api/v1/channels/${id}/`)).json().name).toBe('Ferry desk');
  });

  it("shows another vendor's channel to nobody (404), and lists each vendor's own only", async () => {
    const { id } = await newChannel(api, owner, 'Mine');
    for (const [method, url] of [
      ['GET', `/api/v1/channels/${id}/`],
      ['PATCH', `/api/v1/channels/${id}/`],
      ['DELETE', `/api/v1/channels/${id}/`],
      ['POST', `/api/v1/channels/${id}/rotate-key/`],
    ] as const) {
      const res = await api({
        method,
        url,
        token: other.token,
        ...(method === 'PATCH' && { payload: { name: 'x' } }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const theirs = await newChannel(api, other, 'Theirs');
    const list = (await get(owner, '/api/v1/channels/?page_size=100')).json();
    expect(list.results.map((c: { id: number }) => c.id)).not.toContain(theirs.id);
    expect(list.count).toBe((await countRows(t.db, 'channels')) - 1);
    // newest first
    const order = list.results.map((c: { created_at: string; id: number }) => [c.created_at, c.id]);
    const newestFirst = (a: [string, number], b: [string, number]) => b[0].localeCompare(a[0]) || b[1] - a[1];
    expect(order).toEqual([...order].sort(newestFirst));
  });
});
