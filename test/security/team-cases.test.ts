import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import type { Account } from '../helpers/factories.ts';
import { addTeamMember } from '../helpers/team-factories.ts';
import { ownedResource } from './routes.ts';
import { buildWorld, type World } from './world.ts';

// The cases of the team's permission table that matter most (decisions §25), written out by hand beside
// the generated matrix (team-roles.test.ts): a guide cannot refund, change prices or the currency, or see
// webhook endpoints and their secrets; a manager cannot manage the team nor change the currency; members
// act for their own vendor only; and the history and refunds name the member who acted.

let t: TestApp;
let w: World;
let manager: Account;
let staff: Account;
let paidPaymentId: number;

beforeAll(async () => {
  t = await buildTestApp();
  w = await buildWorld(t);
  manager = await addTeamMember(t, w.a.vendor, 'manager');
  staff = w.a.member;
  const url = '/api/v1/payment/:payment_id/refunds/';
  paidPaymentId = await ownedResource(url)!.fresh(w, w.a, url);
}, 120_000);
afterAll(() => t?.close());

const as = (account: Account, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  w.api({ method, url: `/api/v1${url}`, token: account.token, ...(payload && { payload }) });

async function expectDenied(promise: ReturnType<typeof as>) {
  const res = await promise;
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json().code).toBe('permission_denied');
  return res;
}

describe('staff (a guide)', () => {
  it('cannot refund, by the refund route or a vendor-cancel, and the payment stays whole', async () => {
    const denied = await expectDenied(
      as(staff, 'POST', `/payment/${paidPaymentId}/refunds/`, { amount: '1.00' }),
    );
    expect(denied.json().detail).toBe(
      "A staff of this vendor's team may not do this; it needs the role owner or manager.",
    );
    await expectDenied(as(staff, 'POST', `/booking/bookings/${w.a.paidBookingId}/vendor-cancel/`, {}));
    const refunds = await t.db
      .selectFrom('refunds')
      .select('id')
      .where('payment_id', '=', paidPaymentId)
      .execute();
    expect(refunds).toEqual([]);
  });

  it('cannot change prices, promo codes or the currency', async () => {
    await expectDenied(
      as(staff, 'PATCH', `/equipment/vendor/items/${w.a.equipment.id}/`, { price_per_day: '1.00' }),
    );
    await expectDenied(
      as(staff, 'POST', '/booking/vendor/promo-codes/', { code: 'GUIDE99', percent_off: 99 }),
    );
    await expectDenied(as(staff, 'PATCH', '/accounts/vendor-profile/me/', { currency: 'eur' }));
    const item = await as(staff, 'GET', `/equipment/vendor/items/${w.a.equipment.id}/`);
    expect(item.statusCode).toBe(200);
    expect(item.json().price_per_day).toBe(w.a.equipment.price_per_day);
    expect((await as(staff, 'GET', '/accounts/vendor-profile/me/')).json().currency).toBe('usd');
  });

  it('cannot see webhook endpoints, their secrets or deliveries', async () => {
    await expectDenied(as(staff, 'GET', '/notifications/endpoints/'));
    await expectDenied(as(staff, 'GET', `/notifications/endpoints/${w.a.endpointId}/`));
    await expectDenied(as(staff, 'POST', `/notifications/endpoints/${w.a.endpointId}/rotate-secret/`));
    await expectDenied(as(staff, 'GET', `/notifications/endpoints/${w.a.endpointId}/deliveries/`));
  });

  it('reads the bookings and approves one; the history names the guide', async () => {
    const list = await as(staff, 'GET', '/booking/bookings/?page_size=100');
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((b: { id: number }) => b.id)).toContain(w.a.bookingId);
    const approved = await as(staff, 'POST', `/booking/bookings/${w.a.bookingId}/approve/`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status_history.at(-1)).toMatchObject({
      from_status: 'requested',
      to_status: 'approved',
      actor_id: staff.id,
    });
  });
});

describe('a manager', () => {
  it('cannot manage the team', async () => {
    await expectDenied(as(manager, 'GET', '/accounts/team/'));
    await expectDenied(
      as(manager, 'POST', '/accounts/team/invitations/', { email: 'x@example.com', role: 'staff' }),
    );
    await expectDenied(as(manager, 'PATCH', `/accounts/team/${staff.id}/`, { role: 'manager' }));
    await expectDenied(as(manager, 'DELETE', `/accounts/team/${staff.id}/`));
    await expectDenied(as(manager, 'POST', `/accounts/team/${manager.id}/make-owner/`));
    const roles = await t.db
      .selectFrom('users')
      .select(['id', 'vendor_role'])
      .where('id', 'in', [staff.id, manager.id])
      .orderBy('id')
      .execute();
    expect(roles).toEqual([
      { id: staff.id, vendor_role: 'staff' },
      { id: manager.id, vendor_role: 'manager' },
    ]);
  });

  it("cannot create a channel or rotate its key (the keys are the owner's), and manages the rest", async () => {
    await expectDenied(as(manager, 'POST', '/channels/', { name: 'Sneaky reseller' }));
    await expectDenied(as(manager, 'POST', `/channels/${w.a.channelId}/rotate-key/`));
    const renamed = await as(manager, 'PATCH', `/channels/${w.a.channelId}/`, { name: 'Harbour Hotel desk' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).not.toHaveProperty('api_key');
    const list = await as(manager, 'GET', '/channels/');
    expect(list.json().results.map((c: { name: string }) => c.name)).toEqual(['Harbour Hotel desk']);
  });

  it('cannot change the currency, may send it unchanged, and changes the rest; the owner changes it', async () => {
    const denied = await expectDenied(
      as(manager, 'PATCH', '/accounts/vendor-profile/me/', { currency: 'eur', city: 'Faro' }),
    );
    expect(denied.json().detail).toBe("Only the owner may change the vendor's currency.");
    const same = await as(manager, 'PATCH', '/accounts/vendor-profile/me/', {
      currency: ' USD ',
      city: 'Faro',
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ currency: 'usd', city: 'Faro' });
    const owner = await as(w.a.vendor, 'PATCH', '/accounts/vendor-profile/me/', { currency: 'eur' });
    expect(owner.json().currency).toBe('eur');
    await as(w.a.vendor, 'PATCH', '/accounts/vendor-profile/me/', { currency: 'usd' });
  });

  it('refunds, and the refund names the manager', async () => {
    const res = await as(manager, 'POST', `/payment/${paidPaymentId}/refunds/`, { amount: '5.00' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ amount: '5.00', reason: 'vendor_initiated', actor_id: manager.id });
    const stored = await t.db
      .selectFrom('refunds')
      .select('actor_id')
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(stored.actor_id).toBe(manager.id);
  });
});

describe("another vendor's data", () => {
  it('is 404 to every member of a team, whatever their role', async () => {
    const b = w.b;
    for (const member of [w.a.vendor, manager, staff]) {
      for (const [method, url, payload] of [
        ['POST', `/booking/bookings/${b.bookingId}/approve/`, {}],
        ['GET', `/equipment/vendor/items/${b.equipment.id}/`, undefined],
        ['GET', `/booking/bookings/${b.bookingId}/`, undefined],
      ] as const) {
        const res = await as(member, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
    }
    const theirs = await addTeamMember(t, b.vendor, 'manager');
    const refund = await as(theirs, 'POST', `/payment/${paidPaymentId}/refunds/`, { amount: '1.00' });
    expect(refund.statusCode).toBe(404);
  });
});
