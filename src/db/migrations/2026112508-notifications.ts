import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

// Notifications (decisions §14) and password resets (§15).
//
// notification_events is the transactional outbox: a row is inserted in the same transaction as the change
// it reports, so a rolled-back change leaves none, and `payload` is the exact JSON body every receiver
// gets. A worker in each server process fans an undispatched event out (dispatched_at null) into one
// notification_deliveries row per receiver: each matching webhook endpoint of the vendor, each mail
// recipient. A delivery is claimed by pushing its next_attempt_at past the send's timeout and counting the
// attempt (on PostgreSQL the candidates are read FOR UPDATE SKIP LOCKED), and its outcome is written only
// if the attempt count is still the one claimed: a process that lost its claim to a timeout never
// overwrites the newer attempt's result.
//
// password_reset_tokens keeps only a hash of each token: the raw token exists in the mail and, until that
// mail is sent, in its delivery's `secret` column, which is cleared once the delivery is finished.

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('notification_endpoints'))
    .addColumn('vendor_id', 'integer', (c) =>
      c.notNull().references('vendor_profiles.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', notNull)
    .addColumn('description', 'text', emptyText)
    /** JSON array of event types, or ["*"] */
    .addColumn('event_types', 'text', notNull)
    .addColumn('secret', 'text', notNull)
    /** after a rotation the old secret still signs (a second signature) until this expires */
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema
    .createIndex('notification_endpoints_vendor_idx')
    .on('notification_endpoints')
    .columns(['vendor_id', 'id'])
    .execute();

  await withId(db, db.schema.createTable('notification_events'))
    // 128 random bits (newEventId), never looked up: a unique index would cost every booking request an
    // insert at a random place of a growing index, for collisions that do not happen
    .addColumn('public_id', 'text', notNull)
    .addColumn('type', 'text', notNull)
    /** the vendor whose endpoints receive it; null for an account's own mail (a password reset) */
    .addColumn('vendor_id', 'integer')
    .addColumn('booking_id', 'integer')
    .addColumn('payload', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('dispatched_at', 'bigint')
    .execute();
  // the worker's scan for events not yet fanned out
  await db.schema
    .createIndex('notification_events_undispatched_idx')
    .on('notification_events')
    .columns(['dispatched_at', 'id'])
    .execute();

  await withId(db, db.schema.createTable('notification_deliveries'))
    .addColumn('event_id', 'integer', (c) =>
      c.notNull().references('notification_events.id').onDelete('cascade'),
    )
    /** 'webhook' | 'email' */
    .addColumn('channel', 'text', notNull)
    .addColumn('endpoint_id', 'integer', (c) => c.references('notification_endpoints.id').onDelete('cascade'))
    /** email: the address; webhook: null (the endpoint's url is read at each attempt) */
    .addColumn('recipient', 'text')
    /** email: whose message it is ('customer' | 'vendor' | 'account'); webhook: null */
    .addColumn('recipient_role', 'text')
    /** a value the message needs that is kept nowhere else in clear (a reset token); null once finished */
    .addColumn('secret', 'text')
    /** 'pending' | 'succeeded' | 'failed' */
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    /** when the next attempt is due (pending), or when a claimed attempt's claim runs out; null once finished */
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  // the worker's scan for due deliveries (finished ones have next_attempt_at null)
  await db.schema
    .createIndex('notification_deliveries_due_idx')
    .on('notification_deliveries')
    .columns(['next_attempt_at'])
    .execute();
  // an endpoint's delivery log, newest first
  await db.schema
    .createIndex('notification_deliveries_endpoint_idx')
    .on('notification_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute();
  await db.schema
    .createIndex('notification_deliveries_event_idx')
    .on('notification_deliveries')
    .column('event_id')
    .execute();

  await withId(db, db.schema.createTable('password_reset_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    /** hex SHA-256 of the token */
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('password_reset_tokens_user_idx')
    .on('password_reset_tokens')
    .column('user_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('password_reset_tokens').execute();
  await db.schema.dropTable('notification_deliveries').execute();
  await db.schema.dropTable('notification_events').execute();
  await db.schema.dropTable('notification_endpoints').execute();
}
