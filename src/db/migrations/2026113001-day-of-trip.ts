import { sql } from 'kysely';
import { type AnyDb, emptyText } from './schema-helpers.ts';

// The day of the trip (decisions §23). A listing's questions are a JSON list (src/lib/questions.ts; '[]':
// none); a booking's answers are the JSON object its request gave, checked then, so a later change of the
// questions never changes them. A vendor's waiver text is '' when none. A booking's waiver acceptance is
// kept as the name typed, the instant, the SHA-256 of the exact text accepted and the client's address and
// User-Agent (NULL: no waiver was asked). Attendance is the day's own state beside the booking's status.
// The manifest reads a vendor's bookings by local day: by starts_at (departures, pick-ups) and by ends_at
// (returns), each with its own index.
const WAIVER_COLUMNS = [
  ['waiver_name', 'text'],
  ['waiver_accepted_at', 'bigint'],
  ['waiver_text_sha256', 'text'],
  ['waiver_client_ip', 'text'],
  ['waiver_user_agent', 'text'],
] as const;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('listings')
    .addColumn('questions', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('vendor_profiles').addColumn('waiver_text', 'text', emptyText).execute();
  await db.schema
    .alterTable('bookings')
    .addColumn('answers', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  for (const [column, type] of WAIVER_COLUMNS)
    await db.schema.alterTable('bookings').addColumn(column, type).execute();
  await db.schema
    .alterTable('bookings')
    .addColumn('attendance', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`attendance in ('pending', 'checked_in', 'no_show', 'returned')`),
    )
    .execute();
  await db.schema.alterTable('bookings').addColumn('attendance_updated_at', 'bigint').execute();
  await db.schema
    .createIndex('bookings_vendor_starts_idx')
    .on('bookings')
    .columns(['vendor_id', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('bookings_vendor_ends_idx')
    .on('bookings')
    .columns(['vendor_id', 'ends_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_vendor_ends_idx').execute();
  await db.schema.dropIndex('bookings_vendor_starts_idx').execute();
  for (const column of ['attendance_updated_at', 'attendance', ...WAIVER_COLUMNS.map(([c]) => c), 'answers'])
    await db.schema.alterTable('bookings').dropColumn(column).execute();
  await db.schema.alterTable('vendor_profiles').dropColumn('waiver_text').execute();
  await db.schema.alterTable('listings').dropColumn('questions').execute();
}
