import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { insertUser } from './accounts.repository.ts';

// A channel's account (decisions §24; migration 2026120101): the users row its bookings name as their
// customer_id, because that column is NOT NULL. It can never sign in: deactivated from the start, a
// password hash no password verifies against (not an argon2 hash at all), and an address under the
// reserved .invalid domain that no mail reaches and no registration can take.

/** The password hash of accounts nobody may sign in to. */
export const UNUSABLE_PASSWORD_HASH = '!channel-account';

/** Inserts a channel's account (in the caller's transaction) and returns its id. */
export async function insertChannelAccount(db: Db, now: number): Promise<number> {
  const user = await insertUser(db, {
    email: `channel-${randomUUID()}@channels.invalid`,
    password_hash: UNUSABLE_PASSWORD_HASH,
    first_name: 'Channel',
    last_name: '',
    phone_number: '',
    is_vendor: 0,
    is_staff: 0,
    deactivated_at: now,
    date_joined: now,
    updated_at: now,
  });
  return user.id;
}

/** Deletes a channel's account (only such an account: the guard is its unusable hash). */
export async function deleteChannelAccount(db: Db, id: number): Promise<void> {
  await db
    .deleteFrom('users')
    .where('id', '=', id)
    .where('password_hash', '=', UNUSABLE_PASSWORD_HASH)
    .execute();
}
