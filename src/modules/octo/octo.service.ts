import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { findVendorById } from '../accounts/index.ts';
import type { BookingDeps } from '../booking/index.ts';
import type { ChannelIdentity } from '../channels/index.ts';
import { OctoError } from './octo.errors.ts';
import { toOctoSupplier } from './octo.mapping.ts';

// The OCTO supplier API's reads (decisions §24). Every function takes the authenticated channel and reads
// its vendor's data only.

export interface OctoDeps {
  db: Kysely<Database>;
  /** the platform's booking path, which a reserve and a channel's moves go through */
  booking: BookingDeps;
  clock: Clock;
  /** the OCTO API's base URL as resellers reach it ({PUBLIC_URL}/octo/v1) */
  endpoint: string;
}

/** GET supplier. */
export async function getSupplier(deps: OctoDeps, channel: ChannelIdentity) {
  const vendor = await findVendorById(deps.db, channel.vendorId);
  // a channel always has its vendor (a foreign key); missing means a broken database, not a caller's error
  if (!vendor)
    throw new OctoError({ error: 'INTERNAL_SERVER_ERROR', errorMessage: 'The supplier is missing' });
  return toOctoSupplier({ id: vendor.id, ...vendor.profile }, deps.endpoint);
}
