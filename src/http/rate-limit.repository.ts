import { sql } from 'kysely';
import type { Db, Millis } from '../db/database.ts';
import { preparedQuery } from '../db/prepared-query.ts';

// The SQL of the rate-limit counters shared by server processes on PostgreSQL (decisions §18; the table:
// migration 2026112601); the rules are in rate-limit.ts.

export interface HitCount {
  /** hits in the current window, this one included */
  count: number;
  /** when the window ends */
  expires_at: Millis;
}

// One statement per limited request, whatever the row's state: inserted at 1, counted up, or started
// afresh at 1 when its window has passed. PostgreSQL runs simultaneous upserts of one key one after the
// other on the row's lock, so no hit is lost across processes.
const countHitQuery = preparedQuery(
  (db, a: { key: string; now: Millis; expiresAt: Millis }) => {
    const lapsed = sql<boolean>`rate_limit_hits.expires_at <= ${a.now}`;
    return db
      .insertInto('rate_limit_hits')
      .values({ key: a.key, count: 1, expires_at: a.expiresAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql`case when ${lapsed} then 1 else rate_limit_hits.count + 1 end`,
          expires_at: sql`case when ${lapsed} then excluded.expires_at else rate_limit_hits.expires_at end`,
        }),
      )
      .returning(['count', 'expires_at']);
  },
  ['key', 'now', 'expiresAt'],
);

/** Counts one hit of `key`; a window that has passed gives way to a new one ending at `expiresAt`. */
export async function countHit(db: Db, key: string, now: Millis, expiresAt: Millis): Promise<HitCount> {
  return (await countHitQuery(db, { key, now, expiresAt }))[0];
}

/**
 * Deletes the counters whose window has passed. Rows another statement holds are skipped (left for the
 * next time): two processes deleting at once never wait for each other, nor for a request's hit.
 */
export async function deleteLapsedHits(db: Db, now: Millis): Promise<number> {
  const result = await db
    .deleteFrom('rate_limit_hits')
    .where('key', 'in', (qb) =>
      qb.selectFrom('rate_limit_hits').select('key').where('expires_at', '<=', now).forUpdate().skipLocked(),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
