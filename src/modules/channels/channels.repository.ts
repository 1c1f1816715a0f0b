import type { Insertable, Selectable, Updateable } from 'kysely';
import type { ChannelsTable, Db } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect.ts';
import { newestFirstPage } from '../../db/page-query.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { Page } from '../../http/pagination.ts';

// Channels (decisions §24): a vendor's resellers and their hashed keys.

export type ChannelRow = Selectable<ChannelsTable>;

export async function insertChannel(db: Db, values: Insertable<ChannelsTable>): Promise<number> {
  const row = await db.insertInto('channels').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A vendor's channel. `forUpdate`: locked against bookings being inserted for it meanwhile (PostgreSQL:
 * FOR UPDATE, which a booking's foreign key check waits on; SQLite: the write lock is held already).
 */
export async function findVendorChannel(
  db: Db,
  vendorId: number,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<ChannelRow | undefined> {
  const query = db.selectFrom('channels').selectAll().where('id', '=', id).where('vendor_id', '=', vendorId);
  return (options.forUpdate ? forUpdate(db, query) : query).executeTakeFirst();
}

export async function listVendorChannels(db: Db, vendorId: number, page: Page) {
  return newestFirstPage<ChannelRow>(db.selectFrom('channels').where('vendor_id', '=', vendorId), page);
}

export async function updateChannel(db: Db, id: number, values: Updateable<ChannelsTable>): Promise<void> {
  await db.updateTable('channels').set(values).where('id', '=', id).execute();
}

export async function deleteChannel(db: Db, id: number): Promise<void> {
  await db.deleteFrom('channels').where('id', '=', id).execute();
}

/** Whether any booking was made through the channel (whatever became of it). */
export async function channelHasBookings(db: Db, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('channel_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// Every OCTO request looks its channel up by its key's hash: prepared once (preparedQuery).
const activeChannelByHash = preparedQuery(
  (db, a: { hash: string }) =>
    db
      .selectFrom('channels')
      .select(['id', 'vendor_id', 'account_id', 'name'])
      .where('key_hash', '=', a.hash)
      .where('is_active', '=', 1),
  ['hash'],
);

/** The active channel whose key hashes to `hash`, if any. */
export async function findActiveChannelByHash(db: Db, hash: string) {
  return (await activeChannelByHash(db, { hash }))[0];
}
