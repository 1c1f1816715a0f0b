import { sql } from 'kysely';
import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

// Cancellation policies and refunds (decisions §12). A listing's policy is two columns whose defaults are
// the policy every existing listing gets. A refund is a row of its own, written before the gateway is
// called (status pending, its amount reserved against the payment) so that a crash between the gateway
// call and the write that records its outcome leaves a row to reconcile, never a refund nobody knows of.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('listings')
    .addColumn('free_cancellation_hours', 'integer', (c) =>
      c.notNull().defaultTo(24).check(sql`free_cancellation_hours between 0 and 8760`),
    )
    .execute();
  await db.schema
    .alterTable('listings')
    .addColumn('late_refund_percent', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`late_refund_percent between 0 and 100`),
    )
    .execute();

  await withId(db, db.schema.createTable('refunds'))
    .addColumn('payment_id', 'integer', (c) => c.notNull().references('payments.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('currency', 'text', notNull)
    .addColumn('reason', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('note', 'text', emptyText)
    .addColumn('gateway_refund_id', 'text', emptyText)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('refunds_payment_idx').on('refunds').column('payment_id').execute();
  // the reconciliation at start-up reads the pending ones only
  await db.schema
    .createIndex('refunds_pending_idx')
    .on('refunds')
    .column('id')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('refunds').execute();
  await db.schema.alterTable('listings').dropColumn('late_refund_percent').execute();
  await db.schema.alterTable('listings').dropColumn('free_cancellation_hours').execute();
}
