import pg from 'pg';

// On PostgreSQL each test file works in a schema of its own; extensions are per database, so the one the
// migrations need is created once here instead of by many files at once.
export async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists btree_gist');
    await client.query('create extension if not exists pg_trgm');
  } finally {
    await client.end();
  }
}
