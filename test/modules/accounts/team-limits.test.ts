import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, PASSWORD, registerVendor } from '../../helpers/factories.ts';
import { expectThrottled, sendInTurn } from '../../helpers/rate-limits.ts';
import { addTeamMember } from '../../helpers/team-factories.ts';

// What a member's role may do, as the dashboard reads it (GET team/permissions/), and the invitation
// routes' rate limit, which is registration's (decisions §2, §25).

describe('what a role may do', () => {
  let t: TestApp;
  let api: Injector;
  let owner: Account;
  beforeAll(async () => {
    t = await buildTestApp();
    api = injector(t.app);
    owner = await registerVendor(t.app);
  });
  afterAll(() => t?.close());

  it('lists the operations of the caller’s role from the route table, and only them', async () => {
    const staff = await addTeamMember(t, owner, 'staff');
    const manager = await addTeamMember(t, owner, 'manager');
    const of = async (account: Account) =>
      (await api({ method: 'GET', url: '/api/v1/accounts/team/permissions/', token: account.token })).json();
    const [asOwner, asManager, asStaff] = [await of(owner), await of(manager), await of(staff)];
    expect([asOwner.role, asManager.role, asStaff.role]).toEqual(['owner', 'manager', 'staff']);
    // each list is exactly the documented vendor routes whose declaration has the role
    const declared = (role: string) =>
      t.app.routeTable
        .filter((r) => r.roles?.includes(role as 'owner') && !r.schema?.hide && r.method !== 'HEAD')
        .map((r) => `${r.method} ${r.url.replaceAll(/:(\w+)/g, '{$1}')}`)
        .sort();
    expect([...asOwner.operations].sort()).toEqual(declared('owner'));
    expect([...asManager.operations].sort()).toEqual(declared('manager'));
    expect([...asStaff.operations].sort()).toEqual(declared('staff'));
    expect(asStaff.operations).toEqual(
      expect.arrayContaining([
        'POST /api/v1/booking/bookings/{id}/approve/',
        'POST /api/v1/booking/bookings/{id}/decline/',
        'GET /api/v1/booking/vendor/manifest/',
        'POST /api/v1/booking/bookings/{id}/attendance/',
        'GET /api/v1/equipment/vendor/items/',
      ]),
    );
    for (const forbidden of [
      'POST /api/v1/payment/{payment_id}/refunds/',
      'PATCH /api/v1/accounts/vendor-profile/me/',
      'GET /api/v1/notifications/endpoints/',
      'GET /api/v1/accounts/team/',
    ])
      expect(asStaff.operations).not.toContain(forbidden);
    expect(asManager.operations).not.toContain('GET /api/v1/accounts/team/');
    expect(asManager.operations).toContain('POST /api/v1/payment/{payment_id}/refunds/');
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_REGISTER: '2' } });
  });
  afterAll(() => t?.close());

  it('limits invitations and accepts like registration, per client address', async () => {
    const owner = await registerVendor(t.app);
    const api = injector(t.app);
    const invites = await sendInTurn(3, (i) =>
      api({
        method: 'POST',
        url: '/api/v1/accounts/team/invitations/',
        token: owner.token,
        payload: { email: `limited-${i}@example.com`, role: 'staff' },
      }),
    );
    expect(invites.map((r) => r.statusCode)).toEqual([201, 201, 429]);
    expectThrottled(invites[2]);
    const accepts = await sendInTurn(3, () =>
      api({
        method: 'POST',
        url: '/api/v1/accounts/team/invitations/accept/',
        payload: { token: 'guess', password: PASSWORD, first_name: 'A', last_name: 'B' },
      }),
    );
    expect(accepts.map((r) => r.statusCode)).toEqual([400, 400, 429]);
    expectThrottled(accepts[2]);
  });
});
