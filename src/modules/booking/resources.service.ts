import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { departureRange } from './departures.service.ts';
import { resourcePeak, usageSegments } from './resource-use.ts';
import * as repo from './resources.repository.ts';

// A vendor's shared resources (decisions §22): CRUD and the usage over a range. A quantity edit takes the
// resource's lock (PostgreSQL: its row FOR UPDATE; SQLite: the write lock) as requests do, so no request
// slips in between the check against the holds and the write.

export interface ResourcesDeps {
  db: Kysely<Database>;
  clock: Clock;
}

const toApi = (row: repo.ResourceRow) => ({
  id: row.id,
  name: row.name,
  quantity: row.quantity,
  created_at: formatDateTime(Number(row.created_at)),
  updated_at: formatDateTime(Number(row.updated_at)),
});
export type ResourceApi = ReturnType<typeof toApi>;

const resourceNotFound = () => notFound('Resource not found.');
const vendorOf = (caller: AuthUser) => caller.vendorId ?? -1;

export interface ResourceInput {
  name?: string;
  quantity?: number;
}

function nameOf(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (trimmed === '') throw invalidFields({ name: 'This field may not be blank.' });
  return trimmed;
}

export async function createResource(deps: ResourcesDeps, caller: AuthUser, input: Required<ResourceInput>) {
  const now = deps.clock.now().getTime();
  const id = await repo.insertResource(deps.db, {
    vendor_id: vendorOf(caller),
    name: nameOf(input.name) as string,
    quantity: input.quantity,
    created_at: now,
    updated_at: now,
  });
  return getResource(deps, caller, id);
}

export async function getResource(deps: ResourcesDeps, caller: AuthUser, id: number) {
  const row = await repo.findVendorResource(deps.db, vendorOf(caller), id);
  if (!row) throw resourceNotFound();
  return toApi(row);
}

export async function listResources(deps: ResourcesDeps, caller: AuthUser, page: Page) {
  const { rows, count } = await repo.listVendorResources(deps.db, vendorOf(caller), page);
  return { count, results: rows.map(toApi) };
}

/**
 * A PATCH. Lowering the quantity below the peak use of the holds from now on is a 409: it is checked
 * under the resource's lock, the lock every request using it takes.
 */
export async function updateResource(
  deps: ResourcesDeps,
  caller: AuthUser,
  id: number,
  input: ResourceInput,
) {
  const now = deps.clock.now().getTime();
  const name = nameOf(input.name);
  await inTransaction(deps.db, async (trx) => {
    if (!(await repo.findVendorResource(trx, vendorOf(caller), id))) throw resourceNotFound();
    await repo.lockResources(trx, [id]);
    if (input.quantity !== undefined) {
      const holds = await repo.resourceHoldsFrom(trx, id, now);
      const peak = resourcePeak({ startsAt: now, endsAt: Number.MAX_SAFE_INTEGER }, holds);
      if (peak > input.quantity)
        throw new AppError(
          'booking_conflict',
          `quantity cannot be ${input.quantity}: current and future bookings use ${peak} at once.`,
        );
    }
    await repo.updateResource(trx, id, {
      ...(name === undefined ? {} : { name }),
      ...(input.quantity === undefined ? {} : { quantity: input.quantity }),
      updated_at: now,
    });
  });
  return getResource(deps, caller, id);
}

/** A DELETE, refused (409 invalid_state) while a listing or one of its extras uses the resource. */
export async function deleteResource(deps: ResourcesDeps, caller: AuthUser, id: number) {
  await inTransaction(deps.db, async (trx) => {
    if (!(await repo.findVendorResource(trx, vendorOf(caller), id))) throw resourceNotFound();
    await repo.lockResources(trx, [id]);
    if (await repo.isResourceUsed(trx, id))
      throw new AppError(
        'invalid_state',
        'A listing or an extra uses this resource: remove it from them before deleting it.',
      );
    await repo.deleteBookingResourcesOf(trx, id);
    await repo.deleteResource(trx, id);
  });
}

/** GET .../resources/{id}/usage/: the use over [from, to) as consecutive constant segments. */
export async function resourceUsage(
  deps: ResourcesDeps,
  caller: AuthUser,
  id: number,
  query: { from?: string; to?: string },
) {
  const now = deps.clock.now().getTime();
  const range = departureRange(query, now);
  return inReadSnapshot(deps.db, async (db) => {
    const row = await repo.findVendorResource(db, vendorOf(caller), id);
    if (!row) throw resourceNotFound();
    const holds = (await repo.resourceHoldsIn(db, [id], range.startsAt, range.endsAt, now)).get(id) ?? [];
    return {
      resource_id: id,
      quantity: row.quantity,
      from: formatDateTime(range.startsAt),
      to: formatDateTime(range.endsAt),
      segments: usageSegments(range.startsAt, range.endsAt, holds).map((s) => ({
        starts_at: formatDateTime(s.startsAt),
        ends_at: formatDateTime(s.endsAt),
        used: s.used,
      })),
    };
  });
}
