import type { Db } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { reachedConfirmed, revenueOf, type Scope } from './analytics.repository.ts';

// The vendor summary's channel rows (decisions §24): bookings made through each channel.

export interface ChannelRow {
  channel_id: number;
  name: string;
  bookings: number;
  confirmed: number;
  revenue_cents: number;
}

/**
 * The vendor's channels with bookings created in [from, to) (decisions §24), each with those bookings,
 * those that reached confirmed and their revenue (as the attributed rows count them: reachedConfirmed,
 * revenueOf), read from the bookings themselves (the rollups keep no channel) through the channel's
 * (channel_id, created_at) index; by bookings descending, then name (byte-wise) and id.
 */
export async function channelRows(
  db: Db,
  scope: Scope,
  range: { from: number; to: number },
): Promise<ChannelRow[]> {
  const rows = await db
    .selectFrom('channels')
    .innerJoin('bookings', 'bookings.channel_id', 'channels.id')
    .select((eb) => [
      'channels.id as channel_id',
      'channels.name',
      eb.cast<number>(eb.fn.countAll(), 'integer').as('bookings'),
      eb.cast<number>(eb.fn.sum(reachedConfirmed), 'integer').as('confirmed'),
      eb.cast<number>(eb.fn.sum(revenueOf(scope.currency)), 'bigint').as('revenue_cents'),
    ])
    .where('channels.vendor_id', '=', scope.vendorId)
    .where('bookings.vendor_id', '=', scope.vendorId)
    .where('bookings.created_at', '>=', range.from)
    .where('bookings.created_at', '<', range.to)
    .groupBy(['channels.id', 'channels.name'])
    .orderBy('bookings', 'desc')
    // byte-wise on both databases, as the campaign rows
    .orderBy('channels.name', (ob) => (dialectOf(db) === 'postgres' ? ob.asc().collate('C') : ob.asc()))
    .orderBy('channels.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    bookings: Number(r.bookings),
    confirmed: Number(r.confirmed),
    revenue_cents: Number(r.revenue_cents),
  }));
}
