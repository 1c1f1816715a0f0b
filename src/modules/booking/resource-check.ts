import type { Insertable } from 'kysely';
import type { BookingResourcesTable, Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { MINUTE_MS } from '../../lib/datetime.ts';
import type { ListingRef } from '../catalog/index.ts';
import { heldWindow, type TimeWindow } from './availability.ts';
import {
  departureGroup,
  evaluateResources,
  type ResourceDemand,
  type ResourceVerdict,
  resourceDemandOf,
} from './resource-use.ts';
import { lockResources, resourceHoldsIn, resourcesByIds } from './resources.repository.ts';

// Rule 7 of availability.ts for one request, quote or check: the listing's uses and the extras chosen,
// the resources' quantities and holds read (under their locks for a request), and the verdict of
// resource-use.ts. The request then stores what its booking takes (bookingResourceRows).

/** What a request or check asks of resources. */
export interface ResourceAsk {
  extras?: Readonly<Record<string, number>> | null;
  /** the request's units or participants */
  units: number;
}

export interface ResourceCheck {
  demands: ResourceDemand[];
  verdict: ResourceVerdict;
  held: TimeWindow;
  group: string;
}

const bufferMsOf = (listing: ListingRef) =>
  listing.kind === 'equipment' ? listing.bufferMinutes * MINUTE_MS : 0;

/** The listing's demands for a request choosing `extras` (ascending resource id). */
export function demandsOf(listing: ListingRef, extras: ResourceAsk['extras']): ResourceDemand[] {
  const chosen = listing.extras.map((e) => ({ resourceId: e.resourceId, quantity: extras?.[e.code] ?? 0 }));
  return resourceDemandOf(listing.resources, chosen);
}

/**
 * Rule 7 for a request of the listing over `window`; undefined when it uses no resource. With `lock` the
 * resources' locks are taken first, in ascending id, after the listing's (the global lock order).
 */
export async function checkResources(
  db: Db,
  listing: ListingRef,
  window: TimeWindow,
  ask: ResourceAsk,
  now: number,
  lock: boolean,
): Promise<ResourceCheck | undefined> {
  const demands = demandsOf(listing, ask.extras);
  if (demands.length === 0) return undefined;
  const ids = demands.map((d) => d.resourceId);
  if (lock) await lockResources(db, ids);
  const held = heldWindow(window, bufferMsOf(listing));
  const [rows, holds] = await Promise.all([
    resourcesByIds(db, ids),
    resourceHoldsIn(db, ids, held.startsAt, held.endsAt, now),
  ]);
  const facts = rows.map((r) => ({
    id: r.id,
    name: r.name,
    quantity: r.quantity,
    holds: holds.get(r.id) ?? [],
  }));
  const group = departureGroup(listing.id, window);
  return { demands, held, group, verdict: evaluateResources(held, group, demands, facts, ask.units) };
}

/** The 409 of a request the resources refuse, naming the resource as customers know it. */
export function resourceConflict(check: ResourceCheck): AppError | undefined {
  const short = check.verdict.short;
  if (!short) return undefined;
  return new AppError(
    'booking_conflict',
    short.free === 0
      ? `No ${short.name} is free for that time: all ${short.quantity} are in use.`
      : `Not enough ${short.name} for that time: only ${short.free} of ${short.quantity} are free.`,
  );
}

/** What the booking takes of each resource, as stored with it. */
export function bookingResourceRows(
  check: ResourceCheck,
  bookingId: number,
  listingId: number,
  window: TimeWindow,
  units: number,
): Insertable<BookingResourcesTable>[] {
  const rows: Insertable<BookingResourcesTable>[] = [];
  const base = {
    booking_id: bookingId,
    listing_id: listingId,
    starts_at: window.startsAt,
    ends_at: window.endsAt,
    held_until: check.held.endsAt,
  };
  for (const d of check.demands) {
    const amount = d.fixed + d.perUnit * units;
    if (amount > 0) rows.push({ ...base, resource_id: d.resourceId, per_departure: 0, amount });
    if (d.departure > 0)
      rows.push({ ...base, resource_id: d.resourceId, per_departure: 1, amount: d.departure });
  }
  return rows;
}

/**
 * The room (evaluateResources' maxUnits) the resources leave a request of the listing in each window,
 * choosing no extras; undefined when the listing uses no resource. One read for all the windows.
 */
export async function resourceRoomsOf(
  db: Db,
  listing: ListingRef,
  windows: readonly TimeWindow[],
  now: number,
): Promise<number[] | undefined> {
  const demands = demandsOf(listing, null);
  if (demands.length === 0 || windows.length === 0) return undefined;
  const ids = demands.map((d) => d.resourceId);
  const held = windows.map((w) => heldWindow(w, bufferMsOf(listing)));
  const from = Math.min(...held.map((h) => h.startsAt));
  const to = Math.max(...held.map((h) => h.endsAt));
  const [rows, holds] = await Promise.all([resourcesByIds(db, ids), resourceHoldsIn(db, ids, from, to, now)]);
  const facts = rows.map((r) => ({
    id: r.id,
    name: r.name,
    quantity: r.quantity,
    holds: holds.get(r.id) ?? [],
  }));
  return windows.map(
    (w, i) => evaluateResources(held[i], departureGroup(listing.id, w), demands, facts, 1).maxUnits,
  );
}
