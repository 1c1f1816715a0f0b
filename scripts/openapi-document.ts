// Prints the OpenAPI document the server serves at /api/v1/openapi.json (for linting and for clients).
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

const handle = createDb('sqlite::memory:');
await migrateToLatest(handle.db);
const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: 'document-only-secret-value' }), {
  db: handle.db,
});
const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
await app.close();
await handle.close();
process.stdout.write(`${res.body}\n`);
