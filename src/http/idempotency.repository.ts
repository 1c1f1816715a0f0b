import type { Db, IdempotencyKeysTable, Millis } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { insertReturningId } from '../db/prepared-query.ts';

// The SQL of idempotency keys (decisions §13); the rules are in idempotency.ts.

export interface KeyClaim {
  userId: number;
  key: string;
  requestHash: string;
  now: Millis;
  expiresAt: Millis;
  /** the process that runs the request (http/claim-owner.ts) */
  owner: string | null;
}

export type StoredKey = Pick<
  IdempotencyKeysTable,
  | 'request_hash'
  | 'response_status'
  | 'response_content_type'
  | 'response_body'
  | 'created_at'
  | 'expires_at'
  | 'claimed_by'
> & { id: number };

/** A running claim: its row, and the instant it was claimed, which tells it from a later claim of the row. */
export interface ClaimRef {
  id: number;
  claimedAt: Millis;
}

/** Inserts a running claim; null when the user already has a row with this key (the unique index says). */
export async function insertKeyClaim(db: Db, claim: KeyClaim): Promise<number | null> {
  try {
    return await insertReturningId(
      db,
      db.insertInto('idempotency_keys').values({
        user_id: claim.userId,
        idempotency_key: claim.key,
        request_hash: claim.requestHash,
        created_at: claim.now,
        expires_at: claim.expiresAt,
        claimed_by: claim.owner,
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export async function findKey(db: Db, userId: number, key: string): Promise<StoredKey | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .select([
      'id',
      'request_hash',
      'response_status',
      'response_content_type',
      'response_body',
      'created_at',
      'expires_at',
      'claimed_by',
    ])
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/**
 * Claims a running row anew whose request was lost (its process died, or its claim timed out); false when
 * another request moved first.
 */
export async function takeOverClaim(db: Db, stale: ClaimRef, claim: KeyClaim): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ created_at: claim.now, expires_at: claim.expiresAt, claimed_by: claim.owner })
    .where('id', '=', stale.id)
    .where('created_at', '=', stale.claimedAt)
    .where('response_status', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records the answer of a running claim, unless the claim was taken over meanwhile. */
export async function storeKeyResponse(
  db: Db,
  claim: ClaimRef,
  response: { status: number; contentType: string | null; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      response_status: response.status,
      response_content_type: response.contentType,
      response_body: response.body,
    })
    .where('id', '=', claim.id)
    .where('created_at', '=', claim.claimedAt)
    .where('response_status', 'is', null)
    .execute();
}

/** Frees a running claim whose answer is not kept, unless the claim was taken over meanwhile. */
export async function deleteKeyClaim(db: Db, claim: ClaimRef): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('id', '=', claim.id)
    .where('created_at', '=', claim.claimedAt)
    .where('response_status', 'is', null)
    .execute();
}

/** Deletes one expired row, if it is still expired (another request may have replaced it meanwhile). */
export async function deleteExpiredKey(db: Db, id: number, now: Millis): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('id', '=', id).where('expires_at', '<=', now).execute();
}

export async function deleteExpiredKeys(db: Db, now: Millis): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
