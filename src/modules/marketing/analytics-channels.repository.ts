import type { Db } from '../../db/database.ts';
import { reachedConfirmed, revenueOf, type Scope } from './analytics.repository.ts';

// The vendor summary's channel rows (decisions §24): bookings made through each channel.

export interface ChannelRow {
  channel_id: number;
  name: string;
  bookings: number;
  confirmed: number;
  revenue_cents: number;
}

/** Byte-wise, as the campaign rows are ordered on both databases. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The vendor's channels with bookings created in [from, to) (decisions §24), each with those bookings,
 * those that reached confirmed and their revenue (as the attributed rows count them: reachedConfirmed,
 * revenueOf), read from the bookings themselves (the rollups keep no channel); by bookings descending,
 * then name (byte-wise) and id. The vendor's channels are read first, so a vendor without any (most)
 * pays one indexed read, and the bookings are then counted through the channels' (channel_id,
 * created_at) index alone: joined in one statement, SQLite chose to walk all of the vendor's bookings
 * in range by the vendor's index instead, over a hundred milliseconds for a busy vendor.
 */
export async function channelRows(
  db: Db,
  scope: Scope,
  range: { from: number; to: number },
): Promise<ChannelRow[]> {
  const channels = await db
    .selectFrom('channels')
    .select(['id', 'name'])
    .where('vendor_id', '=', scope.vendorId)
    .execute();
  if (channels.length === 0) return [];
  const counts = await db
    .selectFrom('bookings')
    .select((eb) => [
      'channel_id',
      eb.cast<number>(eb.fn.countAll(), 'integer').as('bookings'),
      eb.cast<number>(eb.fn.sum(reachedConfirmed), 'integer').as('confirmed'),
      eb.cast<number>(eb.fn.sum(revenueOf(scope.currency)), 'bigint').as('revenue_cents'),
    ])
    .where(
      'channel_id',
      'in',
      channels.map((c) => c.id),
    )
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to)
    .groupBy('channel_id')
    .execute();
  const names = new Map(channels.map((c) => [c.id, c.name]));
  return counts
    .map((r) => ({
      channel_id: Number(r.channel_id),
      name: names.get(Number(r.channel_id)) ?? '',
      bookings: Number(r.bookings),
      confirmed: Number(r.confirmed),
      revenue_cents: Number(r.revenue_cents),
    }))
    .sort((a, b) => b.bookings - a.bookings || byBytes(a.name, b.name) || a.channel_id - b.channel_id);
}
