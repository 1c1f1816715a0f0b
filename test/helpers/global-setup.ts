import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { adminQuery, migratedPostgresDatabase, migratedSqliteImage } from './test-databases.ts';

// Once per run: the migrated templates every test app's database is copied from (test-databases.ts). On
// PostgreSQL also the extensions the migrations need, in TEST_DATABASE_URL's own database, for the tests
// that work in a schema there: extensions are per database, so they are created once here instead of by
// many files at once.
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'waterbook-templates-'));
  const sqliteImageFile = join(dir, 'migrated.sqlite');
  writeFileSync(sqliteImageFile, await migratedSqliteImage());
  const url = process.env.TEST_DATABASE_URL;
  const pgTemplate = url ? `waterbook_tmpl_${randomBytes(5).toString('hex')}` : undefined;
  if (url && pgTemplate) {
    await adminQuery(
      url,
      'create extension if not exists btree_gist',
      'create extension if not exists pg_trgm',
    );
    await migratedPostgresDatabase(url, pgTemplate);
  }
  project.provide('testTemplates', { sqliteImageFile, pgTemplate });
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (url && pgTemplate) await adminQuery(url, `drop database if exists ${pgTemplate} with (force)`);
  };
}
