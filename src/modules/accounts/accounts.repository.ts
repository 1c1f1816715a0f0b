import type { Insertable, Selectable, Updateable } from 'kysely';
import { cacheVersion } from '../../db/cache-versions.ts';
import type {
  Db,
  PasswordResetTokensTable,
  UsersTable,
  VendorProfilesTable,
  VendorRole,
} from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { DetailCache, throughCache } from '../../lib/versioned-cache.ts';

export type UserRow = Selectable<UsersTable>;
export type VendorProfileRow = Selectable<VendorProfilesTable>;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * What authentication needs of a user, in one indexed lookup; it runs on every authenticated request, so
 * it is prepared once. The vendor and the team role are columns of the user row itself (migration
 * 2026112905), so the permission table's check reads them with the user, at no extra query.
 */
const authUserQuery = preparedQuery(
  (db, a: { id: number }) =>
    db
      .selectFrom('users')
      .select([
        'users.id',
        'users.email',
        'users.is_vendor',
        'users.is_staff',
        'users.vendor_id',
        'users.vendor_role',
      ])
      .where('users.id', '=', a.id)
      // a member removed from their team: their access tokens stop working with this very lookup
      .where('users.deactivated_at', 'is', null),
  ['id'],
);

export async function findAuthUser(db: Db, id: number) {
  return (await authUserQuery(db, { id }))[0];
}

export type AuthUserRow = NonNullable<Awaited<ReturnType<typeof findAuthUser>>>;

/**
 * findAuthUser with a cache of its own (one per app instance: the accounts deps builder makes it): each
 * user is read once per accounts version and kept as `map` makes it, so a user changed or removed by any
 * process is seen by the next lookup.
 */
export function cachedAuthUserLookup<V extends object>(
  map: (row: AuthUserRow) => V,
): (db: Db, id: number) => Promise<V | undefined> {
  const cache = new DetailCache<V>();
  return (db, id) =>
    throughCache(
      cache,
      () => cacheVersion(db, 'accounts'),
      String(id),
      async () => {
        const row = await findAuthUser(db, id);
        return row && map(row);
      },
    );
}

export async function insertUser(db: Db, values: Insertable<UsersTable>): Promise<UserRow> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateUser(
  db: Db,
  id: number,
  values: Updateable<UsersTable>,
): Promise<UserRow | undefined> {
  return db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function insertVendorProfile(
  db: Db,
  values: Insertable<VendorProfilesTable>,
): Promise<VendorProfileRow> {
  return db.insertInto('vendor_profiles').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findProfileBySlug(db: Db, slug: string): Promise<VendorProfileRow | undefined> {
  return db.selectFrom('vendor_profiles').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function findProfileById(db: Db, id: number): Promise<VendorProfileRow | undefined> {
  return db.selectFrom('vendor_profiles').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateProfile(
  db: Db,
  id: number,
  values: Updateable<VendorProfilesTable>,
): Promise<VendorProfileRow> {
  return db
    .updateTable('vendor_profiles')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Slugs equal to base or of the form base-N, to pick the next free suffix. */
export async function slugsLike(db: Db, base: string, exceptProfileId?: number): Promise<string[]> {
  let query = db
    .selectFrom('vendor_profiles')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
  if (exceptProfileId !== undefined) query = query.where('id', '!=', exceptProfileId);
  return (await query.execute()).map((r) => r.slug);
}

export async function insertRefreshToken(
  db: Db,
  values: { jti: string; user_id: number; expires_at: number; created_at: number },
): Promise<void> {
  await db.insertInto('refresh_tokens').values(values).execute();
}

/** Revokes one live refresh token; false when it was already revoked, expired or unknown. */
export async function revokeRefreshToken(db: Db, jti: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('jti', '=', jti)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findRefreshToken(db: Db, jti: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('jti', '=', jti).executeTakeFirst();
}

export async function revokeAllRefreshTokens(db: Db, userId: number, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function findSetting(db: Db, key: string): Promise<string | undefined> {
  return (await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst())
    ?.value;
}

/** Stores the value unless the key already has one (the first writer wins across instances). */
export async function insertSettingIfAbsent(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function insertPasswordResetToken(
  db: Db,
  values: Insertable<PasswordResetTokensTable>,
): Promise<void> {
  await db.insertInto('password_reset_tokens').values(values).execute();
}

/** A reset token by its hash (the unique index), with the email of its user for the password rules. */
export async function findPasswordResetToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select([
      'password_reset_tokens.id',
      'password_reset_tokens.user_id',
      'password_reset_tokens.expires_at',
      'password_reset_tokens.used_at',
      'users.email',
    ])
    .where('password_reset_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Marks a reset token used if it still is unused and unexpired; false when another request used it first
 * or it ran out in between. The guard in the UPDATE is what makes a token single-use: of two simultaneous
 * confirms exactly one updates the row.
 */
export async function usePasswordResetToken(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every reset token of the user still usable at `now`: they expire now (used_at stays unset). */
export async function expirePasswordResetTokens(db: Db, userId: number, now: number): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ expires_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
}

/** Makes the account a vendor's team member in `role` (registration: the owner; joining: the invited role). */
export async function joinTeam(db: Db, userId: number, vendorId: number, role: VendorRole): Promise<void> {
  await db
    .updateTable('users')
    .set({ vendor_id: vendorId, vendor_role: role })
    .where('id', '=', userId)
    .execute();
}
