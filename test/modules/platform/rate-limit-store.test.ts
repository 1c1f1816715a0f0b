import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { DbHandle } from '../../../src/db/create-db.ts';
import { buildTestApp, countRows, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { expectThrottled } from '../../helpers/rate-limits.ts';

// The rate-limit counters shared through PostgreSQL (decisions §18; src/http/rate-limit.ts): two apps on
// one database, each with its own connection pool as two server processes have, count into the same
// limit; simultaneous requests never overshoot it; a window passes by the application's clock, and its
// counter is deleted afterwards. Real server processes behind a proxy: test/reliability/multi-instance.
// On SQLite each process counts on its own, in memory: nothing here to share.

const LIMIT = 4;
const MINUTE = 60_000;

describe.skipIf(!usingPostgres)('rate limits shared through PostgreSQL', () => {
  let t: TestApp;
  let second: DbHandle;
  let other: TestApp['app'];
  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_LOGIN: String(LIMIT), TRUST_PROXY: 'true' } });
    second = t.openSecondHandle();
    other = await buildApp(t.config, { db: second.db, clock: t.clock });
    await other.ready();
  });
  afterAll(async () => {
    await other.close();
    await second.close();
    await t.close();
  });

  const login = (app: TestApp['app'], client: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      headers: { 'x-forwarded-for': client },
      payload: { email: 'nobody@example.com', password: 'wrong-password' },
    });

  it('counts the attempts made through both apps against one limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++)
      statuses.push((await login(i % 2 ? other : t.app, '203.0.113.1')).statusCode);
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    const refused = await login(other, '203.0.113.1');
    expectThrottled(refused);
    expect(refused.headers['retry-after']).toBe('60');
    expectThrottled(await login(t.app, '203.0.113.1'));
    // another client address has its own count
    expect((await login(other, '203.0.113.2')).statusCode).toBe(401);
  });

  it('lets exactly the limit through when the attempts arrive at once, on both apps', async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 * LIMIT }, (_, i) => login(i % 2 ? other : t.app, '198.51.100.7')),
    );
    const statuses = replies.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5 * LIMIT);
    const row = await t.db
      .selectFrom('rate_limit_hits')
      .select(['count'])
      .where('key', 'like', '%198.51.100.7')
      .executeTakeFirstOrThrow();
    expect(row.count).toBe(6 * LIMIT);
  });

  it('starts a new window when the application clock passes the old one, and says how long is left', async () => {
    for (let i = 0; i < LIMIT; i++) await login(t.app, '192.0.2.50');
    t.clock.advance(20_000);
    const refused = await login(other, '192.0.2.50');
    expectThrottled(refused);
    expect(refused.headers['retry-after']).toBe('40');
    t.clock.advance(40_000);
    expect((await login(other, '192.0.2.50')).statusCode).toBe(401);
    const row = await t.db
      .selectFrom('rate_limit_hits')
      .select(['count', 'expires_at'])
      .where('key', 'like', '%192.0.2.50')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ count: 1, expires_at: t.clock.now().getTime() + MINUTE });
  });

  it('deletes counters whose window has passed, now and then, and keeps the running ones', async () => {
    expect(await countRows(t.db, 'rate_limit_hits')).toBeGreaterThan(1);
    t.clock.advance(60 * MINUTE);
    // the first hit after the pruning interval deletes the lapsed counters besides counting itself
    expect((await login(t.app, '192.0.2.99')).statusCode).toBe(401);
    const deadline = Date.now() + 5000;
    while ((await countRows(t.db, 'rate_limit_hits')) > 1 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const rows = await t.db.selectFrom('rate_limit_hits').select(['key', 'count']).execute();
    expect(rows).toEqual([
      { key: expect.stringMatching(/^POST \/api\/v1\/accounts\/token\/ 192\.0\.2\.99$/), count: 1 },
    ]);
  });
});
