import { sql } from 'kysely';
import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

const CATEGORIES = [
  ['Kayaks', 'kayaks'],
  ['Stand-up paddleboards', 'stand-up-paddleboards'],
  ['Surfboards', 'surfboards'],
  ['Wetsuits', 'wetsuits'],
  ['Snorkeling gear', 'snorkeling-gear'],
  ['Scuba diving', 'scuba-diving'],
  ['Boat tours', 'boat-tours'],
  ['Sailing', 'sailing'],
  ['Fishing trips', 'fishing-trips'],
  ['Jet skis', 'jet-skis'],
];

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('categories'))
    .addColumn('name', 'text', notNull)
    .addColumn('slug', 'text', notNull)
    .addColumn('description', 'text', emptyText)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('categories_slug_key').unique().on('categories').column('slug').execute();
  await db.schema.createIndex('categories_name_idx').on('categories').column('name').execute();
  // A fixed instant: the seed is part of the schema's history, not of any clock.
  const seededAt = Date.UTC(2026, 0, 1);
  await db
    .insertInto('categories')
    .values(
      CATEGORIES.map(([name, slug]) => ({
        name,
        slug,
        description: '',
        created_at: seededAt,
        updated_at: seededAt,
      })),
    )
    .execute();

  await withId(db, db.schema.createTable('listings'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('equipment', 'adventure')`))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendor_profiles.id'))
    .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
    .addColumn('public_id', 'text', notNull)
    .addColumn('title', 'text', notNull)
    .addColumn('description', 'text', emptyText)
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('location', 'text', emptyText)
    .addColumn('price_cents', 'bigint', notNull)
    .addColumn('duration_minutes', 'integer')
    .addColumn('capacity', 'integer')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('archived_at', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema
    .createIndex('listings_public_id_key')
    .unique()
    .on('listings')
    .columns(['kind', 'public_id'])
    .execute();
  await db.schema
    .createIndex('listings_vendor_idx')
    .on('listings')
    .columns(['vendor_id', 'kind', 'created_at'])
    .execute();
  await db.schema
    .createIndex('listings_category_idx')
    .on('listings')
    .columns(['category_id', 'kind'])
    .execute();
  await db.schema.createIndex('listings_price_idx').on('listings').columns(['kind', 'price_cents']).execute();
  await db.schema
    .createIndex('listings_created_idx')
    .on('listings')
    .columns(['kind', 'created_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('listings').execute();
  await db.schema.dropTable('categories').execute();
}
