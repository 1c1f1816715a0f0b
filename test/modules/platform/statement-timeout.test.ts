import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/create-db.ts';
import { toErrorResponse } from '../../../src/http/error-handler.ts';
import { usingPostgres } from '../../helpers/build-test-app.ts';

describe.skipIf(!usingPostgres)('PostgreSQL statement timeout', () => {
  it('cancels a statement that runs too long, and the request gets 503 (not 500, not a hang)', async () => {
    const handle = createDb(process.env.TEST_DATABASE_URL!, { statementTimeoutMs: 200 });
    try {
      const started = Date.now();
      const error = await sql`select pg_sleep(5)`.execute(handle.db).then(
        () => null,
        (e: unknown) => e as Error & { code?: string },
      );
      expect(Date.now() - started).toBeLessThan(3000);
      expect(error?.code).toBe('57014');
      expect(toErrorResponse(error!)).toEqual({
        status: 503,
        body: {
          detail: 'The service is temporarily unavailable; try again shortly.',
          code: 'service_unavailable',
        },
      });
    } finally {
      await handle.close();
    }
  });
});
