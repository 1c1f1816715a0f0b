import type { BookingStatus, ListingKind } from '../../db/database.ts';
import { ACTIVE_STATUSES, statusAt } from './booking.state-machine.ts';

// The day's manifest (decisions §23), grouped: pure, so its rule is tested on its own. Adventure bookings
// starting on the local day go to their departure (listing and starts_at); equipment bookings starting on
// it are pick-ups and those ending on it returns (one booking may be both). Every list keeps the order it
// is given (starts_at, then listing title), and departures come in the order of their first booking.

export interface ManifestEntry {
  kind: ListingKind;
  listingId: number;
  startsAt: number;
  endsAt: number;
  /** participants (adventures); null for equipment */
  participants: number | null;
}

export interface DepartureGroup<E> {
  listingId: number;
  startsAt: number;
  endsAt: number;
  participants: number;
  entries: E[];
}

export interface ManifestGroups<E> {
  departures: DepartureGroup<E>[];
  pickups: E[];
  returns: E[];
}

/**
 * Whether a booking is on the manifest of the local day [from, to) at `now`: holding then (statusAt), and
 * starting in the day, or, for equipment, ending in it (a return). Its SQL twin is manifestViews
 * (booking.repository.ts), which reads only such bookings.
 */
export function onManifest(
  booking: {
    status: BookingStatus;
    expires_at: number | null;
    listing_kind: ListingKind;
    starts_at: number;
    ends_at: number;
  },
  day: { from: number; to: number },
  now: number,
): boolean {
  if (!(ACTIVE_STATUSES as readonly BookingStatus[]).includes(statusAt(booking, now))) return false;
  const inDay = (t: number) => t >= day.from && t < day.to;
  return inDay(booking.starts_at) || (booking.listing_kind === 'equipment' && inDay(booking.ends_at));
}

/** Groups `entries` (ordered by starts_at, then listing title) of the local day [from, to). */
export function groupManifest<E extends ManifestEntry>(
  entries: readonly E[],
  day: { from: number; to: number },
): ManifestGroups<E> {
  const inDay = (t: number) => t >= day.from && t < day.to;
  const departures = new Map<string, DepartureGroup<E>>();
  const pickups: E[] = [];
  const returns: E[] = [];
  for (const entry of entries) {
    if (entry.kind === 'equipment') {
      if (inDay(entry.startsAt)) pickups.push(entry);
      if (inDay(entry.endsAt)) returns.push(entry);
      continue;
    }
    if (!inDay(entry.startsAt)) continue;
    const key = `${entry.listingId}@${entry.startsAt}`;
    let group = departures.get(key);
    if (!group) {
      group = {
        listingId: entry.listingId,
        startsAt: entry.startsAt,
        endsAt: entry.endsAt,
        participants: 0,
        entries: [],
      };
      departures.set(key, group);
    }
    group.participants += entry.participants ?? 1;
    group.endsAt = Math.max(group.endsAt, entry.endsAt);
    group.entries.push(entry);
  }
  return { departures: [...departures.values()], pickups, returns };
}
