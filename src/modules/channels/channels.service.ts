import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { deleteChannelAccount, insertChannelAccount } from '../accounts/index.ts';
import { channelKeyHash, isChannelKeyShaped, newChannelKey } from './channel-keys.ts';
import * as repo from './channels.repository.ts';

// A vendor's channels (decisions §24): create (the key shown once), list, read, rename, deactivate,
// rotate the key, delete. Creating and rotating are the owner's (the keys, decisions §25); the routes
// declare who may call what.

export interface ChannelsDeps {
  db: Kysely<Database>;
  clock: Clock;
}

const toApi = (row: repo.ChannelRow) => ({
  id: row.id,
  name: row.name,
  is_active: row.is_active === 1,
  created_at: formatDateTime(Number(row.created_at)),
  updated_at: formatDateTime(Number(row.updated_at)),
});
export type ChannelApi = ReturnType<typeof toApi>;

const channelNotFound = () => notFound('Channel not found.');
const vendorOf = (caller: AuthUser) => caller.vendorId ?? -1;

function nameOf(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (trimmed === '') throw invalidFields({ name: 'This field may not be blank.' });
  return trimmed;
}

/** POST channels/: the channel, its account and its key, which the answer shows this once. */
export async function createChannel(deps: ChannelsDeps, caller: AuthUser, input: { name: string }) {
  const now = deps.clock.now().getTime();
  const name = nameOf(input.name) as string;
  const apiKey = newChannelKey();
  const id = await inTransaction(deps.db, async (trx) =>
    repo.insertChannel(trx, {
      vendor_id: vendorOf(caller),
      account_id: await insertChannelAccount(trx, now),
      name,
      key_hash: channelKeyHash(apiKey),
      is_active: 1,
      created_at: now,
      updated_at: now,
    }),
  );
  return { ...(await getChannel(deps, caller, id)), api_key: apiKey };
}

export async function getChannel(deps: ChannelsDeps, caller: AuthUser, id: number) {
  const row = await repo.findVendorChannel(deps.db, vendorOf(caller), id);
  if (!row) throw channelNotFound();
  return toApi(row);
}

export async function listChannels(deps: ChannelsDeps, caller: AuthUser, page: Page) {
  const { rows, count } = await repo.listVendorChannels(deps.db, vendorOf(caller), page);
  return { count, results: rows.map(toApi) };
}

/** PATCH: a new name, or (de)activation; a deactivated channel's key is refused (403) until reactivated. */
export async function updateChannel(
  deps: ChannelsDeps,
  caller: AuthUser,
  id: number,
  input: { name?: string; is_active?: boolean },
) {
  const name = nameOf(input.name);
  if (!(await repo.findVendorChannel(deps.db, vendorOf(caller), id))) throw channelNotFound();
  await repo.updateChannel(deps.db, id, {
    ...(name === undefined ? {} : { name }),
    ...(input.is_active === undefined ? {} : { is_active: input.is_active ? 1 : 0 }),
    updated_at: deps.clock.now().getTime(),
  });
  return getChannel(deps, caller, id);
}

/** POST .../rotate-key/: a new key, shown this once; the old one stops working at once. */
export async function rotateChannelKey(deps: ChannelsDeps, caller: AuthUser, id: number) {
  if (!(await repo.findVendorChannel(deps.db, vendorOf(caller), id))) throw channelNotFound();
  const apiKey = newChannelKey();
  await repo.updateChannel(deps.db, id, {
    key_hash: channelKeyHash(apiKey),
    updated_at: deps.clock.now().getTime(),
  });
  return { ...(await getChannel(deps, caller, id)), api_key: apiKey };
}

/**
 * DELETE: a channel nothing was booked through goes, with its account. One with bookings stays (they name
 * it, and the analytics count it): 409 invalid_state, the vendor deactivates it instead (docs/api-choices.md).
 */
export async function deleteChannel(deps: ChannelsDeps, caller: AuthUser, id: number) {
  await inTransaction(deps.db, async (trx) => {
    const row = await repo.findVendorChannel(trx, vendorOf(caller), id, { forUpdate: true });
    if (!row) throw channelNotFound();
    if (await repo.channelHasBookings(trx, id))
      throw new AppError(
        'invalid_state',
        'Bookings were made through this channel: deactivate it (is_active false) instead of deleting it.',
      );
    await repo.deleteChannel(trx, id);
    await deleteChannelAccount(trx, row.account_id);
  });
}

/** The caller of an OCTO request: an active channel and the vendor it books for. */
export interface ChannelIdentity {
  id: number;
  vendorId: number;
  /** the account its bookings name as their customer_id (nobody: see migration 2026120101) */
  accountId: number;
  name: string;
}

/** The active channel a key belongs to, if any: looked up by the key's hash, never compared in clear. */
export async function findChannelByKey(db: Db, key: string): Promise<ChannelIdentity | undefined> {
  if (!isChannelKeyShaped(key)) return undefined;
  const row = await repo.findActiveChannelByHash(db, channelKeyHash(key));
  return row && { id: row.id, vendorId: row.vendor_id, accountId: row.account_id, name: row.name };
}
