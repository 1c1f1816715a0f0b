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
  type ResourceFacts,
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

const bufferMsOf = (listing: Pick<ListingRef, 'kind' | 'bufferMinutes'>) =>
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
  const facts = [...(await resourceFactsIn(db, ids, held.startsAt, held.endsAt, now)).values()];
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

/** What of a listing its resource demands come from. */
export type ResourceListing = Pick<ListingRef, 'id' | 'kind' | 'bufferMinutes' | 'resources'> & {
  extras?: ListingRef['extras'];
};

/** Every resource's quantity and its holds meeting [from, to), by id: one read for many windows. */
export async function resourceFactsIn(
  db: Db,
  ids: readonly number[],
  from: number,
  to: number,
  now: number,
): Promise<Map<number, ResourceFacts>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length === 0) return new Map();
  const [rows, holds] = await Promise.all([
    resourcesByIds(db, unique),
    resourceHoldsIn(db, unique, from, to, now),
  ]);
  return new Map(
    rows.map((r) => [r.id, { id: r.id, name: r.name, quantity: r.quantity, holds: holds.get(r.id) ?? [] }]),
  );
}

/**
 * The room (evaluateResources' maxUnits) the resources leave a request of the listing in the window,
 * choosing no extras, from facts read for a range holding its hold; Infinity when it uses none.
 */
export function resourceRoomIn(
  listing: ResourceListing,
  window: TimeWindow,
  facts: Map<number, ResourceFacts>,
) {
  const demands = resourceDemandOf(listing.resources, []);
  if (demands.length === 0) return Number.POSITIVE_INFINITY;
  const held = heldWindow(window, bufferMsOf(listing));
  const known = demands.flatMap((d) => facts.get(d.resourceId) ?? []);
  return evaluateResources(held, departureGroup(listing.id, window), demands, known, 1).maxUnits;
}

/** The room of each window for the listing (resourceRoomIn); undefined when it uses no resource. */
export async function resourceRoomsOf(
  db: Db,
  listing: ResourceListing,
  windows: readonly TimeWindow[],
  now: number,
): Promise<number[] | undefined> {
  if (listing.resources.length === 0 || windows.length === 0) return undefined;
  const buffer = bufferMsOf(listing);
  const from = Math.min(...windows.map((w) => w.startsAt));
  const to = Math.max(...windows.map((w) => w.endsAt)) + buffer;
  const facts = await resourceFactsIn(
    db,
    listing.resources.map((u) => u.resourceId),
    from,
    to,
    now,
  );
  return windows.map((w) => resourceRoomIn(listing, w, facts));
}
