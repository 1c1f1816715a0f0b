import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/create-db.ts';
import { preparedQuery } from '../../../src/db/prepared-query.ts';
import { usingPostgres } from '../../helpers/build-test-app.ts';
import { postgresCopy } from '../../helpers/test-databases.ts';

// Hot queries (preparedQuery) run on PostgreSQL as named prepared statements, parsed and planned once per
// connection; everything else stays unnamed.

const categoryBySlug = preparedQuery(
  (db, args: { slug: string }) =>
    db.selectFrom('categories').select(['id', 'name']).where('slug', '=', args.slug),
  ['slug'],
);

async function preparedOnConnection(preparedStatements: boolean) {
  const database = await postgresCopy(process.env.TEST_DATABASE_URL!);
  // one connection, so the statement and the catalog view of prepared statements share it
  const handle = createDb(database.url, { poolSize: 1, preparedStatements });
  try {
    const answers = [
      await categoryBySlug(handle.db, { slug: 'kayaks' }),
      await categoryBySlug(handle.db, { slug: 'jet-skis' }),
    ];
    const { rows } = await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements where statement like '%from "categories"%'`.execute(
      handle.db,
    );
    return { answers, prepared: rows };
  } finally {
    await handle.close();
    await database.drop();
  }
}

describe.skipIf(!usingPostgres)('PostgreSQL prepared statements', () => {
  it('prepare a compiled hot query once per connection and answer each call with its own arguments', async () => {
    const { answers, prepared } = await preparedOnConnection(true);
    expect(answers).toEqual([[{ id: 1, name: 'Kayaks' }], [{ id: 10, name: 'Jet skis' }]]);
    expect(prepared).toHaveLength(1);
    expect(prepared[0].name).toMatch(/^waterbook_\d+$/);
    expect(prepared[0].statement).toContain('where "slug" = $1');
  });

  it('are not used when turned off (for poolers that cannot keep them)', async () => {
    const { answers, prepared } = await preparedOnConnection(false);
    expect(answers).toEqual([[{ id: 1, name: 'Kayaks' }], [{ id: 10, name: 'Jet skis' }]]);
    expect(prepared).toEqual([]);
  });
});
