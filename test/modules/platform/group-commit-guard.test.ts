import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/database.ts';
import { preparedQuery } from '../../../src/db/prepared-query.ts';
import { inTransaction } from '../../../src/db/transactions.ts';
import { catalogVersion } from '../../../src/modules/catalog/listings.repository.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';

// On SQLite a group commit holds the one connection until each of its units has finished, so a unit that
// queries through any handle but the transaction handle it was given would wait for itself forever.
// Outside production (createDb's default) such a query fails at once instead, on PostgreSQL too (where it
// would not hang, but is the same mistake). Each mistake below races a timer: without the guard the unit
// never settles on SQLite and the test fails on the timer instead of hanging.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const MISTAKE = /group commit .* queried through a handle other than the transaction handle/;

/** The unit's outcome, or 'still waiting' if it has not settled within a second. */
function settledWithin<T>(
  unit: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown } | 'still waiting'> {
  const timer = new Promise<'still waiting'>((resolve) =>
    setTimeout(() => resolve('still waiting'), 1_000).unref(),
  );
  return Promise.race([
    unit.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    timer,
  ]);
}

const categoryNames = preparedQuery(
  (db, a: { slug: string }) => db.selectFrom('categories').select('name').where('slug', '=', a.slug),
  ['slug'],
);

/** A unit of a group commit on the service's handle that runs `mistake` with that same handle. */
const groupUnit = (mistake: (serviceHandle: Db) => Promise<unknown>) =>
  inTransaction(t.db, async () => mistake(t.db), { groupCommit: true });

describe('a unit of a group commit that queries through another handle', () => {
  it('fails at once when it runs a query built with Kysely', async () => {
    const outcome = await settledWithin(
      groupUnit((db) => db.selectFrom('categories').select('name').execute()),
    );
    expect(outcome).toMatchObject({ ok: false, error: { message: expect.stringMatching(MISTAKE) } });
  });

  it('fails at once when it runs a prepared query', async () => {
    const outcome = await settledWithin(groupUnit((db) => categoryNames(db, { slug: 'kayaks' })));
    expect(outcome).toMatchObject({ ok: false, error: { message: expect.stringMatching(MISTAKE) } });
  });

  it('fails at once when it opens a transaction of its own, grouped or not', async () => {
    for (const options of [{}, { groupCommit: true }]) {
      const outcome = await settledWithin(
        groupUnit((db) => inTransaction(db, (trx) => categoryNames(trx, { slug: 'kayaks' }), options)),
      );
      expect(outcome).toMatchObject({ ok: false, error: { message: expect.stringMatching(MISTAKE) } });
    }
  });

  it('fails at once when it joins a read shared by the turn', async () => {
    const outcome = await settledWithin(groupUnit((db) => catalogVersion(db)));
    expect(outcome).toMatchObject({ ok: false, error: { message: expect.stringMatching(MISTAKE) } });
  });

  it('fails alone: the units grouped with it, using their own handles, commit', async () => {
    const [mistaken, good] = await Promise.all([
      settledWithin(groupUnit((db) => categoryNames(db, { slug: 'kayaks' }))),
      settledWithin(
        inTransaction(t.db, async (trx) => (await categoryNames(trx, { slug: 'kayaks' }))[0].name, {
          groupCommit: true,
        }),
      ),
    ]);
    expect(mistaken).toMatchObject({ ok: false, error: { message: expect.stringMatching(MISTAKE) } });
    expect(good).toEqual({ ok: true, value: 'Kayaks' });
    // and the service's handle works again once the group has committed
    expect(await categoryNames(t.db, { slug: 'kayaks' })).toEqual([{ name: 'Kayaks' }]);
  });
});
