import { sql } from 'kysely';
import { type AnyDb, notNull, withId } from './schema-helpers.ts';

// Teams (decisions §25). A vendor account now says which vendor it works for and in which role on the
// user row itself (users.vendor_id, users.vendor_role), so the authentication lookup reads both with the
// user in one indexed row, and every write to them bumps the accounts version (migration 2026112216):
// a role change or a removal is seen by the member's very next request. The registering account is its
// vendor's owner; a partial unique index keeps one owner per vendor whatever runs at once. A removed
// member's row stays (the history names it) with deactivated_at set and no vendor.
//
// Invitations store only the hash of their token; the token itself is made when the outbox fans the
// invitation's mail out and lives in that delivery until it is finished (like a password reset's).
// Refunds record the member who asked for them (null: the customer's cancel, the sweep, the gateway).
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('vendor_id', 'integer', (c) => c.references('vendor_profiles.id'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('vendor_role', 'text', (c) => c.check(sql`vendor_role in ('owner', 'manager', 'staff')`))
    .execute();
  await db.schema.alterTable('users').addColumn('deactivated_at', 'bigint').execute();
  await sql`update users set vendor_id = (select p.id from vendor_profiles p where p.user_id = users.id),
    vendor_role = 'owner' where exists (select 1 from vendor_profiles p where p.user_id = users.id)`.execute(
    db,
  );
  await db.schema
    .createIndex('users_one_owner_per_vendor')
    .unique()
    .on('users')
    .column('vendor_id')
    .where(sql.ref('vendor_role'), '=', 'owner')
    .execute();
  await db.schema.createIndex('users_vendor_idx').on('users').column('vendor_id').execute();

  await withId(db, db.schema.createTable('team_invitations'))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendor_profiles.id'))
    .addColumn('email', 'text', notNull)
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('manager', 'staff')`))
    .addColumn('invited_by', 'integer', (c) => c.notNull().references('users.id'))
    // set when the mail is fanned out; null until then
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('team_invitations_vendor_idx')
    .on('team_invitations')
    .column('vendor_id')
    .execute();

  await db.schema
    .alterTable('refunds')
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('refunds').dropColumn('actor_id').execute();
  await db.schema.dropTable('team_invitations').execute();
  await db.schema.dropIndex('users_vendor_idx').execute();
  await db.schema.dropIndex('users_one_owner_per_vendor').execute();
  for (const column of ['deactivated_at', 'vendor_role', 'vendor_id'])
    await db.schema.alterTable('users').dropColumn(column).execute();
}
