import type { ListingKind } from '../../db/database.ts';
import { invalidFields } from '../../http/errors.ts';
import { parseDateTime } from '../../lib/datetime.ts';
import type { TimeWindow } from './availability.ts';

// Input rules shared by slots, the availability check and booking requests.

export interface ListingIdInput {
  equipment_item_id?: number | null;
  adventure_offering_id?: number | null;
}

export interface ListingTarget {
  kind: ListingKind;
  id: number;
}

const ONE_LISTING = 'Give exactly one of equipment_item_id and adventure_offering_id.';

/** Exactly one of the two listing ids (400 naming both fields otherwise). */
export function listingTarget(input: ListingIdInput): ListingTarget {
  const equipment = input.equipment_item_id ?? null;
  const adventure = input.adventure_offering_id ?? null;
  if ((equipment === null) === (adventure === null))
    throw invalidFields({ equipment_item_id: ONE_LISTING, adventure_offering_id: ONE_LISTING }, ONE_LISTING);
  return equipment !== null ? { kind: 'equipment', id: equipment } : { kind: 'adventure', id: adventure! };
}

/** At most one of the two listing ids: a filter. */
export function optionalListingTarget(input: ListingIdInput): ListingTarget | undefined {
  if ((input.equipment_item_id ?? null) === null && (input.adventure_offering_id ?? null) === null)
    return undefined;
  return listingTarget(input);
}

/**
 * An ISO 8601 datetime to epoch ms, or null. In a query string an unencoded "+" of an offset arrives as a
 * space ("...T10:00:00 02:00"); that is read as the "+" it was meant to be.
 */
function readInstant(value: string): number | null {
  const ms = parseDateTime(value);
  if (ms !== null) return ms;
  const text = value.trim();
  return /\d \d{2}(:?\d{2})?$/.test(text) ? parseDateTime(text.replace(/ (\d{2}(:?\d{2})?)$/, '+$1')) : null;
}

const BAD_DATETIME = 'Enter a valid ISO 8601 datetime.';

/** One ISO datetime to epoch ms, or a 400 on `field`. */
export function parseInstant(field: string, value: string): number {
  const ms = readInstant(value);
  if (ms === null) throw invalidFields({ [field]: BAD_DATETIME });
  return ms;
}

/**
 * A window as a booking request or availability check gives it: `endsAt` null when ends_at was left out,
 * which only an adventure may do (its duration then ends the window: windowOfListing).
 */
export interface AskedWindow {
  startsAt: number;
  endsAt: number | null;
}

const MINUTE_MS = 60_000;
const ENDS_AT_REQUIRED = 'This field is required for equipment items.';

/** starts_at and the optional ends_at of a request for a listing of `kind`. */
export function parseAskedWindow(
  kind: ListingKind,
  startsAt: string,
  endsAt: string | undefined,
): AskedWindow {
  if (endsAt !== undefined) return parseWindow(startsAt, endsAt);
  const starts = readInstant(startsAt);
  const errors: Record<string, string> = {};
  if (starts === null) errors.starts_at = BAD_DATETIME;
  if (kind === 'equipment') errors.ends_at = ENDS_AT_REQUIRED;
  if (starts === null || kind === 'equipment') throw invalidFields(errors);
  return { startsAt: starts, endsAt: null };
}

/** The asked window completed for its listing: without ends_at, starts_at + the adventure's duration. */
export function windowOfListing(asked: AskedWindow, durationMinutes: number | null): TimeWindow {
  if (asked.endsAt !== null) return { startsAt: asked.startsAt, endsAt: asked.endsAt };
  if (durationMinutes === null)
    throw invalidFields({ ends_at: 'This adventure has no duration: give ends_at.' });
  return { startsAt: asked.startsAt, endsAt: asked.startsAt + durationMinutes * MINUTE_MS };
}

/** A half-open window from two ISO datetimes; the end must be after the start (400 otherwise). */
export function parseWindow(
  startsAt: string,
  endsAt: string,
  fields: [string, string] = ['starts_at', 'ends_at'],
): TimeWindow {
  const starts = readInstant(startsAt);
  const ends = readInstant(endsAt);
  if (starts === null || ends === null) {
    const errors: Record<string, string> = {};
    if (starts === null) errors[fields[0]] = BAD_DATETIME;
    if (ends === null) errors[fields[1]] = BAD_DATETIME;
    throw invalidFields(errors);
  }
  if (ends <= starts) throw invalidFields({ [fields[1]]: `${fields[1]} must be after ${fields[0]}.` });
  return { startsAt: starts, endsAt: ends };
}
