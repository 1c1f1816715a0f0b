import type { Static } from 'typebox';
import { localDateAt } from '../../lib/local-days.ts';
import { departuresWithVerdicts, MAX_RANGE_DAYS, windowStanding } from '../booking/index.ts';
import type { ListingRef } from '../catalog/index.ts';
import type { ChannelIdentity } from '../channels/index.ts';
import { badRequest, invalidAvailabilityId, invalidOptionId, invalidUnitId } from './octo.errors.ts';
import {
  availabilityIdOf,
  departureStanding,
  parseAvailabilityId,
  type Standing,
  toOctoAvailability,
  toOctoCalendarDay,
  windowStandingOf,
} from './octo.mapping.ts';
import { availabilityTypeOf, OPTION_ID, unitsOf } from './octo.products.ts';
import type { AvailabilityCalendarBody, AvailabilityCheckBody } from './octo.schemas.ts';
import { type OctoDeps, productOf } from './octo.service.ts';
import {
  datesSpanned,
  isCalendarDate,
  localDatesBetween,
  localDayBounds,
  openingDayOf,
} from './octo.time.ts';

// POST availability and POST availability/calendar (decisions §24): a START_TIME product's availabilities
// are its departures with their §19 verdicts (the departures service decides, nothing here); an
// OPENING_HOURS product has one per local date, the window of its hours, judged as the availability check
// judges a window (windowStanding).

type Range = { start: string; end: string };

/** The asked units, each a unit of the product (else INVALID_UNIT_ID); their sum, at least 1. */
function unitsAsked(listing: ListingRef, asked: { id: string; quantity: number }[] | undefined): number {
  const known = new Set(unitsOf(listing).map((u) => u.id));
  for (const unit of asked ?? []) if (!known.has(unit.id)) throw invalidUnitId(unit.id);
  return Math.max(
    1,
    (asked ?? []).reduce((sum, u) => sum + u.quantity, 0),
  );
}

/** A range of local dates, both real, the end not before the start, at most MAX_RANGE_DAYS long. */
function checkedRange(start: string | undefined, end: string | undefined): Range {
  if (start === undefined || end === undefined)
    throw badRequest('localDateStart and localDateEnd are required');
  if (!isCalendarDate(start) || !isCalendarDate(end))
    throw badRequest('localDateStart and localDateEnd must be real dates, YYYY-MM-DD');
  if (end < start) throw badRequest('localDateEnd must not be before localDateStart');
  if (datesSpanned(start, end) > MAX_RANGE_DAYS)
    throw badRequest(`The range may span at most ${MAX_RANGE_DAYS} days`);
  return { start, end };
}

/** The product, option and units a body asks about: each known, else OCTO's INVALID_*_ID naming it. */
async function askedProduct(
  deps: OctoDeps,
  channel: ChannelIdentity,
  body: { productId?: string; optionId?: string; units?: { id: string; quantity: number }[] },
) {
  const { listing, productId } = await productOf(deps, channel, body.productId ?? '');
  if ((body.optionId ?? '') !== OPTION_ID) throw invalidOptionId(body.optionId ?? '');
  return { listing, productId, units: unitsAsked(listing, body.units) };
}

/** An availability before it is shown: its id, local date, standing and (opening hours) its date's hours. */
interface Found {
  id: string;
  date: string;
  standing: Standing;
  hours: { from: string; to: string }[] | null;
}

/**
 * The availabilities of a product on the range's dates, in order: a START_TIME product's departures; an
 * OPENING_HOURS product's dates with opening hours (a date the vendor is closed all day has nothing to
 * sell, and OCTO wants an opening-hours availability to have hours: it is left out).
 */
async function availabilitiesIn(
  deps: OctoDeps,
  listing: ListingRef,
  productId: string,
  range: Range,
  now: number,
): Promise<Found[]> {
  const tz = listing.timeZone;
  if (availabilityTypeOf(listing) === 'START_TIME') {
    const from = localDayBounds(range.start, tz)?.from ?? 0;
    const to = localDayBounds(range.end, tz)?.to ?? 0;
    const window = { startsAt: from, endsAt: to };
    const { departures } = await departuresWithVerdicts(deps.db, listing, window, now);
    return departures.map(({ departure, verdict }) => ({
      id: availabilityIdOf(productId, { startsAt: departure.startsAt }, tz),
      date: departure.localDate,
      standing: departureStanding(departure, verdict),
      hours: null,
    }));
  }
  const out: Found[] = [];
  for (const date of localDatesBetween(range.start, range.end)) {
    const day = openingDayOf(date, listing.openingHours, tz);
    if (!day) continue;
    const window = { startsAt: day.startsAt, endsAt: day.endsAt };
    const judged = await windowStanding(deps.db, listing, window, {}, now);
    out.push({
      id: availabilityIdOf(productId, { date }, tz),
      date,
      standing: windowStandingOf(window, judged, listing),
      hours: day.openingHours,
    });
  }
  return out;
}

/**
 * POST availability/calendar: one entry per local date of the range that has availabilities, in order; a
 * date without any (no departure, or the vendor closed all day) is left out, as the availability check
 * leaves it out.
 */
export async function availabilityCalendar(
  deps: OctoDeps,
  channel: ChannelIdentity,
  body: Static<typeof AvailabilityCalendarBody>,
) {
  const { listing, productId, units } = await askedProduct(deps, channel, body);
  const range = checkedRange(body.localDateStart, body.localDateEnd);
  const found = await availabilitiesIn(deps, listing, productId, range, deps.clock.now().getTime());
  const byDate = new Map<string, Found[]>();
  for (const f of found) byDate.set(f.date, [...(byDate.get(f.date) ?? []), f]);
  return [...byDate].map(([date, ofDate]) =>
    toOctoCalendarDay(
      date,
      ofDate.map((f) => f.standing),
      ofDate[0].hours ?? [],
      units,
    ),
  );
}

/** POST availability: by a local date, a range of them, or availability ids (exactly one of the three). */
export async function availabilityCheck(
  deps: OctoDeps,
  channel: ChannelIdentity,
  body: Static<typeof AvailabilityCheckBody>,
) {
  const { listing, productId, units } = await askedProduct(deps, channel, body);
  const ways = [
    body.localDate !== undefined,
    body.localDateStart !== undefined || body.localDateEnd !== undefined,
    body.availabilityIds !== undefined,
  ].filter(Boolean).length;
  // OCTO's conformance validator sends dates and ids together and expects a 400
  if (ways !== 1)
    throw badRequest('exactly one of localDate, localDateStart/localDateEnd or availabilityIds is required');
  const now = deps.clock.now().getTime();
  const show = (f: Found) => toOctoAvailability(f.id, f.standing, listing.timeZone, f.hours, units);
  if (body.availabilityIds === undefined) {
    const range =
      body.localDate !== undefined
        ? checkedRange(body.localDate, body.localDate)
        : checkedRange(body.localDateStart, body.localDateEnd);
    return (await availabilitiesIn(deps, listing, productId, range, now)).map(show);
  }
  const shown = [];
  for (const id of body.availabilityIds) {
    const parsed = parseAvailabilityId(id);
    if (!parsed || parsed.productId !== productId) throw invalidAvailabilityId(id);
    const date = parsed.at.date ?? localDateAt(parsed.at.startsAt, listing.timeZone);
    const onDate = await availabilitiesIn(deps, listing, productId, { start: date, end: date }, now);
    const match = onDate.find((f) => f.id === id);
    if (!match) throw invalidAvailabilityId(id);
    shown.push(show(match));
  }
  return shown;
}
