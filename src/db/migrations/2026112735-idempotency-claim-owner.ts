import type { AnyDb } from './schema-helpers.ts';

// The process holding an idempotency key's claim (src/http/claim-owner.ts), so that a retry can tell a
// claim whose process has died from one still running. Null on answered keys' old rows and where the
// process cannot be named (no /proc): those claims stand until their timeout, as before.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('claimed_by', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('idempotency_keys').dropColumn('claimed_by').execute();
}
