import { beforeAll, expect, it } from 'vitest';
import { issuePasswordResetToken } from '../../../src/modules/accounts/index.ts';
import { type Account, registerCustomer } from '../../helpers/factories.ts';
import { raceFixture } from '../../helpers/race-servers.ts';

// Simultaneous confirms of one reset token against real listening servers (on SQLite a second server on the
// same file in a worker thread, see ../booking/race-server.worker.ts): the guarded update lets exactly one
// of them set its password.

// within the second server's own login-like rate limit (its default config)
const N = 8;
const race = raceFixture('password-reset-race-');
let customer: Account;

beforeAll(async () => {
  customer = await registerCustomer(race.t.app);
});

it(`${N} simultaneous confirms of one token: exactly one sets its password`, async () => {
  const issued = await issuePasswordResetToken(race.t.db, customer.email, race.t.clock.now().getTime());
  const passwords = Array.from({ length: N }, (_, i) => `Racing-Password-${i}`);
  const results = await Promise.all(
    passwords.map(async (password, i) => {
      const base = race.servers.addresses[i % race.servers.addresses.length];
      const res = await fetch(`${base}/api/v1/accounts/password/reset/confirm/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: issued!.token, new_password: password }),
      });
      return {
        status: res.status,
        code: res.status === 204 ? null : ((await res.json()) as { code: string }).code,
      };
    }),
  );
  const winners = results.flatMap((r, i) => (r.status === 204 ? [i] : []));
  expect(winners).toHaveLength(1);
  expect(results.filter((r) => r.status === 400 && r.code === 'invalid')).toHaveLength(N - 1);

  // the winner's password is the one that logs in, and no other
  const logins = await Promise.all(
    passwords.map((password) =>
      race.t.app.inject({
        method: 'POST',
        url: '/api/v1/accounts/token/',
        payload: { email: customer.email, password },
      }),
    ),
  );
  expect(logins.flatMap((res, i) => (res.statusCode === 200 ? [i] : []))).toEqual(winners);
}, 60_000);
