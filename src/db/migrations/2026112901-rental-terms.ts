import { sql } from 'kysely';
import type { AnyDb } from './schema-helpers.ts';

// Rental periods (decisions §20). An equipment item's `rates` are a JSON list of {durationMinutes,
// priceCents}, shortest first (src/lib/rental-terms.ts; '[]': priced per day only); its duration limits are
// null when absent; `buffer_minutes` keeps a booking's units taken that long after its end. A booking
// stores none of them: its price is fixed when requested, and its hold is its window plus the item's
// current buffer. A vendor's `opening_hours` is JSON text of the seven days' local intervals, or null:
// always open.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('listings')
    .addColumn('rates', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  for (const column of ['min_duration_minutes', 'max_duration_minutes'])
    await db.schema
      .alterTable('listings')
      .addColumn(column, 'integer', (c) => c.check(sql`${sql.ref(column)} between 15 and 525600`))
      .execute();
  await db.schema
    .alterTable('listings')
    .addColumn('buffer_minutes', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`buffer_minutes between 0 and 1440`),
    )
    .execute();
  await db.schema.alterTable('vendor_profiles').addColumn('opening_hours', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('vendor_profiles').dropColumn('opening_hours').execute();
  for (const column of ['buffer_minutes', 'max_duration_minutes', 'min_duration_minutes', 'rates'])
    await db.schema.alterTable('listings').dropColumn(column).execute();
}
