import { beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/build-test-app.ts';
import { type Account, PASSWORD, registerVendor } from '../../helpers/factories.ts';
import { raceFixture } from '../../helpers/race-servers.ts';
import { addTeamMember, inviteMember, mailedInvitationToken } from '../../helpers/team-factories.ts';

// Simultaneous requests on one team against real listening servers (on SQLite a second server on the same
// file in a worker thread): the guarded updates let exactly one accept of an invitation make an account,
// and exactly one of two hand-overs happen, so the vendor keeps exactly one owner.

// within the second server's own registration-like rate limit (its default config)
const N = 4;
const race = raceFixture('team-race-');
let owner: Account;
let t: TestApp;

beforeAll(async () => {
  t = race.t;
  owner = await registerVendor(t.app);
});

const post = (i: number, path: string, body: object, token?: string) =>
  fetch(`${race.servers.addresses[i % race.servers.addresses.length]}/api/v1/accounts/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });

it(`${N} simultaneous accepts of one invitation: exactly one account`, async () => {
  const email = 'racing-guide@example.com';
  expect((await inviteMember(t.app, owner, email, 'staff')).statusCode).toBe(201);
  const token = await mailedInvitationToken(t, email);
  const results = await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const res = await post(i, 'team/invitations/accept/', {
        token,
        password: PASSWORD,
        first_name: `Guide ${i}`,
        last_name: '',
      });
      return { status: res.status, body: (await res.json()) as { code?: string; first_name?: string } };
    }),
  );
  const winners = results.filter((r) => r.status === 201);
  expect(winners).toHaveLength(1);
  expect(results.filter((r) => r.status === 400 && r.body.code === 'invalid')).toHaveLength(N - 1);
  const accounts = await t.db
    .selectFrom('users')
    .select(['first_name', 'vendor_role'])
    .where('email', '=', email)
    .execute();
  expect(accounts).toEqual([{ first_name: winners[0].body.first_name, vendor_role: 'staff' }]);
  const invitation = await t.db
    .selectFrom('team_invitations')
    .select(['accepted_at', 'accepted_user_id'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  expect(invitation.accepted_at).toBe(t.clock.now().getTime());
  expect(invitation.accepted_user_id).not.toBeNull();
});

it('two simultaneous hand-overs to different members: exactly one owner, and it is one of them', async () => {
  const shop = await registerVendor(t.app);
  const [first, second] = [await addTeamMember(t, shop, 'manager'), await addTeamMember(t, shop, 'staff')];
  const results = await Promise.all(
    [first, second].map(async (m, i) => (await post(i, `team/${m.id}/make-owner/`, {}, shop.token)).status),
  );
  expect(results.filter((s) => s === 200)).toHaveLength(1);
  const owners = await t.db
    .selectFrom('users')
    .select('id')
    .where(
      'vendor_id',
      '=',
      (await t.db.selectFrom('users').select('vendor_id').where('id', '=', shop.id).executeTakeFirstOrThrow())
        .vendor_id,
    )
    .where('vendor_role', '=', 'owner')
    .execute();
  expect(owners).toEqual([{ id: results[0] === 200 ? first.id : second.id }]);
  // the loser was refused with a decided error, never a 500
  expect(results.filter((s) => s !== 200)[0]).toBeLessThan(500);
});
