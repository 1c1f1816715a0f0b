import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issuePasswordResetToken } from '../../../src/modules/accounts/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer } from '../../helpers/factories.ts';
import { listenForRaces, type RaceServers } from '../../helpers/race-servers.ts';

// Simultaneous confirms of one reset token against real listening servers (on SQLite a second server on the
// same file in a worker thread, see ../booking/race-server.worker.ts): the guarded update lets exactly one
// of them set its password.

// within the second server's own login-like rate limit (its default config)
const N = 8;
let t: TestApp;
let dir: string;
let servers: RaceServers;
let customer: Account;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'password-reset-race-'));
  t = await buildTestApp({ dbFile: join(dir, 'race.sqlite') });
  customer = await registerCustomer(t.app);
  servers = await listenForRaces(t, join(dir, 'race.sqlite'));
}, 120_000);
afterAll(async () => {
  await servers.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

it(`${N} simultaneous confirms of one token: exactly one sets its password`, async () => {
  const issued = await issuePasswordResetToken(t.db, customer.email, t.clock.now().getTime());
  const passwords = Array.from({ length: N }, (_, i) => `Racing-Password-${i}`);
  const results = await Promise.all(
    passwords.map(async (password, i) => {
      const base = servers.addresses[i % servers.addresses.length];
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
      t.app.inject({
        method: 'POST',
        url: '/api/v1/accounts/token/',
        payload: { email: customer.email, password },
      }),
    ),
  );
  expect(logins.flatMap((res, i) => (res.statusCode === 200 ? [i] : []))).toEqual(winners);
}, 60_000);
