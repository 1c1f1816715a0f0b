import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('payments'))
    .addColumn('booking_id', 'integer', (c) => c.notNull().references('bookings.id'))
    .addColumn('gateway_payment_intent_id', 'text', notNull)
    .addColumn('client_secret', 'text', notNull)
    .addColumn('gateway_charge_id', 'text', emptyText)
    .addColumn('amount_cents', 'bigint', notNull)
    .addColumn('currency', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema
    .createIndex('payments_intent_key')
    .unique()
    .on('payments')
    .column('gateway_payment_intent_id')
    .execute();
  await db.schema.createIndex('payments_booking_idx').on('payments').column('booking_id').execute();

  await withId(db, db.schema.createTable('webhook_events'))
    .addColumn('gateway_event_id', 'text', notNull)
    .addColumn('event_type', 'text', notNull)
    .addColumn('gateway_payment_intent_id', 'text', notNull)
    .addColumn('payload', 'text', notNull)
    .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  // Webhook idempotency lives here: the insert of the event and its effect share one transaction.
  await db.schema
    .createIndex('webhook_events_event_key')
    .unique()
    .on('webhook_events')
    .column('gateway_event_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('webhook_events').execute();
  await db.schema.dropTable('payments').execute();
}
