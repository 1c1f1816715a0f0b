import { type AnyDb, notNull, withId } from './schema-helpers.ts';

// Idempotency keys of authenticated POSTs (decisions §13): one row per (user, key), claimed by the first
// request before its work begins. The unique index decides which of several simultaneous requests with one
// key runs, on both databases and across server processes; the others read the row. A claim has no answer
// yet (response_status null) while its request runs; the answer is written when it is sent, or the row is
// deleted when the answer is not one to keep. `request_hash` fingerprints method, path and body, so a key
// sent again with another request is recognised. Rows are ignored from `expires_at` on and deleted later.

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('idempotency_keys'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', notNull)
    .addColumn('request_hash', 'text', notNull)
    .addColumn('response_status', 'integer')
    .addColumn('response_content_type', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .execute();
  await db.schema
    .createIndex('idempotency_keys_user_key')
    .unique()
    .on('idempotency_keys')
    .columns(['user_id', 'idempotency_key'])
    .execute();
  // the periodic delete of expired keys is a range scan
  await db.schema
    .createIndex('idempotency_keys_expires_idx')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
