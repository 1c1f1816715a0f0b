import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/build-test-app.ts';
import { freshDatabase, killServers, startServer, type TestDatabase } from './server-process.ts';

let database: TestDatabase | undefined;
afterAll(async () => {
  await killServers();
  await database?.drop();
});

async function connectionsTo(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where datname = $1',
      [new URL(url).pathname.slice(1)],
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

describe.skipIf(!usingPostgres)('PG_POOL_SIZE', () => {
  it('caps the connections one server process opens; the requests beyond them wait and succeed', async () => {
    database = await freshDatabase();
    const server = await startServer(database.url, { PG_POOL_SIZE: '3' });
    // Each readiness check runs a query: sixty at once keep every pooled connection busy, so the pool
    // opens as many as it may (the default, 10, would show here as more than three).
    const statuses = await Promise.all(
      Array.from({ length: 60 }, () => fetch(`${server.url}/readyz`).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(60).fill(200));
    // idle connections stay open in the pool (for 10 s), so they are still there to count
    expect(await connectionsTo(database.url)).toBe(3);
  });
});
