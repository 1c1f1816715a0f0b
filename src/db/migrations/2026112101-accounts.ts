import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('users'))
    .addColumn('email', 'text', notNull)
    .addColumn('password_hash', 'text', notNull)
    .addColumn('first_name', 'text', emptyText)
    .addColumn('last_name', 'text', emptyText)
    .addColumn('phone_number', 'text', emptyText)
    .addColumn('is_vendor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_staff', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('date_joined', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('users_email_key').unique().on('users').column('email').execute();

  await withId(db, db.schema.createTable('vendor_profiles'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('business_name', 'text', notNull)
    .addColumn('slug', 'text', notNull)
    .addColumn('description', 'text', emptyText)
    .addColumn('contact_phone', 'text', emptyText)
    .addColumn('contact_email', 'text', emptyText)
    .addColumn('address_line1', 'text', emptyText)
    .addColumn('address_line2', 'text', emptyText)
    .addColumn('city', 'text', emptyText)
    .addColumn('state', 'text', emptyText)
    .addColumn('postal_code', 'text', emptyText)
    .addColumn('country', 'text', emptyText)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema
    .createIndex('vendor_profiles_user_key')
    .unique()
    .on('vendor_profiles')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('vendor_profiles_slug_key')
    .unique()
    .on('vendor_profiles')
    .column('slug')
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('revoked_at', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', notNull)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['app_settings', 'refresh_tokens', 'vendor_profiles', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
