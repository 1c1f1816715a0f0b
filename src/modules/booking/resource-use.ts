import type { ResourceUse } from '../../lib/resource-uses.ts';
import { heldAt, overlaps, peakUnits, type TimeWindow } from './availability.ts';

// Shared resources (decisions §22), rule 7 of availability.ts: at no instant may the holds of all
// listings take more of a resource than its quantity. What one booking takes is fixed when it is
// requested (resourceDemandOf) and stored with its hold (the window plus the listing's buffer then); a
// `per departure` use is taken once by all the holding bookings of one listing with the same window,
// which resourceHolds merges into one hold before heldAt counts. Everything here is pure: the request
// path, the quote, the availability check, the departures and the usage endpoint all count through it.

/** What one booking takes of one resource while it holds (a row of booking_resources). */
export interface ResourceHold extends TimeWindow {
  amount: number;
  /** per departure: the listing and window whose holding bookings take `amount` once; else null */
  group: string | null;
}

/** The group key of a per-departure use. */
export const departureGroup = (listingId: number, window: TimeWindow) =>
  `${listingId}:${window.startsAt}:${window.endsAt}`;

/**
 * Holds as heldAt counts them: a departure group's holds merged into one taking the largest amount of
 * them (they share one window, so they are one hold).
 */
export function mergedHolds(holds: readonly ResourceHold[]): (TimeWindow & { units: number })[] {
  const plain: (TimeWindow & { units: number })[] = [];
  const groups = new Map<string, TimeWindow & { units: number }>();
  for (const h of holds) {
    if (h.group === null) {
      plain.push({ startsAt: h.startsAt, endsAt: h.endsAt, units: h.amount });
      continue;
    }
    const seen = groups.get(h.group);
    if (!seen) groups.set(h.group, { startsAt: h.startsAt, endsAt: h.endsAt, units: h.amount });
    else {
      seen.units = Math.max(seen.units, h.amount);
      seen.endsAt = Math.max(seen.endsAt, h.endsAt);
    }
  }
  return [...plain, ...groups.values()];
}

/** A resource's use at one instant. */
export const resourceUsedAt = (instant: number, holds: readonly ResourceHold[]) =>
  heldAt(instant, mergedHolds(holds));

/** A resource's highest use at one instant of the window. */
export const resourcePeak = (window: TimeWindow, holds: readonly ResourceHold[]) =>
  peakUnits(window, mergedHolds(holds));

export interface UsageSegment extends TimeWindow {
  used: number;
}

/**
 * The use over [from, to) as consecutive constant pieces covering it, neighbours always different: the
 * use only changes where a hold starts or ends.
 */
export function usageSegments(from: number, to: number, holds: readonly ResourceHold[]): UsageSegment[] {
  const merged = mergedHolds(holds).filter((h) => overlaps(h, { startsAt: from, endsAt: to }));
  const cuts = new Set<number>([from, to]);
  for (const h of merged) {
    if (h.startsAt > from && h.startsAt < to) cuts.add(h.startsAt);
    if (h.endsAt > from && h.endsAt < to) cuts.add(h.endsAt);
  }
  const instants = [...cuts].sort((a, b) => a - b);
  const segments: UsageSegment[] = [];
  for (let i = 0; i + 1 < instants.length; i++) {
    const used = heldAt(instants[i], merged);
    const last = segments.at(-1);
    if (last && last.used === used) last.endsAt = instants[i + 1];
    else segments.push({ startsAt: instants[i], endsAt: instants[i + 1], used });
  }
  return segments;
}

/** What a request takes of one resource: a fixed part, a part per unit or participant, and a departure's part. */
export interface ResourceDemand {
  resourceId: number;
  fixed: number;
  perUnit: number;
  departure: number;
}

/**
 * The request's demand per resource (ascending id: the order its locks are taken in), from the listing's
 * uses and the extras chosen (each chosen unit of an extra with a resource takes one of it).
 */
export function resourceDemandOf(
  uses: readonly ResourceUse[],
  extras: readonly { resourceId: number | null; quantity: number }[],
): ResourceDemand[] {
  const byId = new Map<number, ResourceDemand>();
  const of = (resourceId: number) => {
    let d = byId.get(resourceId);
    if (!d) {
      d = { resourceId, fixed: 0, perUnit: 0, departure: 0 };
      byId.set(resourceId, d);
    }
    return d;
  };
  for (const use of uses) {
    const d = of(use.resourceId);
    if (use.per === 'booking') d.fixed += use.amount;
    else if (use.per === 'departure') d.departure += use.amount;
    else d.perUnit += use.amount;
  }
  for (const e of extras) if (e.resourceId !== null && e.quantity > 0) of(e.resourceId).fixed += e.quantity;
  return [...byId.values()].sort((a, b) => a.resourceId - b.resourceId);
}

/** A resource as a request is checked against it: its quantity and the holds meeting the request's hold. */
export interface ResourceFacts {
  id: number;
  name: string;
  quantity: number;
  holds: readonly ResourceHold[];
}

export interface ResourceVerdict {
  /** the request of `units` fits every resource */
  fits: boolean;
  /** the first resource (by id) it does not fit */
  short: { id: number; name: string; quantity: number; free: number } | null;
  /** the most units or participants the resources leave room for (Infinity when no use counts units) */
  maxUnits: number;
}

/**
 * Rule 7 for a request holding `held` (its window plus buffer; its departure group `group` when a use is
 * per departure) of `units` units or participants: the peak of the other holds plus what it adds (its
 * departure part only beyond what its group already takes) at most each quantity.
 */
export function evaluateResources(
  held: TimeWindow,
  group: string,
  demands: readonly ResourceDemand[],
  facts: readonly ResourceFacts[],
  units: number,
): ResourceVerdict {
  let short: ResourceVerdict['short'] = null;
  let maxUnits = Number.POSITIVE_INFINITY;
  for (const d of demands) {
    const f = facts.find((r) => r.id === d.resourceId);
    if (!f) continue;
    const holds = f.holds.filter((h) => overlaps(h, held));
    const groupTaken = Math.max(0, ...holds.filter((h) => h.group === group).map((h) => h.amount));
    const free = f.quantity - resourcePeak(held, holds) - Math.max(0, d.departure - groupTaken) - d.fixed;
    const room = d.perUnit === 0 ? (free >= 0 ? Number.POSITIVE_INFINITY : 0) : Math.floor(free / d.perUnit);
    maxUnits = Math.min(maxUnits, Math.max(0, room));
    if (!short && free < d.perUnit * units)
      short = { id: f.id, name: f.name, quantity: f.quantity, free: Math.max(0, free + d.fixed) };
  }
  return { fits: short === null, short, maxUnits };
}
