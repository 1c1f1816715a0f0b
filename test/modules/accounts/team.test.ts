import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/lib/datetime.ts';
import { listMail } from '../../../src/modules/notifications/mail-files.ts';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import {
  type Account,
  freshToken,
  PASSWORD,
  registerCustomer,
  registerVendor,
} from '../../helpers/factories.ts';
import {
  acceptInvitation,
  addTeamMember,
  inviteMember,
  mailedInvitationToken,
} from '../../helpers/team-factories.ts';

// A vendor's team through the API (decisions §25): invitations by mail, joining, the team list, role
// changes, removal and the hand-over, and the decided answers to their misuse.

let t: TestApp;
let api: Injector;
let owner: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  owner = await registerVendor(t.app, { business_name: 'Blue Lagoon Kayaks', time_zone: 'Europe/Lisbon' });
});
afterAll(() => t?.close());

const team = (token: string, query = '') =>
  api({ method: 'GET', url: `/api/v1/accounts/team/${query}`, token });
const login = (email: string, password = PASSWORD) =>
  api({ method: 'POST', url: '/api/v1/accounts/token/', payload: { email, password } });
const tokenErrors = {
  token: [
    'This invitation is not valid: it was already used, revoked or replaced, has expired, or is unknown.',
  ],
};
let n = 0;
const newEmail = (tag: string) => `${tag}-${++n}-${Date.now().toString(36)}@example.com`;

describe('inviting and joining', () => {
  it('mails a single-use /join link valid 7 days, keeps only its hash, and the invitee joins as a member', async () => {
    const email = newEmail('guide');
    const invited = await inviteMember(t.app, owner, email.toUpperCase(), 'staff');
    expect(invited.statusCode, invited.body).toBe(201);
    const now = t.clock.now().getTime();
    expect(invited.json()).toEqual({
      id: expect.any(Number),
      email,
      role: 'staff',
      invited_by: owner.id,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 7 * DAY_MS).toISOString(),
    });

    const token = await mailedInvitationToken(t, email);
    const mail = (await listMail(t.config.mailDir)).find((m) => m.to.includes(email))!;
    expect(mail.subject).toBe('Join Blue Lagoon Kayaks on Waterbook');
    expect(mail.text).toContain('as staff');
    expect(mail.text).toContain(`${owner.email} invites you to join the team of Blue Lagoon Kayaks`);
    // the deadline in the vendor's zone: 7 days after 2026-06-01T12:00Z, summer time in Lisbon
    expect(mail.text).toMatch(/Valid until: +Mon 8 Jun 2026, 13:00 \(Europe\/Lisbon\)/);
    expect(mail.text).toContain(`${t.config.publicUrl}/join?token=`);
    const stored = await t.db
      .selectFrom('team_invitations')
      .select(['token_hash', 'email'])
      .where('id', '=', invited.json().id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ email, token_hash: createHash('sha256').update(token).digest('hex') });
    // the delivery forgot the token once the mail was sent
    const secrets = await t.db
      .selectFrom('notification_deliveries')
      .select('secret')
      .where('recipient', '=', email)
      .execute();
    expect(secrets).toEqual([{ secret: null }]);

    const joined = await acceptInvitation(t.app, token, { first_name: 'Rui', last_name: 'Costa' });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json()).toMatchObject({
      email,
      first_name: 'Rui',
      last_name: 'Costa',
      is_vendor: true,
      is_customer: false,
      vendor_role: 'staff',
      vendor_profile: { business_name: 'Blue Lagoon Kayaks', time_zone: 'Europe/Lisbon' },
    });
    const me = await api({
      method: 'GET',
      url: '/api/v1/accounts/me/',
      token: (await login(email)).json().access,
    });
    expect(me.json()).toMatchObject({
      id: joined.json().id,
      vendor_role: 'staff',
      vendor_profile: { business_name: 'Blue Lagoon Kayaks' },
    });

    // single use: the same link again is the decided 400, and no second account appears
    const users = await countRows(t.db, 'users');
    const again = await acceptInvitation(t.app, token, { first_name: 'Other' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'Invalid input.', code: 'invalid', errors: tokenErrors });
    expect(await countRows(t.db, 'users')).toBe(users);
  });

  it('takes the email, role and vendor from the invitation alone, whatever else the body says', async () => {
    const email = newEmail('sly');
    await inviteMember(t.app, owner, email, 'staff');
    const other = await registerVendor(t.app);
    const joined = await acceptInvitation(t.app, await mailedInvitationToken(t, email), {
      email: 'someone-else@example.com',
      role: 'owner',
      vendor_role: 'owner',
      is_staff: true,
      is_vendor: false,
      vendor_id: 1,
      vendor_profile: { slug: other.vendorSlug },
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const row = await t.db
      .selectFrom('users')
      .select(['email', 'vendor_role', 'is_staff', 'is_vendor', 'vendor_id'])
      .where('id', '=', joined.json().id)
      .executeTakeFirstOrThrow();
    const ownerVendor = await t.db
      .selectFrom('users')
      .select('vendor_id')
      .where('id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      email,
      vendor_role: 'staff',
      is_staff: 0,
      is_vendor: 1,
      vendor_id: ownerVendor.vendor_id,
    });
  });

  it('lists the members in the order they joined and every open invitation', async () => {
    const shop = await registerVendor(t.app);
    const manager = await addTeamMember(t, shop, 'manager');
    const pending = await inviteMember(t.app, shop, newEmail('pending'), 'staff');
    const res = await team(shop.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        expect.objectContaining({ id: shop.id, email: shop.email, role: 'owner' }),
        expect.objectContaining({ id: manager.id, email: manager.email, role: 'manager', first_name: 'Rui' }),
      ],
      invitations: [pending.json()],
    });
    const page = await team(shop.token, '?page=2&page_size=1');
    expect(page.json().results.map((m: { id: number }) => m.id)).toEqual([manager.id]);
  });

  it('refuses an email that has an account, of any kind, with a 400 on email and writes nothing', async () => {
    const customer = await registerCustomer(t.app);
    const other = await registerVendor(t.app);
    for (const email of [customer.email, other.email.toUpperCase(), owner.email]) {
      const before = await countRows(t.db, 'team_invitations');
      const res = await inviteMember(t.app, owner, email, 'staff');
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['email']);
      expect(await countRows(t.db, 'team_invitations')).toBe(before);
    }
  });

  it('refuses a bad role or email with a 400 naming the field', async () => {
    for (const [payload, field] of [
      [{ email: newEmail('x'), role: 'owner' }, 'role'],
      [{ email: newEmail('x'), role: 'boss' }, 'role'],
      [{ email: 'not-an-email', role: 'staff' }, 'email'],
      [{ role: 'staff' }, 'email'],
    ] as const) {
      const res = await api({
        method: 'POST',
        url: '/api/v1/accounts/team/invitations/',
        token: owner.token,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
  });

  it('refuses an expired, revoked, replaced or unknown token with the same 400, and a weak password on password', async () => {
    const expiring = newEmail('late');
    await inviteMember(t.app, owner, expiring, 'staff');
    const lateToken = await mailedInvitationToken(t, expiring);

    const revokedEmail = newEmail('revoked');
    const revoked = await inviteMember(t.app, owner, revokedEmail, 'staff');
    const revokedToken = await mailedInvitationToken(t, revokedEmail);
    const del = await api({
      method: 'DELETE',
      url: `/api/v1/accounts/team/invitations/${revoked.json().id}/`,
      token: owner.token,
    });
    expect(del.statusCode).toBe(204);
    expect((await team(owner.token)).json().invitations.map((i: { id: number }) => i.id)).not.toContain(
      revoked.json().id,
    );

    const resent = newEmail('resent');
    await inviteMember(t.app, owner, resent, 'staff');
    const firstToken = await mailedInvitationToken(t, resent);
    await inviteMember(t.app, owner, resent, 'manager');
    await t.app.outbox.runOnce();
    const open = (await team(owner.token))
      .json()
      .invitations.filter((i: { email: string }) => i.email === resent);
    expect(open.map((i: { role: string }) => i.role)).toEqual(['manager']);

    const weak = await acceptInvitation(t.app, lateToken, { password: '12345678' });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().errors)).toEqual(['password']);

    t.clock.advance(7 * DAY_MS + 1);
    const users = await countRows(t.db, 'users');
    for (const token of [lateToken, revokedToken, firstToken, 'made-up-token']) {
      const res = await acceptInvitation(t.app, token);
      expect(res.statusCode, token).toBe(400);
      expect(res.json().errors).toEqual(tokenErrors);
    }
    expect(await countRows(t.db, 'users')).toBe(users);
    owner.token = await freshToken(t.app, owner);
    // an expired invitation is no longer listed; revoking it again changes nothing
    expect((await team(owner.token)).json().invitations).toEqual([]);
    expect(
      (
        await api({
          method: 'DELETE',
          url: `/api/v1/accounts/team/invitations/${revoked.json().id}/`,
          token: owner.token,
        })
      ).statusCode,
    ).toBe(204);
  });

  it('answers 409 to revoking an accepted invitation and 404 to another vendor’s', async () => {
    const email = newEmail('done');
    const invited = await inviteMember(t.app, owner, email, 'staff');
    await acceptInvitation(t.app, await mailedInvitationToken(t, email));
    const url = `/api/v1/accounts/team/invitations/${invited.json().id}/`;
    expect((await api({ method: 'DELETE', url, token: owner.token })).json().code).toBe('invalid_state');
    const stranger = await registerVendor(t.app);
    const res = await api({ method: 'DELETE', url, token: stranger.token });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });

  it('sends no mail for an invitation revoked before the outbox ran', async () => {
    const email = newEmail('never');
    const invited = await inviteMember(t.app, owner, email, 'staff');
    await api({
      method: 'DELETE',
      url: `/api/v1/accounts/team/invitations/${invited.json().id}/`,
      token: owner.token,
    });
    await t.app.outbox.runOnce();
    expect((await listMail(t.config.mailDir)).filter((m) => m.to.includes(email))).toEqual([]);
  });
});

describe('roles, removal and the hand-over', () => {
  it('changes a role, effective on the member’s next request with the token they hold', async () => {
    const shop = await registerVendor(t.app);
    const member = await addTeamMember(t, shop, 'staff');
    const promo = { method: 'GET' as const, url: '/api/v1/booking/vendor/promo-codes/', token: member.token };
    expect((await api(promo)).statusCode).toBe(403);
    const changed = await api({
      method: 'PATCH',
      url: `/api/v1/accounts/team/${member.id}/`,
      token: shop.token,
      payload: { role: 'manager' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: member.id, role: 'manager' });
    expect((await api(promo)).statusCode).toBe(200);
    await api({
      method: 'PATCH',
      url: `/api/v1/accounts/team/${member.id}/`,
      token: shop.token,
      payload: { role: 'staff' },
    });
    expect((await api(promo)).statusCode).toBe(403);
  });

  it('removes a member: access and refresh tokens stop working at once, login too; the history keeps the id', async () => {
    const shop = await registerVendor(t.app);
    const member = await addTeamMember(t, shop, 'staff');
    const other = await login(member.email);
    const listings = { method: 'GET' as const, url: '/api/v1/equipment/vendor/items/', token: member.token };
    expect((await api(listings)).statusCode).toBe(200);

    const removed = await api({
      method: 'DELETE',
      url: `/api/v1/accounts/team/${member.id}/`,
      token: shop.token,
    });
    expect(removed.statusCode).toBe(204);
    const refused = await api(listings);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('token_not_valid');
    for (const refresh of [member.refresh, other.json().refresh]) {
      const res = await api({ method: 'POST', url: '/api/v1/accounts/token/refresh/', payload: { refresh } });
      expect(res.statusCode).toBe(401);
    }
    expect((await login(member.email)).statusCode).toBe(401);
    // gone from the team, kept as a row (what it did still names it)
    expect((await team(shop.token)).json().results.map((m: { id: number }) => m.id)).toEqual([shop.id]);
    const row = await t.db
      .selectFrom('users')
      .select(['id', 'vendor_role', 'deactivated_at'])
      .where('id', '=', member.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ id: member.id, vendor_role: null, deactivated_at: t.clock.now().getTime() });
    // removing again: no longer a member
    expect(
      (await api({ method: 'DELETE', url: `/api/v1/accounts/team/${member.id}/`, token: shop.token }))
        .statusCode,
    ).toBe(404);
  });

  it('never lets the owner remove themselves or change their own role', async () => {
    const shop = await registerVendor(t.app);
    const del = await api({ method: 'DELETE', url: `/api/v1/accounts/team/${shop.id}/`, token: shop.token });
    expect(del.statusCode).toBe(400);
    expect(del.json()).toEqual({
      detail: 'The owner cannot remove themselves; hand the ownership over first.',
      code: 'invalid',
    });
    const patch = await api({
      method: 'PATCH',
      url: `/api/v1/accounts/team/${shop.id}/`,
      token: shop.token,
      payload: { role: 'staff' },
    });
    expect(patch.statusCode).toBe(400);
    const self = await api({
      method: 'POST',
      url: `/api/v1/accounts/team/${shop.id}/make-owner/`,
      token: shop.token,
    });
    expect(self.statusCode).toBe(400);
    expect((await team(shop.token)).json().results).toEqual([
      expect.objectContaining({ id: shop.id, role: 'owner' }),
    ]);
  });

  it('hands the ownership over: exactly one owner, the former one a manager who can no longer manage the team', async () => {
    const shop = await registerVendor(t.app, { contact_email: '' });
    const heir = await addTeamMember(t, shop, 'staff');
    const res = await api({
      method: 'POST',
      url: `/api/v1/accounts/team/${heir.id}/make-owner/`,
      token: shop.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: heir.id, role: 'owner' });
    const roles = (await team(heir.token))
      .json()
      .results.map((m: { id: number; role: string }) => [m.id, m.role]);
    expect(roles).toEqual([
      [shop.id, 'manager'],
      [heir.id, 'owner'],
    ]);
    expect((await team(shop.token)).statusCode).toBe(403);
    // the vendor's mail (no contact_email) now goes to the new owner
    const profile = await t.db
      .selectFrom('vendor_profiles')
      .select('user_id')
      .where(
        'id',
        '=',
        (
          await t.db
            .selectFrom('users')
            .select('vendor_id')
            .where('id', '=', heir.id)
            .executeTakeFirstOrThrow()
        ).vendor_id!,
      )
      .executeTakeFirstOrThrow();
    expect(profile.user_id).toBe(heir.id);
    // and the new owner may remove the former one
    expect(
      (await api({ method: 'DELETE', url: `/api/v1/accounts/team/${shop.id}/`, token: heir.token }))
        .statusCode,
    ).toBe(204);
  });

  it('answers 404 for another vendor’s member, a customer or an unknown id', async () => {
    const shop = await registerVendor(t.app);
    const stranger = await registerVendor(t.app);
    const theirs = await addTeamMember(t, stranger, 'staff');
    const customer = await registerCustomer(t.app);
    for (const id of [theirs.id, customer.id, stranger.id, 999_999]) {
      for (const [method, suffix, payload] of [
        ['PATCH', '', { role: 'manager' }],
        ['DELETE', '', undefined],
        ['POST', 'make-owner/', undefined],
      ] as const) {
        const res = await api({
          method,
          url: `/api/v1/accounts/team/${id}/${suffix}`,
          token: shop.token,
          payload,
        });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
    }
    // the stranger's member is untouched
    expect((await team(stranger.token)).json().results.map((m: { role: string }) => m.role)).toEqual([
      'owner',
      'staff',
    ]);
  });
});
